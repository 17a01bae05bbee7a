CREATE TABLE "user_completion_days" (
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"priority" text NOT NULL,
	"completed" integer NOT NULL,
	"on_time" integer NOT NULL,
	"with_due" integer NOT NULL,
	"seconds" numeric NOT NULL,
	CONSTRAINT "user_completion_days_pkey" PRIMARY KEY("firm_id","user_id","day","priority")
);
--> statement-breakpoint
CREATE TABLE "user_report_clients" (
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"days" integer NOT NULL,
	"client_id" uuid NOT NULL,
	"client_name" text NOT NULL,
	"completed" integer NOT NULL,
	"on_time" integer NOT NULL,
	"with_due" integer NOT NULL,
	CONSTRAINT "user_report_clients_pkey" PRIMARY KEY("firm_id","user_id","days","client_id")
);
--> statement-breakpoint
CREATE TABLE "user_report_windows" (
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"days" integer NOT NULL,
	"as_of" date NOT NULL,
	"clients_served" integer NOT NULL,
	CONSTRAINT "user_report_windows_pkey" PRIMARY KEY("firm_id","user_id","days")
);
--> statement-breakpoint
ALTER TABLE "user_completion_days" ADD CONSTRAINT "user_completion_days_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_completion_days" ADD CONSTRAINT "user_completion_days_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_report_clients" ADD CONSTRAINT "user_report_clients_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_report_clients" ADD CONSTRAINT "user_report_clients_window_fk" FOREIGN KEY ("firm_id","user_id","days") REFERENCES "public"."user_report_windows"("firm_id","user_id","days") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_report_clients" ADD CONSTRAINT "user_report_clients_client_fk" FOREIGN KEY ("firm_id","client_id") REFERENCES "public"."clients"("firm_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_report_windows" ADD CONSTRAINT "user_report_windows_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_report_windows" ADD CONSTRAINT "user_report_windows_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_report_clients_top_idx" ON "user_report_clients" USING btree ("firm_id","user_id","days","completed" desc,"client_name","client_id");--> statement-breakpoint
CREATE INDEX "user_report_clients_firm_id_client_id_idx" ON "user_report_clients" USING btree ("firm_id","client_id");--> statement-breakpoint
ALTER TABLE "user_completion_days" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "user_completion_days"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "user_report_windows" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "user_report_windows"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "user_report_clients" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "user_report_clients"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
-- One sign-off a statement on tasks added (sign 1) or took away (sign -1): a new row signed off, or
-- an old one that was (decision 0041).
CREATE TYPE "sign_off_change" AS (
  firm_id uuid, user_id uuid, client_id uuid, priority text, due_date timestamptz, created_at timestamptz,
  completed_at timestamptz, sign integer
);
--> statement-breakpoint
-- Adds changes to the rows of the report windows (firm, user, days, client: sign-offs, on time, with
-- a due date; the name is looked up for a new row), and moves a window's count of clients served
-- when a client's row appears or empties. The caller holds the firm's lock.
CREATE FUNCTION user_report_clients_apply(delta user_report_clients[]) RETURNS void LANGUAGE sql AS $$
  WITH kept AS (
    INSERT INTO user_report_clients AS k (firm_id, user_id, days, client_id, client_name, completed, on_time, with_due)
    SELECT d.firm_id, d.user_id, d.days, d.client_id,
           (SELECT cl.name FROM clients cl WHERE cl.firm_id = d.firm_id AND cl.id = d.client_id),
           d.completed, d.on_time, d.with_due
    FROM unnest(delta) AS d
    ORDER BY d.firm_id, d.user_id, d.days, d.client_id
    ON CONFLICT (firm_id, user_id, days, client_id) DO UPDATE
    SET completed = k.completed + excluded.completed, on_time = k.on_time + excluded.on_time,
        with_due = k.with_due + excluded.with_due
    RETURNING k.firm_id, k.user_id, k.days, k.client_id, k.completed AS after
  ),
  -- What a row held before is what it holds now less what was added: no second read of the table.
  moved AS (
    SELECT kept.firm_id, kept.user_id, kept.days, kept.after - d.completed AS before, kept.after
    FROM kept
    JOIN unnest(delta) AS d
      ON d.firm_id = kept.firm_id AND d.user_id = kept.user_id AND d.days = kept.days AND d.client_id = kept.client_id
  )
  UPDATE user_report_windows AS w SET clients_served = w.clients_served + s.change
  FROM (
    SELECT moved.firm_id, moved.user_id, moved.days, sum(CASE WHEN moved.before = 0 THEN 1 ELSE -1 END)::int AS change
    FROM moved
    WHERE (moved.before = 0) <> (moved.after = 0)
    GROUP BY moved.firm_id, moved.user_id, moved.days
  ) AS s
  WHERE w.firm_id = s.firm_id AND w.user_id = s.user_id AND w.days = s.days;

  DELETE FROM user_report_clients AS k
  USING unnest(delta) AS d
  WHERE k.firm_id = d.firm_id AND k.user_id = d.user_id AND k.days = d.days AND k.completed = 0
    AND k.client_id = d.client_id;
