-- Row-level security by firm: the second wall behind the services' own firm filters. A connection
-- sees (and may write) only the rows of the firm its tendwell.firm_id setting names, or every firm's
-- when tendwell.all_firms is 'on'; with neither set it sees no tenant row at all. The settings are
-- read once per statement (the scalar subqueries), not once per row. Table owners and superusers
-- are not subject to these policies: the app connects as a role that is neither.
ALTER TABLE "firms" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "firms"
  USING (id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "users"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "sessions"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "clients" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "clients"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "contacts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "contacts"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "task_templates" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "task_templates"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "recurring_schedules" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "recurring_schedules"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "tasks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "tasks"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "user_clients" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "user_clients"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "client_task_counts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "client_task_counts"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "audit_events"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "idempotency_keys"
  USING (firm_id = (select nullif(current_setting('tendwell.firm_id', true), '')::uuid) OR (select current_setting('tendwell.all_firms', true)) = 'on');
--> statement-breakpoint
-- The session lookup every signed-in request starts with finds a session by its token's hash
-- before anyone knows the firm. It runs as this function's owner (who is not subject to the
-- policies) and answers only the session the caller holds the token of.
CREATE FUNCTION session_by_token_hash(wanted text)
RETURNS TABLE (
  session_id uuid, user_id uuid, firm_id uuid, last_seen_at timestamptz, expires_at timestamptz,
  role text, username text, disabled_at timestamptz
)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  RETURN QUERY
    SELECT s.id, s.user_id, s.firm_id, s.last_seen_at, s.expires_at, u.role, u.username, u.disabled_at
    FROM sessions s JOIN users u ON u.id = s.user_id AND u.firm_id = s.firm_id
    WHERE s.token_hash = wanted;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION session_by_token_hash(text) FROM PUBLIC;
