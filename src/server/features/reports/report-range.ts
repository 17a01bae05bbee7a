import type { ReportDays, ReportRange } from "../../../shared/reports";

/*
 * A report's range (docs/design/reports-api.md): the last `days` calendar days of the firm's time
 * zone, today included, from local midnight of (today - (days - 1)) up to now, both ends included.
 * PostgreSQL works the start out, so a range across a daylight-saving change starts at local
 * midnight all the same.
 */

/** The range's start as an instant, from the firm's zone: SQL operands for the zone, now and days. */
export const rangeFrom = (tz: string, now: string, days: string) =>
  `((date_trunc('day', ${now}::timestamptz at time zone ${tz}) - (${days}::int - 1) * interval '1 day') at time zone ${tz})`;

export function rangeOf(days: ReportDays, from: Date, now: Date, timeZone: string): ReportRange {
  return {
    days,
    from: from.toISOString(),
    to: now.toISOString(),
    timeZone,
    bucket: days <= 30 ? "day" : "week",
  };
}