$$;
--> statement-breakpoint
-- Sign-off changes into the report windows already made: a change whose local day falls in a
-- window's kept days, [as_of - days + 1, as_of - 1], moves its client's row. Today's and later
-- days are not kept (reports read them live), so most changes move nothing here.
CREATE FUNCTION user_report_clients_add(changes sign_off_change[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  delta user_report_clients[];
BEGIN
  SELECT array_agg(ROW(x.firm_id, x.user_id, x.days, x.client_id, NULL, x.completed, x.on_time, x.with_due)::user_report_clients)
  INTO delta
  FROM (
    SELECT w.firm_id, w.user_id, w.days, c.client_id,
           sum(c.sign)::int AS completed,
           sum(CASE WHEN c.completed_at <= c.due_date THEN c.sign ELSE 0 END)::int AS on_time,
           sum(CASE WHEN c.due_date IS NULL THEN 0 ELSE c.sign END)::int AS with_due
    FROM unnest(changes) AS c
    JOIN firms f ON f.id = c.firm_id
    JOIN user_report_windows w ON w.firm_id = c.firm_id AND w.user_id = c.user_id
      AND (c.completed_at AT TIME ZONE f.time_zone)::date BETWEEN w.as_of - w.days + 1 AND w.as_of - 1
    GROUP BY w.firm_id, w.user_id, w.days, c.client_id
  ) AS x
  WHERE x.completed <> 0 OR x.on_time <> 0 OR x.with_due <> 0;
  IF delta IS NOT NULL THEN
    PERFORM user_report_clients_apply(delta);
  END IF;
END;
$$;
--> statement-breakpoint
-- Keeps user_completion_days, and the report windows already made, in step with tasks, one
-- statement at a time: the sign-offs it added and took away are added up by user, local day and
-- priority before they are written (a bulk insert of a year's sign-offs writes a row per day and
-- priority, not one per task). Like the kept counts of 0017 it first locks the firms it touches,
-- so a firm's rollups are written by one transaction at a time, and reads the firm's zone after
-- the lock: a change of zone rebuilds them (firms_time_zone_rollups), and either ran before this
-- statement's rows or sees them.
CREATE FUNCTION user_completion_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes sign_off_change[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(ROW(firm_id, completed_by, client_id, priority, due_date, created_at, completed_at, 1)::sign_off_change)
    INTO changes FROM new_rows WHERE completed_by IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(ROW(firm_id, completed_by, client_id, priority, due_date, created_at, completed_at, -1)::sign_off_change)
    INTO changes FROM old_rows WHERE completed_by IS NOT NULL;
  ELSE
    -- A row whose sign-off columns did not change adds and takes away the same; the sums drop it.
    SELECT array_agg(c) INTO changes FROM (
      SELECT ROW(firm_id, completed_by, client_id, priority, due_date, created_at, completed_at, 1)::sign_off_change AS c
      FROM new_rows WHERE completed_by IS NOT NULL
      UNION ALL
      SELECT ROW(firm_id, completed_by, client_id, priority, due_date, created_at, completed_at, -1)::sign_off_change
      FROM old_rows WHERE completed_by IS NOT NULL
    ) AS both_sides;
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;

  PERFORM 1 FROM firms
  WHERE id IN (SELECT DISTINCT c.firm_id FROM unnest(changes) AS c)
  ORDER BY id FOR NO KEY UPDATE;

  INSERT INTO user_completion_days AS d (firm_id, user_id, day, priority, completed, on_time, with_due, seconds)
  SELECT c.firm_id, c.user_id, (c.completed_at AT TIME ZONE f.time_zone)::date, c.priority,
         sum(c.sign), sum(CASE WHEN c.completed_at <= c.due_date THEN c.sign ELSE 0 END),
         sum(CASE WHEN c.due_date IS NULL THEN 0 ELSE c.sign END),
         sum(c.sign * extract(epoch FROM (c.completed_at - c.created_at)))
  FROM unnest(changes) AS c
  JOIN firms f ON f.id = c.firm_id
  GROUP BY 1, 2, 3, 4
  HAVING sum(c.sign) <> 0 OR sum(CASE WHEN c.completed_at <= c.due_date THEN c.sign ELSE 0 END) <> 0
      OR sum(CASE WHEN c.due_date IS NULL THEN 0 ELSE c.sign END) <> 0
      OR sum(c.sign * extract(epoch FROM (c.completed_at - c.created_at))) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (firm_id, user_id, day, priority) DO UPDATE
  SET completed = d.completed + excluded.completed, on_time = d.on_time + excluded.on_time,
      with_due = d.with_due + excluded.with_due, seconds = d.seconds + excluded.seconds;

  -- A day and priority with no sign-off left is no row (its sums are all exactly 0 then).
  DELETE FROM user_completion_days AS d
  USING (SELECT DISTINCT c.firm_id, c.user_id, (c.completed_at AT TIME ZONE f.time_zone)::date AS day
         FROM unnest(changes) AS c JOIN firms f ON f.id = c.firm_id) AS c
  WHERE d.firm_id = c.firm_id AND d.user_id = c.user_id AND d.day = c.day AND d.completed = 0;

  PERFORM user_report_clients_add(changes);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tasks_sign_offs_insert AFTER INSERT ON "tasks"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_completion_days_apply();
--> statement-breakpoint
CREATE TRIGGER tasks_sign_offs_update AFTER UPDATE ON "tasks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_completion_days_apply();
--> statement-breakpoint
CREATE TRIGGER tasks_sign_offs_delete AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_completion_days_apply();
--> statement-breakpoint
-- The breakdown orders clients by their kept name, so a rename reaches every window's row of the
-- client, under the firm's lock as every other writer of these rows.
CREATE FUNCTION user_report_clients_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM firms WHERE id = NEW.firm_id FOR NO KEY UPDATE;
  UPDATE user_report_clients SET client_name = NEW.name WHERE firm_id = NEW.firm_id AND client_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER clients_report_name AFTER UPDATE OF name ON "clients"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION user_report_clients_rename();
--> statement-breakpoint
-- Local days move with the firm's zone: its day rows are counted again from its sign-offs, and its
-- report windows dropped, to be made again by the next report (the firm's row is locked by the
-- change itself).
CREATE FUNCTION firms_time_zone_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_report_windows WHERE firm_id = NEW.id;
  DELETE FROM user_completion_days WHERE firm_id = NEW.id;
  INSERT INTO user_completion_days (firm_id, user_id, day, priority, completed, on_time, with_due, seconds)
  SELECT t.firm_id, t.completed_by, (t.completed_at AT TIME ZONE NEW.time_zone)::date, t.priority, count(*),
         count(*) FILTER (WHERE t.completed_at <= t.due_date), count(t.due_date),
         sum(extract(epoch FROM (t.completed_at - t.created_at)))
  FROM tasks t
  WHERE t.firm_id = NEW.id AND t.completed_by IS NOT NULL
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER firms_time_zone_rollups AFTER UPDATE OF time_zone ON "firms"
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION firms_time_zone_rollups();
--> statement-breakpoint
-- Brings a user's report windows to the local day `today` (decision 0041) and says whether they
-- are as of it. Made the first time (or after a year unread) from the sign-offs of the last 365
-- days; after that, moving from day A to day B adds the sign-offs of the days that entered each
-- window and takes away those of the days that left it: (B - A) days of the user's work per
-- window at most, however much the windows hold. Under the firm's lock, so two reports never move
-- them twice and no change of tasks lands between what this reads and what it writes. Never
-- backwards, nor past the database's own today: a report for another day reads the sign-offs.
CREATE FUNCTION user_report_windows_to(firm uuid, member uuid, today date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  was date;
  zone text;
  fresh boolean;
  delta user_report_clients[];
BEGIN
  SELECT min(w.as_of) INTO was FROM user_report_windows w WHERE w.firm_id = firm AND w.user_id = member;
  IF was = today THEN
    RETURN true;
  END IF;
  SELECT f.time_zone INTO zone FROM firms f WHERE f.id = firm FOR NO KEY UPDATE;
  IF zone IS NULL OR today > (now() AT TIME ZONE zone)::date THEN
    RETURN false;
  END IF;
  SELECT min(w.as_of) INTO was FROM user_report_windows w WHERE w.firm_id = firm AND w.user_id = member;
  IF was >= today THEN
    RETURN was = today;
  END IF;
  fresh := was IS NULL OR today - was >= 365;
  IF fresh THEN
    DELETE FROM user_report_windows w WHERE w.firm_id = firm AND w.user_id = member;
    INSERT INTO user_report_windows (firm_id, user_id, days, as_of, clients_served)
    SELECT firm, member, d.days, today, 0 FROM unnest(array[7, 30, 90, 365]) AS d(days);
  END IF;

  SELECT array_agg(ROW(firm, member, x.days, x.client_id, NULL, x.completed, x.on_time, x.with_due)::user_report_clients)
  INTO delta
  FROM (
    SELECT s.days, t.client_id,
           sum(s.sign)::int AS completed,
           sum(CASE WHEN t.completed_at <= t.due_date THEN s.sign ELSE 0 END)::int AS on_time,
           sum(CASE WHEN t.due_date IS NULL THEN 0 ELSE s.sign END)::int AS with_due
    FROM (
      -- The days that entered each window (sign 1) and those that left it (sign -1), as instants:
      -- plain comparisons with them are index conditions under row-level security (decision 0039).
      SELECT r.days, r.sign, (r.first_day::timestamp AT TIME ZONE zone) AS from_at,
             ((r.last_day + 1)::timestamp AT TIME ZONE zone) AS to_at
      FROM (
        SELECT d.days, 1 AS sign, CASE WHEN fresh THEN today - d.days + 1 ELSE greatest(was, today - d.days + 1) END AS first_day,
               today - 1 AS last_day
        FROM unnest(array[7, 30, 90, 365]) AS d(days)
        UNION ALL
        SELECT d.days, -1, was - d.days + 1, least(was - 1, today - d.days)
        FROM unnest(array[7, 30, 90, 365]) AS d(days) WHERE NOT fresh
      ) AS r
      WHERE r.first_day <= r.last_day
    ) AS s
    -- One range of the sign-offs index per span ("offset 0" keeps it so: joined, a plan may read
    -- every sign-off of the user once and filter).
    CROSS JOIN LATERAL (
      SELECT t.client_id, t.due_date, t.completed_at FROM tasks t
      WHERE t.firm_id = firm AND t.completed_by = member AND t.completed_at >= s.from_at AND t.completed_at < s.to_at
      OFFSET 0
    ) AS t
    GROUP BY s.days, t.client_id
  ) AS x
  WHERE x.completed <> 0 OR x.on_time <> 0 OR x.with_due <> 0;
  IF delta IS NOT NULL THEN
    PERFORM user_report_clients_apply(delta);
  END IF;
  UPDATE user_report_windows w SET as_of = today WHERE w.firm_id = firm AND w.user_id = member;
  RETURN true;
END;
$$;
--> statement-breakpoint
-- The sign-offs already there.
INSERT INTO user_completion_days (firm_id, user_id, day, priority, completed, on_time, with_due, seconds)
SELECT t.firm_id, t.completed_by, (t.completed_at AT TIME ZONE f.time_zone)::date, t.priority, count(*),
       count(*) FILTER (WHERE t.completed_at <= t.due_date), count(t.due_date),
       sum(extract(epoch FROM (t.completed_at - t.created_at)))
FROM tasks t JOIN firms f ON f.id = t.firm_id
WHERE t.completed_by IS NOT NULL
GROUP BY 1, 2, 3, 4;
