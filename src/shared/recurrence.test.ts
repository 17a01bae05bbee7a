import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dueDateOf,
  isValidTimeZone,
  maxPeriodsToMaterialize,
  nextPeriod,
  type Period,
  periodContaining,
  periodsToMaterialize,
} from "./recurrence";
import { frequencies } from "./tasks";

const HOUR_MS = 3_600_000;

function at(iso: string): Date {
  return new Date(iso);
}

function isoOf(period: Period): { start: string; end: string } {
  return { start: period.start.toISOString(), end: period.end.toISOString() };
}

function hoursIn(period: Period): number {
  return (period.end.getTime() - period.start.getTime()) / HOUR_MS;
}

// Zones with every awkward feature: DST north and south, half-hour and 45-minute offsets,
// +14, a skipped day (Apia, 2011), and midnights skipped by DST (Santiago, Sao Paulo, Havana).
const zones = [
  "UTC",
  "Europe/London",
  "Europe/Berlin",
  "America/New_York",
  "America/Santiago",
  "America/Sao_Paulo",
  "America/Havana",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Pacific/Kiritimati",
  "Pacific/Apia",
] as const;

describe("month ends in UTC", () => {
  it("puts Jan 31 in January, due on its last millisecond", () => {
    const period = periodContaining("monthly", at("2025-01-31T12:00:00Z"), "UTC");
    expect(isoOf(period)).toEqual({ start: "2025-01-01T00:00:00.000Z", end: "2025-02-01T00:00:00.000Z" });
    expect(dueDateOf(period).toISOString()).toBe("2025-01-31T23:59:59.999Z");
  });

  it("ends February of a leap year on Mar 1, due Feb 29", () => {
    const period = periodContaining("monthly", at("2024-02-10T08:00:00Z"), "UTC");
    expect(isoOf(period)).toEqual({ start: "2024-02-01T00:00:00.000Z", end: "2024-03-01T00:00:00.000Z" });
    expect(dueDateOf(period).toISOString()).toBe("2024-02-29T23:59:59.999Z");
  });

  it("ends February of a common year on Mar 1, due Feb 28", () => {
    const period = periodContaining("monthly", at("2025-02-10T08:00:00Z"), "UTC");
    expect(period.end.toISOString()).toBe("2025-03-01T00:00:00.000Z");
    expect(dueDateOf(period).toISOString()).toBe("2025-02-28T23:59:59.999Z");
  });

  it("ends December on Jan 1 of the next year", () => {
    const period = periodContaining("monthly", at("2025-12-31T23:59:59.999Z"), "UTC");
    expect(isoOf(period)).toEqual({ start: "2025-12-01T00:00:00.000Z", end: "2026-01-01T00:00:00.000Z" });
  });
});

describe("period boundaries of each frequency in UTC", () => {
  it("puts the last minute of Mar 31 in Q1 and Apr 1 00:00 in Q2", () => {
    expect(isoOf(periodContaining("quarterly", at("2025-03-31T23:59:00Z"), "UTC"))).toEqual({
      start: "2025-01-01T00:00:00.000Z",
      end: "2025-04-01T00:00:00.000Z",
    });
    expect(isoOf(periodContaining("quarterly", at("2025-04-01T00:00:00Z"), "UTC"))).toEqual({
      start: "2025-04-01T00:00:00.000Z",
      end: "2025-07-01T00:00:00.000Z",
    });
  });

  it("has quarters Jul-Sep and Oct-Dec", () => {
    expect(isoOf(periodContaining("quarterly", at("2025-08-15T00:00:00Z"), "UTC"))).toEqual({
      start: "2025-07-01T00:00:00.000Z",
      end: "2025-10-01T00:00:00.000Z",
    });
    expect(dueDateOf(periodContaining("quarterly", at("2025-11-15T00:00:00Z"), "UTC")).toISOString()).toBe(
      "2025-12-31T23:59:59.999Z",
    );
  });

  it("makes the annual period the calendar year", () => {
    const period = periodContaining("annually", at("2024-07-04T15:00:00Z"), "UTC");
    expect(isoOf(period)).toEqual({ start: "2024-01-01T00:00:00.000Z", end: "2025-01-01T00:00:00.000Z" });
    expect(dueDateOf(period).toISOString()).toBe("2024-12-31T23:59:59.999Z");
  });

  it("runs a week from Monday to Monday: a Sunday belongs to the week before, a Monday starts one", () => {
    // 2025-06-08 is a Sunday, 2025-06-09 a Monday.
    expect(isoOf(periodContaining("weekly", at("2025-06-08T23:00:00Z"), "UTC"))).toEqual({
      start: "2025-06-02T00:00:00.000Z",
      end: "2025-06-09T00:00:00.000Z",
    });
    expect(isoOf(periodContaining("weekly", at("2025-06-09T00:00:00Z"), "UTC"))).toEqual({
      start: "2025-06-09T00:00:00.000Z",
      end: "2025-06-16T00:00:00.000Z",
    });
  });

  it("lets an ISO week straddle the new year", () => {
    // 2025-01-01 is a Wednesday; its ISO week starts Monday 2024-12-30.
    expect(isoOf(periodContaining("weekly", at("2025-01-01T10:00:00Z"), "UTC"))).toEqual({
      start: "2024-12-30T00:00:00.000Z",
      end: "2025-01-06T00:00:00.000Z",
    });
  });

  it("makes a daily period the calendar day", () => {
    const period = periodContaining("daily", at("2025-05-20T00:00:00Z"), "UTC");
    expect(isoOf(period)).toEqual({ start: "2025-05-20T00:00:00.000Z", end: "2025-05-21T00:00:00.000Z" });
    expect(dueDateOf(period).toISOString()).toBe("2025-05-20T23:59:59.999Z");
    expect(periodContaining("daily", at("2025-05-20T23:59:59.999Z"), "UTC")).toEqual(period);
  });
});

