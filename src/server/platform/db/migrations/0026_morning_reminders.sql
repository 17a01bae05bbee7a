CREATE TABLE "morning_mail_runs" (
	"firm_id" uuid NOT NULL,
	"local_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "morning_mail_runs_pkey" PRIMARY KEY("firm_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"due_soon_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_pkey" PRIMARY KEY("firm_id","user_id"),
	CONSTRAINT "notification_preferences_due_soon_days_check" CHECK ("notification_preferences"."due_soon_days" between 1 and 14)
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "morning_mail_runs" ADD CONSTRAINT "morning_mail_runs_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('security_notice', 'due_soon'));--> statement-breakpoint
ALTER TABLE "notification_preferences" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "notification_preferences"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "morning_mail_runs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "morning_mail_runs"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
-- The firms whose morning has come at `due_at` (their local time at or past `from_hour`) and whose
-- reminders of that local date are not yet queued: the morning sweep then works in each firm, so
-- the app role never reads across firms (decision 0050).
CREATE FUNCTION firms_due_for_morning_mail(due_at timestamptz, from_hour integer)
RETURNS TABLE (firm_id uuid, local_date date, time_zone text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT f.id, (due_at AT TIME ZONE f.time_zone)::date, f.time_zone
  FROM firms f
  WHERE extract(hour FROM due_at AT TIME ZONE f.time_zone) >= from_hour
    AND NOT EXISTS (
      SELECT 1 FROM morning_mail_runs r
      WHERE r.firm_id = f.id AND r.local_date = (due_at AT TIME ZONE f.time_zone)::date
    )
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION firms_due_for_morning_mail(timestamptz, integer) FROM PUBLIC;
