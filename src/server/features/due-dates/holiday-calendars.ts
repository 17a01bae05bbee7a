import { type CivilDate, civilDate, easterSunday, isWeekend, nthWeekday, parseCivilDate } from "./civil-date";

/*
 * The holiday calendars deadlines are moved on, shipped as data with a version (decision 0053).
 * A calendar is its recurring holidays (a fixed day with its observance rule, the n-th weekday of
 * a month, a day counted from Easter), the years a recurring holiday was moved, and one-off days
 * (a jubilee, a national day of mourning). A change to any of them is a new version: a task keeps
 * the version its dates were worked out on.
 */

export const holidayCalendarIds = ["us-irs", "uk-eaw", "uk-sco", "uk-ni"] as const;
export type HolidayCalendarId = (typeof holidayCalendarIds)[number];

/** How a fixed-date holiday that lands on a weekend is kept. */
type Observance =
  /** Saturday's on the Friday before, Sunday's on the Monday after (D.C. Code 1-612.02(c), 5 U.S.C. 6103(b)). */
  | "us-observed"
  /** Only a Sunday's moves, to the Monday (Inauguration Day, 5 U.S.C. 6103(c)). */
  | "sunday-to-monday"
  /** A weekend's moves to the next weekday that is no holiday already (Banking and Financial Dealings Act 1971). */
  | "uk-substitute";

type RecurringHoliday = { name: string; firstYear?: number; inYears?: (year: number) => boolean } & (
  | { month: number; day: number; observance: Observance }
  | { month: number; weekday: number; nth: number }
  | { daysFromEaster: number }
);

/** A year a recurring holiday was held on another day by proclamation. */
type MovedHoliday = { name: string; to: string; source: string };
/** A day declared once: a jubilee, a state funeral, a national day of mourning. */
type OneOffDay = { date: string; name: string; source: string };

export type HolidayCalendar = {
  id: HolidayCalendarId;
  name: string;
  /** Changes whenever a day is added, moved or removed. */
  version: string;
  /** What makes these days holidays. */
  source: string;
  firstYear: number;
  lastYear: number;
  holidays: RecurringHoliday[];
  moved: MovedHoliday[];
  oneOff: OneOffDay[];
  /**
   * Statewide legal holidays that move a filing (never a payment) for filers in that state (IRC
   * 7503: the state where the return is to be filed): the US calendar's only.
   */
  statewide?: Partial<Record<string, RecurringHoliday[]>>;
};

export type Holiday = { date: CivilDate; name: string };

const MONDAY = 1;
const THURSDAY = 4;

/** The bank holidays every part of the UK shares, and the days the Crown moved or added for all of it. */
const ukWide = {
  christmas: { name: "Christmas Day", month: 12, day: 25, observance: "uk-substitute" },
  boxingDay: { name: "Boxing Day", month: 12, day: 26, observance: "uk-substitute" },
  newYear: { name: "New Year's Day", month: 1, day: 1, observance: "uk-substitute" },
  goodFriday: { name: "Good Friday", daysFromEaster: -2 },
  earlyMay: { name: "Early May bank holiday", month: 5, weekday: MONDAY, nth: 1 },
  spring: { name: "Spring bank holiday", month: 5, weekday: MONDAY, nth: -1 },
  moved: [
    { name: "Spring bank holiday", to: "2002-06-04", source: "Royal proclamation (Golden Jubilee)" },
    { name: "Spring bank holiday", to: "2012-06-04", source: "Royal proclamation (Diamond Jubilee)" },
    { name: "Early May bank holiday", to: "2020-05-08", source: "Royal proclamation (75th anniversary of VE Day)" },
    { name: "Spring bank holiday", to: "2022-06-02", source: "Royal proclamation (Platinum Jubilee)" },
  ],
  oneOff: [
    { date: "2002-06-03", name: "Golden Jubilee bank holiday", source: "Royal proclamation" },
    { date: "2011-04-29", name: "Royal Wedding bank holiday", source: "Royal proclamation" },
    { date: "2012-06-05", name: "Diamond Jubilee bank holiday", source: "Royal proclamation" },
    { date: "2022-06-03", name: "Platinum Jubilee bank holiday", source: "Royal proclamation" },
    {
      date: "2022-09-19",
      name: "Bank holiday for the State Funeral of Queen Elizabeth II",
      source: "Royal proclamation",
    },
    { date: "2023-05-08", name: "Bank holiday for the coronation of King Charles III", source: "Royal proclamation" },
  ],
} as const;

