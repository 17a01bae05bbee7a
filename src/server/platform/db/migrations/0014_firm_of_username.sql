-- Signing in must know a username's firm before it can read anything under row-level security,
-- and usernames are unique across firms. This function runs as the tables' owner (not subject to
-- the firm policies) and answers that one question: the firm's id, or null. The rest of the
-- sign-in runs in that firm (decision 0033).
CREATE FUNCTION firm_of_username(username_key text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT firm_id FROM users WHERE lower(username) = username_key $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION firm_of_username(text) FROM PUBLIC;
