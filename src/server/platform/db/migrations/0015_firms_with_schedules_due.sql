-- The recurrence scheduler's one look across firms (decision 0033): the firms with a schedule that
-- may be due at `due_at` (not ended, started, not made up to then). It then works through each of
-- them in that firm, where the rest of what makes a schedule due (its client not archived, its
-- template not deleted) is checked.
CREATE FUNCTION firms_with_schedules_due(due_at timestamptz) RETURNS SETOF uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT DISTINCT firm_id FROM recurring_schedules
  WHERE ended_at IS NULL AND starts_at <= due_at AND (materialized_until IS NULL OR materialized_until <= due_at)
  ORDER BY firm_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION firms_with_schedules_due(timestamptz) FROM PUBLIC;