const calendars: Record<HolidayCalendarId, HolidayCalendar> = {
  "us-irs": {
    id: "us-irs",
    name: "IRS deadlines: Saturdays, Sundays and District of Columbia legal holidays",
    version: "2026.1",
    source:
      "IRC 7503 and Treas. Reg. 301.7503-1(b): the legal holidays of the District of Columbia (D.C. Code 1-612.02), " +
      "and statewide legal holidays for a return filed in that state",
    firstYear: 2000,
    lastYear: 2099,
    holidays: [
      { name: "New Year's Day", month: 1, day: 1, observance: "us-observed" },
      { name: "Martin Luther King Jr. Day", month: 1, weekday: MONDAY, nth: 3 },
      // January 20 after each presidential election year (1 mod 4), moved to the 21st only from a Sunday.
      {
        name: "Inauguration Day",
        month: 1,
        day: 20,
        observance: "sunday-to-monday",
        inYears: (year) => year % 4 === 1,
      },
      { name: "Washington's Birthday", month: 2, weekday: MONDAY, nth: 3 },
      // A D.C. legal holiday since 2005 (D.C. Law 15-240), and the reason April deadlines move.
      { name: "DC Emancipation Day", month: 4, day: 16, observance: "us-observed", firstYear: 2005 },
      { name: "Memorial Day", month: 5, weekday: MONDAY, nth: -1 },
      {
        name: "Juneteenth National Independence Day",
        month: 6,
        day: 19,
        observance: "us-observed",
        firstYear: 2021,
      },
      { name: "Independence Day", month: 7, day: 4, observance: "us-observed" },
      { name: "Labor Day", month: 9, weekday: MONDAY, nth: 1 },
      { name: "Columbus Day", month: 10, weekday: MONDAY, nth: 2 },
      { name: "Veterans Day", month: 11, day: 11, observance: "us-observed" },
      { name: "Thanksgiving Day", month: 11, weekday: THURSDAY, nth: 4 },
      { name: "Christmas Day", month: 12, day: 25, observance: "us-observed" },
    ],
    moved: [],
    oneOff: [
      {
        date: "2004-06-11",
        name: "National Day of Mourning for President Reagan",
        source: "Executive order of June 2004 closing the executive departments",
      },
      {
        date: "2007-01-02",
        name: "National Day of Mourning for President Ford",
        source: "Executive order of December 2006 closing the executive departments",
      },
      {
        date: "2018-12-05",
        name: "National Day of Mourning for President George H. W. Bush",
        source: "Executive Order 13854 closing the executive departments",
      },
      {
        date: "2025-01-09",
        name: "National Day of Mourning for President Carter",
        source: "Executive order of December 2024 closing the executive departments",
      },
    ],
    statewide: {
      MA: [{ name: "Patriots' Day", month: 4, weekday: MONDAY, nth: 3 }],
      ME: [{ name: "Patriots' Day", month: 4, weekday: MONDAY, nth: 3 }],
    },
  },
  "uk-eaw": {
    id: "uk-eaw",
    name: "Bank holidays in England and Wales",
    version: "2026.1",
    source: "Banking and Financial Dealings Act 1971, Schedule 1, and royal proclamations",
    firstYear: 2000,
    lastYear: 2099,
    holidays: [
      ukWide.newYear,
      ukWide.goodFriday,
      { name: "Easter Monday", daysFromEaster: 1 },
      ukWide.earlyMay,
      ukWide.spring,
      { name: "Summer bank holiday", month: 8, weekday: MONDAY, nth: -1 },
      ukWide.christmas,
      ukWide.boxingDay,
    ],
    moved: [...ukWide.moved],
    oneOff: [...ukWide.oneOff],
  },
  "uk-sco": {
    id: "uk-sco",
    name: "Bank holidays in Scotland",
    version: "2026.1",
    source:
      "Banking and Financial Dealings Act 1971, Schedule 1, the St Andrew's Day Bank Holiday (Scotland) Act 2007, " +
      "and royal proclamations",
    firstYear: 2000,
    lastYear: 2099,
    holidays: [
      ukWide.newYear,
      { name: "2nd January", month: 1, day: 2, observance: "uk-substitute" },
      ukWide.goodFriday,
      ukWide.earlyMay,
      ukWide.spring,
      { name: "Summer bank holiday", month: 8, weekday: MONDAY, nth: 1 },
      { name: "St Andrew's Day", month: 11, day: 30, observance: "uk-substitute", firstYear: 2007 },
      ukWide.christmas,
      ukWide.boxingDay,
    ],
    moved: [...ukWide.moved],
    oneOff: [...ukWide.oneOff],
  },
  "uk-ni": {
    id: "uk-ni",
    name: "Bank holidays in Northern Ireland",
    version: "2026.1",
    source: "Banking and Financial Dealings Act 1971, Schedule 1, and royal proclamations",
    firstYear: 2000,
    lastYear: 2099,
    holidays: [
      ukWide.newYear,
      { name: "St Patrick's Day", month: 3, day: 17, observance: "uk-substitute" },
      ukWide.goodFriday,
      { name: "Easter Monday", daysFromEaster: 1 },
      ukWide.earlyMay,
      ukWide.spring,
      { name: "Battle of the Boyne (Orangemen's Day)", month: 7, day: 12, observance: "uk-substitute" },
      { name: "Summer bank holiday", month: 8, weekday: MONDAY, nth: -1 },
      ukWide.christmas,
      ukWide.boxingDay,
    ],
    moved: [...ukWide.moved],
    oneOff: [...ukWide.oneOff],
  },
};

