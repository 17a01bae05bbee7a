import { before, type CivilDate, civilDate, lastDayOfMonth, parseCivilDate } from "./civil-date";
import { type DueDates, dueDatesFor } from "./due-date-engine";
import type { DueDateRule } from "./due-date-rules";

/*
 * A client's periods under a rule (decision 0053). Where a period ends comes from the rule's kind
 * of period and, for a fiscal year, the client's fiscal year end: a calendar year ends on 31
 * December, a calendar quarter on the last day of March, June, September and December, a UK tax
 * year on 5 April and a UK tax month on the 5th; a US tax year on the last day of the month of the
 * client's year end; a UK company's accounting period on the year end's very day; VAT quarters
 * every three months from the year end's month. Without a fiscal year end, the year ends on 31
 * December, and the explanation says so.
 */

export type RulePeriod = { start: CivilDate; end: CivilDate };

/** Periods end on `day` ("last": the month's last day) of every `everyMonths`-th month from `month`. */
type PeriodEnds = { month: number; day: number | "last"; everyMonths: number; assumed?: string };

/** "12-31" as a month and a day; 29 February stands for February's last day. */
function fiscalYearEndOf(fiscalYearEnd: string | null): { month: number; day: number | "last" } | undefined {
  const parts = fiscalYearEnd ? /^(\d{2})-(\d{2})$/.exec(fiscalYearEnd) : null;
  if (!parts) return undefined;
  const month = Number(parts[1]);
  const day = Number(parts[2]);
  return { month, day: month === 2 && day === 29 ? "last" : day };
}

const noYearEnd = "The client has no fiscal year end: its year is taken to end on 31 December";

function periodEndsOf(rule: DueDateRule, fiscalYearEnd: string | null): PeriodEnds {
  const everyMonths = rule.period.months;
  const yearEnd = fiscalYearEndOf(fiscalYearEnd);
  switch (rule.period.ends) {
    case "december-31":
    case "quarter-end":
      return { month: 12, day: "last", everyMonths };
    case "april-5":
      return { month: 4, day: 5, everyMonths };
    case "fifth":
      return { month: 1, day: 5, everyMonths };
    case "month-end": {
      if (!yearEnd) return { month: 12, day: "last", everyMonths, assumed: noYearEnd };
      const lastDay = civilDate(2001, yearEnd.month, 1).daysInMonth;
      const atMonthEnd = yearEnd.day === "last" || yearEnd.day >= lastDay;
      return {
        month: yearEnd.month,
        day: "last",
        everyMonths,
        ...(atMonthEnd
          ? {}
          : {
              assumed: `The client's fiscal year end (${fiscalYearEnd}) is taken to its month's last day: these periods end on a month's last day`,
            }),
      };
    }
    case "any":
      return yearEnd ? { ...yearEnd, everyMonths } : { month: 12, day: 31, everyMonths, assumed: noYearEnd };
  }
}

/** The period end in the month `monthIndex` (months since year 0, January = 0). */
function endIn(ends: PeriodEnds, monthIndex: number): CivilDate {
  const first = civilDate(Math.floor(monthIndex / 12), (monthIndex % 12) + 1, 1);
  return ends.day === "last" ? lastDayOfMonth(first) : first.with({ day: Math.min(ends.day, first.daysInMonth) });
}

const monthIndexOf = (date: CivilDate) => date.year * 12 + date.month - 1;

/** The month index of the latest month holding a period end, at or before `date`'s month. */
function endMonthAtOrBefore(ends: PeriodEnds, date: CivilDate): number {
  const index = monthIndexOf(date);
  const offset = (((index - (ends.month - 1)) % ends.everyMonths) + ends.everyMonths) % ends.everyMonths;
  return index - offset;
}

export type RulePeriods = {
  /** The latest period that has ended by the end of `day` (its last day is `day` or earlier). */
  endedBy(day: CivilDate): RulePeriod;
  /** The period after `period`. */
  after(period: RulePeriod): RulePeriod;
  /** Said in the explanation when the client's data left something to assume. */
  assumed?: string;
};

