import { z } from "zod";
import { civilDateSchema } from "./date-range";
import "./validation";

/*
 * Statutory due dates (decision 0053): the rules Tendwell knows, the dates a rule gives for one
 * period with the reasons, and the holiday calendars dates move on. Dates are civil dates,
 * YYYY-MM-DD, with no time and no time zone.
 */

/** The 50 states and the District of Columbia, by their postal codes. */
export const usStateCodes = [
  ..."AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND".split(
    " ",
  ),
  ..."OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(" "),
];

export const dueDateRuleSchema = z.object({
  id: z.string().describe("us-1040, uk-ct-payment, ..."),
  name: z.string(),
  jurisdiction: z.enum(["US", "UK"]),
  /** The law (and the authority's guidance) the rule's current version follows. */
  citation: z.string(),
  frequency: z.enum(["annually", "quarterly", "monthly"]).describe("the template frequency the rule's periods need"),
});
export type DueDateRuleSummary = z.infer<typeof dueDateRuleSchema>;

export const dueDateQuerySchema = z.strictObject({
  periodEnd: civilDateSchema("periodEnd").describe("The last day of the period the deadline is for"),
  periodStart: civilDateSchema("periodStart")
    .optional()
    .describe("Its first day, for a short period; by default the whole period that ends on periodEnd"),
  state: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "state must be a US state's two-letter code, such as MA")
    .optional()
    .describe("For US rules: the filer's state, whose statewide holidays move a filing (not a payment)"),
});
export type DueDateQuery = z.infer<typeof dueDateQuerySchema>;

export const dueDatesSchema = z.object({
  /** The date the rule counts to, before any move. */
  statutoryDate: z.string(),
  /** The statutory date moved past weekends and holidays where the rule moves (US), or the same date. */
  dueDate: z.string(),
  /** With an extension filed: counted from the unshifted statutory date, then moved; null when the rule has none. */
  extendedDueDate: z.string().nullable(),
  /** For a payment that must clear: the last working day on or before the due date (UK); else null. */
  clearByDate: z.string().nullable(),
  /** Each step in a sentence: how the date is counted, each day passed over, the result. */
  explanation: z.array(z.string()),
});
export type DueDatesAnswer = z.infer<typeof dueDatesSchema>;

export const holidayCalendarSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Changes whenever a day is added, moved or removed. */
  version: z.string(),
  /** What makes these days holidays. */
  source: z.string(),
  firstYear: z.number().int(),
  lastYear: z.number().int(),
});
export type HolidayCalendarSummary = z.infer<typeof holidayCalendarSchema>;

export const holidayYearQuerySchema = z.strictObject({
  year: z
    .string({
      error: (issue) =>
        issue.input === undefined ? "year is required, such as 2027" : "year must be a year such as 2027",
    })
    .regex(/^\d{4}$/, "year must be a year such as 2027")
    .transform(Number)
    .describe("The year whose holidays to list"),
});

export const holidaySchema = z.object({ date: z.string(), name: z.string() });
export type HolidayAnswer = z.infer<typeof holidaySchema>;

/** The dates of a task that follows a rule, each logged when it changes. */
export const taskDueDateFields = ["statutory", "due", "extended", "clear_by"] as const;
export type TaskDueDateField = (typeof taskDueDateFields)[number];

/**
 * Why a date of a task changed: the rule set it (the task was made, or its inputs changed), an
 * extension was filed, disaster relief postponed it, a holiday calendar's new version moved it,
 * or someone changed it by hand with a reason.
 */
export const dueDateChangeReasons = ["RULE", "EXTENSION", "DISASTER_RELIEF", "CALENDAR_VERSION", "MANUAL"] as const;
export type DueDateChangeReason = (typeof dueDateChangeReasons)[number];

/**
 * What set the day a task is due (its due date, or its extended one once an extension is filed)
 * other than its rule: a disaster relief window or a person. A holiday calendar's new version
 * leaves such a day as it is.
 */
export const dueDateOverrides = ["DISASTER_RELIEF", "MANUAL"] as const;
export type DueDateOverride = (typeof dueDateOverrides)[number];

/** How the screens and downloads name a logged date and a reason. */
export const dueDateFieldLabels: Record<TaskDueDateField, string> = {
  statutory: "Statutory date",
  due: "Due date",
  extended: "Extended due date",
  clear_by: "Payment clears by",
};
export const dueDateReasonLabels: Record<DueDateChangeReason, string> = {
  RULE: "set by the rule",
  EXTENSION: "extension filed",
  DISASTER_RELIEF: "disaster relief",
  CALENDAR_VERSION: "holiday calendar updated",
  MANUAL: "changed by hand",
};

