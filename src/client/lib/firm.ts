import { queryOptions, useQuery } from "@tanstack/react-query";
import { firmDateFormat } from "../../shared/dates";
import type { Firm } from "../../shared/firm";

/**
 * GET /api/firm, which several screens read: the firm's time zone is the one due dates are
 * picked and shown in (a due date is the last moment of a period there, decision 0009).
 */
export function firmQueryOptions() {
  return queryOptions<Firm>({ queryKey: ["/api/firm"] });
}

/**
 * Formats instants as dates in the firm's time zone (firmDateFormat, which the CSV downloads share),
 * where in another zone a due date could read as the next day. Until the firm is loaded, the
 * browser's zone stands in.
 */
export function useDateFormat(): (iso: string | null, withTime?: boolean) => string {
  const { data: firm } = useQuery(firmQueryOptions());
  const format = firmDateFormat(firm?.timeZone);
  return (iso, withTime = false) => (iso ? format(iso, withTime) : "—");
}
