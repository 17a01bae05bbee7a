import type { HolidayCalendarId } from "./holiday-calendars";

/*
 * Statutory deadlines as data (decision 0053): each rule says how its date is counted from the
 * period, whether and on which calendar a date on a weekend or holiday moves, how an extension is
 * counted, and for payments which day the money must clear by. A rule that changed by law has a
 * version per set of periods, chosen by the date the period BEGINS (the June year-end C
 * corporation's rule changed for tax years beginning after 2025), and every version carries its
 * citation. The engine (due-date-engine.ts) reads nothing else.
 */

export const DUE_DATE_RULES_VERSION = "2026.1";

/** How a date is counted from a period. */
export type DueCount =
  /** The `day`-th (or last) day of the month `months` after the period's last month ("end") or first month ("start"), then `plusDays` more. */
  | { count: "day-of-month"; from: "end" | "start"; months: number; day: number | "last"; plusDays?: number }
  /** `months` after the period's end, a month's end kept at the month's end (Companies Act 2006 s443). */
  | { count: "months-keeping-month-end"; months: number }
  /** `months` after the period's end, by the corresponding date (the month's last day when it has no such day). */
  | { count: "months"; months: number }
  /** `months` after the day after the period ends: "nine months and one day" (HMRC CTM01800). */
  | { count: "months-after-next-day"; months: number };

export type RuleVersion = {
  /** Says which periods this version is for, in the explanation ("tax years beginning after 31 Dec 2025"). */
  appliesTo?: string;
  /** For periods beginning on or after this date (YYYY-MM-DD). */
  beginsFrom?: string;
  /** For periods beginning before this date (YYYY-MM-DD). */
  beginsBefore?: string;
  /** Only for periods ending on this month and day ("06-30"). */
  endsOn?: string;
  due: DueCount;
  /** An extension of time to file, counted from the unshifted statutory date and then shifted. */
  extension?: { months: number; days?: number; by: string };
  citation: string;
};

/** Which days a period may end on. */
export type PeriodEnd = "month-end" | "quarter-end" | "december-31" | "april-5" | "fifth" | "any";

export type DueDateRule = {
  id: string;
  name: string;
  jurisdiction: "US" | "UK";
  /** What a period is called in an explanation. */
  period: { noun: string; months: 1 | 3 | 12; ends: PeriodEnd };
  obligation: "filing" | "payment" | "filing and payment";
  /** A date that is no business day on this calendar moves to the next business day; absent: it never moves. */
  shiftOn?: HolidayCalendarId;
  /** A payment due on a weekend or holiday must clear by the working day before, on this calendar. */
  clearByOn?: HolidayCalendarId;
  /** Versions in order: the first whose conditions fit the period applies. */
  versions: RuleVersion[];
};

const fifteenthOf = (months: number, from: "end" | "start" = "end"): DueCount => ({
  count: "day-of-month",
  from,
  months,
  day: 15,
});
const lastDayOfNextMonth: DueCount = { count: "day-of-month", from: "end", months: 1, day: "last" };

const usYear = { noun: "tax year", months: 12, ends: "month-end" } as const;
const usCalendarYear = { noun: "calendar year", months: 12, ends: "december-31" } as const;

const estimatedTax = (installment: 1 | 2 | 3 | 4, due: DueCount): DueDateRule => ({
  id: `us-1040-es-q${installment}`,
  name: `Form 1040-ES: estimated tax, installment ${installment} of 4`,
  jurisdiction: "US",
  period: usYear,
  obligation: "payment",
  shiftOn: "us-irs",
  versions: [{ due, citation: "IRC 6654(c)(2); IRS Publication 505" }],
});

