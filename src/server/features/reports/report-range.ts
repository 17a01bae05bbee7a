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

/**
 * The range's bounds as select-list columns, for reading kept sign-offs (decision 0041): its start
 * (`range_from`), its first local day and today as dates (`first_day`, `today`, text so they never
 * pass through a JavaScript Date), and the instant today began (`today_from`). Every bound but
 * `now` is a local midnight: the days before today are kept whole, today is read live.
 */
export const rangeBounds = (tz: string, now: string, days: string) =>
  `${rangeFrom(tz, now, days)} as range_from,
   ((${now}::timestamptz at time zone ${tz})::date - (${days}::int - 1))::text as first_day,
   (${now}::timestamptz at time zone ${tz})::date::text as today,
   (date_trunc('day', ${now}::timestamptz at time zone ${tz}) at time zone ${tz}) as today_from`;

/** What `rangeBounds` answers. */
export type RangeBounds = { range_from: Date; first_day: string; today: string; today_from: Date };

export function rangeOf(days: ReportDays, from: Date, now: Date, timeZone: string): ReportRange {
  return {
    days,
    from: from.toISOString(),
    to: now.toISOString(),
    timeZone,
    bucket: days <= 30 ? "day" : "week",
  };
}
