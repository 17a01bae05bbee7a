import { z } from "zod";
import "./validation";
import { clientStatuses } from "./clients";
import { EARLIEST_YEAR, isYearInRange, LATEST_YEAR } from "./date-range";
import { dueDateChangeReasons, taskDueDateFields } from "./due-dates";
import { roles } from "./roles";
import { taskPriorities, taskStatuses } from "./tasks";

/*
 * The contract of the reports, the user profile's activity and the firm's audit trail (the REP
 * and UPROF requirements, S-CONST-24..28, S-ROLE-15..16). Figures are computed in SQL in the
 * firm's time zone.
 *
 * A report's range is the last `days` calendar days of the firm's time zone, today included:
 * from local midnight `days - 1` days ago up to now. A task belongs to the range when it was
 * created or completed in it; a task completed exactly at the range's start is in.
 * Rates are whole percentages, `null` when there is nothing to divide by (the UI shows "—").
 * Average completion days: the mean of (completedAt - createdAt) in days over the completed tasks,
 * rounded (S-CONST-28); `null` when none was completed.
 */

export const reportDays = [7, 30, 90, 365] as const;
export type ReportDays = (typeof reportDays)[number];
export const defaultReportDays: ReportDays = 30;

const daysSchema = z
  .enum(["7", "30", "90", "365"], { error: "days must be 7, 30, 90 or 365" })
  .default("30")
  .transform((value) => Number(value) as ReportDays);

/**
 * `?days=7|30|90|365` (default 30) and `?format=csv` for a download instead of JSON. Without a
 * format, `Accept: text/csv` asks for the download too (so `format` has no default).
 */
export const reportQuerySchema = z.strictObject({
  days: daysSchema,
  format: z.enum(["json", "csv"], { error: "format must be json or csv" }).optional(),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** GET /api/users/{id}/activity: `?days=7|30|90|365` (default 30), the user audit's ranges. */
export const userActivityQuerySchema = z.strictObject({ days: daysSchema });

/**
 * A user's work, as the profile and the user audit both count it (S-EDGE-03): "completed" is what
 * the user signed off in the range, on any client; "pending" and "overdue" are the open tasks of
 * the clients assigned to them now. Both screens say so in this sentence.
 */
export function userWorkSentence(days: ReportDays): string {
  return (
    `Completed counts the tasks this user signed off in the last ${days} days; ` +
    "pending and overdue count the open tasks of the clients assigned to them now."
  );
}

const rateSchema = z.number().int().min(0).max(100).nullable();
const averageDaysSchema = z.number().int().min(0).nullable();

export const reportRangeSchema = z.object({
  days: z.union(reportDays.map((days) => z.literal(days))),
  /** Local midnight of the first day, as an instant. */
  from: z.iso.datetime(),
  /** When the report was computed. */
  to: z.iso.datetime(),
  timeZone: z.string(),
  /** The chart's buckets: days for 7 and 30, weeks (starting Monday) for 90 and 365. */
  bucket: z.enum(["day", "week"]),
});
export type ReportRange = z.infer<typeof reportRangeSchema>;

/** One row of a client's task history, newest activity first. */
export const reportTaskSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(taskStatuses),
  priority: z.enum(taskPriorities),
  dueDate: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  /** The signer's printed name and the user who signed, for completed tasks. */
  printedName: z.string().nullable(),
  completedBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
});
export type ReportTask = z.infer<typeof reportTaskSchema>;

/** A change of a statutory date of a task (decision 0053), as the client audit carries it. */
export const reportDueDateChangeSchema = z.object({
  field: z.enum(taskDueDateFields),
  from: z.string().nullable(),
  to: z.string().nullable(),
  reason: z.enum(dueDateChangeReasons),
  note: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  /** Who changed it; null for the system. */
  changedBy: z.string().nullable(),
  changedAt: z.iso.datetime(),
});
export type ReportDueDateChange = z.infer<typeof reportDueDateChangeSchema>;

/** A task of the client audit's history, with its statutory dates' log (empty for a task without a rule). */
export const clientReportTaskSchema = reportTaskSchema.extend({ dueDateChanges: z.array(reportDueDateChangeSchema) });
export type ClientReportTask = z.infer<typeof clientReportTaskSchema>;

/** GET /api/reports/clients/{id}: the client audit (S-REP-07..13). */
export const clientReportSchema = z.object({
  client: z.object({ id: z.uuid(), name: z.string(), industry: z.string().nullable(), status: z.enum(clientStatuses) }),
  range: reportRangeSchema,
  totalTasks: z.number().int(),
  completedTasks: z.number().int(),
  completionRate: rateSchema,
  /** Tasks of the range that are overdue now. */
  overdueTasks: z.number().int(),
  averageCompletionDays: averageDaysSchema,
  /** Every task of the range, newest first by coalesce(completedAt, createdAt). */
  history: z.array(clientReportTaskSchema),
  /** One point per bucket of the range, oldest first, empty buckets included. */
  series: z.array(z.object({ start: z.iso.date(), created: z.number().int(), completed: z.number().int() })),
});
export type ClientReport = z.infer<typeof clientReportSchema>;

