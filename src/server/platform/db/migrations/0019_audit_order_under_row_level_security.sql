-- Under row-level security PostgreSQL lets a condition be an index condition only when it knows
-- the condition cannot leak a row's values, and it does not count coalesce among those: as the app
-- role the audit list's seeks on its coalesce keys became filters over the firm's whole task table
-- (decision 0039). The same keys written as CASE are seekable. The bell's index gains its whole
-- order (created_at, id) in place of the client id the dashboard no longer counts by (decision 0036).
DROP INDEX "tasks_firm_id_status_due_date_client_id_idx";--> statement-breakpoint
DROP INDEX "tasks_firm_id_audit_order_idx";--> statement-breakpoint
CREATE INDEX "tasks_firm_id_status_due_date_created_at_id_idx" ON "tasks" USING btree ("firm_id","status","due_date","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_firm_id_audit_order_idx" ON "tasks" USING btree ("firm_id",(case when "completed_at" is null then '-infinity'::timestamptz else "completed_at" end) desc,(case when "due_date" is null then '-infinity'::timestamptz else "due_date" end) desc,"created_at" desc,"id" desc);