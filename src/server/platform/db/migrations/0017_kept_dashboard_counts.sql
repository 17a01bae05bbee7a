CREATE TABLE "firm_work_counts" (
	"firm_id" uuid PRIMARY KEY NOT NULL,
	"clients_active" integer DEFAULT 0 NOT NULL,
	"clients_inactive" integer DEFAULT 0 NOT NULL,
	"clients_prospect" integer DEFAULT 0 NOT NULL,
	"tasks_total" integer DEFAULT 0 NOT NULL,
	"tasks_completed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_due_counts" (
	"firm_id" uuid NOT NULL,
	"due_date" timestamp with time zone NOT NULL,
	"tasks" integer NOT NULL,
	"clients" integer NOT NULL,
	CONSTRAINT "pending_due_counts_pkey" PRIMARY KEY("firm_id","due_date")
);
--> statement-breakpoint
ALTER TABLE "client_task_counts" ADD COLUMN "earliest_pending_due" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "firm_work_counts" ADD CONSTRAINT "firm_work_counts_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_due_counts" ADD CONSTRAINT "pending_due_counts_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_firm_id_client_id_pending_due_date_idx" ON "tasks" USING btree ("firm_id","client_id","due_date") WHERE "tasks"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "firm_work_counts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "firm_work_counts"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "pending_due_counts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "pending_due_counts"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
-- What one statement on tasks changes, row by row, before it is added up: +1 for each new row,
-- -1 for each old one.
CREATE TYPE "task_count_change" AS (
  firm_id uuid, client_id uuid, total integer, completed integer, due_date timestamptz, pending integer
);
--> statement-breakpoint
-- Keeps the kept counts in step with tasks, one statement at a time (a bulk insert of the
-- scheduler adds one row per client and due date, not one per task):
--   client_task_counts  every client's tasks, signed-off tasks and earliest open due date;
--   firm_work_counts    the firm's tasks and signed-off tasks over its live clients;
--   pending_due_counts  the firm's open tasks over its live clients by due date, and how many
--                       live clients have their earliest open task at each due date.
-- It first locks the firms it touches, the lock every change of a firm's work already takes for
-- its audit event: counter rows are then written by one transaction of a firm at a time (no
-- deadlock however a transaction orders its statements), and what it reads of a client's
-- archiving and open tasks is what the firm's last committed change left.
CREATE OR REPLACE FUNCTION client_task_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes task_count_change[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(ROW(firm_id, client_id, 1, (status = 'completed')::int, due_date,
                         (status = 'pending' AND due_date IS NOT NULL)::int)::task_count_change)
    INTO changes FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(ROW(firm_id, client_id, -1, -(status = 'completed')::int, due_date,
                         -(status = 'pending' AND due_date IS NOT NULL)::int)::task_count_change)
    INTO changes FROM old_rows;
  ELSE
    SELECT array_agg(c) INTO changes FROM (
      SELECT ROW(firm_id, client_id, 1, (status = 'completed')::int, due_date,
                 (status = 'pending' AND due_date IS NOT NULL)::int)::task_count_change AS c FROM new_rows
      UNION ALL
      SELECT ROW(firm_id, client_id, -1, -(status = 'completed')::int, due_date,
                 -(status = 'pending' AND due_date IS NOT NULL)::int)::task_count_change FROM old_rows
    ) AS both_sides;
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;

  PERFORM 1 FROM firms
  WHERE id IN (SELECT DISTINCT c.firm_id FROM unnest(changes) AS c)
  ORDER BY id FOR NO KEY UPDATE;

  -- Every client's counts, live or archived (an archived client's are added back when it returns).
  INSERT INTO client_task_counts AS k (firm_id, client_id, total, completed)
  SELECT c.firm_id, c.client_id, sum(c.total), sum(c.completed)
  FROM unnest(changes) AS c
  GROUP BY c.firm_id, c.client_id
  HAVING sum(c.total) <> 0 OR sum(c.completed) <> 0
  ORDER BY c.firm_id, c.client_id
  ON CONFLICT (firm_id, client_id)
  DO UPDATE SET total = k.total + excluded.total, completed = k.completed + excluded.completed;

  -- The firm's totals over its live clients.
  INSERT INTO firm_work_counts AS f (firm_id, tasks_total, tasks_completed)
  SELECT c.firm_id, sum(c.total), sum(c.completed)
  FROM unnest(changes) AS c
  JOIN clients cl ON cl.firm_id = c.firm_id AND cl.id = c.client_id AND cl.archived_at IS NULL
  GROUP BY c.firm_id
  HAVING sum(c.total) <> 0 OR sum(c.completed) <> 0
  ORDER BY c.firm_id
  ON CONFLICT (firm_id)
  DO UPDATE SET tasks_total = f.tasks_total + excluded.tasks_total,
                tasks_completed = f.tasks_completed + excluded.tasks_completed;

  -- Open tasks of live clients by due date.
  INSERT INTO pending_due_counts AS p (firm_id, due_date, tasks, clients)
  SELECT c.firm_id, c.due_date, sum(c.pending), 0
  FROM unnest(changes) AS c
  JOIN clients cl ON cl.firm_id = c.firm_id AND cl.id = c.client_id AND cl.archived_at IS NULL
  WHERE c.pending <> 0
  GROUP BY c.firm_id, c.due_date
  HAVING sum(c.pending) <> 0
  ORDER BY c.firm_id, c.due_date
  ON CONFLICT (firm_id, due_date) DO UPDATE SET tasks = p.tasks + excluded.tasks;

  -- The earliest open due date of each client whose open work changed, and the move of a live
  -- client from its old earliest due date's row to its new one.
  WITH touched AS (
    SELECT c.firm_id, c.client_id
    FROM unnest(changes) AS c
    WHERE c.pending <> 0
    GROUP BY c.firm_id, c.client_id, c.due_date
    HAVING sum(c.pending) <> 0
  ),
  earliest AS (
    SELECT DISTINCT ON (t.firm_id, t.client_id) t.firm_id, t.client_id, k.earliest_pending_due AS was,
      (SELECT min(o.due_date) FROM tasks o
       WHERE o.firm_id = t.firm_id AND o.client_id = t.client_id AND o.status = 'pending') AS now_is
    FROM touched t
    JOIN client_task_counts k ON k.firm_id = t.firm_id AND k.client_id = t.client_id
  ),
  kept AS (
    UPDATE client_task_counts AS k SET earliest_pending_due = e.now_is
    FROM earliest e
    WHERE k.firm_id = e.firm_id AND k.client_id = e.client_id AND k.earliest_pending_due IS DISTINCT FROM e.now_is
    RETURNING e.firm_id, e.client_id, e.was, e.now_is
  ),
  moved AS (
    SELECT m.firm_id, m.due_date, sum(m.clients)::int AS clients
    FROM (
      SELECT kept.firm_id, kept.client_id, kept.was AS due_date, -1 AS clients FROM kept WHERE kept.was IS NOT NULL
      UNION ALL
      SELECT kept.firm_id, kept.client_id, kept.now_is, 1 FROM kept WHERE kept.now_is IS NOT NULL
    ) AS m
    JOIN clients cl ON cl.firm_id = m.firm_id AND cl.id = m.client_id AND cl.archived_at IS NULL
    GROUP BY m.firm_id, m.due_date
    HAVING sum(m.clients) <> 0
  )
  INSERT INTO pending_due_counts AS p (firm_id, due_date, tasks, clients)
  SELECT moved.firm_id, moved.due_date, 0, moved.clients FROM moved ORDER BY moved.firm_id, moved.due_date
  ON CONFLICT (firm_id, due_date) DO UPDATE SET clients = p.clients + excluded.clients;

  -- A due date with no open work left is no row.
  DELETE FROM pending_due_counts AS p
  USING (SELECT DISTINCT c.firm_id, c.due_date FROM unnest(changes) AS c WHERE c.pending <> 0) AS c
  WHERE p.firm_id = c.firm_id AND p.due_date = c.due_date AND p.tasks = 0 AND p.clients = 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A client counts toward its firm's figures while it is live: by its status, and with its tasks.
-- Archiving takes its tasks out of firm_work_counts and pending_due_counts, restoring puts them
-- back. A client is deleted only once its tasks are (tasks_client_fk), so a delete moves its
-- status alone.
CREATE FUNCTION firm_work_counts_client_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_live boolean := TG_OP <> 'INSERT' AND OLD.archived_at IS NULL;
  is_live boolean := TG_OP <> 'DELETE' AND NEW.archived_at IS NULL;
  was_status text := CASE WHEN was_live THEN OLD.status END;
  is_status text := CASE WHEN is_live THEN NEW.status END;
  firm uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.firm_id ELSE NEW.firm_id END;
  client uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  sign integer := CASE WHEN is_live THEN 1 ELSE -1 END;
BEGIN
  IF was_status IS NOT DISTINCT FROM is_status AND was_live = is_live THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM firms WHERE id = firm FOR NO KEY UPDATE;

  INSERT INTO firm_work_counts AS f (firm_id, clients_active, clients_inactive, clients_prospect)
  VALUES (
    firm,
    (is_status IS NOT DISTINCT FROM 'active')::int - (was_status IS NOT DISTINCT FROM 'active')::int,
    (is_status IS NOT DISTINCT FROM 'inactive')::int - (was_status IS NOT DISTINCT FROM 'inactive')::int,
    (is_status IS NOT DISTINCT FROM 'prospect')::int - (was_status IS NOT DISTINCT FROM 'prospect')::int
  )
  ON CONFLICT (firm_id) DO UPDATE SET
    clients_active = f.clients_active + excluded.clients_active,
    clients_inactive = f.clients_inactive + excluded.clients_inactive,
    clients_prospect = f.clients_prospect + excluded.clients_prospect;

  IF TG_OP = 'UPDATE' AND was_live <> is_live THEN
    UPDATE firm_work_counts AS f
    SET tasks_total = f.tasks_total + sign * k.total, tasks_completed = f.tasks_completed + sign * k.completed
    FROM client_task_counts k
    WHERE f.firm_id = firm AND k.firm_id = firm AND k.client_id = client;

    INSERT INTO pending_due_counts AS p (firm_id, due_date, tasks, clients)
    SELECT firm, o.due_date, sign * count(*), 0
    FROM tasks o
    WHERE o.firm_id = firm AND o.client_id = client AND o.status = 'pending' AND o.due_date IS NOT NULL
    GROUP BY o.due_date
    ORDER BY o.due_date
    ON CONFLICT (firm_id, due_date) DO UPDATE SET tasks = p.tasks + excluded.tasks;

    INSERT INTO pending_due_counts AS p (firm_id, due_date, tasks, clients)
    SELECT firm, k.earliest_pending_due, 0, sign
    FROM client_task_counts k
    WHERE k.firm_id = firm AND k.client_id = client AND k.earliest_pending_due IS NOT NULL
    ON CONFLICT (firm_id, due_date) DO UPDATE SET clients = p.clients + excluded.clients;

    DELETE FROM pending_due_counts AS p WHERE p.firm_id = firm AND p.tasks = 0 AND p.clients = 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER clients_work_counts AFTER INSERT OR UPDATE OF status, archived_at OR DELETE ON "clients"
  FOR EACH ROW EXECUTE FUNCTION firm_work_counts_client_apply();
--> statement-breakpoint
-- The counts of the work already there.
UPDATE client_task_counts AS k SET earliest_pending_due = e.due_date
FROM (SELECT firm_id, client_id, min(due_date) AS due_date FROM tasks WHERE status = 'pending' GROUP BY firm_id, client_id) AS e
WHERE k.firm_id = e.firm_id AND k.client_id = e.client_id;
--> statement-breakpoint
INSERT INTO firm_work_counts (firm_id, clients_active, clients_inactive, clients_prospect, tasks_total, tasks_completed)
SELECT f.id,
  count(*) FILTER (WHERE cl.status = 'active'),
  count(*) FILTER (WHERE cl.status = 'inactive'),
  count(*) FILTER (WHERE cl.status = 'prospect'),
  coalesce(sum(k.total), 0),
  coalesce(sum(k.completed), 0)
FROM firms f
LEFT JOIN clients cl ON cl.firm_id = f.id AND cl.archived_at IS NULL
LEFT JOIN client_task_counts k ON k.firm_id = cl.firm_id AND k.client_id = cl.id
GROUP BY f.id;
--> statement-breakpoint
INSERT INTO pending_due_counts (firm_id, due_date, tasks, clients)
SELECT firm_id, due_date, sum(tasks), sum(clients)
FROM (
  SELECT o.firm_id, o.due_date, count(*) AS tasks, 0 AS clients
  FROM tasks o JOIN clients cl ON cl.firm_id = o.firm_id AND cl.id = o.client_id AND cl.archived_at IS NULL
  WHERE o.status = 'pending' AND o.due_date IS NOT NULL
  GROUP BY o.firm_id, o.due_date
  UNION ALL
  SELECT k.firm_id, k.earliest_pending_due, 0, count(*)
  FROM client_task_counts k JOIN clients cl ON cl.firm_id = k.firm_id AND cl.id = k.client_id AND cl.archived_at IS NULL
  WHERE k.earliest_pending_due IS NOT NULL
  GROUP BY k.firm_id, k.earliest_pending_due
) AS open_work
GROUP BY firm_id, due_date;
