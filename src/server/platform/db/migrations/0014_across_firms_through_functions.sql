-- The work that must reach across firms, each piece a function run as the tables' owner (not
-- subject to the firm policies) that does that one thing, so the app role itself reads and writes
-- only in a firm (decision 0033).
--
-- Signing in must know a username's firm before it can read anything under row-level security,
-- and usernames are unique across firms: this function answers that one question, the firm's id
-- or null, and the rest of the sign-in runs in that firm.
CREATE FUNCTION firm_of_username(username_key text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT firm_id FROM users WHERE lower(username) = username_key $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION firm_of_username(text) FROM PUBLIC;
--> statement-breakpoint
-- Housekeeping deletes what has expired in every firm: these two functions do only that, with the
-- cut-off dates the app computes from its configured limits.
CREATE FUNCTION purge_expired_sessions(expires_before timestamptz, seen_before timestamptz) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  WITH purged AS (
    DELETE FROM sessions
    WHERE expires_at < expires_before OR last_seen_at < seen_before
    RETURNING 1
  )
  SELECT count(*)::integer FROM purged
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_expired_sessions(timestamptz, timestamptz) FROM PUBLIC;
--> statement-breakpoint
CREATE FUNCTION purge_expired_idempotency_keys(created_before timestamptz) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  WITH purged AS (DELETE FROM idempotency_keys WHERE created_at < created_before RETURNING 1)
  SELECT count(*)::integer FROM purged
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION purge_expired_idempotency_keys(timestamptz) FROM PUBLIC;
--> statement-breakpoint
-- A Stripe event names a subscription and its customer, not a firm: the firm holding that
-- subscription, else the customer's firm that has none recorded yet, or null. The event is then
-- applied in that firm.
CREATE FUNCTION firm_of_stripe_subscription(subscription_id text, customer_id text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT coalesce(
    (SELECT id FROM firms WHERE stripe_subscription_id = subscription_id),
    (SELECT id FROM firms WHERE stripe_customer_id = customer_id AND stripe_subscription_id IS NULL)
  )
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION firm_of_stripe_subscription(text, text) FROM PUBLIC;
