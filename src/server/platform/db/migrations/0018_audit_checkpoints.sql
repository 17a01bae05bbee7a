CREATE TABLE "audit_checkpoints" (
	"firm_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_checkpoints" ADD CONSTRAINT "audit_checkpoints_firm_id_firms_id_fk" FOREIGN KEY ("firm_id") REFERENCES "public"."firms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The checkpoint moves only forward: a later seq, or the same one with the same hash (a check
-- that found nothing new refreshes verified_at). Setting it back, or onto another hash at its
-- seq, would let the quick check judge new events against a chain of someone's choosing, so it
-- is refused for every role, the app's own included, as firms.audit_head is (migration 0008).
-- The app role may not delete it either (its grants): deleting only costs the next check a
-- full walk, but followed by an insert it would set the checkpoint back.
-- What it does not protect against: an event before the checkpoint tampered with after it was
-- verified. The quick check starts at the checkpoint and never reads those events again; a full
-- re-verification (from the first event, on demand) finds them.
CREATE FUNCTION audit_checkpoints_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.firm_id <> OLD.firm_id
     OR NEW.seq < OLD.seq
     OR (NEW.seq = OLD.seq AND NEW.hash <> OLD.hash) THEN
    RAISE EXCEPTION 'audit_checkpoints only moves forward: UPDATE refused' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_forward_only
  BEFORE UPDATE ON "audit_checkpoints"
  FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_forward_only();
--> statement-breakpoint
-- Row-level security by firm, in the form of migration 0016 (decision 0033).
ALTER TABLE "audit_checkpoints" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "firm_isolation" ON "audit_checkpoints" USING (firm_id = nullif(current_setting('tendwell.firm_id', true), '')::uuid);
