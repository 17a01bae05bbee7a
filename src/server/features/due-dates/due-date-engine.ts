import { usStateCodes } from "../../../shared/due-dates";
import {
  addMonths,
  addMonthsKeepingMonthEnd,
  before,
  type CivilDate,
  dayOfMonthAfter,
  formatDay,
  formatWeekday,
  isLastDayOfMonth,
  isWeekend,
  parseCivilDate,
  sameDay,
  weekdayName,
} from "./civil-date";
import {
  DUE_DATE_RULES_VERSION,
  type DueCount,
  type DueDateRule,
  type PeriodEnd,
  type RuleVersion,
} from "./due-date-rules";
import { type HolidayCalendar, holidayCalendar, holidayOn } from "./holiday-calendars";

/*
 * Works out a rule's dates for one period (decision 0053): the statutory date the rule counts
 * to; the due date, moved to the next business day where the rule moves; with an extension, the
 * extended due date, counted from the UNSHIFTED statutory date and then moved; for a payment that
 * must clear, the last working day on or before the due date. Each step says itself in the
 * explanation, so a firm can check the answer against its own reading.
 */

export type DueDatesInput = { periodEnd: string; periodStart?: string; state?: string };

export type DueDates = {
  statutoryDate: CivilDate;
  dueDate: CivilDate;
  extendedDueDate: CivilDate | null;
  clearByDate: CivilDate | null;
  explanation: string[];
  /** The versions the dates were worked out on: the rules', and the calendar's the rule moves or clears on. */
  version: string;
};

/** An input the rule cannot work with: the route answers 400 naming the field, with this message. */
export class DueDateInputError extends Error {
  constructor(
    readonly field: keyof DueDatesInput,
    message: string,
  ) {
    super(message);
  }
}

const periodEndProblems: Record<PeriodEnd, [(date: CivilDate) => boolean, string]> = {
  "month-end": [isLastDayOfMonth, "periodEnd must be the last day of a month"],
  "quarter-end": [
    (date) => isLastDayOfMonth(date) && date.month % 3 === 0,
    "periodEnd must end a calendar quarter: 31 March, 30 June, 30 September or 31 December",
  ],
  "december-31": [(date) => date.month === 12 && date.day === 31, "periodEnd must be 31 December: a calendar year"],
  "april-5": [(date) => date.month === 4 && date.day === 5, "periodEnd must be 5 April, the end of a UK tax year"],
  fifth: [(date) => date.day === 5, "periodEnd must be the 5th of a month, the end of a UK tax month"],
  any: [() => true, ""],
};

/** The periods the calendars cover, so every date a rule reaches has its holidays. */
const FIRST_PERIOD_YEAR = 2000;
const LAST_PERIOD_YEAR = 2097;

function periodOf(rule: DueDateRule, input: DueDatesInput): { start: CivilDate; end: CivilDate } {
  const end = parseCivilDate(input.periodEnd);
  if (!end) throw new DueDateInputError("periodEnd", "periodEnd must be a date written YYYY-MM-DD");
  if (end.year < FIRST_PERIOD_YEAR || end.year > LAST_PERIOD_YEAR)
    throw new DueDateInputError(
      "periodEnd",
      `periodEnd must be in the years ${FIRST_PERIOD_YEAR} to ${LAST_PERIOD_YEAR}`,
    );
  const [fits, problem] = periodEndProblems[rule.period.ends];
  if (!fits(end)) throw new DueDateInputError("periodEnd", problem);
  // A whole period unless told otherwise: the 12 months (3, 1) that end on periodEnd.
  const longest = end.add({ days: 1 }).subtract({ months: rule.period.months });
  if (input.periodStart === undefined) return { start: longest, end };
  const start = parseCivilDate(input.periodStart);
  if (!start) throw new DueDateInputError("periodStart", "periodStart must be a date written YYYY-MM-DD");
  // A year may also start the day after the same date a year before: a company whose year ends
  // on 28 February has a year from 29 February 2004 to 28 February 2005.
  const dayAfterSameDate = end.subtract({ months: rule.period.months }).add({ days: 1 });
  const earliest = before(dayAfterSameDate, longest) ? dayAfterSameDate : longest;
  if (before(end, start) || before(start, earliest)) {
    throw new DueDateInputError(
      "periodStart",
      `periodStart must fall within the ${rule.period.months === 1 ? "month" : `${rule.period.months} months`} ` +
        `that end on periodEnd (${formatDay(longest)} to ${formatDay(end)})`,
    );
  }
  return { start, end };
}

