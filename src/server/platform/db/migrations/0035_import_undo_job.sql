ALTER TABLE "client_imports" DROP CONSTRAINT "client_imports_status_check";--> statement-breakpoint
ALTER TABLE "client_import_changes" ADD COLUMN "undone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "undo_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "undo_progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "removed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "archived_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "restored_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_imports" ADD COLUMN "kept_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_imports" ADD CONSTRAINT "client_imports_status_check" CHECK ("client_imports"."status" in ('previewed', 'queued', 'running', 'done', 'failed', 'undoing', 'undone'));