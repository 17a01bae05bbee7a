import { Temporal } from "temporal-polyfill";

/*
 * Civil dates: a day of the calendar with no time and no time zone ("2028-04-18"), which is what a
 * statute's deadline is. Every statutory date is worked out on Temporal.PlainDate (from
 * temporal-polyfill until the runtime has Temporal), never on a Date, whose time zone would move
 * a deadline by a day; the firm's time zone only decides when "today" makes a task overdue.
 */

export type CivilDate = Temporal.PlainDate;

const civilDateText = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date written YYYY-MM-DD that exists ("2027-02-29" does not), or undefined. */
export function parseCivilDate(text: string): CivilDate | undefined {
  const parts = civilDateText.exec(text);
  if (!parts) return undefined;
  try {
    return Temporal.PlainDate.from(
      { year: Number(parts[1]), month: Number(parts[2]), day: Number(parts[3]) },
      { overflow: "reject" },
    );
  } catch {
    return undefined;
  }
}

export const civilDate = (year: number, month: number, day: number): CivilDate =>
  Temporal.PlainDate.from({ year, month, day }, { overflow: "reject" });

export const sameDay = (a: CivilDate, b: CivilDate) => Temporal.PlainDate.compare(a, b) === 0;
export const before = (a: CivilDate, b: CivilDate) => Temporal.PlainDate.compare(a, b) < 0;

export const isWeekend = (date: CivilDate) => date.dayOfWeek >= 6;

export const lastDayOfMonth = (date: CivilDate): CivilDate => date.with({ day: date.daysInMonth });
export const isLastDayOfMonth = (date: CivilDate) => date.day === date.daysInMonth;

/**
 * `months` calendar months after `date`, by the corresponding-date rule of English law (Dodds v
 * Walker): the same day of the month, or the month's last day when it has no such day (31 Aug
 * + 6 months is 28 or 29 Feb). Temporal's own `add` does exactly this.
 */
export const addMonths = (date: CivilDate, months: number): CivilDate => date.add({ months });

/**
 * `months` after `date`, keeping a month's end at the month's end: 30 June + 9 months is 31 March,
 * not 30 March (the Companies Act's rule for filing periods, s443).
 */
export function addMonthsKeepingMonthEnd(date: CivilDate, months: number): CivilDate {
  const later = date.add({ months });
  return isLastDayOfMonth(date) ? lastDayOfMonth(later) : later;
}

/** The `day`-th (or last) day of the month `months` after the month of `date`. */
export function dayOfMonthAfter(date: CivilDate, months: number, day: number | "last"): CivilDate {
  const month = date.with({ day: 1 }).add({ months });
  return day === "last" ? lastDayOfMonth(month) : month.with({ day });
}

/** The `n`-th `weekday` (1 Monday .. 7 Sunday) of a month, or its last with n = -1. */
export function nthWeekday(year: number, month: number, weekday: number, n: number): CivilDate {
  if (n === -1) {
    const last = civilDate(year, month, 1).with({ day: 31 }, { overflow: "constrain" });
    return last.subtract({ days: (last.dayOfWeek - weekday + 7) % 7 });
  }
  const first = civilDate(year, month, 1);
  return first.add({ days: ((weekday - first.dayOfWeek + 7) % 7) + 7 * (n - 1) });
}

/** Easter Sunday of the Gregorian calendar (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): CivilDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return civilDate(year, month, day);
}

const weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export const weekdayName = (date: CivilDate) => weekdayNames[date.dayOfWeek - 1] ?? "";

/** "15 Apr 2028": how an explanation writes a date. */
export const formatDay = (date: CivilDate) => `${date.day} ${monthNames[date.month - 1]} ${date.year}`;

/** "Tue 18 Apr 2028": a date with its weekday, for the date a rule arrives at. */
export const formatWeekday = (date: CivilDate) => `${weekdayName(date).slice(0, 3)} ${formatDay(date)}`;

/** The day it is at `instant` in `timeZone`: what "today" is for a firm. */
export const dayAt = (instant: Date, timeZone: string): CivilDate =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();

/** The first instant of `date` in `timeZone`. */
export const startOfDay = (date: CivilDate, timeZone: string): Date =>
  new Date(date.toZonedDateTime({ timeZone }).epochMilliseconds);

/** The last instant (millisecond) of `date` in `timeZone`: when work due that day falls overdue. */
export const endOfDay = (date: CivilDate, timeZone: string): Date =>
  new Date(startOfDay(date.add({ days: 1 }), timeZone).getTime() - 1);
