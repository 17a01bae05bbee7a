CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"firm_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"to_name" text NOT NULL,
	"sender_name" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"unsubscribe_url" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('security_notice')),
	CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" in ('pending', 'sending', 'sent', 'kept', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_fk" FOREIGN KEY ("firm_id","user_id") REFERENCES "public"."users"("firm_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_firm_id_dedupe_key_key" ON "mail_outbox" USING btree ("firm_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "mail_outbox" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "mail_outbox"
  USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
--> statement-breakpoint
-- The delivery job asks which messages of every firm are waiting and due; it then takes and sends
-- each in its own firm, so the app role never reads another firm's mail (decision 0049).
CREATE FUNCTION mail_due(due_at timestamptz, max_messages integer) RETURNS TABLE (firm_id uuid, id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT firm_id, id FROM mail_outbox
  WHERE status = 'pending' AND next_attempt_at <= due_at
  ORDER BY next_attempt_at
  LIMIT max_messages
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION mail_due(timestamptz, integer) FROM PUBLIC;
