CREATE TABLE "disaster_reliefs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"firm_id" uuid NOT NULL,
	"name" text NOT NULL,
	"jurisdiction" text DEFAULT 'US' NOT NULL,
	"states" text[] NOT NULL,
	"window_start" date NOT NULL,
	"window_end" date NOT NULL,
	"new_due_on" date NOT NULL,
	"source_url" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disaster_reliefs_jurisdiction_check" CHECK ("disaster_reliefs"."jurisdiction" = 'US'),
	CONSTRAINT "disaster_reliefs_window_check" CHECK ("disaster_reliefs"."window_start" <= "disaster_reliefs"."window_end" and "disaster_reliefs"."window_end" < "disaster_reliefs"."new_due_on"),
	CONSTRAINT "disaster_reliefs_states_check" CHECK (cardinality("disaster_reliefs"."states") > 0)
);
--> statement-breakpoint
ALTER TABLE "task_due_date_changes" DROP CONSTRAINT "task_due_date_changes_field_check";--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "due_override" text;--> statement-breakpoint
ALTER TABLE "disaster_reliefs" ADD CONSTRAINT "disaster_reliefs_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disaster_reliefs" ADD CONSTRAINT "disaster_reliefs_created_by_fk" FOREIGN KEY ("firm_id","created_by") REFERENCES "public"."users"("firm_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disaster_reliefs_firm_id_created_at_idx" ON "disaster_reliefs" USING btree ("firm_id","created_at");--> statement-breakpoint
CREATE INDEX "tasks_open_rule_versions_idx" ON "tasks" USING btree ("firm_id","due_dates_version","due_date_rule") WHERE "tasks"."status" = 'pending' and "tasks"."due_date_rule" is not null;--> statement-breakpoint
ALTER TABLE "task_due_date_changes" ADD CONSTRAINT "task_due_date_changes_field_check" CHECK ("task_due_date_changes"."field" in ('statutory', 'due', 'extended', 'clear_by'));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_due_override_check" CHECK ("tasks"."due_override" is null or ("tasks"."due_date_rule" is not null and "tasks"."due_override" in ('DISASTER_RELIEF', 'MANUAL')));--> statement-breakpoint
ALTER TABLE "disaster_reliefs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "disaster_reliefs"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);--> statement-breakpoint
-- A relief stays as recorded (the tasks it moved name it in their logs), as the due-date log
-- stays: both refuse UPDATE, DELETE and TRUNCATE through one function naming the table.
CREATE FUNCTION refuse_change_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER disaster_reliefs_append_only
  BEFORE UPDATE OR DELETE ON "disaster_reliefs"
  FOR EACH ROW EXECUTE FUNCTION refuse_change_append_only();--> statement-breakpoint
CREATE TRIGGER disaster_reliefs_no_truncate
  BEFORE TRUNCATE ON "disaster_reliefs"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_append_only();--> statement-breakpoint
DROP TRIGGER task_due_date_changes_append_only ON "task_due_date_changes";--> statement-breakpoint
DROP TRIGGER task_due_date_changes_no_truncate ON "task_due_date_changes";--> statement-breakpoint
DROP FUNCTION task_due_date_changes_refuse_change();--> statement-breakpoint
CREATE TRIGGER task_due_date_changes_append_only
  BEFORE UPDATE OR DELETE ON "task_due_date_changes"
  FOR EACH ROW EXECUTE FUNCTION refuse_change_append_only();--> statement-breakpoint
CREATE TRIGGER task_due_date_changes_no_truncate
  BEFORE TRUNCATE ON "task_due_date_changes"
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_append_only();
--> statement-breakpoint
-- The one look across firms a new version of the rules or a holiday calendar needs (decision
-- 0053): the firms with an open rule task whose dates were worked out on another version than
-- its rule's current one (given as two parallel arrays). Read off tasks_open_rule_versions_idx.
CREATE FUNCTION firms_with_stale_due_dates(rule_ids text[], versions text[]) RETURNS SETOF uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT DISTINCT t.firm_id FROM tasks t
  WHERE t.status = 'pending' AND t.due_date_rule IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM unnest(rule_ids, versions) AS v(rule_id, version)
      WHERE v.rule_id = t.due_date_rule AND v.version = t.due_dates_version
    )
  ORDER BY 1
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION firms_with_stale_due_dates(text[], text[]) FROM PUBLIC;
