import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CivilDate, civilDate } from "./civil-date";
import { DueDateInputError, type DueDatesInput, dueDatesFor } from "./due-date-engine";
import { type DueDateRule, dueDateRule, dueDateRules } from "./due-date-rules";
import { holidayCalendar, holidayOn } from "./holiday-calendars";

const rule = (id: string): DueDateRule => {
  const found = dueDateRule(id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};

/** [periodEnd, statutory, due, extended or null, clear-by or null] */
type Example = [string, string, string, string | null, string | null];

function check(id: string, examples: Example[], input: Omit<DueDatesInput, "periodEnd"> = {}) {
  for (const [periodEnd, statutory, due, extended, clearBy] of examples) {
    const dates = dueDatesFor(rule(id), { periodEnd, ...input });
    expect(
      [dates.statutoryDate, dates.dueDate, dates.extendedDueDate, dates.clearByDate].map(
        (date) => date?.toString() ?? null,
      ),
      `${id} for the period ending ${periodEnd}`,
    ).toEqual([statutory, due, extended, clearBy]);
  }
}

describe("worked examples: US federal deadlines (IRC 7503: the next day that is no Saturday, Sunday or D.C. legal holiday)", () => {
  it("S-DUE-05 us-1040, IRS Publication 509 (2016, 2017, 2022, 2023, 2024 and 2025 editions) and Emancipation Day years", () => {
    check("us-1040", [
      ["2015-12-31", "2016-04-15", "2016-04-18", "2016-10-17", null], // 15 Apr 2016: Emancipation Day (observed)
      ["2016-12-31", "2017-04-15", "2017-04-18", "2017-10-16", null], // 17 Apr 2017: Emancipation Day (observed)
      ["2021-12-31", "2022-04-15", "2022-04-18", "2022-10-17", null],
      ["2022-12-31", "2023-04-15", "2023-04-18", "2023-10-16", null],
      ["2023-12-31", "2024-04-15", "2024-04-15", "2024-10-15", null],
      ["2024-12-31", "2025-04-15", "2025-04-15", "2025-10-15", null],
      ["2027-12-31", "2028-04-15", "2028-04-18", "2028-10-16", null],
      ["2028-12-31", "2029-04-15", "2029-04-17", "2029-10-15", null], // Monday 16 Apr 2029 is Emancipation Day itself
    ]);
  });

  it("S-DUE-05 the explanation says each day passed over and why (the 2028 Emancipation Day case)", () => {
    const { explanation } = dueDatesFor(rule("us-1040"), { periodEnd: "2027-12-31" });
    expect(explanation).toEqual([
      "The 15th day of the 4th month after the tax year ends: 15 Apr 2028 (IRC 6072(a), 6151(a); Treas. Reg. 1.6081-4 (extension))",
      "15 Apr 2028 is a Saturday",
      "16 Apr 2028 is a Sunday",
      "17 Apr 2028 is DC Emancipation Day (observed)",
      "due Tue 18 Apr 2028",
      "with an extension (Form 4868), 6 months after 15 Apr 2028, the unshifted date: 15 Oct 2028",
      "15 Oct 2028 is a Sunday",
      "extended due Mon 16 Oct 2028",
    ]);
  });

  it("S-DUE-06 an extension is counted from the unshifted statutory date, then shifted", () => {
    // 18 Apr 2028 + 6 months would be 18 Oct; the rule counts from 15 Apr: 15 Oct, a Sunday, so 16 Oct.
    expect(dueDatesFor(rule("us-1040"), { periodEnd: "2027-12-31" }).extendedDueDate?.toString()).toBe("2028-10-16");
    // The 5½ months of Form 1041 from 15 April end on 30 September (Form 7004 instructions).
    check("us-1041", [
      ["2024-12-31", "2025-04-15", "2025-04-15", "2025-09-30", null],
      ["2025-12-31", "2026-04-15", "2026-04-15", "2026-09-30", null],
    ]);
  });

  it("S-DUE-07 a statewide holiday moves filing, not payment: Patriots' Day 2011 for Massachusetts and Maine filers", () => {
    check("us-1040", [["2010-12-31", "2011-04-15", "2011-04-18", "2011-10-17", null]]);
    for (const state of ["MA", "ME", "ma"])
      check("us-1040", [["2010-12-31", "2011-04-15", "2011-04-19", "2011-10-17", null]], { state });
    check("us-1040", [["2010-12-31", "2011-04-15", "2011-04-18", "2011-10-17", null]], { state: "NY" });
    const { explanation } = dueDatesFor(rule("us-1040"), { periodEnd: "2010-12-31", state: "MA" });
    expect(explanation).toContain("18 Apr 2011 is Patriots' Day, a statewide holiday in MA");
    expect(explanation).toContain("payment is still due Mon 18 Apr 2011: a statewide holiday moves filing only");
    // An estimated-tax payment never moves for a state's holiday (Patriots' Day 2016 was 18 April).
    check("us-1040-es-q1", [["2016-12-31", "2016-04-15", "2016-04-18", null, null]], { state: "MA" });
  });

  it("S-DUE-05 us-1040-es installments, IRS Publication 509 (2022, 2023, 2024 and 2025 editions)", () => {
    check("us-1040-es-q1", [
      ["2022-12-31", "2022-04-15", "2022-04-18", null, null],
      ["2024-12-31", "2024-04-15", "2024-04-15", null, null],
    ]);
    check("us-1040-es-q2", [
      ["2022-12-31", "2022-06-15", "2022-06-15", null, null],
      ["2024-12-31", "2024-06-15", "2024-06-17", null, null],
    ]);
    check("us-1040-es-q3", [
      ["2022-12-31", "2022-09-15", "2022-09-15", null, null],
      ["2024-12-31", "2024-09-15", "2024-09-16", null, null],
    ]);
    check("us-1040-es-q4", [
      ["2022-12-31", "2023-01-15", "2023-01-17", null, null], // Sunday, then Martin Luther King Jr. Day
      ["2023-12-31", "2024-01-15", "2024-01-16", null, null], // Martin Luther King Jr. Day
      ["2024-12-31", "2025-01-15", "2025-01-15", null, null],
    ]);
    // A fiscal year from 1 July: the 15th of its 4th, 6th and 9th months and of the month after it.
    const fiscal = ["us-1040-es-q1", "us-1040-es-q2", "us-1040-es-q3", "us-1040-es-q4"].map((id) =>
      dueDatesFor(rule(id), { periodEnd: "2026-06-30" }).statutoryDate.toString(),
    );
    expect(fiscal).toEqual(["2025-10-15", "2025-12-15", "2026-03-15", "2026-07-15"]);
  });

  it("S-DUE-05 us-1065 and us-1120s: the 15th of the 3rd month, 6 months more by Form 7004 (Publication 509); before 2016 a partnership's was the 4th month", () => {
    for (const id of ["us-1065", "us-1120s"]) {
      check(id, [
        ["2023-12-31", "2024-03-15", "2024-03-15", "2024-09-16", null],
        ["2024-12-31", "2025-03-15", "2025-03-17", "2025-09-15", null],
        ["2025-12-31", "2026-03-15", "2026-03-16", "2026-09-15", null],
      ]);
    }
    check("us-1065", [["2015-12-31", "2016-04-15", "2016-04-18", "2016-09-15", null]]);
  });

  it("S-DUE-08 us-1120: the rule follows the date the tax year BEGINS (June year ends before and after 2026)", () => {
    check("us-1120", [
      ["2025-12-31", "2026-04-15", "2026-04-15", "2026-10-15", null],
      ["2015-12-31", "2016-03-15", "2016-03-15", "2016-09-15", null], // before 2016: the 3rd month
      ["2026-06-30", "2026-09-15", "2026-09-15", "2027-04-15", null], // began 1 Jul 2025: 3rd month, 7 months more
      ["2027-06-30", "2027-10-15", "2027-10-15", "2028-04-18", null], // began 1 Jul 2026: 4th month, 6 months more
      ["2026-09-30", "2027-01-15", "2027-01-15", "2027-07-15", null],
    ]);
    // The same 30 June end, but a short year beginning 1 Mar 2026: the new rule.
    const short = dueDatesFor(rule("us-1120"), { periodEnd: "2026-06-30", periodStart: "2026-03-01" });
    expect([short.dueDate.toString(), short.extendedDueDate?.toString()]).toEqual(["2026-10-15", "2027-04-15"]);
    expect(short.explanation[0]).toContain("for tax years beginning after 31 Dec 2025");
  });

  it("S-DUE-05 us-990, us-941, us-940, us-w2 and us-1099-nec (Publication 509)", () => {
    check("us-990", [
      ["2024-12-31", "2025-05-15", "2025-05-15", "2025-11-17", null],
      ["2025-12-31", "2026-05-15", "2026-05-15", "2026-11-16", null],
    ]);
    check("us-941", [
      ["2024-12-31", "2025-01-31", "2025-01-31", null, null],
      ["2025-12-31", "2026-01-31", "2026-02-02", null, null],
      ["2026-03-31", "2026-04-30", "2026-04-30", null, null],
      ["2026-06-30", "2026-07-31", "2026-07-31", null, null],
      ["2026-09-30", "2026-10-31", "2026-11-02", null, null],
    ]);
    for (const id of ["us-940", "us-w2", "us-1099-nec"]) {
      check(id, [
        ["2023-12-31", "2024-01-31", "2024-01-31", null, null],
        ["2025-12-31", "2026-01-31", "2026-02-02", null, null],
        ["2026-12-31", "2027-01-31", "2027-02-01", null, null],
      ]);
    }
  });
});

describe("worked examples: UK deadlines (filing dates never move; a payment must clear by the working day before)", () => {
  it("S-DUE-09 uk-ch-accounts: 9 months, a month's end kept at the month's end (Companies Act 2006 s443; Companies House guidance)", () => {
    check("uk-ch-accounts", [
      ["2025-06-30", "2026-03-31", "2026-03-31", null, null], // not 30 March
      ["2025-12-31", "2026-09-30", "2026-09-30", null, null],
      ["2025-02-28", "2025-11-30", "2025-11-30", null, null], // a Sunday: it stays
      ["2024-02-29", "2024-11-30", "2024-11-30", null, null],
      ["2025-03-15", "2025-12-15", "2025-12-15", null, null],
      ["2025-05-31", "2026-02-28", "2026-02-28", null, null],
      ["2025-04-30", "2026-01-31", "2026-01-31", null, null], // a Saturday: it stays
    ]);
  });

  it("S-DUE-09 uk-ct-payment: nine months and one day, the day after the period plus nine months (TMA 1970 s59D; HMRC CTM01800)", () => {
    check("uk-ct-payment", [
      ["2025-12-31", "2026-10-01", "2026-10-01", null, "2026-10-01"],
      ["2025-06-30", "2026-04-01", "2026-04-01", null, "2026-04-01"], // not 31 March
      ["2025-03-31", "2026-01-01", "2026-01-01", null, "2025-12-31"], // New Year's Day
      ["2025-01-31", "2025-11-01", "2025-11-01", null, "2025-10-31"], // a Saturday
      ["2025-02-28", "2025-12-01", "2025-12-01", null, "2025-12-01"],
      ["2024-02-29", "2024-12-01", "2024-12-01", null, "2024-11-29"], // a Sunday
      ["2025-11-30", "2026-09-01", "2026-09-01", null, "2026-09-01"],
      ["2025-03-15", "2025-12-16", "2025-12-16", null, "2025-12-16"],
    ]);
  });

  it("S-DUE-09 uk-ct600: 12 months after the accounting period (Finance Act 1998 Sch. 18 para. 14)", () => {
    check("uk-ct600", [
      ["2025-03-31", "2026-03-31", "2026-03-31", null, null],
      ["2025-12-31", "2026-12-31", "2026-12-31", null, null],
      ["2024-02-29", "2025-02-28", "2025-02-28", null, null],
    ]);
  });

  it("S-DUE-09 uk-vat-quarter: one month and seven days (VAT Notice 700/12), paid to clear by the working day before", () => {
    check("uk-vat-quarter", [
      ["2026-03-31", "2026-05-07", "2026-05-07", null, "2026-05-07"],
      ["2026-06-30", "2026-08-07", "2026-08-07", null, "2026-08-07"],
      ["2026-09-30", "2026-11-07", "2026-11-07", null, "2026-11-06"],
      ["2026-12-31", "2027-02-07", "2027-02-07", null, "2027-02-05"],
      ["2026-01-31", "2026-03-07", "2026-03-07", null, "2026-03-06"],
    ]);
  });

  it("S-DUE-09 uk-sa-online and uk-sa-paper: 31 January and 31 October after the tax year (TMA 1970 s8(1D))", () => {
    check("uk-sa-online", [
      ["2024-04-05", "2025-01-31", "2025-01-31", null, "2025-01-31"],
      ["2025-04-05", "2026-01-31", "2026-01-31", null, "2026-01-30"],
      ["2026-04-05", "2027-01-31", "2027-01-31", null, "2027-01-29"],
    ]);
    check("uk-sa-paper", [
      ["2025-04-05", "2025-10-31", "2025-10-31", null, null],
      ["2026-04-05", "2026-10-31", "2026-10-31", null, null], // a Saturday: it stays
    ]);
  });

  it("S-DUE-09 uk-paye-monthly: the 22nd, cleared by the working day before a weekend or bank holiday (HMRC: pay employers' PAYE)", () => {
    check("uk-paye-monthly", [
      ["2026-05-05", "2026-05-22", "2026-05-22", null, "2026-05-22"],
      ["2026-08-05", "2026-08-22", "2026-08-22", null, "2026-08-21"],
      ["2026-03-05", "2026-03-22", "2026-03-22", null, "2026-03-20"],
      ["2019-04-05", "2019-04-22", "2019-04-22", null, "2019-04-18"], // Easter Monday, then Good Friday
    ]);
    const { explanation } = dueDatesFor(rule("uk-paye-monthly"), { periodEnd: "2019-04-05" });
    expect(explanation.slice(-5)).toEqual([
      "22 Apr 2019 is Easter Monday",
      "21 Apr 2019 is a Sunday",
      "20 Apr 2019 is a Saturday",
      "19 Apr 2019 is Good Friday",
      "payment must clear by Thu 18 Apr 2019, the working day before",
    ]);
  });
});

describe("every rule, over many periods (properties)", () => {
  /** The end of the `n`-th period of a rule's kind from 2001, on a day the rule accepts. */
  function periodEnd(rule: DueDateRule, n: number): CivilDate {
    const { ends, months } = rule.period;
    if (ends === "april-5") return civilDate(2001 + n, 4, 5);
    if (ends === "fifth") return civilDate(2001, 1, 5).add({ months: n });
    if (ends === "december-31") return civilDate(2001 + n, 12, 31);
    const monthEnd = civilDate(2001, months === 3 ? 3 : 1, 1).add({ months: n * (months === 3 ? 3 : 1) });
    return monthEnd.with({ day: monthEnd.daysInMonth });
  }

  it("S-DUE-02 every rule gives exactly one date per period, later periods later dates; shifted dates are business days; UK dates never move", () => {
    fc.assert(
      fc.property(fc.constantFrom(...dueDateRules), fc.integer({ min: 0, max: 80 }), (each, n) => {
        const first = dueDatesFor(each, { periodEnd: periodEnd(each, n).toString() });
        const again = dueDatesFor(each, { periodEnd: periodEnd(each, n).toString() });
        const next = dueDatesFor(each, { periodEnd: periodEnd(each, n + 1).toString() });
        expect(again).toEqual(first);
        expect(next.statutoryDate.toString() > first.statutoryDate.toString()).toBe(true);
        if (each.shiftOn) {
          const calendar = holidayCalendar(each.shiftOn);
          if (!calendar) throw new Error("no calendar");
          for (const date of [first.dueDate, first.extendedDueDate ?? first.dueDate]) {
            expect(date.dayOfWeek).toBeLessThan(6);
            expect(holidayOn(calendar, date)).toBeUndefined();
          }
        } else {
          expect(first.dueDate.toString()).toBe(first.statutoryDate.toString());
        }
        if (first.clearByDate) expect(first.clearByDate.toString() <= first.dueDate.toString()).toBe(true);
        expect(first.explanation.length).toBeGreaterThan(1);
      }),
      { numRuns: 500 },
    );
  });

  it("S-DUE-13 a period a rule cannot take is refused with a sentence that says why", () => {
    const refusal = (id: string, input: DueDatesInput) => {
      try {
        dueDatesFor(rule(id), input);
      } catch (error) {
        if (error instanceof DueDateInputError) return error.message;
        throw error;
      }
      return undefined;
    };
    expect(refusal("us-1040", { periodEnd: "2027-12-30" })).toBe("periodEnd must be the last day of a month");
    expect(refusal("us-941", { periodEnd: "2027-11-30" })).toMatch(/^periodEnd must end a calendar quarter/);
    expect(refusal("us-w2", { periodEnd: "2027-06-30" })).toBe("periodEnd must be 31 December: a calendar year");
    expect(refusal("uk-sa-online", { periodEnd: "2027-04-06" })).toBe(
      "periodEnd must be 5 April, the end of a UK tax year",
    );
    expect(refusal("uk-paye-monthly", { periodEnd: "2027-04-06" })).toBe(
      "periodEnd must be the 5th of a month, the end of a UK tax month",
    );
    expect(refusal("us-1040", { periodEnd: "2027-02-30" })).toBe("periodEnd must be a date written YYYY-MM-DD");
    expect(refusal("us-1040", { periodEnd: "1999-12-31" })).toBe("periodEnd must be in the years 2000 to 2097");
    expect(refusal("us-1040", { periodEnd: "2027-12-31", periodStart: "2026-12-31" })).toBe(
      "periodStart must fall within the 12 months that end on periodEnd (1 Jan 2027 to 31 Dec 2027)",
    );
    expect(refusal("us-1040", { periodEnd: "2027-12-31", state: "ZZ" })).toBe(
      "state must be a US state's two-letter code, such as MA",
    );
    expect(refusal("uk-ct600", { periodEnd: "2027-12-31", state: "MA" })).toBe(
      "state applies to US rules only; uk-ct600 is a UK rule",
    );
  });
});
