import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addMonths,
  addMonthsKeepingMonthEnd,
  civilDate,
  easterSunday,
  isLastDayOfMonth,
  parseCivilDate,
} from "./civil-date";
import { nextBusinessDay, previousWorkingDay } from "./due-date-engine";
import {
  allHolidayCalendars,
  type HolidayCalendarId,
  holidayCalendar,
  holidayOn,
  holidaysIn,
} from "./holiday-calendars";

const calendar = (id: HolidayCalendarId) => {
  const found = holidayCalendar(id);
  if (!found) throw new Error(`no calendar ${id}`);
  return found;
};
const days = (id: HolidayCalendarId, year: number, state?: string) =>
  holidaysIn(calendar(id), year, state).map(({ date, name }) => `${date} ${name}`);

describe("civil dates", () => {
  it("S-DUE-01 reads only real dates written YYYY-MM-DD", () => {
    expect(parseCivilDate("2028-02-29")?.toString()).toBe("2028-02-29");
    for (const bad of ["2027-02-29", "2027-13-01", "2027-00-10", "2027-1-01", "20270101", "2027-01-01T00:00", ""])
      expect(parseCivilDate(bad), bad).toBeUndefined();
  });

  it("S-DUE-01 Easter Sunday by the Gregorian computus (Church of England tables)", () => {
    const easters = {
      2000: "04-23",
      2019: "04-21",
      2024: "03-31",
      2025: "04-20",
      2026: "04-05",
      2027: "03-28",
      2038: "04-25",
    };
    for (const [year, day] of Object.entries(easters))
      expect(easterSunday(Number(year)).toString()).toBe(`${year}-${day}`);
  });

  it("S-DUE-01 month arithmetic: the corresponding date, and a month's end kept at the month's end", () => {
    expect(addMonths(civilDate(2025, 8, 31), 6).toString()).toBe("2026-02-28");
    expect(addMonths(civilDate(2023, 8, 31), 6).toString()).toBe("2024-02-29");
    expect(addMonthsKeepingMonthEnd(civilDate(2025, 6, 30), 9).toString()).toBe("2026-03-31");
    expect(addMonthsKeepingMonthEnd(civilDate(2025, 2, 28), 9).toString()).toBe("2025-11-30");
    expect(addMonthsKeepingMonthEnd(civilDate(2025, 3, 15), 9).toString()).toBe("2025-12-15");
  });

  it("S-DUE-02 month-end arithmetic round-trips (property)", () => {
    const anyDate = fc
      .record({
        year: fc.integer({ min: 2000, max: 2090 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
      })
      .map(({ year, month, day }) => civilDate(year, month, Math.min(day, civilDate(year, month, 1).daysInMonth)));
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -36, max: 36 }), (date, months) => {
        const there = addMonthsKeepingMonthEnd(date, months);
        // A month's end stays one, both ways; any other day of 28 or less comes back to itself,
        // unless it lands on a month's end (28 December + 2 months is 28 February 2001, February's
        // end, which goes back to 31 December).
        if (isLastDayOfMonth(date)) {
          expect(isLastDayOfMonth(there)).toBe(true);
          expect(addMonthsKeepingMonthEnd(there, -months).toString()).toBe(date.toString());
        } else if (date.day <= 28 && !isLastDayOfMonth(there)) {
          expect(addMonthsKeepingMonthEnd(there, -months).toString()).toBe(date.toString());
        }
        expect((there.year - date.year) * 12 + there.month - date.month).toBe(months);
      }),
    );
  });
});

