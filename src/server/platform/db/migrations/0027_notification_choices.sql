CREATE TABLE "user_devices" (
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"user_agent" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_devices_pkey" PRIMARY KEY("firm_id","user_id","device_hash")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "overdue_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "digest" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('security_notice', 'due_soon', 'overdue', 'digest'));--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_digest_check" CHECK ("notification_preferences"."digest" in ('off', 'daily', 'weekly'));--> statement-breakpoint
ALTER TABLE "user_devices" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "user_devices"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
