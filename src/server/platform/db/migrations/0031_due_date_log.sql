CREATE TABLE "task_due_date_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"firm_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"field" text NOT NULL,
	"from_on" date,
	"to_on" date,
	"reason" text NOT NULL,
	"rule_id" text NOT NULL,
	"due_dates_version" text NOT NULL,
	"note" text,
	"source_url" text,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_due_date_changes_field_check" CHECK ("task_due_date_changes"."field" in ('statutory', 'due', 'extended')),
	CONSTRAINT "task_due_date_changes_reason_check" CHECK ("task_due_date_changes"."reason" in ('RULE', 'EXTENSION', 'DISASTER_RELIEF', 'CALENDAR_VERSION', 'MANUAL'))
);
--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_schedule_due_date_key";--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD COLUMN "rule_period_end" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "due_date_rule" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "period_start" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "period_end" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "statutory_due_on" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "due_on" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "clear_by_on" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "extended_due_on" date;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "extension_filed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "extension_filed_by" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "due_explanation" jsonb;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "due_dates_version" text;--> statement-breakpoint
ALTER TABLE "task_due_date_changes" ADD CONSTRAINT "task_due_date_changes_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_due_date_changes" ADD CONSTRAINT "task_due_date_changes_changed_by_fk" FOREIGN KEY ("firm_id","changed_by") REFERENCES "public"."users"("firm_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_due_date_changes_firm_id_task_id_idx" ON "task_due_date_changes" USING btree ("firm_id","task_id","changed_at","id");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_extension_filed_by_fk" FOREIGN KEY ("firm_id","extension_filed_by") REFERENCES "public"."users"("firm_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_schedule_due_date_key" ON "tasks" USING btree ("firm_id","schedule_id","due_date") WHERE "tasks"."due_date_rule" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_schedule_period_end_key" ON "tasks" USING btree ("firm_id","schedule_id","period_end") WHERE "tasks"."due_date_rule" is not null;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_due_date_rule_check" CHECK (case when "tasks"."due_date_rule" is null
      then "tasks"."period_start" is null and "tasks"."period_end" is null and "tasks"."statutory_due_on" is null and "tasks"."due_on" is null
        and "tasks"."clear_by_on" is null and "tasks"."extended_due_on" is null and "tasks"."extension_filed_at" is null
        and "tasks"."due_explanation" is null and "tasks"."due_dates_version" is null
      else "tasks"."period_start" is not null and "tasks"."period_end" is not null and "tasks"."statutory_due_on" is not null
        and "tasks"."due_on" is not null and "tasks"."due_explanation" is not null and "tasks"."due_dates_version" is not null
        and "tasks"."due_date" is not null end);--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_extension_check" CHECK (("tasks"."extension_filed_at" is null) = ("tasks"."extended_due_on" is null) and ("tasks"."extension_filed_by" is null or "tasks"."extension_filed_at" is not null));--> statement-breakpoint
ALTER TABLE "task_due_date_changes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "task_due_date_changes"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
-- The due-date log is evidence, like the audit trail: the application adds to it, never changes or removes it.
CREATE FUNCTION task_due_date_changes_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'task_due_date_changes is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER task_due_date_changes_append_only
  BEFORE UPDATE OR DELETE ON "task_due_date_changes"
  FOR EACH ROW EXECUTE FUNCTION task_due_date_changes_refuse_change();
--> statement-breakpoint
CREATE TRIGGER task_due_date_changes_no_truncate
  BEFORE TRUNCATE ON "task_due_date_changes"
  FOR EACH STATEMENT EXECUTE FUNCTION task_due_date_changes_refuse_change();
