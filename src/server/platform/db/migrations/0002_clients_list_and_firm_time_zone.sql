DROP INDEX "clients_firm_id_name_idx";--> statement-breakpoint
ALTER TABLE "firms" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
CREATE INDEX "clients_firm_id_name_idx" ON "clients" USING btree ("firm_id","name","id");