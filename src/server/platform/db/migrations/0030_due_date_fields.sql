ALTER TABLE "clients" ADD COLUMN "fiscal_year_end" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "entity_type" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "jurisdiction" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "task_templates" ADD COLUMN "due_date_rule" text;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_fiscal_year_end_check" CHECK ("clients"."fiscal_year_end" is null or "clients"."fiscal_year_end" ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$');--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_entity_type_check" CHECK ("clients"."entity_type" is null or "clients"."entity_type" in ('individual', 'sole_proprietor', 'partnership', 's_corporation', 'c_corporation', 'limited_company', 'trust_or_estate', 'nonprofit', 'other'));--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_jurisdiction_check" CHECK ("clients"."jurisdiction" is null or "clients"."jurisdiction" in ('US', 'UK'));--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_state_check" CHECK ("clients"."state" is null or ("clients"."jurisdiction" = 'US' and "clients"."state" ~ '^[A-Z]{2}$'));--> statement-breakpoint
ALTER TABLE "task_templates" ADD CONSTRAINT "task_templates_due_date_rule_check" CHECK ("task_templates"."due_date_rule" is null or "task_templates"."frequency" is not null);