export function ruleVersionFor(rule: DueDateRule, period: { start: CivilDate; end: CivilDate }): RuleVersion {
  const begins = period.start.toString();
  const endsOn = period.end.toString().slice(5);
  const version = rule.versions.find(
    (each) =>
      (each.beginsFrom === undefined || begins >= each.beginsFrom) &&
      (each.beginsBefore === undefined || begins < each.beginsBefore) &&
      (each.endsOn === undefined || endsOn === each.endsOn),
  );
  // Every rule's last version has no condition, so one always fits.
  if (!version) throw new Error(`Rule ${rule.id} has no version for a period beginning ${begins}`);
  return version;
}

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
};

function countedDate(count: DueCount, period: { start: CivilDate; end: CivilDate }): CivilDate {
  switch (count.count) {
    case "day-of-month": {
      const day = dayOfMonthAfter(count.from === "end" ? period.end : period.start, count.months, count.day);
      return day.add({ days: count.plusDays ?? 0 });
    }
    case "months-keeping-month-end":
      return addMonthsKeepingMonthEnd(period.end, count.months);
    case "months":
      return addMonths(period.end, count.months);
    case "months-after-next-day":
      return addMonths(period.end.add({ days: 1 }), count.months);
  }
}

/** How a count reads: "the 15th day of the 4th month after the tax year ends". */
function countText(count: DueCount, noun: string): string {
  switch (count.count) {
    case "day-of-month": {
      const day = count.day === "last" ? "the last day" : `the ${ordinal(count.day)} day`;
      const month =
        count.from === "start"
          ? `of the ${ordinal(count.months + 1)} month of the ${noun}`
          : count.months === 0
            ? `of the month in which the ${noun} ends`
            : count.months === 1
              ? `of the month after the ${noun} ends`
              : `of the ${ordinal(count.months)} month after the ${noun} ends`;
      return count.plusDays ? `${count.plusDays} days after ${day} ${month}` : `${day} ${month}`;
    }
    case "months-keeping-month-end":
      return `${count.months} months after the ${noun} ends, a month's last day giving a month's last day`;
    case "months":
      return `${count.months} months after the ${noun} ends`;
    case "months-after-next-day":
      return `${count.months} months and one day after the ${noun} ends (${count.months} months from the day after)`;
  }
}

export type Closed = { calendar: HolidayCalendar; state?: string };

/** Why `date` is no business day on the calendar, or undefined when it is one. */
function closedBecause(date: CivilDate, { calendar, state }: Closed): string | undefined {
  if (isWeekend(date)) return `${formatDay(date)} is a ${weekdayName(date)}`;
  const holiday = holidayOn(calendar, date);
  if (holiday) return `${formatDay(date)} is ${holiday}`;
  const statewide = state ? holidayOn(calendar, date, state) : undefined;
  return statewide ? `${formatDay(date)} is ${statewide}, a statewide holiday in ${state}` : undefined;
}

/** The first business day on or after `date`, each day passed over said in `explanation`. */
export function nextBusinessDay(date: CivilDate, closed: Closed, explanation: string[] = []): CivilDate {
  let day = date;
  for (let reason = closedBecause(day, closed); reason; reason = closedBecause(day, closed)) {
    explanation.push(reason);
    day = day.add({ days: 1 });
  }
  return day;
}

/** The last working day on or before `date`, each day passed over said in `explanation`. */
export function previousWorkingDay(date: CivilDate, closed: Closed, explanation: string[] = []): CivilDate {
  let day = date;
  for (let reason = closedBecause(day, closed); reason; reason = closedBecause(day, closed)) {
    explanation.push(reason);
    day = day.subtract({ days: 1 });
  }
  return day;
}

function calendarOf(id: string): HolidayCalendar {
  const calendar = holidayCalendar(id);
  if (!calendar) throw new Error(`Unknown holiday calendar ${id}`);
  return calendar;
}

