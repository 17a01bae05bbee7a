import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { DueDateChangeReason, DueDateOverride, TaskDueDateField } from "../../../shared/due-dates";
import type { DbExecutor } from "../../platform/db/database";
import { clients, tasks } from "../../platform/db/schema";
import { parseCivilDate } from "./civil-date";
import { dueDateRule } from "./due-date-rules";
import { dueInstantFor, duePolicyOf } from "./internal-targets";

/*
 * The one way a rule task's dates change after it is made (decision 0053): the new dates are
 * written and every date that differs is appended to the due-date log with the reason, in two
 * statements however many tasks change. An extension, a manual change, a disaster relief and a
 * new version of the rules or calendars all come through here.
 */

/** A rule task's dates as kept on it. */
export type TaskDates = {
  statutoryDueOn: string;
  dueOn: string;
  clearByOn: string | null;
  extendedDueOn: string | null;
};

/**
 * A rule task's dates as the writers read them, with its client's state (the query joins
 * clients): what a change starts from.
 */
export const ruleTaskDates = {
  id: tasks.id,
  dueDateRule: tasks.dueDateRule,
  periodStart: tasks.periodStart,
  periodEnd: tasks.periodEnd,
  statutoryDueOn: tasks.statutoryDueOn,
  dueOn: tasks.dueOn,
  clearByOn: tasks.clearByOn,
  extendedDueOn: tasks.extendedDueOn,
  override: tasks.dueOverride,
  explanation: tasks.dueExplanation,
  datesVersion: tasks.dueDatesVersion,
  state: clients.state,
};

/** The dates a change starts from, or undefined for a task without them (not a rule task). */
export function datesBefore(task: {
  statutoryDueOn: string | null;
  dueOn: string | null;
  clearByOn: string | null;
  extendedDueOn: string | null;
}): TaskDates | undefined {
  const { statutoryDueOn, dueOn, clearByOn, extendedDueOn } = task;
  return statutoryDueOn === null || dueOn === null ? undefined : { statutoryDueOn, dueOn, clearByOn, extendedDueOn };
}

export type TaskDateChange = {
  taskId: string;
  ruleId: string;
  /** The end of the task's period (YYYY-MM-DD): a target never falls before the day after it. */
  periodEnd: string;
  before: TaskDates;
  after: TaskDates & {
    override: DueDateOverride | null;
    explanation: string[];
    version: string;
  };
  reason: DueDateChangeReason;
  note?: string;
  sourceUrl?: string;
  /** Who changed it; null for the system. */
  changedBy: string | null;
  /** Set when the change records an extension filed by this user (or null for the system). */
  extensionFiled?: { by: string | null; at: Date };
};

const loggedFields: [TaskDueDateField, keyof TaskDates][] = [
  ["statutory", "statutoryDueOn"],
  ["due", "dueOn"],
  ["extended", "extendedDueOn"],
  ["clear_by", "clearByOn"],
];

/**
 * Writes the changes (tasks of `firmId`, locked by the caller) and logs each date that moved.
 * Answers how many dates moved and the instant each task now falls due.
 */
export async function writeTaskDateChanges(
  tx: DbExecutor,
  firmId: string,
  changes: readonly TaskDateChange[],
  now: Date,
): Promise<{ moved: number; dueDates: Map<string, Date> }> {
  const dueDates = new Map<string, Date>();
  if (changes.length === 0) return { moved: 0, dueDates };
  const policy = await duePolicyOf(tx, firmId);
  const targets = changes.map((change) => {
    const rule = dueDateRule(change.ruleId);
    const dueDay = parseCivilDate(change.after.extendedDueOn ?? change.after.dueOn);
    const periodEnd = parseCivilDate(change.periodEnd);
    if (!rule || !dueDay || !periodEnd) throw new Error(`task ${change.taskId}: no rule or dates to fall due by`);
    const due = dueInstantFor(rule, dueDay, periodEnd, policy);
    dueDates.set(change.taskId, due.dueDate);
    return due;
  });
  await tx.execute(sql`
    update tasks t
    set statutory_due_on = v.statutory_due_on, due_on = v.due_on, clear_by_on = v.clear_by_on,
      extended_due_on = v.extended_due_on, due_date = v.due_date, target_on = v.target_on, due_override = v.override,
      due_explanation = v.explanation, due_dates_version = v.version,
      extension_filed_at = coalesce(v.filed_at, t.extension_filed_at),
      extension_filed_by = case when v.filed_at is null then t.extension_filed_by else v.filed_by end,
      updated_at = ${now.toISOString()}::timestamptz
    from unnest(${sql.param(changes.map((change) => change.taskId))}::uuid[],
        ${sql.param(changes.map((change) => change.after.statutoryDueOn))}::date[],
        ${sql.param(changes.map((change) => change.after.dueOn))}::date[],
        ${sql.param(changes.map((change) => change.after.clearByOn))}::date[],
        ${sql.param(changes.map((change) => change.after.extendedDueOn))}::date[],
        ${sql.param(targets.map((target) => target.dueDate.toISOString()))}::timestamptz[],
        ${sql.param(targets.map((target) => target.targetOn))}::date[],
        ${sql.param(changes.map((change) => change.after.override))}::text[],
        ${sql.param(changes.map((change) => JSON.stringify(change.after.explanation)))}::jsonb[],
        ${sql.param(changes.map((change) => change.after.version))}::text[],
        ${sql.param(changes.map((change) => change.extensionFiled?.at.toISOString() ?? null))}::timestamptz[],
        ${sql.param(changes.map((change) => change.extensionFiled?.by ?? null))}::uuid[])
      as v(id, statutory_due_on, due_on, clear_by_on, extended_due_on, due_date, target_on, override, explanation, version,
        filed_at, filed_by)
    where t.firm_id = ${firmId} and t.id = v.id`);
  const log = changes.flatMap((change) =>
    loggedFields
      .filter(([, key]) => change.before[key] !== change.after[key])
      .map(([field, key]) => ({ change, field, from: change.before[key], to: change.after[key] })),
  );
  if (log.length === 0) return { moved: 0, dueDates };
  await tx.execute(sql`
    insert into task_due_date_changes (id, firm_id, task_id, field, from_on, to_on, reason, rule_id,
      due_dates_version, note, source_url, changed_by, changed_at)
    select v.id, ${firmId}, v.task_id, v.field, v.from_on, v.to_on, v.reason, v.rule_id, v.version, v.note,
      v.source_url, v.changed_by, ${now.toISOString()}::timestamptz
    from unnest(${sql.param(log.map(() => uuidv7()))}::uuid[],
        ${sql.param(log.map(({ change }) => change.taskId))}::uuid[],
        ${sql.param(log.map(({ field }) => field))}::text[],
        ${sql.param(log.map(({ from }) => from))}::date[],
        ${sql.param(log.map(({ to }) => to))}::date[],
        ${sql.param(log.map(({ change }) => change.reason))}::text[],
        ${sql.param(log.map(({ change }) => change.ruleId))}::text[],
        ${sql.param(log.map(({ change }) => change.after.version))}::text[],
        ${sql.param(log.map(({ change }) => change.note ?? null))}::text[],
        ${sql.param(log.map(({ change }) => change.sourceUrl ?? null))}::text[],
        ${sql.param(log.map(({ change }) => change.changedBy))}::uuid[])
      as v(id, task_id, field, from_on, to_on, reason, rule_id, version, note, source_url, changed_by)`);
  return { moved: log.length, dueDates };
}