describe("periods in the firm's time zone", () => {
  it("puts 2025-03-31T23:30Z in April in Berlin, where it is 01:30 on Apr 1", () => {
    const period = periodContaining("monthly", at("2025-03-31T23:30:00Z"), "Europe/Berlin");
    expect(isoOf(period)).toEqual({ start: "2025-03-31T22:00:00.000Z", end: "2025-04-30T22:00:00.000Z" });
    expect(dueDateOf(period).toISOString()).toBe("2025-04-30T21:59:59.999Z");
  });

  it("gives New York a 23-hour day when DST starts and a 25-hour day when it ends", () => {
    const springForward = periodContaining("daily", at("2025-03-09T12:00:00Z"), "America/New_York");
    expect(isoOf(springForward)).toEqual({ start: "2025-03-09T05:00:00.000Z", end: "2025-03-10T04:00:00.000Z" });
    expect(hoursIn(springForward)).toBe(23);
    const fallBack = periodContaining("daily", at("2025-11-02T12:00:00Z"), "America/New_York");
    expect(isoOf(fallBack)).toEqual({ start: "2025-11-02T04:00:00.000Z", end: "2025-11-03T05:00:00.000Z" });
    expect(hoursIn(fallBack)).toBe(25);
  });

  it("shortens by an hour the New York week and month that contain the DST start", () => {
    expect(hoursIn(periodContaining("weekly", at("2025-03-09T12:00:00Z"), "America/New_York"))).toBe(7 * 24 - 1);
    expect(hoursIn(periodContaining("monthly", at("2025-03-09T12:00:00Z"), "America/New_York"))).toBe(31 * 24 - 1);
  });

  it("puts Kolkata (+05:30) boundaries at 18:30 UTC", () => {
    expect(isoOf(periodContaining("daily", at("2025-06-30T18:29:59Z"), "Asia/Kolkata"))).toEqual({
      start: "2025-06-29T18:30:00.000Z",
      end: "2025-06-30T18:30:00.000Z",
    });
    expect(isoOf(periodContaining("quarterly", at("2025-06-30T18:30:00Z"), "Asia/Kolkata"))).toEqual({
      start: "2025-06-30T18:30:00.000Z",
      end: "2025-09-30T18:30:00.000Z",
    });
  });

  it("puts Kiritimati (+14) a calendar day ahead of UTC", () => {
    // 2025-12-31T10:00Z is already Jan 1 2026, 00:00, in Kiritimati.
    expect(isoOf(periodContaining("annually", at("2025-12-31T10:00:00Z"), "Pacific/Kiritimati"))).toEqual({
      start: "2025-12-31T10:00:00.000Z",
      end: "2026-12-31T10:00:00.000Z",
    });
    expect(periodContaining("annually", at("2025-12-31T09:59:59.999Z"), "Pacific/Kiritimati").end.toISOString()).toBe(
      "2025-12-31T10:00:00.000Z",
    );
  });

  it("starts a day whose midnight DST skipped at its first instant, 01:00 local", () => {
    // Santiago went from 2022-09-10 23:59:59 (-04) straight to 2022-09-11 01:00 (-03).
    const santiago = periodContaining("daily", at("2022-09-11T12:00:00Z"), "America/Santiago");
    expect(isoOf(santiago)).toEqual({ start: "2022-09-11T04:00:00.000Z", end: "2022-09-12T03:00:00.000Z" });
    expect(hoursIn(santiago)).toBe(23);
    expect(dueDateOf(periodContaining("daily", at("2022-09-10T12:00:00Z"), "America/Santiago")).toISOString()).toBe(
      "2022-09-11T03:59:59.999Z",
    );
    expect(periodContaining("monthly", at("2018-11-20T12:00:00Z"), "America/Sao_Paulo").start.toISOString()).toBe(
      "2018-11-01T03:00:00.000Z",
    );
    expect(periodContaining("weekly", at("2018-11-04T12:00:00Z"), "America/Sao_Paulo").end.toISOString()).toBe(
      "2018-11-05T02:00:00.000Z",
    );
    expect(periodContaining("daily", at("2018-11-04T12:00:00Z"), "America/Sao_Paulo").start.toISOString()).toBe(
      "2018-11-04T03:00:00.000Z",
    );
  });

  it("starts a day once when clocks fall back over midnight", () => {
    // Sao Paulo went from 2019-02-16 23:59:59 (-02) back to 23:00 (-03): Feb 16 lasted 25 hours.
    const saturday = periodContaining("daily", at("2019-02-16T12:00:00Z"), "America/Sao_Paulo");
    expect(isoOf(saturday)).toEqual({ start: "2019-02-16T02:00:00.000Z", end: "2019-02-17T03:00:00.000Z" });
    expect(hoursIn(saturday)).toBe(25);
  });

  it("goes straight from Dec 29 to Dec 31 2011 in Apia, which skipped Dec 30", () => {
    const dec29 = periodContaining("daily", at("2011-12-29T12:00:00Z"), "Pacific/Apia");
    const following = nextPeriod("daily", dec29, "Pacific/Apia");
    expect(following.start).toEqual(dec29.end);
    expect(hoursIn(following)).toBe(24);
    expect(periodContaining("monthly", dec29.start, "Pacific/Apia")).toEqual(
      periodContaining("monthly", following.start, "Pacific/Apia"),
    );
  });

  it("rejects an unknown time zone and an invalid date with a RangeError", () => {
    expect(() => periodContaining("daily", at("2025-01-01T00:00:00Z"), "Mars/Base")).toThrow(RangeError);
    expect(() => periodContaining("daily", new Date(Number.NaN), "UTC")).toThrow(RangeError);
  });
});