export function rulePeriods(rule: DueDateRule, fiscalYearEnd: string | null): RulePeriods {
  const ends = periodEndsOf(rule, fiscalYearEnd);
  const periodEndingIn = (monthIndex: number): RulePeriod => ({
    start: endIn(ends, monthIndex - ends.everyMonths).add({ days: 1 }),
    end: endIn(ends, monthIndex),
  });
  return {
    endedBy(day) {
      let monthIndex = endMonthAtOrBefore(ends, day);
      if (before(day, endIn(ends, monthIndex))) monthIndex -= ends.everyMonths;
      return periodEndingIn(monthIndex);
    },
    after(period) {
      return periodEndingIn(monthIndexOf(period.end) + ends.everyMonths);
    },
    ...(ends.assumed ? { assumed: ends.assumed } : {}),
  };
}

export type PeriodDates = { period: RulePeriod; dates: DueDates };

/** The years the holiday calendars cover every date of a period's rule in. */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2097;

/**
 * Whether the rule's deadline falls inside its period (estimated tax installments 1 to 3, due
 * during the tax year they are for): its task is then made when the period begins, not after.
 */
const dueWithinPeriod = (rule: DueDateRule) =>
  rule.versions.some((version) => version.due.count === "day-of-month" && version.due.from === "start");

/**
 * A schedule's work under `rule` on `today`: the periods whose task is made now, oldest first,
 * with their dates; the end of the last period handled; and the day the next period's task is
 * made. A period's task is made the day after it ends, or on its first day when the deadline falls
 * inside it (estimated tax). Where the schedule has handled nothing (`handledThrough` null: just
 * assigned, or its rule changed), only the latest period ready, and only while its due date is
 * today or later: earlier deadlines have passed. After a downtime, at most `max` (the latest) of
 * the missed periods are made. A period after a change of the client's year end starts the day
 * after the last one handled (a short period).
 */
export function periodsDueBy(options: {
  rule: DueDateRule;
  fiscalYearEnd: string | null;
  state: string | null;
  handledThrough: string | null;
  today: CivilDate;
  max: number;
}): { made: PeriodDates[]; handledThrough: CivilDate; nextMadeOn: CivilDate } {
  const { rule, today, max } = options;
  const periods = rulePeriods(rule, options.fiscalYearEnd);
  const state = rule.jurisdiction === "US" && options.state ? { state: options.state } : {};
  const datesOf = (period: RulePeriod): PeriodDates => {
    const dates = dueDatesFor(rule, {
      periodEnd: period.end.toString(),
      periodStart: period.start.toString(),
      ...state,
    });
    return {
      period,
      dates: periods.assumed ? { ...dates, explanation: [periods.assumed, ...dates.explanation] } : dates,
    };
  };
  const inCalendars = (period: RulePeriod) => period.end.year >= FIRST_YEAR && period.end.year <= LAST_YEAR;
  const lastEnded = periods.endedBy(today.subtract({ days: 1 }));
  // The latest period whose task is made by today: the one ended, or for a deadline inside its
  // period, the one begun (today's).
  const within = dueWithinPeriod(rule);
  const lastReady = within ? periods.after(lastEnded) : lastEnded;
  const madeOn = (period: RulePeriod) => (within ? period.start : period.end.add({ days: 1 }));
  const handled = options.handledThrough === null ? undefined : parseCivilDate(options.handledThrough);
  let made: PeriodDates[] = [];
  if (handled === undefined) {
    const latest = inCalendars(lastReady) ? datesOf(lastReady) : undefined;
    if (latest && !before(latest.dates.dueDate, today)) made = [latest];
  } else {
    for (let period = periods.after(periods.endedBy(handled)); !before(lastReady.end, period.end); ) {
      // The first period after a change of year end starts the day after the last one handled.
      const dayAfter = handled.add({ days: 1 });
      const start = before(period.start, dayAfter) ? dayAfter : period.start;
      if (inCalendars(period)) made.push(datesOf({ start, end: period.end }));
      period = periods.after(period);
    }
    made = made.slice(-max);
  }
  const through = handled !== undefined && before(lastReady.end, handled) ? handled : lastReady.end;
  return { made, handledThrough: through, nextMadeOn: madeOn(periods.after(periods.endedBy(through))) };
}