/** A completion in the user audit: on time when completed on or before its due date. */
export const completionSchema = z.object({
  taskId: z.uuid(),
  name: z.string(),
  client: z.object({ id: z.uuid(), name: z.string() }),
  priority: z.enum(taskPriorities),
  dueDate: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime(),
  /** `null` for a task without a due date: it is neither on time nor late. */
  onTime: z.boolean().nullable(),
});
export type Completion = z.infer<typeof completionSchema>;

/** The clients a user audit's breakdown lists at most: those with the most completions. */
export const userReportClientsListed = 20;

/** GET /api/reports/users/{id}: the user audit (S-REP-14..21), over the tasks completed in the range. */
export const userReportSchema = z.object({
  user: z.object({
    id: z.uuid(),
    username: z.string(),
    fullName: z.string(),
    email: z.string().nullable(),
    role: z.enum(roles),
    disabled: z.boolean(),
    createdAt: z.iso.datetime(),
    assignedClients: z.number().int(),
  }),
  range: reportRangeSchema,
  tasksCompleted: z.number().int(),
  /** Completed on or before the due date, among the completed tasks that had one. */
  onTimeRate: rateSchema,
  /** The clients with at least one completion of the range, however many `byClient` lists. */
  clientsServed: z.number().int(),
  averageCompletionDays: averageDaysSchema,
  /**
   * The performance breakdown: every priority (all three, zeros included), then the clients served
   * with the most completions, at most `userReportClientsListed` of them (ties by name, then id):
   * a user who served thousands of clients would otherwise make a report of hundreds of kilobytes.
   */
  byPriority: z.array(
    z.object({ priority: z.enum(taskPriorities), completed: z.number().int(), onTimeRate: rateSchema }),
  ),
  byClient: z
    .array(
      z.object({
        client: z.object({ id: z.uuid(), name: z.string() }),
        completed: z.number().int(),
        onTimeRate: rateSchema,
      }),
    )
    .max(userReportClientsListed),
  /** The 10 most recent completions, newest first (S-CONST-25). */
  recentCompletions: z.array(completionSchema).max(10),
  series: z.array(
    z.object({ start: z.iso.date(), completed: z.number().int(), onTime: z.number().int(), late: z.number().int() }),
  ),
  /** The open tasks of the user's assigned clients now, not yet past their due date (userWorkSentence). */
  pendingTasks: z.number().int(),
  /** The open tasks of the user's assigned clients now that are past their due date. */
  overdueTasks: z.number().int(),
});
export type UserReport = z.infer<typeof userReportSchema>;
export type UserOpenWork = Pick<UserReport, "pendingTasks" | "overdueTasks">;

/**
 * GET /api/users/{id}/activity: the user profile (S-UPROF-02..10) over a range, with the user audit's
 * definition of a user's work (userWorkSentence): the tasks they signed off in the range are
 * completed, the open tasks of their assigned clients now are pending or overdue, and `total` is the
 * three together. Counts are exact; `tasks` holds the newest 200 in the audit order (S-TAUD-09),
 * each with its client.
 */
export const userActivitySchema = z.object({
  user: z.object({
    id: z.uuid(),
    username: z.string(),
    fullName: z.string(),
    email: z.string().nullable(),
    role: z.enum(roles),
    disabled: z.boolean(),
    createdAt: z.iso.datetime(),
  }),
  range: reportRangeSchema,
  totals: z.object({
    total: z.number().int(),
    completed: z.number().int(),
    pending: z.number().int(),
    overdue: z.number().int(),
    completionRate: rateSchema,
    averageCompletionDays: averageDaysSchema,
  }),
  tasks: z.array(
    reportTaskSchema.omit({ completedBy: true }).extend({ client: z.object({ id: z.uuid(), name: z.string() }) }),
  ),
  assignedClients: z.array(
    z.object({ id: z.uuid(), name: z.string(), industry: z.string().nullable(), status: z.enum(clientStatuses) }),
  ),
});
export type UserActivity = z.infer<typeof userActivitySchema>;
export const activityTasksLimit = 200;

/*
 * The firm's audit trail (decision 0005), for super_admin and admin.
 * GET /api/audit-events?entity=&entityId=&userId=&from=&to=&cursor=&limit= answers the newest
 * events first, at most `limit` (default and maximum 100), with `x-next-cursor` when more follow.
 */
export const auditEntities = ["firm", "user", "client", "contact", "task", "template"] as const;
export type AuditEntity = (typeof auditEntities)[number];

