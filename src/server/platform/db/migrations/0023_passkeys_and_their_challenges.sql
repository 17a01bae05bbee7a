CREATE TABLE "webauthn_challenges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"challenge" text NOT NULL,
	"purpose" text NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("webauthn_challenges"."purpose" in ('register', 'second_factor', 'sign_in', 'step_up'))
);
--> statement-breakpoint
ALTER TABLE "user_factors" ADD COLUMN "credential_id" text;--> statement-breakpoint
ALTER TABLE "user_factors" ADD COLUMN "public_key" "bytea";--> statement-breakpoint
ALTER TABLE "user_factors" ADD COLUMN "sign_count" bigint;--> statement-breakpoint
ALTER TABLE "user_factors" ADD COLUMN "transports" text[];--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_factors_credential_id_key" ON "user_factors" USING btree ("credential_id");--> statement-breakpoint
ALTER TABLE "user_factors" ADD CONSTRAINT "user_factors_passkey_check" CHECK (("user_factors"."kind" = 'passkey') = ("user_factors"."credential_id" is not null and "user_factors"."public_key" is not null and "user_factors"."sign_count" is not null));--> statement-breakpoint
-- A sign-in by passkey alone knows only the credential the browser chose: which firm it belongs to
-- is answered by the owner, as for a username (migration 0014), so the app role never reads across firms.
CREATE FUNCTION firm_of_passkey(passkey_credential_id text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT firm_id FROM user_factors WHERE credential_id = passkey_credential_id AND confirmed_at IS NOT NULL $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION firm_of_passkey(text) FROM PUBLIC;
