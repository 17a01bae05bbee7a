CREATE TABLE "client_import_changes" (
	"firm_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"client_id" uuid NOT NULL,
	"action" text NOT NULL,
	"client_before" jsonb,
	"client_version_after" integer NOT NULL,
	"contact_id" uuid,
	"contact_before" jsonb,
	"contact_version_after" integer,
	CONSTRAINT "client_import_changes_pkey" PRIMARY KEY("firm_id","import_id","row_number"),
	CONSTRAINT "client_import_changes_action_check" CHECK ("client_import_changes"."action" in ('created', 'updated'))
);
--> statement-breakpoint
CREATE TABLE "client_import_mappings" (
	"firm_id" uuid NOT NULL,
	"header_signature" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_import_mappings_pkey" PRIMARY KEY("firm_id","header_signature")
);
--> statement-breakpoint
CREATE TABLE "client_import_rows" (
	"firm_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"errors" jsonb NOT NULL,
	"match_client_id" uuid,
	"match_name" text,
	"match_by" text,
	"action" text,
	"done" boolean DEFAULT false NOT NULL,
	CONSTRAINT "client_import_rows_pkey" PRIMARY KEY("firm_id","import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "client_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"firm_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"file_name" text NOT NULL,
	"encoding" text NOT NULL,
	"delimiter" text NOT NULL,
	"headers" jsonb NOT NULL,
	"header_signature" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"duplicates" text,
	"row_count" integer NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"duplicate_count" integer DEFAULT 0 NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"updated_count" integer DEFAULT 0 NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	CONSTRAINT "client_imports_firm_id_id_key" UNIQUE("firm_id","id"),
	CONSTRAINT "client_imports_status_check" CHECK ("client_imports"."status" in ('previewed', 'queued', 'running', 'done', 'failed', 'undone')),
	CONSTRAINT "client_imports_encoding_check" CHECK ("client_imports"."encoding" in ('utf-8', 'utf-8-bom', 'windows-1252')),
	CONSTRAINT "client_imports_duplicates_check" CHECK ("client_imports"."duplicates" in ('skip', 'update', 'create'))
);
--> statement-breakpoint
ALTER TABLE "client_import_changes" ADD CONSTRAINT "client_import_changes_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_import_changes" ADD CONSTRAINT "client_import_changes_import_fk" FOREIGN KEY ("firm_id","import_id") REFERENCES "public"."client_imports"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_import_mappings" ADD CONSTRAINT "client_import_mappings_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_import_rows" ADD CONSTRAINT "client_import_rows_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_import_rows" ADD CONSTRAINT "client_import_rows_import_fk" FOREIGN KEY ("firm_id","import_id") REFERENCES "public"."client_imports"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_imports" ADD CONSTRAINT "client_imports_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_imports" ADD CONSTRAINT "client_imports_created_by_fk" FOREIGN KEY ("firm_id","created_by") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_imports_firm_id_created_at_idx" ON "client_imports" USING btree ("firm_id","created_at");--> statement-breakpoint
ALTER TABLE "client_imports" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "client_imports"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "client_import_rows" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "client_import_rows"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "client_import_changes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "client_import_changes"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "client_import_mappings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "client_import_mappings"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
