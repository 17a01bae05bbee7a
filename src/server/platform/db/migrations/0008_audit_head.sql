ALTER TABLE "firms" ADD COLUMN "audit_head_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "firms" ADD COLUMN "audit_head_hash" text;--> statement-breakpoint
-- Existing chains: the head is their newest event.
UPDATE "firms" AS f SET "audit_head_seq" = e."seq", "audit_head_hash" = e."hash"
FROM (
  SELECT DISTINCT ON ("firm_id") "firm_id", "seq", "hash" FROM "audit_events" ORDER BY "firm_id", "seq" DESC
) AS e
WHERE e."firm_id" = f."id";
--> statement-breakpoint
-- The head moves only forward: a later seq, or the same one unchanged. Setting it back would
-- hide removed events from verification, so it is refused as changes to audit_events are.
CREATE FUNCTION firms_audit_head_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.audit_head_seq < OLD.audit_head_seq
     OR (NEW.audit_head_seq = OLD.audit_head_seq AND NEW.audit_head_hash IS DISTINCT FROM OLD.audit_head_hash) THEN
    RAISE EXCEPTION 'firms.audit_head only moves forward: UPDATE refused' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER firms_audit_head_forward_only
  BEFORE UPDATE OF "audit_head_seq", "audit_head_hash" ON "firms"
  FOR EACH ROW EXECUTE FUNCTION firms_audit_head_forward_only();
