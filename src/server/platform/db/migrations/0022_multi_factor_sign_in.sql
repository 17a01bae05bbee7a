CREATE TABLE "recovery_codes" (
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "recovery_codes_pkey" PRIMARY KEY("firm_id","user_id","code_hash")
);
--> statement-breakpoint
CREATE TABLE "user_factors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"totp_secret" text,
	"totp_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "user_factors_kind_check" CHECK ("user_factors"."kind" in ('totp', 'passkey')),
	CONSTRAINT "user_factors_totp_check" CHECK (("user_factors"."kind" = 'totp') = ("user_factors"."totp_secret" is not null))
);
--> statement-breakpoint
ALTER TABLE "firms" ADD COLUMN "mfa_policy" text DEFAULT 'required' NOT NULL;--> statement-breakpoint
ALTER TABLE "firms" ADD COLUMN "mfa_required_from" timestamp with time zone DEFAULT now() + make_interval(days => 7);--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "stage" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "verified_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_factors" ADD CONSTRAINT "user_factors_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_factors" ADD CONSTRAINT "user_factors_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_factors_firm_id_user_id_idx" ON "user_factors" USING btree ("firm_id","user_id");--> statement-breakpoint
ALTER TABLE "firms" ADD CONSTRAINT "firms_mfa_policy_check" CHECK ("firms"."mfa_policy" in ('optional', 'required'));--> statement-breakpoint
ALTER TABLE "firms" ADD CONSTRAINT "firms_mfa_required_from_check" CHECK (("firms"."mfa_policy" = 'required') = ("firms"."mfa_required_from" is not null));--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_stage_check" CHECK ("sessions"."stage" in ('active', 'second_factor', 'enrol'));--> statement-breakpoint
ALTER TABLE "user_factors" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "user_factors"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "recovery_codes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "recovery_codes"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
