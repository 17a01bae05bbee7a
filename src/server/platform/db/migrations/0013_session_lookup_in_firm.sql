-- A session is now looked up in the firm its cookie names, under row-level security like the rest
-- of the request (decision 0033), so the function that found it across firms as the tables' owner
-- is no longer called.
DROP FUNCTION session_by_token_hash(text);
