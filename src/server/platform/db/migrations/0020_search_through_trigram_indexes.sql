-- Searches through trigram indexes (decision 0040). pg_trgm ships with PostgreSQL and is a
-- trusted extension: the database's owner may create it, no superuser needed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "clients_search_idx" ON "clients" USING gin (("name" || E'\n' || coalesce("industry", '') || E'\n' || "status") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "tasks_search_idx" ON "tasks" USING gin (("name" || E'\n' || coalesce("description", '')) gin_trgm_ops);
--> statement-breakpoint
-- The planner judges a search by the statistics of the indexed text, which only ANALYZE gathers:
-- until then it takes a common word for a rare one (at a million tasks, seconds instead of ms).
-- Autovacuum would wait for a tenth of the rows to change first. A new database's empty tables
-- are left as never analyzed, as every other table starts.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "clients") THEN ANALYZE "clients"; END IF;
  IF EXISTS (SELECT 1 FROM "tasks") THEN ANALYZE "tasks"; END IF;
END $$;
--> statement-breakpoint
-- The connection's firm's clients and tasks, read with the rights of these views' owner, the
-- tables' owner, to whom no policy applies: the row-level security policies would keep ILIKE
-- (not leakproof) from being an index condition, so a search through the tables themselves
-- could never use the indexes above. Each view keeps exactly the rows the policy keeps, by the
-- same comparison with the connection's tendwell.firm_id. The app role may only read them.
CREATE VIEW "firm_clients" AS
  SELECT * FROM "clients" WHERE "firm_id" = nullif(current_setting('tendwell.firm_id', true), '')::uuid;
--> statement-breakpoint
CREATE VIEW "firm_tasks" AS
  SELECT * FROM "tasks" WHERE "firm_id" = nullif(current_setting('tendwell.firm_id', true), '')::uuid;
