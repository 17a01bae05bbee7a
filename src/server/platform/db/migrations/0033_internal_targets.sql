ALTER TABLE "firms" ADD COLUMN "internal_target_days" smallint;--> statement-breakpoint
ALTER TABLE "firms" ADD COLUMN "closed_days" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "target_on" date;--> statement-breakpoint
ALTER TABLE "firms" ADD CONSTRAINT "firms_internal_target_days_check" CHECK ("firms"."internal_target_days" between 1 and 60);--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_target_on_check" CHECK ("tasks"."target_on" is null or "tasks"."due_date_rule" is not null);--> statement-breakpoint
-- The firm's settings' version moves with its internal target and closed days too (If-Match).
DROP TRIGGER firms_row_version ON "firms";--> statement-breakpoint
CREATE TRIGGER firms_row_version
  BEFORE UPDATE OF "name", "time_zone", "internal_target_days", "closed_days" ON "firms"
  FOR EACH ROW WHEN ((OLD."name", OLD."time_zone", OLD."internal_target_days", OLD."closed_days")
    IS DISTINCT FROM (NEW."name", NEW."time_zone", NEW."internal_target_days", NEW."closed_days"))
  EXECUTE FUNCTION row_version_bump();