describe("nextPeriod", () => {
  it("returns the period starting where the given one ends", () => {
    const q4 = periodContaining("quarterly", at("2025-11-01T00:00:00Z"), "UTC");
    expect(isoOf(nextPeriod("quarterly", q4, "UTC"))).toEqual({
      start: "2026-01-01T00:00:00.000Z",
      end: "2026-04-01T00:00:00.000Z",
    });
  });

  const expectedCounts = { daily: 365, weekly: 52, monthly: 12, quarterly: 4, annually: 1 } as const;
  for (const timeZone of ["UTC", "America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Lord_Howe"]) {
    it(`chains contiguous periods of every frequency through 2025 in ${timeZone}`, () => {
      for (const frequency of frequencies) {
        const year = periodContaining("annually", at("2025-06-01T00:00:00Z"), timeZone);
        const yearEnd = year.end;
        let period = periodContaining(frequency, year.start, timeZone);
        expect(period.start.getTime()).toBeLessThanOrEqual(year.start.getTime());
        let count = 1;
        while (period.end.getTime() < yearEnd.getTime()) {
          const next = nextPeriod(frequency, period, timeZone);
          expect(next.start).toEqual(period.end);
          expect(next.end.getTime()).toBeGreaterThan(next.start.getTime());
          period = next;
          count += 1;
        }
        expect(period.end.getTime()).toBeGreaterThanOrEqual(yearEnd.getTime());
        // 2025 starts on a Wednesday, so its first and last ISO weeks are shared with other years.
        expect(count).toBe(frequency === "weekly" ? 53 : expectedCounts[frequency]);
      }
    });
  }
});