describe("the holiday calendars", () => {
  it("S-DUE-03 us-irs 2025: the federal holidays D.C. keeps, Emancipation Day, Inauguration Day and a day of mourning (OPM's 2025 list; D.C. Code 1-612.02)", () => {
    expect(days("us-irs", 2025)).toEqual([
      "2025-01-01 New Year's Day",
      "2025-01-09 National Day of Mourning for President Carter",
      "2025-01-20 Martin Luther King Jr. Day",
      "2025-01-20 Inauguration Day",
      "2025-02-17 Washington's Birthday",
      "2025-04-16 DC Emancipation Day",
      "2025-05-26 Memorial Day",
      "2025-06-19 Juneteenth National Independence Day",
      "2025-07-04 Independence Day",
      "2025-09-01 Labor Day",
      "2025-10-13 Columbus Day",
      "2025-11-11 Veterans Day",
      "2025-11-27 Thanksgiving Day",
      "2025-12-25 Christmas Day",
    ]);
  });

  it("S-DUE-03 us-irs observance: Saturday's holiday on the Friday before (also in the year before), Sunday's on the Monday after", () => {
    // 1 Jan 2022 was a Saturday: observed Friday 31 Dec 2021 (OPM). 16 Apr 2011 a Saturday, 2017 a Sunday.
    expect(days("us-irs", 2021)).toContain("2021-12-31 New Year's Day (observed)");
    expect(days("us-irs", 2021)).toContain("2021-06-18 Juneteenth National Independence Day (observed)");
    expect(days("us-irs", 2022)).not.toContain("2022-01-01 New Year's Day");
    expect(days("us-irs", 2011)).toContain("2011-04-15 DC Emancipation Day (observed)");
    expect(days("us-irs", 2017)).toContain("2017-04-17 DC Emancipation Day (observed)");
    // Inauguration Day moves only from a Sunday (5 U.S.C. 6103(c)): 20 Jan 2013 to Monday the 21st.
    expect(days("us-irs", 2013)).toContain("2013-01-21 Inauguration Day (observed)");
    expect(days("us-irs", 2029).some((day) => day.includes("Inauguration"))).toBe(false);
    expect(days("us-irs", 2033)).toContain("2033-01-20 Inauguration Day");
    // Juneteenth is a holiday from 2021, Emancipation Day from 2005.
    expect(days("us-irs", 2020).some((day) => day.includes("Juneteenth"))).toBe(false);
    expect(days("us-irs", 2004).some((day) => day.includes("Emancipation"))).toBe(false);
  });

  it("S-DUE-03 us-irs statewide holidays only for that state: Patriots' Day in Massachusetts and Maine", () => {
    expect(days("us-irs", 2011, "MA")).toContain("2011-04-18 Patriots' Day");
    expect(days("us-irs", 2011, "ME")).toContain("2011-04-18 Patriots' Day");
    expect(days("us-irs", 2011, "NY").some((day) => day.includes("Patriots"))).toBe(false);
    expect(days("us-irs", 2011).some((day) => day.includes("Patriots"))).toBe(false);
  });

  it("S-DUE-04 uk-eaw 2026, 2022 and 2020 as gov.uk/bank-holidays lists them, moved and one-off days included", () => {
    expect(days("uk-eaw", 2026)).toEqual([
      "2026-01-01 New Year's Day",
      "2026-04-03 Good Friday",
      "2026-04-06 Easter Monday",
      "2026-05-04 Early May bank holiday",
      "2026-05-25 Spring bank holiday",
      "2026-08-31 Summer bank holiday",
      "2026-12-25 Christmas Day",
      "2026-12-28 Boxing Day (substitute day)",
    ]);
    expect(days("uk-eaw", 2022)).toEqual([
      "2022-01-03 New Year's Day (substitute day)",
      "2022-04-15 Good Friday",
      "2022-04-18 Easter Monday",
      "2022-05-02 Early May bank holiday",
      "2022-06-02 Spring bank holiday",
      "2022-06-03 Platinum Jubilee bank holiday",
      "2022-08-29 Summer bank holiday",
      "2022-09-19 Bank holiday for the State Funeral of Queen Elizabeth II",
      "2022-12-26 Boxing Day",
      "2022-12-27 Christmas Day (substitute day)",
    ]);
    expect(days("uk-eaw", 2020)).toContain("2020-05-08 Early May bank holiday");
    expect(days("uk-eaw", 2020)).not.toContain("2020-05-04 Early May bank holiday");
    // Christmas on a Saturday and Boxing Day on a Sunday: Monday 27 and Tuesday 28 December.
    expect(days("uk-eaw", 2027).slice(-2)).toEqual([
      "2027-12-27 Christmas Day (substitute day)",
      "2027-12-28 Boxing Day (substitute day)",
    ]);
  });

  it("S-DUE-04 uk-sco 2026 and 2022, and uk-ni 2026 (gov.uk/bank-holidays)", () => {
    expect(days("uk-sco", 2026)).toEqual([
      "2026-01-01 New Year's Day",
      "2026-01-02 2nd January",
      "2026-04-03 Good Friday",
      "2026-05-04 Early May bank holiday",
      "2026-05-25 Spring bank holiday",
      "2026-08-03 Summer bank holiday",
      "2026-11-30 St Andrew's Day",
      "2026-12-25 Christmas Day",
      "2026-12-28 Boxing Day (substitute day)",
    ]);
    expect(days("uk-sco", 2022).slice(0, 2)).toEqual([
      "2022-01-03 New Year's Day (substitute day)",
      "2022-01-04 2nd January (substitute day)",
    ]);
    expect(days("uk-ni", 2026)).toEqual([
      "2026-01-01 New Year's Day",
      "2026-03-17 St Patrick's Day",
      "2026-04-03 Good Friday",
      "2026-04-06 Easter Monday",
      "2026-05-04 Early May bank holiday",
      "2026-05-25 Spring bank holiday",
      "2026-07-13 Battle of the Boyne (Orangemen's Day) (substitute day)",
      "2026-08-31 Summer bank holiday",
      "2026-12-25 Christmas Day",
      "2026-12-28 Boxing Day (substitute day)",
    ]);
  });

  it("S-DUE-02 a shifted date is never a weekend or holiday of its calendar, and shifting is idempotent (property)", () => {
    const ids = allHolidayCalendars().map((each) => each.id);
    fc.assert(
      fc.property(
        fc.constantFrom(...ids),
        fc.integer({ min: 0, max: 365 * 95 }),
        fc.constantFrom(undefined, "MA", "ME", "CA"),
        (id, offset, state) => {
          const closed = { calendar: calendar(id), ...(id === "us-irs" && state ? { state } : {}) };
          const date = civilDate(2001, 1, 1).add({ days: offset });
          const next = nextBusinessDay(date, closed);
          const previous = previousWorkingDay(date, closed);
          for (const day of [next, previous]) {
            expect(day.dayOfWeek).toBeLessThan(6);
            expect(holidayOn(closed.calendar, day, closed.state)).toBeUndefined();
          }
          expect(nextBusinessDay(next, closed).toString()).toBe(next.toString());
          expect(previousWorkingDay(previous, closed).toString()).toBe(previous.toString());
          // Nothing open is skipped: every day passed over is closed.
          for (let day = date; day.toString() < next.toString(); day = day.add({ days: 1 }))
            expect(day.dayOfWeek >= 6 || holidayOn(closed.calendar, day, closed.state) !== undefined).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("S-DUE-03 one-off closures move deadlines like any holiday: the days of mourning of 2018 and 2025", () => {
    const irs = { calendar: calendar("us-irs") };
    expect(nextBusinessDay(civilDate(2018, 12, 5), irs).toString()).toBe("2018-12-06");
    expect(nextBusinessDay(civilDate(2025, 1, 9), irs).toString()).toBe("2025-01-10");
    // 20 Jan 2013, a Sunday: Monday the 21st is both Martin Luther King Jr. Day and Inauguration Day (observed).
    expect(nextBusinessDay(civilDate(2013, 1, 20), irs).toString()).toBe("2013-01-22");
  });
});
