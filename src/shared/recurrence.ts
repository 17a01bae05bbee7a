import type { Frequency } from "./tasks";

/**
 * One period of a recurring schedule: `start` inclusive, `end` exclusive, so `end` is the `start`
 * of the next period. Both are real instants; the calendar boundaries they stand for are local
 * midnights in the firm's time zone, which is why a day can last 23 or 25 hours.
 */
export type Period = { start: Date; end: Date };

/**
 * The most periods `periodsToMaterialize` returns at once. When a schedule is older than that,
 * only the latest ones are returned (one task per day since a start years ago is noise, not work).
 */
export const maxPeriodsToMaterialize = 1000;

const SECOND_MS = 1000;
const DAY_MS = 86_400_000;
// Wider than any UTC offset ever used (local mean times reached about ±15:56), so a search
// window of this size around a wall-clock time is sure to contain the instant that shows it.
const SEARCH_MARGIN_MS = 26 * 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

// Building a DateTimeFormat costs far more than using one, and the same few zones are used over and over.
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      calendar: "gregory",
      numberingSystem: "latn",
      // h23, because the default hour12: false can print midnight as "24" in some engines.
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}

// Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear takes the year as given.
function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/**
 * What a clock in `timeZone` reads at `instant`, written as if that reading were a UTC instant
 * ("wall-clock milliseconds"), to whole seconds. Calendar arithmetic is done on these numbers.
 */
function wallClockAt(instant: number, timeZone: string): number {
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let beforeCommonEra = false;
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    const value = Number(part.value);
    switch (part.type) {
      case "era":
        beforeCommonEra = part.value === "BC" || part.value === "B";
        break;
      case "year":
        year = value;
        break;
      case "month":
        month = value;
        break;
      case "day":
        day = value;
        break;
      case "hour":
        hour = value % 24;
        break;
      case "minute":
        minute = value;
        break;
      case "second":
        second = value;
        break;
      default:
        break;
    }
  }
  // There is no year 0 in eras: 1 BC is year 0 of the proleptic calendar Date uses.
  return utcMs(beforeCommonEra ? 1 - year : year, month - 1, day, hour, minute, second);
}

/** The zone's UTC offset at `instant`, in milliseconds (local = UTC + offset). */
function offsetAt(instant: number, timeZone: string): number {
  return wallClockAt(instant, timeZone) - (instant - mod(instant, SECOND_MS));
}

/** Wall-clock milliseconds of local midnight of the day `instant` falls on in `timeZone`. */
function localDayOf(instant: number, timeZone: string): number {
  const wall = wallClockAt(instant, timeZone);
  return wall - mod(wall, DAY_MS);
}

/**
 * The first instant whose local date in `timeZone` is the day starting at `localMidnight`
 * (wall-clock milliseconds) or later. Usually that is local midnight itself; on a day whose
 * midnight was skipped by a clock change it is the moment the clocks jumped.
 */
function startOfLocalDay(localMidnight: number, timeZone: string): number {
  // The offsets a day either side bracket every offset midnight can have, barring two clock
  // changes within two days; each is tried, and kept only if that instant really shows midnight.
  const offsetBefore = offsetAt(localMidnight - DAY_MS, timeZone);
  const offsetAfter = offsetAt(localMidnight + DAY_MS, timeZone);
  let first: number | undefined;
  for (const offset of offsetBefore === offsetAfter ? [offsetBefore] : [offsetBefore, offsetAfter]) {
    const candidate = localMidnight - offset;
    // When clocks fall back over midnight it happens twice; the day starts at the first.
    if (offsetAt(candidate, timeZone) === offset && (first === undefined || candidate < first)) first = candidate;
  }
  return first ?? firstInstantShowing(localMidnight, timeZone);
}

// Only reached when local midnight does not exist, so a slow but sure bisection is fine. Clock
// changes happen on whole seconds, so seconds are searched, not milliseconds.
function firstInstantShowing(localMidnight: number, timeZone: string): number {
  let before = (localMidnight - SEARCH_MARGIN_MS) / SECOND_MS;
  let atOrAfter = (localMidnight + SEARCH_MARGIN_MS) / SECOND_MS;
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (wallClockAt(middle * SECOND_MS, timeZone) >= localMidnight) atOrAfter = middle;
    else before = middle;
  }
  return atOrAfter * SECOND_MS;
}