export const dueDateChangeSchema = z.object({
  id: z.uuid(),
  field: z.enum(taskDueDateFields),
  from: z.string().nullable(),
  to: z.string().nullable(),
  reason: z.enum(dueDateChangeReasons),
  ruleId: z.string(),
  /** The rules' and calendar's versions the new date was worked out on. */
  version: z.string(),
  note: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  /** Null when the system made the change. */
  changedBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
  changedAt: z.iso.datetime(),
});
export type DueDateChange = z.infer<typeof dueDateChangeSchema>;

/** GET /api/tasks/{id}/due-dates: a task's statutory dates, why they are what they are, and their log. */
export const taskDueDatesSchema = z.object({
  /** Null when the task follows no rule; every other field is then empty. */
  rule: z.object({ id: z.string(), name: z.string() }).nullable(),
  period: z.object({ start: z.string(), end: z.string() }).nullable(),
  statutoryDueOn: z.string().nullable(),
  /** The day the task is due before any extension: the statutory date as the rule moves it. */
  dueOn: z.string().nullable(),
  clearByOn: z.string().nullable(),
  extendedDueOn: z.string().nullable(),
  extension: z
    .object({ filedAt: z.iso.datetime(), filedBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable() })
    .nullable(),
  /** What set the day the task is due, when not its rule (a relief or a person); else null. */
  override: z.enum(dueDateOverrides).nullable(),
  /**
   * The firm's internal target: the day the task falls due for the firm (and is overdue after),
   * `internalTargetDays` business days before the day it is due; both null when the firm sets none.
   */
  targetOn: z.string().nullable(),
  internalTargetDays: z.number().int().nullable(),
  /** What an extension is filed with ("Form 4868"), when the rule has one for this period; else null. */
  extensionBy: z.string().nullable(),
  explanation: z.array(z.string()),
  log: z.array(dueDateChangeSchema),
});
export type TaskDueDates = z.infer<typeof taskDueDatesSchema>;

/** The longest reason a change of due date may give. */
export const maxDueDateReasonLength = 500;

/** POST /api/tasks/{id}/due-date: a person moves the day a task is due, saying why. */
export const manualDueDateChangeSchema = z.strictObject({
  dueOn: civilDateSchema("dueOn").describe("The new day the task is due"),
  reason: z
    .string({ error: "reason is required: say why the date changes" })
    .trim()
    .min(1, "reason is required: say why the date changes")
    .max(maxDueDateReasonLength, `reason must be at most ${maxDueDateReasonLength} characters`),
});
export type ManualDueDateChange = z.infer<typeof manualDueDateChangeSchema>;

/** The longest name, and address of its announcement, a disaster relief may have. */
export const maxReliefNameLength = 200;
export const maxReliefSourceUrlLength = 2000;

/**
 * A disaster relief window (IRC 7508A): the IRS postpones every deadline that falls from
 * windowStart to windowEnd, for taxpayers in the covered places, to newDueOn.
 */
export const disasterReliefInputSchema = z.strictObject({
  name: z
    .string({ error: "name is required, such as the IRS notice's title" })
    .trim()
    .min(1, "name is required, such as the IRS notice's title")
    .max(maxReliefNameLength, `name must be at most ${maxReliefNameLength} characters`),
  states: z
    .array(z.string().regex(/^[A-Z]{2}$/, "each state must be a US state's two-letter code, such as FL"), {
      error: "states is required: the states the relief covers",
    })
    .min(1, "states must name at least one state")
    .max(51, "states may name each state once"),
  ruleIds: z
    .array(z.string().max(100), { error: "ruleIds is a list of US rule ids, such as us-1040" })
    .min(1, "ruleIds must name at least one rule, or be left out for every deadline")
    .max(50, "ruleIds may name each rule once")
    .optional()
    .describe("The deadlines it postpones, by rule id; left out, every deadline of the covered states"),
  windowStart: civilDateSchema("windowStart").describe("The first deadline day the relief postpones"),
  windowEnd: civilDateSchema("windowEnd").describe("The last deadline day the relief postpones"),
  newDueOn: civilDateSchema("newDueOn").describe("The day the postponed deadlines fall due"),
  sourceUrl: z
    .url({ protocol: /^https$/, error: "sourceUrl must be the https address of the announcement" })
    .max(maxReliefSourceUrlLength, `sourceUrl must be at most ${maxReliefSourceUrlLength} characters`),
});
export type DisasterReliefInput = z.infer<typeof disasterReliefInputSchema>;

export const disasterReliefSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  jurisdiction: z.literal("US"),
  states: z.array(z.string()),
  /** The rules whose deadlines it postpones; null for every one. */
  ruleIds: z.array(z.string()).nullable(),
  windowStart: z.string(),
  windowEnd: z.string(),
  newDueOn: z.string(),
  sourceUrl: z.string(),
  createdBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
});
export type DisasterRelief = z.infer<typeof disasterReliefSchema>;

/** POST /api/disaster-reliefs answers the relief and how many open tasks it moved. */
export const disasterReliefCreatedSchema = z.object({ relief: disasterReliefSchema, tasksMoved: z.number().int() });
