CREATE TABLE "idempotency_keys" (
	"firm_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"response_status" integer,
	"response_body" text,
	"response_etag" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("firm_id","key")
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "firms" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_templates" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
-- A row's version (its ETag) moves when, and only when, a field a person edits changes: the
-- triggers fire on those columns only, and only when a value differs. So the audit head's moves
-- on firms, a password change on users or a no-op save never make an editor's version stale.
CREATE FUNCTION row_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER firms_row_version BEFORE UPDATE OF "name", "time_zone" ON "firms"
  FOR EACH ROW WHEN ((OLD."name", OLD."time_zone") IS DISTINCT FROM (NEW."name", NEW."time_zone"))
  EXECUTE FUNCTION row_version_bump();
--> statement-breakpoint
CREATE TRIGGER users_row_version BEFORE UPDATE OF "username", "email", "full_name", "role", "disabled_at" ON "users"
  FOR EACH ROW WHEN ((OLD."username", OLD."email", OLD."full_name", OLD."role", OLD."disabled_at")
    IS DISTINCT FROM (NEW."username", NEW."email", NEW."full_name", NEW."role", NEW."disabled_at"))
  EXECUTE FUNCTION row_version_bump();
--> statement-breakpoint
CREATE TRIGGER clients_row_version
  BEFORE UPDATE OF "name", "industry", "address", "phone", "email", "status", "archived_at" ON "clients"
  FOR EACH ROW WHEN ((OLD."name", OLD."industry", OLD."address", OLD."phone", OLD."email", OLD."status", OLD."archived_at")
    IS DISTINCT FROM (NEW."name", NEW."industry", NEW."address", NEW."phone", NEW."email", NEW."status", NEW."archived_at"))
  EXECUTE FUNCTION row_version_bump();
--> statement-breakpoint
CREATE TRIGGER contacts_row_version BEFORE UPDATE OF "name", "title", "phone", "email", "is_primary" ON "contacts"
  FOR EACH ROW WHEN ((OLD."name", OLD."title", OLD."phone", OLD."email", OLD."is_primary")
    IS DISTINCT FROM (NEW."name", NEW."title", NEW."phone", NEW."email", NEW."is_primary"))
  EXECUTE FUNCTION row_version_bump();
--> statement-breakpoint
CREATE TRIGGER task_templates_row_version
  BEFORE UPDATE OF "name", "description", "priority", "is_recurring", "frequency", "deleted_at" ON "task_templates"
  FOR EACH ROW WHEN ((OLD."name", OLD."description", OLD."priority", OLD."is_recurring", OLD."frequency", OLD."deleted_at")
    IS DISTINCT FROM (NEW."name", NEW."description", NEW."priority", NEW."is_recurring", NEW."frequency", NEW."deleted_at"))
  EXECUTE FUNCTION row_version_bump();
--> statement-breakpoint
CREATE TRIGGER tasks_row_version BEFORE UPDATE OF "name", "description", "priority", "status", "due_date" ON "tasks"
  FOR EACH ROW WHEN ((OLD."name", OLD."description", OLD."priority", OLD."status", OLD."due_date")
    IS DISTINCT FROM (NEW."name", NEW."description", NEW."priority", NEW."status", NEW."due_date"))
  EXECUTE FUNCTION row_version_bump();