export function dueDatesFor(rule: DueDateRule, input: DueDatesInput): DueDates {
  const period = periodOf(rule, input);
  const state = input.state?.toUpperCase();
  if (state !== undefined && !usStateCodes.includes(state))
    throw new DueDateInputError("state", "state must be a US state's two-letter code, such as MA");
  if (state !== undefined && rule.jurisdiction !== "US")
    throw new DueDateInputError("state", `state applies to US rules only; ${rule.id} is a UK rule`);
  const version = ruleVersionFor(rule, period);
  const explanation: string[] = [];
  const statutoryDate = countedDate(version.due, period);
  const forPeriods = version.appliesTo ? ` (for ${version.appliesTo})` : "";
  const counted = countText(version.due, rule.period.noun);
  explanation.push(
    `${counted.charAt(0).toUpperCase()}${counted.slice(1)}${forPeriods}: ${formatDay(statutoryDate)} (${version.citation})`,
  );

  let dueDate = statutoryDate;
  let extendedDueDate: CivilDate | null = null;
  let clearByDate: CivilDate | null = null;
  if (rule.shiftOn) {
    const calendar = calendarOf(rule.shiftOn);
    // A statewide holiday moves a filing, never a payment (IRC 7503).
    const files = rule.obligation !== "payment";
    const closed = { calendar, ...(files && state ? { state } : {}) };
    dueDate = nextBusinessDay(statutoryDate, closed, explanation);
    explanation.push(`due ${formatWeekday(dueDate)}`);
    if (files && state && rule.obligation === "filing and payment") {
      const paymentDate = nextBusinessDay(statutoryDate, { calendar }, []);
      if (!sameDay(paymentDate, dueDate))
        explanation.push(`payment is still due ${formatWeekday(paymentDate)}: a statewide holiday moves filing only`);
    }
    if (version.extension) {
      const { months, days = 0, by } = version.extension;
      const unshifted = addMonths(statutoryDate, months).add({ days });
      const length = days > 0 ? `${months} months and ${days} days` : `${months} months`;
      explanation.push(
        `with an extension (${by}), ${length} after ${formatDay(statutoryDate)}, the unshifted date: ${formatDay(unshifted)}`,
      );
      extendedDueDate = nextBusinessDay(unshifted, closed, explanation);
      explanation.push(`extended due ${formatWeekday(extendedDueDate)}`);
    }
  } else {
    const closedDay =
      isWeekend(dueDate) || (rule.clearByOn !== undefined && holidayOn(calendarOf(rule.clearByOn), dueDate));
    explanation.push(
      closedDay
        ? `due ${formatWeekday(dueDate)}: the date does not move for weekends or holidays`
        : `due ${formatWeekday(dueDate)}`,
    );
  }
  if (rule.clearByOn) {
    const calendar = calendarOf(rule.clearByOn);
    clearByDate = previousWorkingDay(dueDate, { calendar }, explanation);
    explanation.push(
      sameDay(clearByDate, dueDate)
        ? `payment must clear by ${formatWeekday(clearByDate)}`
        : `payment must clear by ${formatWeekday(clearByDate)}, the working day before`,
    );
  }
  return { statutoryDate, dueDate, extendedDueDate, clearByDate, explanation, version: datesVersionOf(rule) };
}

/**
 * The versions a rule's dates are worked out on today: the rules', and the calendar's the rule
 * moves or clears on ("rules 2026.1, us-irs 2026.1"). A task whose dates carry another was worked
 * out before an upgrade and is looked at again.
 */
export function datesVersionOf(rule: DueDateRule): string {
  const calendarId = rule.shiftOn ?? rule.clearByOn;
  return `rules ${DUE_DATE_RULES_VERSION}${calendarId ? `, ${calendarId} ${calendarOf(calendarId).version}` : ""}`;
}

/** For a payment that must clear: the last working day on or before `dueDate` on the rule's calendar; else null. */
export function clearByDateFor(rule: DueDateRule, dueDate: CivilDate): CivilDate | null {
  return rule.clearByOn ? previousWorkingDay(dueDate, { calendar: calendarOf(rule.clearByOn) }) : null;
}