/** Wall-clock milliseconds of the local midnights that begin and end the period containing `localDay`. */
function periodBounds(frequency: Frequency, localDay: number): [number, number] {
  const date = new Date(localDay);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (frequency) {
    case "daily":
      return [localDay, localDay + DAY_MS];
    case "weekly": {
      const monday = localDay - mod(date.getUTCDay() - 1, 7) * DAY_MS;
      return [monday, monday + 7 * DAY_MS];
    }
    case "monthly":
      return [utcMs(year, month, 1), utcMs(year, month + 1, 1)];
    case "quarterly": {
      const firstMonth = month - (month % 3);
      return [utcMs(year, firstMonth, 1), utcMs(year, firstMonth + 3, 1)];
    }
    case "annually":
      return [utcMs(year, 0, 1), utcMs(year + 1, 0, 1)];
  }
}

function timeOf(date: Date, name: string): number {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new RangeError(`${name} is an invalid date`);
  return time;
}

/**
 * The period of `frequency` that contains the instant `at`, with boundaries at local midnight in
 * `timeZone` (an IANA name such as "Europe/London"; firms without one use "UTC"):
 * daily = the calendar day; weekly = the ISO week, Monday to Monday; monthly = the calendar month;
 * quarterly = Jan-Mar, Apr-Jun, Jul-Sep or Oct-Dec; annually = the calendar year.
 * Where a clock change skips local midnight, the period starts at the first instant of that local day.
 * Always `start <= at < end`.
 * @throws RangeError if `at` is an invalid date or `timeZone` is not one `isValidTimeZone` accepts.
 */
export function periodContaining(frequency: Frequency, at: Date, timeZone: string): Period {
  const [startDay, endDay] = periodBounds(frequency, localDayOf(timeOf(at, "at"), timeZone));
  return { start: new Date(startOfLocalDay(startDay, timeZone)), end: new Date(startOfLocalDay(endDay, timeZone)) };
}

/**
 * The period right after `period`, i.e. the one starting at `period.end`. `period` should come
 * from this module with the same `frequency` and `timeZone`.
 * @throws RangeError as `periodContaining` does.
 */
export function nextPeriod(frequency: Frequency, period: Period, timeZone: string): Period {
  return periodContaining(frequency, period.end, timeZone);
}

/**
 * The due date of the task for `period`: its last instant, one millisecond before `period.end`.
 * A task is overdue once now is later than this, that is from the start of the next period.
 */
export function dueDateOf(period: Period): Date {
  return new Date(period.end.getTime() - 1);
}

/**
 * The periods a schedule needs a task for by `now`: every period of `frequency` from the one
 * containing `schedule.startsAt` up to and including the one containing `now`, oldest first.
 * Empty when `now` is before `startsAt`. So that a schedule started long ago cannot produce
 * thousands of tasks (a daily one from years back), at most `maxPeriodsToMaterialize` (1000)
 * periods are returned, and those are the latest ones: the oldest are dropped, never the current one.
 * @throws RangeError as `periodContaining` does.
 */
export function periodsToMaterialize(
  frequency: Frequency,
  schedule: { startsAt: Date },
  now: Date,
  timeZone: string,
): Period[] {
  const startsAt = timeOf(schedule.startsAt, "schedule.startsAt");
  if (timeOf(now, "now") < startsAt) return [];
  const firstStart = periodContaining(frequency, schedule.startsAt, timeZone).start.getTime();
  // Walking back from now, not forward from the start, keeps the work bounded by the cap
  // however old the schedule is.
  let period = periodContaining(frequency, now, timeZone);
  const newestFirst = [period];
  while (period.start.getTime() > firstStart && newestFirst.length < maxPeriodsToMaterialize) {
    period = periodContaining(frequency, new Date(period.start.getTime() - 1), timeZone);
    newestFirst.push(period);
  }
  return newestFirst.reverse();
}

/**
 * Whether `timeZone` is a time zone name this runtime's `Intl.DateTimeFormat` accepts, such as
 * "UTC", "Europe/London" or "America/New_York"; false for "Mars/Base", "" or "UTC+5".
 * The functions of this module throw a RangeError for any name this returns false for.
 */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}
