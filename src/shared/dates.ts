const DAY_MS = 86_400_000;

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/**
 * How the product writes an instant for people: the date in the firm's time zone ("Jan 2, 2026"),
 * or the date and time ("Jan 2, 2026, 3:04 PM"). The screens (useDateFormat) and the CSV downloads
 * both use it, so a file says what the screen said. A due date is the last moment of a period in
 * that zone (decision 0009): in another zone it could read as the next day.
 */
export function firmDateFormat(timeZone: string | undefined): (instant: Date | string, withTime?: boolean) => string {
  const date = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone });
  const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone });
  return (instant, withTime = false) => (withTime ? dateTime : date).format(new Date(instant));
}

/** The calendar date (YYYY-MM-DD) an instant falls on in `timeZone`, as a download's name carries it. */
export function isoDateIn(timeZone: string, instant: Date | string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(instant));
}

/**
 * How many days after `earlier`'s date `later`'s date is, both as the calendar reads in `timeZone`:
 * a task due at the end of yesterday was due 1 day ago, however few hours have passed since.
 */
export function calendarDaysBetween(timeZone: string, earlier: Date | string, later: Date | string): number {
  return (Date.parse(isoDateIn(timeZone, later)) - Date.parse(isoDateIn(timeZone, earlier))) / DAY_MS;
}

const monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A civil date (YYYY-MM-DD: a statutory date, no time and no zone) as the product writes dates
 * for people ("Apr 15, 2027"), without passing through an instant that a zone could move.
 */
export function formatCivilDate(date: string): string {
  const [year, month, day] = date.split("-");
  return `${monthAbbreviations[Number(month) - 1] ?? ""} ${Number(day)}, ${year}`;
}
