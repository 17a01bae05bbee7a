import { dueDateOf, periodContaining } from "../../../shared/recurrence";

/*
 * Due dates are days in the firm's time zone (docs/design/client-work-api.md): a task due on 5 December is due
 * until the last moment of that day there, exactly as a recurring task is due at the end of its
 * period, and it is shown as that day to everyone in the firm, wherever they sit.
 */

const DAY_MS = 86_400_000;

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const displayFormatters = new Map<string, Intl.DateTimeFormat>();

function cached(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, make: () => Intl.DateTimeFormat) {
  let formatter = cache.get(timeZone);
  if (!formatter) {
    formatter = make();
    cache.set(timeZone, formatter);
  }
  return formatter;
}

/** The day an instant falls on in `timeZone`, as a date input's value ("2026-12-05"). */
export function dayInZone(instant: string | Date, timeZone: string): string {
  const parts = cached(
    dayFormatters,
    timeZone,
    () => new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
  ).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year").padStart(4, "0")}-${part("month")}-${part("day")}`;
}

/**
 * The due instant for a day picked in a date input: the last millisecond of that day in
 * `timeZone`, as ISO 8601. Undefined for a value that is not a day.
 */
export function endOfDayInZone(day: string, timeZone: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const noon = new Date(`${day}T12:00:00Z`).getTime();
  if (Number.isNaN(noon)) return undefined;
  // Noon UTC falls on that very day from UTC-12 to UTC+11; a day either side covers the rest.
  for (const shift of [0, -DAY_MS, DAY_MS]) {
    const at = new Date(noon + shift);
    if (dayInZone(at, timeZone) === day) return dueDateOf(periodContaining("daily", at, timeZone)).toISOString();
  }
  return undefined;
}

/** "Dec 5, 2026": the day an instant falls on in `timeZone`. */
export function formatDay(instant: string, timeZone: string): string {
  return cached(
    displayFormatters,
    timeZone,
    () => new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "numeric", year: "numeric" }),
  ).format(new Date(instant));
}
