-- Trigram indexes for the client and task searches (decision 0036). pg_trgm is a trusted
-- extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "clients_search_idx" ON "clients" USING gin ("name" gin_trgm_ops,"industry" gin_trgm_ops,"status" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tasks_search_idx" ON "tasks" USING gin ("name" gin_trgm_ops,"description" gin_trgm_ops);