/** A real day of the years 1900-2200. */
const calendarDate = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date (YYYY-MM-DD)` })
    .refine(
      (date) => isYearInRange(Number(date.slice(0, 4))),
      `${name} must be a day of the years ${EARLIEST_YEAR} to ${LATEST_YEAR}`,
    );

export const auditEventsQuerySchema = z
  .strictObject({
    entity: z
      .enum(auditEntities, { error: "entity must be one of firm, user, client, contact, task, template" })
      .optional(),
    entityId: z.uuid({ error: "entityId must be an id" }).optional(),
    userId: z.uuid({ error: "userId must be an id" }).optional(),
    /** Calendar dates in the firm's time zone, both included. */
    from: calendarDate("from").optional(),
    to: calendarDate("to").optional(),
    cursor: z.string().max(200, "Invalid cursor").optional(),
    limit: z.coerce
      .number({ error: "limit must be a number from 1 to 100" })
      .int("limit must be a number from 1 to 100")
      .min(1, "limit must be a number from 1 to 100")
      .max(100, "limit must be a number from 1 to 100")
      .default(100),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    message: "from must be on or before to",
    path: ["from"],
  });
export type AuditEventsQuery = z.infer<typeof auditEventsQuerySchema>;

export const auditEventSchema = z.object({
  id: z.uuid(),
  seq: z.number().int(),
  action: z.string(),
  entityType: z.enum(auditEntities),
  entityId: z.uuid().nullable(),
  /** Who: `null` for the system (the recurring-work scheduler). */
  actor: z.object({ id: z.uuid(), username: z.string(), fullName: z.string() }).nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.iso.datetime(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** Events one call of a full re-verification verifies at most: `limit`'s default and ceiling, well under a second of one core. */
export const auditVerifySliceMax = 10_000;

const sliceNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max.toLocaleString("en-US")}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/**
 * GET /api/audit-events/verify's query. Without `full`, the quick check: from the firm's verified
 * checkpoint to the newest event. With `full=true`, one slice of a full re-verification: the
 * `limit` events after event `after` (0: from the first event), whatever the checkpoint says;
 * the caller goes on from the answer's `next` until it is null.
 */
export const auditVerifyQuerySchema = z
  .strictObject({
    full: z.enum(["true", "false"], { error: "full must be true or false" }).optional(),
    after: sliceNumber("after", 0, Number.MAX_SAFE_INTEGER).optional(),
    limit: sliceNumber("limit", 1, auditVerifySliceMax).optional(),
  })
  .refine((query) => query.full === "true" || (query.after === undefined && query.limit === undefined), {
    message: "after and limit are for a full re-verification (full=true)",
    path: ["full"],
  });
export type AuditVerifyQuery = z.infer<typeof auditVerifyQuerySchema>;

/** What every verification answer says besides its verdict: where it read, out of how many, and the checkpoint. */
const verificationReach = {
  /** The first event this check read: 1, or the checkpoint (or a slice's `after`) it went on from, re-hashed as the link. */
  from: z.number().int(),
  /** How many events the app had recorded when the check began (the head's seq). */
  total: z.number().int(),
  /**
   * The firm's verified checkpoint after this check: every event up to `seq` was found intact by
   * a walk that ended at `verifiedAt`. Null before the first check. Only the quick check moves it.
   */
  checkpoint: z.object({ seq: z.number().int(), verifiedAt: z.iso.datetime() }).nullable(),
};

/**
 * GET /api/audit-events/verify: the firm's hash chain walked (from its first event, or from its
 * verified checkpoint) and held against the head the app recorded
 * (docs/design/audit-trail-and-settings.md). `events` is how many events verified intact: all of
 * them up to where the check stopped when intact (those before the checkpoint counted as the
 * checkpoint vouches for them); those before the break otherwise. When broken, either `brokenAt`
 * names an event and `reason` says what is wrong with it: `changed` (it was edited, or an event
 * before it was removed), `rewritten` (the newest event is not the one the app recorded: the
 * chain was rewritten at or before it) or `added` (it was not written by the app); or `missing`
 * gives the seq range of the newest events, which were removed. `next`, when intact, is where a
 * full re-verification goes on (its next `after`); null once it reached the newest event.
 */
export const auditVerificationSchema = z.union([
  z.object({
    intact: z.literal(true),
    events: z.number().int(),
    next: z.number().int().nullable(),
    ...verificationReach,
  }),
  z.object({
    intact: z.literal(false),
    events: z.number().int(),
    brokenAt: z.object({ id: z.uuid(), seq: z.number().int(), action: z.string(), createdAt: z.iso.datetime() }),
    reason: z.enum(["changed", "rewritten", "added"]),
    ...verificationReach,
  }),
  z.object({
    intact: z.literal(false),
    events: z.number().int(),
    missing: z.object({ fromSeq: z.number().int(), toSeq: z.number().int() }),
    ...verificationReach,
  }),
]);
export type AuditVerification = z.infer<typeof auditVerificationSchema>;
/** A verification's verdict alone, without where it read: what the banner's sentence is made of. */
export type AuditVerdict = AuditVerification extends infer V
  ? V extends unknown
    ? Omit<V, "from" | "total" | "checkpoint" | "next">
    : never
  : never;
