CREATE TABLE "billing_setups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"plan" text NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"stripe_subscription_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"firm_id" uuid,
	CONSTRAINT "billing_setups_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "billing_setups_stripe_subscription_id_unique" UNIQUE("stripe_subscription_id"),
	CONSTRAINT "billing_setups_plan_check" CHECK ("billing_setups"."plan" in ('starter', 'professional', 'enterprise'))
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"stripe_subscription_id" text,
	"stripe_created_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"firm_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_events_outcome_check" CHECK ("stripe_events"."outcome" in ('applied', 'ignored', 'stale'))
);
--> statement-breakpoint
ALTER TABLE "billing_setups" ADD CONSTRAINT "billing_setups_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_setups_expires_at_idx" ON "billing_setups" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stripe_events_subscription_created_idx" ON "stripe_events" USING btree ("stripe_subscription_id","stripe_created_at");