export const dueDateRules: DueDateRule[] = [
  {
    id: "us-1040",
    name: "Form 1040: U.S. individual income tax return",
    jurisdiction: "US",
    period: usYear,
    obligation: "filing and payment",
    shiftOn: "us-irs",
    versions: [
      {
        due: fifteenthOf(4),
        extension: { months: 6, by: "Form 4868" },
        citation: "IRC 6072(a), 6151(a); Treas. Reg. 1.6081-4 (extension)",
      },
    ],
  },
  estimatedTax(1, fifteenthOf(3, "start")),
  estimatedTax(2, fifteenthOf(5, "start")),
  estimatedTax(3, fifteenthOf(8, "start")),
  estimatedTax(4, fifteenthOf(1)),
  {
    id: "us-1065",
    name: "Form 1065: U.S. return of partnership income",
    jurisdiction: "US",
    period: usYear,
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [
      {
        appliesTo: "tax years beginning after 31 Dec 2015",
        beginsFrom: "2016-01-01",
        due: fifteenthOf(3),
        extension: { months: 6, by: "Form 7004" },
        citation: "IRC 6072(b) as amended by Pub. L. 114-41 s2006; Treas. Reg. 1.6081-2 (extension)",
      },
      {
        appliesTo: "tax years beginning before 1 Jan 2016",
        due: fifteenthOf(4),
        extension: { months: 5, by: "Form 7004" },
        citation: "IRC 6072(a) before Pub. L. 114-41; Treas. Reg. 1.6081-2 (extension)",
      },
    ],
  },
  {
    id: "us-1120s",
    name: "Form 1120-S: U.S. income tax return for an S corporation",
    jurisdiction: "US",
    period: usYear,
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [
      {
        due: fifteenthOf(3),
        extension: { months: 6, by: "Form 7004" },
        citation: "IRC 6072(b); Treas. Reg. 1.6081-3 (extension)",
      },
    ],
  },
  {
    id: "us-1120",
    name: "Form 1120: U.S. corporation income tax return",
    jurisdiction: "US",
    period: usYear,
    obligation: "filing and payment",
    shiftOn: "us-irs",
    versions: [
      {
        appliesTo: "tax years beginning after 31 Dec 2025",
        beginsFrom: "2026-01-01",
        due: fifteenthOf(4),
        extension: { months: 6, by: "Form 7004" },
        citation: "IRC 6072(a) as amended by Pub. L. 114-41 s2006(a); Treas. Reg. 1.6081-3 (extension)",
      },
      {
        appliesTo: "a tax year ending 30 June and beginning after 31 Dec 2015 and before 1 Jan 2026",
        beginsFrom: "2016-01-01",
        beginsBefore: "2026-01-01",
        endsOn: "06-30",
        due: fifteenthOf(3),
        extension: { months: 7, by: "Form 7004" },
        citation:
          "Pub. L. 114-41 s2006(a)(3)(B) (June year ends until 2026); Form 7004 instructions (7-month extension)",
      },
      {
        appliesTo: "tax years beginning after 31 Dec 2015",
        beginsFrom: "2016-01-01",
        due: fifteenthOf(4),
        extension: { months: 6, by: "Form 7004" },
        citation: "IRC 6072(a) as amended by Pub. L. 114-41 s2006(a); Treas. Reg. 1.6081-3 (extension)",
      },
      {
        appliesTo: "tax years beginning before 1 Jan 2016",
        due: fifteenthOf(3),
        extension: { months: 6, by: "Form 7004" },
        citation: "IRC 6072(b) before Pub. L. 114-41; Treas. Reg. 1.6081-3 (extension)",
      },
    ],
  },
  {
    id: "us-1041",
    name: "Form 1041: U.S. income tax return for estates and trusts",
    jurisdiction: "US",
    period: usYear,
    obligation: "filing and payment",
    shiftOn: "us-irs",
    versions: [
      {
        due: fifteenthOf(4),
        extension: { months: 5, days: 15, by: "Form 7004" },
        citation: "IRC 6072(a); Treas. Reg. 1.6081-6 (5½-month extension)",
      },
    ],
  },
  {
    id: "us-990",
    name: "Form 990: return of organization exempt from income tax",
    jurisdiction: "US",
    period: usYear,
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [
      {
        due: fifteenthOf(5),
        extension: { months: 6, by: "Form 8868" },
        citation: "IRC 6072(e); Treas. Reg. 1.6081-9 (extension)",
      },
    ],
  },
  {
    id: "us-941",
    name: "Form 941: employer's quarterly federal tax return",
    jurisdiction: "US",
    period: { noun: "quarter", months: 3, ends: "quarter-end" },
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [{ due: lastDayOfNextMonth, citation: "Treas. Reg. 31.6071(a)-1(a)(1)" }],
  },
  {
    id: "us-940",
    name: "Form 940: employer's annual federal unemployment (FUTA) tax return",
    jurisdiction: "US",
    period: usCalendarYear,
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [{ due: lastDayOfNextMonth, citation: "Treas. Reg. 31.6071(a)-1(c)" }],
  },
  {
    id: "us-w2",
    name: "Form W-2: wage statements to employees and the Social Security Administration",
    jurisdiction: "US",
    period: usCalendarYear,
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [{ due: lastDayOfNextMonth, citation: "IRC 6051(a), 6071(c)" }],
  },
  {
    id: "us-1099-nec",
    name: "Form 1099-NEC: nonemployee compensation, to the IRS and recipients",
    jurisdiction: "US",
    period: usCalendarYear,
    obligation: "filing",
    shiftOn: "us-irs",
    versions: [{ due: lastDayOfNextMonth, citation: "IRC 6041A(e), 6071(c)" }],
  },
  {
    id: "uk-ch-accounts",
    name: "Annual accounts to Companies House (private company)",
    jurisdiction: "UK",
    period: { noun: "accounting reference period", months: 12, ends: "any" },
    obligation: "filing",
    versions: [
      { due: { count: "months-keeping-month-end", months: 9 }, citation: "Companies Act 2006 ss442(2)(a), 443" },
    ],
  },
  {
    id: "uk-ct-payment",
    name: "Corporation Tax payment (a company that is not large)",
    jurisdiction: "UK",
    period: { noun: "accounting period", months: 12, ends: "any" },
    obligation: "payment",
    clearByOn: "uk-eaw",
    versions: [
      { due: { count: "months-after-next-day", months: 9 }, citation: "TMA 1970 s59D(1); HMRC manual CTM01800" },
    ],
  },
  {
    id: "uk-ct600",
    name: "Company Tax Return (CT600)",
    jurisdiction: "UK",
    period: { noun: "accounting period", months: 12, ends: "any" },
    obligation: "filing",
    versions: [{ due: { count: "months", months: 12 }, citation: "Finance Act 1998 Sch. 18 para. 14(1)(a)" }],
  },
  {
    id: "uk-vat-quarter",
    name: "VAT Return and payment, quarterly (Making Tax Digital)",
    jurisdiction: "UK",
    period: { noun: "VAT period", months: 3, ends: "month-end" },
    obligation: "filing and payment",
    clearByOn: "uk-eaw",
    versions: [
      {
        due: { count: "day-of-month", from: "end", months: 1, day: "last", plusDays: 7 },
        citation: "VAT Regulations 1995 regs 25(1), 40(2); HMRC VAT Notice 700/12 (the 7 extra days)",
      },
    ],
  },
  {
    id: "uk-sa-online",
    name: "Self Assessment tax return online, and the balancing payment",
    jurisdiction: "UK",
    period: { noun: "tax year", months: 12, ends: "april-5" },
    obligation: "filing and payment",
    clearByOn: "uk-eaw",
    versions: [
      {
        due: { count: "day-of-month", from: "end", months: 9, day: "last" },
        citation: "TMA 1970 ss8(1D)(b), 59B(4)",
      },
    ],
  },
  {
    id: "uk-sa-paper",
    name: "Self Assessment tax return on paper",
    jurisdiction: "UK",
    period: { noun: "tax year", months: 12, ends: "april-5" },
    obligation: "filing",
    versions: [{ due: { count: "day-of-month", from: "end", months: 6, day: "last" }, citation: "TMA 1970 s8(1D)(a)" }],
  },
  {
    id: "uk-paye-monthly",
    name: "PAYE and National Insurance, monthly payment by electronic means",
    jurisdiction: "UK",
    period: { noun: "tax month", months: 1, ends: "fifth" },
    obligation: "payment",
    clearByOn: "uk-eaw",
    versions: [
      {
        due: { count: "day-of-month", from: "end", months: 0, day: 22 },
        citation: "Income Tax (PAYE) Regulations 2003 regs 69, 199",
      },
    ],
  },
];

/** The template frequency a rule's periods need: one task, and one date, per period. */
export function templateFrequencyOf(rule: DueDateRule): "annually" | "quarterly" | "monthly" {
  return ({ 12: "annually", 3: "quarterly", 1: "monthly" } as const)[rule.period.months];
}

export function dueDateRule(id: string): DueDateRule | undefined {
  return dueDateRules.find((rule) => rule.id === id);
}
