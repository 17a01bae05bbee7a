import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { civilDate, dayAt, endOfDay, startOfDay } from "./civil-date";
import { dueDatesFor } from "./due-date-engine";
import { type DueDateRule, dueDateRule, dueDateRules } from "./due-date-rules";
import { periodsDueBy, rulePeriods } from "./rule-periods";

const rule = (id: string): DueDateRule => {
  const found = dueDateRule(id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};
const text = (period: { start: { toString(): string }; end: { toString(): string } }) =>
  `${period.start.toString()}..${period.end.toString()}`;

describe("a client's periods under a rule", () => {
  it("S-DUE-19 a period ends where its kind says, with the client's fiscal year end where the rule has a fiscal year", () => {
    const on = (day: string) => {
      const [y, m, d] = day.split("-").map(Number);
      return civilDate(y ?? 0, m ?? 0, d ?? 0);
    };
    const cases: [string, string | null, string, string][] = [
      // rule, fiscal year end, the day, the latest period ended by the end of that day
      ["us-1040", null, "2026-11-29", "2025-01-01..2025-12-31"],
      ["us-1040", null, "2026-12-31", "2026-01-01..2026-12-31"],
      ["us-1120", "06-30", "2026-11-29", "2025-07-01..2026-06-30"],
      // A US tax year ends on a month's last day, whatever day the client gave.
      ["us-1120", "06-15", "2026-11-29", "2025-07-01..2026-06-30"],
      ["us-941", "06-30", "2026-11-29", "2026-07-01..2026-09-30"],
      ["us-w2", "06-30", "2026-11-29", "2025-01-01..2025-12-31"],
      ["uk-ch-accounts", "03-31", "2026-11-29", "2025-04-01..2026-03-31"],
      ["uk-ct-payment", "06-15", "2026-11-29", "2025-06-16..2026-06-15"],
      // 29 February stands for February's last day: 28 February in other years.
      ["uk-ct600", "02-29", "2026-11-29", "2025-03-01..2026-02-28"],
      ["uk-ct600", "02-29", "2028-03-01", "2027-03-01..2028-02-29"],
      // A year end of 28 February gives a leap year's 29 February to the next year.
      ["uk-ct600", "02-28", "2005-03-01", "2004-02-29..2005-02-28"],
      // VAT quarters from the year end's month: a March year end gives Mar, Jun, Sep, Dec.
      ["uk-vat-quarter", "03-31", "2026-11-29", "2026-07-01..2026-09-30"],
      ["uk-vat-quarter", "01-31", "2026-11-29", "2026-08-01..2026-10-31"],
      ["uk-sa-online", null, "2026-11-29", "2025-04-06..2026-04-05"],
      ["uk-paye-monthly", null, "2026-11-29", "2026-10-06..2026-11-05"],
      ["uk-paye-monthly", null, "2026-11-04", "2026-09-06..2026-10-05"],
    ];
    for (const [id, fiscalYearEnd, day, expected] of cases)
      expect(`${id} ${fiscalYearEnd} ${day}: ${text(rulePeriods(rule(id), fiscalYearEnd).endedBy(on(day)))}`).toBe(
        `${id} ${fiscalYearEnd} ${day}: ${expected}`,
      );
    expect(rulePeriods(rule("us-1120"), null).assumed).toMatch(/no fiscal year end/);
    expect(rulePeriods(rule("us-1120"), "06-15").assumed).toMatch(/taken to its month's last day/);
    expect(rulePeriods(rule("us-1120"), "06-30").assumed).toBeUndefined();
  });

  it("S-DUE-19 periods follow one another without gap or overlap, each one the rule takes, for every rule and year end", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dueDateRules),
        fc.option(
          fc
            .record({ month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
            .filter(({ month, day }) => day <= civilDate(2000, month, 1).daysInMonth),
        ),
        fc.integer({ min: 0, max: 365 * 60 }),
        (each, yearEnd, offset) => {
          const fiscalYearEnd = yearEnd
            ? `${String(yearEnd.month).padStart(2, "0")}-${String(yearEnd.day).padStart(2, "0")}`
            : null;
          const periods = rulePeriods(each, fiscalYearEnd);
          const day = civilDate(2005, 1, 1).add({ days: offset });
          const ended = periods.endedBy(day);
          const next = periods.after(ended);
          // The period ended by `day` ends on or before it; the next one ends after it.
          expect(ended.end.toString() <= day.toString()).toBe(true);
          expect(next.end.toString() > day.toString()).toBe(true);
          expect(next.start.equals(ended.end.add({ days: 1 }))).toBe(true);
          // The engine takes each period whole, and gives it one set of dates.
          const dates = dueDatesFor(each, { periodEnd: next.end.toString(), periodStart: next.start.toString() });
          expect(dates.dueDate.toString() >= dates.statutoryDate.toString() || each.jurisdiction === "UK").toBe(true);
        },
      ),
    );
  });

  it("S-DUE-19 a new schedule makes the latest ended period's task only while it is still due; later ones each once, the day after the period ends", () => {
    const us1040 = rule("us-1040");
    const common = { rule: us1040, fiscalYearEnd: null, state: null, max: 1000 };
    // Assigned in February: the year just ended is due on 15 April.
    const february = periodsDueBy({ ...common, handledThrough: null, today: civilDate(2027, 2, 10) });
    expect(february.made.map(({ period, dates }) => [text(period), dates.dueDate.toString()])).toEqual([
      ["2026-01-01..2026-12-31", "2027-04-15"],
    ]);
    expect(february.handledThrough.toString()).toBe("2026-12-31");
    expect(february.nextMadeOn.toString()).toBe("2028-01-01");
    // Assigned in November: that deadline has passed, so nothing until the year ends.
    const november = periodsDueBy({ ...common, handledThrough: null, today: civilDate(2026, 11, 29) });
    expect(november.made).toEqual([]);
    expect(november.handledThrough.toString()).toBe("2025-12-31");
    // On the last day of the year nothing yet; the next day, the year's task.
    expect(periodsDueBy({ ...common, handledThrough: "2025-12-31", today: civilDate(2026, 12, 31) }).made).toEqual([]);
    const newYear = periodsDueBy({ ...common, handledThrough: "2025-12-31", today: civilDate(2027, 1, 1) });
    expect(newYear.made.map(({ period }) => text(period))).toEqual(["2026-01-01..2026-12-31"]);
    // After a downtime every missed period, oldest first, at most `max`.
    const paye = { ...common, rule: rule("uk-paye-monthly") };
    const missed = periodsDueBy({ ...paye, handledThrough: "2026-01-05", today: civilDate(2026, 5, 6) });
    expect(missed.made.map(({ period }) => period.end.toString())).toEqual([
      "2026-02-05",
      "2026-03-05",
      "2026-04-05",
      "2026-05-05",
    ]);
    expect(
      periodsDueBy({ ...paye, max: 2, handledThrough: "2026-01-05", today: civilDate(2026, 5, 6) }).made.map(
        ({ period }) => period.end.toString(),
      ),
    ).toEqual(["2026-04-05", "2026-05-05"]);
  });

  it("S-DUE-19 after a change of year end the next period is short, starting the day after the last one handled; the state moves filings", () => {
    const ct600 = rule("uk-ct600");
    const changed = periodsDueBy({
      rule: ct600,
      fiscalYearEnd: "06-30",
      state: null,
      handledThrough: "2025-12-31",
      today: civilDate(2026, 7, 1),
      max: 1000,
    });
    expect(changed.made.map(({ period }) => text(period))).toEqual(["2026-01-01..2026-06-30"]);
    const withoutYearEnd = periodsDueBy({
      rule: rule("us-1120"),
      fiscalYearEnd: null,
      state: null,
      handledThrough: null,
      today: civilDate(2027, 2, 1),
      max: 1000,
    });
    expect(withoutYearEnd.made[0]?.dates.explanation[0]).toMatch(/no fiscal year end/);
    // 15 April 2024 was Patriots' Day and the 16th DC Emancipation Day: a Massachusetts filer's
    // 1040 for 2023 was due on the 17th, as the IRS announced that year; everyone else's on the 15th.
    const massachusetts = periodsDueBy({
      rule: rule("us-1040"),
      fiscalYearEnd: null,
      state: "MA",
      handledThrough: null,
      today: civilDate(2024, 1, 5),
      max: 1000,
    });
    expect(massachusetts.made[0]?.dates.dueDate.toString()).toBe("2024-04-17");
  });

  it("S-DUE-19 a firm's today and a day's first and last instants follow its time zone", () => {
    const instant = new Date("2026-01-01T03:00:00Z");
    expect(dayAt(instant, "America/New_York").toString()).toBe("2025-12-31");
    expect(dayAt(instant, "Europe/London").toString()).toBe("2026-01-01");
    expect(startOfDay(civilDate(2027, 4, 15), "America/New_York").toISOString()).toBe("2027-04-15T04:00:00.000Z");
    expect(endOfDay(civilDate(2027, 4, 15), "America/New_York").toISOString()).toBe("2027-04-16T03:59:59.999Z");
    expect(endOfDay(civilDate(2027, 1, 31), "Europe/London").toISOString()).toBe("2027-01-31T23:59:59.999Z");
  });
});