describe("periods as a whole (property)", () => {
  const instant = fc.date({
    min: at("1990-01-01T00:00:00Z"),
    max: at("2100-12-31T23:59:59.999Z"),
    noInvalidDate: true,
  });
  const frequency = fc.constantFrom(...frequencies);
  const timeZone = fc.constantFrom(...zones);

  it("contains the instant, chains to the next period, and finds itself again from its due date", () => {
    fc.assert(
      fc.property(instant, frequency, timeZone, (moment, freq, zone) => {
        const period = periodContaining(freq, moment, zone);
        expect(period.start.getTime()).toBeLessThanOrEqual(moment.getTime());
        expect(moment.getTime()).toBeLessThan(period.end.getTime());
        expect(nextPeriod(freq, period, zone).start).toEqual(period.end);
        expect(periodContaining(freq, dueDateOf(period), zone)).toEqual(period);
        expect(periodContaining(freq, period.start, zone)).toEqual(period);
      }),
      { numRuns: 500 },
    );
  });

  it("materializes contiguous periods from the one containing the start to the one containing now", () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 400 * 86_400_000 }),
        frequency,
        timeZone,
        (startsAt, elapsed, freq, zone) => {
          const now = new Date(startsAt.getTime() + elapsed);
          const periods = periodsToMaterialize(freq, { startsAt }, now, zone);
          expect(periods.length).toBeGreaterThan(0);
          expect(periods[0]).toEqual(periodContaining(freq, startsAt, zone));
          expect(periods.at(-1)).toEqual(periodContaining(freq, now, zone));
          for (let index = 1; index < periods.length; index += 1) {
            expect(periods[index]?.start).toEqual(periods[index - 1]?.end);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("periodsToMaterialize", () => {
  it("includes the period a schedule started in the middle of", () => {
    const periods = periodsToMaterialize(
      "monthly",
      { startsAt: at("2025-03-20T09:00:00Z") },
      at("2025-03-21T00:00:00Z"),
      "UTC",
    );
    expect(periods.map(isoOf)).toEqual([{ start: "2025-03-01T00:00:00.000Z", end: "2025-04-01T00:00:00.000Z" }]);
  });

  it("returns nothing before the schedule starts", () => {
    expect(
      periodsToMaterialize("daily", { startsAt: at("2025-03-20T09:00:00Z") }, at("2025-03-20T08:59:59.999Z"), "UTC"),
    ).toEqual([]);
  });

  it("returns the one current period when now is the start", () => {
    const startsAt = at("2025-03-20T09:00:00Z");
    expect(periodsToMaterialize("weekly", { startsAt }, startsAt, "UTC")).toEqual([
      periodContaining("weekly", startsAt, "UTC"),
    ]);
  });

  it("returns January to April for a monthly schedule from Jan 15 on Apr 2", () => {
    const periods = periodsToMaterialize(
      "monthly",
      { startsAt: at("2025-01-15T00:00:00Z") },
      at("2025-04-02T00:00:00Z"),
      "UTC",
    );
    expect(periods).toHaveLength(4);
    expect(periods.map((period) => dueDateOf(period).toISOString())).toEqual([
      "2025-01-31T23:59:59.999Z",
      "2025-02-28T23:59:59.999Z",
      "2025-03-31T23:59:59.999Z",
      "2025-04-30T23:59:59.999Z",
    ]);
  });

  it("follows the firm's time zone", () => {
    // 2025-01-31T23:30Z is already February in Berlin.
    const periods = periodsToMaterialize(
      "monthly",
      { startsAt: at("2025-01-31T23:30:00Z") },
      at("2025-03-01T12:00:00Z"),
      "Europe/Berlin",
    );
    expect(periods.map((period) => period.start.toISOString())).toEqual([
      "2025-01-31T23:00:00.000Z",
      "2025-02-28T23:00:00.000Z",
    ]);
  });

  it("keeps only the latest 1000 periods of a daily schedule started decades ago, ending with today", () => {
    const now = at("2025-06-15T13:00:00Z");
    const periods = periodsToMaterialize("daily", { startsAt: at("1995-01-01T00:00:00Z") }, now, "America/New_York");
    expect(maxPeriodsToMaterialize).toBe(1000);
    expect(periods).toHaveLength(1000);
    expect(periods.at(-1)).toEqual(periodContaining("daily", now, "America/New_York"));
    expect(periods[0]?.start.toISOString()).toBe("2022-09-20T04:00:00.000Z");
  });

  it("returns exactly 1000 periods, all of them, when that is how many there are", () => {
    const startsAt = at("2025-01-01T00:00:00Z");
    const now = new Date(startsAt.getTime() + 999 * 86_400_000);
    const periods = periodsToMaterialize("daily", { startsAt }, now, "UTC");
    expect(periods).toHaveLength(1000);
    expect(periods[0]?.start).toEqual(startsAt);
  });
});

describe("isValidTimeZone", () => {
  it.each(["UTC", "Europe/London", "America/New_York", "Asia/Kolkata"])("accepts %s", (timeZone) => {
    expect(isValidTimeZone(timeZone)).toBe(true);
  });

  it.each(["Mars/Base", "", "UTC+5"])("rejects %j", (timeZone) => {
    expect(isValidTimeZone(timeZone)).toBe(false);
  });
});
