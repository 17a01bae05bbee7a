-- Nothing in the app acts across firms any more but through the functions of migrations 0014 and
-- 0015, so each policy loses its all-firms branch (decision 0033). Alone, the comparison with the
-- connection's tendwell.firm_id is cheap: beside a query's own `firm_id = $1` the planner checks
-- it once per statement instead of carrying it into every row.
ALTER POLICY "firm_isolation" ON "firms" USING (id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "users" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "sessions" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "clients" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "contacts" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "task_templates" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "recurring_schedules" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "tasks" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "user_clients" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "client_task_counts" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "audit_events" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER POLICY "firm_isolation" ON "idempotency_keys" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