export function holidayCalendar(id: string): HolidayCalendar | undefined {
  return Object.hasOwn(calendars, id) ? calendars[id as HolidayCalendarId] : undefined;
}

export const allHolidayCalendars = (): HolidayCalendar[] => holidayCalendarIds.map((id) => calendars[id]);

/** The holidays of `year` as held (after observance and substitution), before one-offs and moves. */
function heldInYear(holidays: RecurringHoliday[], year: number): Holiday[] {
  const applicable = holidays.filter(
    (holiday) => (holiday.firstYear === undefined || year >= holiday.firstYear) && (holiday.inYears?.(year) ?? true),
  );
  const held: Holiday[] = [];
  const substitutes: Holiday[] = [];
  for (const holiday of applicable) {
    if ("daysFromEaster" in holiday) {
      held.push({ date: easterSunday(year).add({ days: holiday.daysFromEaster }), name: holiday.name });
    } else if ("weekday" in holiday) {
      held.push({ date: nthWeekday(year, holiday.month, holiday.weekday, holiday.nth), name: holiday.name });
    } else {
      const date = civilDate(year, holiday.month, holiday.day);
      const weekday = date.dayOfWeek;
      if (weekday < 6) held.push({ date, name: holiday.name });
      else if (holiday.observance === "us-observed")
        held.push({ date: date.add({ days: weekday === 6 ? -1 : 1 }), name: `${holiday.name} (observed)` });
      else if (holiday.observance === "sunday-to-monday" && weekday === 7)
        held.push({ date: date.add({ days: 1 }), name: `${holiday.name} (observed)` });
      else if (holiday.observance === "uk-substitute") substitutes.push({ date, name: holiday.name });
    }
  }
  // Each weekend bank holiday, in date order, takes the next weekday that is not a holiday already:
  // Christmas on a Saturday and Boxing Day on a Sunday give Monday 27 and Tuesday 28 December.
  const taken = new Set(held.map((holiday) => holiday.date.toString()));
  for (const holiday of substitutes.sort((a, b) => a.date.toString().localeCompare(b.date.toString()))) {
    let day = holiday.date.add({ days: 1 });
    while (isWeekend(day) || taken.has(day.toString())) day = day.add({ days: 1 });
    taken.add(day.toString());
    held.push({ date: day, name: `${holiday.name} (substitute day)` });
  }
  return held;
}

const cache = new Map<string, Holiday[]>();

/**
 * The days of `year` that are holidays on the calendar, in date order: the recurring ones as held
 * that year (a New Year's Day on a Saturday is held on the Friday before, in the year before),
 * the moved ones on their new day, and the one-off days. With `state`, the US calendar adds that
 * state's statewide holidays (which move filings only).
 */
export function holidaysIn(calendar: HolidayCalendar, year: number, state?: string): Holiday[] {
  const key = `${calendar.id}:${calendar.version}:${year}:${state ?? ""}`;
  const known = cache.get(key);
  if (known) return known;
  const recurring = [...calendar.holidays, ...((state && calendar.statewide?.[state]) || [])];
  const days: Holiday[] = [];
  for (const held of [year - 1, year, year + 1]) {
    const movedAway = new Set(calendar.moved.filter((move) => move.to.startsWith(`${held}-`)).map((move) => move.name));
    for (const holiday of heldInYear(recurring, held)) {
      if (holiday.date.year === year && !movedAway.has(holiday.name)) days.push(holiday);
    }
  }
  for (const move of calendar.moved) {
    const date = parseCivilDate(move.to);
    if (date?.year === year) days.push({ date, name: move.name });
  }
  for (const day of calendar.oneOff) {
    const date = parseCivilDate(day.date);
    if (date?.year === year) days.push({ date, name: day.name });
  }
  days.sort((a, b) => a.date.toString().localeCompare(b.date.toString()));
  cache.set(key, days);
  return days;
}

/** The holiday `date` is on the calendar, if any (the first by name when two fall on one day). */
export function holidayOn(calendar: HolidayCalendar, date: CivilDate, state?: string): string | undefined {
  const text = date.toString();
  return holidaysIn(calendar, date.year, state).find((holiday) => holiday.date.toString() === text)?.name;
}
