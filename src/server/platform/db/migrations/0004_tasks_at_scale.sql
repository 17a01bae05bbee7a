CREATE TABLE "client_task_counts" (
	"firm_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"total" integer NOT NULL,
	"completed" integer NOT NULL,
	CONSTRAINT "client_task_counts_pkey" PRIMARY KEY("firm_id","client_id")
);
--> statement-breakpoint
DROP INDEX "tasks_firm_id_status_due_date_idx";--> statement-breakpoint
ALTER TABLE "client_task_counts" ADD CONSTRAINT "client_task_counts_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_task_counts" ADD CONSTRAINT "client_task_counts_client_fk" FOREIGN KEY ("firm_id","client_id") REFERENCES "public"."clients"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_firm_id_status_due_date_client_id_idx" ON "tasks" USING btree ("firm_id","status","due_date","client_id");--> statement-breakpoint
CREATE INDEX "tasks_firm_id_audit_order_idx" ON "tasks" USING btree ("firm_id",coalesce("completed_at", '-infinity'::timestamptz) desc,coalesce("due_date", '-infinity'::timestamptz) desc,"created_at" desc,"id" desc);--> statement-breakpoint
-- Keeps client_task_counts in step with tasks, one statement at a time (a bulk insert of the
-- scheduler adds one row per client, not one per task). Rows are written in key order so two
-- statements touching the same clients wait for each other instead of deadlocking.
CREATE FUNCTION client_task_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO client_task_counts AS c (firm_id, client_id, total, completed)
    SELECT firm_id, client_id, count(*), count(*) FILTER (WHERE status = 'completed')
    FROM new_rows GROUP BY firm_id, client_id ORDER BY firm_id, client_id
    ON CONFLICT (firm_id, client_id)
    DO UPDATE SET total = c.total + excluded.total, completed = c.completed + excluded.completed;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE client_task_counts AS c SET total = c.total - d.total, completed = c.completed - d.completed
    FROM (SELECT firm_id, client_id, count(*) AS total, count(*) FILTER (WHERE status = 'completed') AS completed
          FROM old_rows GROUP BY firm_id, client_id ORDER BY firm_id, client_id) AS d
    WHERE c.firm_id = d.firm_id AND c.client_id = d.client_id;
  ELSE
    INSERT INTO client_task_counts AS c (firm_id, client_id, total, completed)
    SELECT firm_id, client_id, sum(total), sum(completed)
    FROM (SELECT firm_id, client_id, 1 AS total, (status = 'completed')::int AS completed FROM new_rows
          UNION ALL
          SELECT firm_id, client_id, -1, -(status = 'completed')::int FROM old_rows) AS d
    GROUP BY firm_id, client_id
    HAVING sum(total) <> 0 OR sum(completed) <> 0
    ORDER BY firm_id, client_id
    ON CONFLICT (firm_id, client_id)
    DO UPDATE SET total = c.total + excluded.total, completed = c.completed + excluded.completed;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tasks_count_insert AFTER INSERT ON "tasks"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_task_counts_apply();
--> statement-breakpoint
CREATE TRIGGER tasks_count_update AFTER UPDATE ON "tasks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION client_task_counts_apply();
--> statement-breakpoint
CREATE TRIGGER tasks_count_delete AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION client_task_counts_apply();
--> statement-breakpoint
INSERT INTO client_task_counts (firm_id, client_id, total, completed)
SELECT firm_id, client_id, count(*), count(*) FILTER (WHERE status = 'completed') FROM tasks GROUP BY firm_id, client_id;
