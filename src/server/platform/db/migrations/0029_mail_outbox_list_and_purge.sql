CREATE INDEX "mail_outbox_firm_id_created_at_id_idx" ON "mail_outbox" USING btree ("firm_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mail_outbox_settled_idx" ON "mail_outbox" USING btree ("settled_at") WHERE "mail_outbox"."status" in ('sent', 'kept', 'failed');--> statement-breakpoint
-- Housekeeping deletes the messages of every firm settled (sent, kept or failed) before the cut-off
-- the app computes from its retention; a message waiting or being sent is never deleted (decision 0049).
CREATE FUNCTION purge_settled_mail(settled_before timestamptz) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  WITH purged AS (
    DELETE FROM mail_outbox
    WHERE status IN ('sent', 'kept', 'failed') AND settled_at < settled_before
    RETURNING 1
  )
  SELECT count(*)::integer FROM purged
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_settled_mail(timestamptz) FROM PUBLIC;
