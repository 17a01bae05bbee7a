import { and, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { ManualDueDateChange, TaskDueDates } from "../../../shared/due-dates";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clients, firms, taskDueDateChanges, tasks, users } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf, visibleClient } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { parseCivilDate } from "./civil-date";
import { reliefFor, reliefSentence, reliefsOf } from "./disaster-reliefs";
import { clearByDateFor, datesVersionOf, dueDatesFor, ruleVersionFor } from "./due-date-engine";
import { type DueDateRule, dueDateRule } from "./due-date-rules";
import { datesBefore, ruleTaskDates, writeTaskDateChanges } from "./task-date-changes";

/*
 * A task's statutory dates (decision 0053): what its rule gave it, why, every change since (the
 * due-date log), and an extension filed on it. A task's dates are read and changed under the same
 * rules as the task: a `user` only on their assigned clients' tasks.
 */

const filer = alias(users, "filer");
const changer = alias(users, "changer");

const noRule: TaskDueDates = {
  rule: null,
  period: null,
  statutoryDueOn: null,
  dueOn: null,
  clearByOn: null,
  extendedDueOn: null,
  override: null,
  targetOn: null,
  internalTargetDays: null,
  extension: null,
  extensionBy: null,
  explanation: [],
  log: [],
};

/** The rule's extension for the task's period: what it is filed with, or undefined when it has none. */
function extensionOf(rule: DueDateRule, periodStart: string, periodEnd: string) {
  const start = parseCivilDate(periodStart);
  const end = parseCivilDate(periodEnd);
  if (!start || !end) return undefined;
  return ruleVersionFor(rule, { start, end }).extension;
}

async function readTaskDueDates(db: DbExecutor, firmId: string, taskId: string, userId: string | null) {
  const [task] = await db
    .select({
      dueDateRule: tasks.dueDateRule,
      periodStart: tasks.periodStart,
      periodEnd: tasks.periodEnd,
      statutoryDueOn: tasks.statutoryDueOn,
      dueOn: tasks.dueOn,
      clearByOn: tasks.clearByOn,
      extendedDueOn: tasks.extendedDueOn,
      extensionFiledAt: tasks.extensionFiledAt,
      extensionFiledBy: tasks.extensionFiledBy,
      override: tasks.dueOverride,
      targetOn: tasks.targetOn,
      internalTargetDays: firms.internalTargetDays,
      filerName: filer.fullName,
      explanation: tasks.dueExplanation,
    })
    .from(tasks)
    .innerJoin(firms, eq(firms.id, tasks.firmId))
    .leftJoin(filer, and(eq(filer.firmId, tasks.firmId), eq(filer.id, tasks.extensionFiledBy)))
    .where(
      and(eq(tasks.firmId, firmId), eq(tasks.id, taskId), visibleClient(tasks.firmId, tasks.clientId, sql`${userId}`)),
    );
  if (!task) throw new AppError("NOT_FOUND", "Task not found");
  return task;
}

async function answer(db: DbExecutor, firmId: string, taskId: string, userId: string | null): Promise<TaskDueDates> {
  const task = await readTaskDueDates(db, firmId, taskId, userId);
  const rule = task.dueDateRule === null ? undefined : dueDateRule(task.dueDateRule);
  if (!rule || task.periodStart === null || task.periodEnd === null) return noRule;
  const log = await db
    .select({
      id: taskDueDateChanges.id,
      field: taskDueDateChanges.field,
      from: taskDueDateChanges.fromOn,
      to: taskDueDateChanges.toOn,
      reason: taskDueDateChanges.reason,
      ruleId: taskDueDateChanges.ruleId,
      version: taskDueDateChanges.dueDatesVersion,
      note: taskDueDateChanges.note,
      sourceUrl: taskDueDateChanges.sourceUrl,
      changedById: taskDueDateChanges.changedBy,
      changerName: changer.fullName,
      changedAt: taskDueDateChanges.changedAt,
    })
    .from(taskDueDateChanges)
    .leftJoin(changer, and(eq(changer.firmId, taskDueDateChanges.firmId), eq(changer.id, taskDueDateChanges.changedBy)))
    .where(and(eq(taskDueDateChanges.firmId, firmId), eq(taskDueDateChanges.taskId, taskId)))
    .orderBy(asc(taskDueDateChanges.changedAt), asc(taskDueDateChanges.id));
  return {
    rule: { id: rule.id, name: rule.name },
    period: { start: task.periodStart, end: task.periodEnd },
    statutoryDueOn: task.statutoryDueOn,
    dueOn: task.dueOn,
    clearByOn: task.clearByOn,
    extendedDueOn: task.extendedDueOn,
    override: task.override,
    targetOn: task.targetOn,
    internalTargetDays: task.targetOn === null ? null : task.internalTargetDays,
    extension:
      task.extensionFiledAt === null
        ? null
        : {
            filedAt: task.extensionFiledAt.toISOString(),
            filedBy:
              task.extensionFiledBy !== null && task.filerName !== null
                ? { id: task.extensionFiledBy, fullName: task.filerName }
                : null,
          },
    extensionBy: extensionOf(rule, task.periodStart, task.periodEnd)?.by ?? null,
    explanation: task.explanation ?? [],
    log: log.map(({ changedById, changerName, changedAt, ...change }) => ({
      ...change,
      changedBy: changedById !== null && changerName !== null ? { id: changedById, fullName: changerName } : null,
      changedAt: changedAt.toISOString(),
    })),
  };
}

/** GET /api/tasks/{id}/due-dates; 404 when the actor may not see the task. */
export async function getTaskDueDates(options: { db: Database; actor: Actor; taskId: string }): Promise<TaskDueDates> {
  const { db, actor, taskId } = options;
  return answer(db, actor.firmId, taskId, assignedUserOf(actor, "clients.read"));
}

/** A rule task locked for a change by the actor: its dates, its client's state and the firm's zone. */
async function lockRuleTask(
  tx: DbExecutor,
  actor: Actor,
  taskId: string,
  action: "tasks.create" | "dueDates.override",
  ifMatch: IfMatch | undefined,
  /** Why a task without a rule cannot take the change. */
  noRule: string,
) {
  const { role } = await lockFirmAsActor(tx, actor, action);
  const userId = assignedUserOf({ role, userId: actor.userId }, action);
  const [task] = await tx
    .select({
      ...ruleTaskDates,
      status: tasks.status,
      version: tasks.version,
      dueDate: tasks.dueDate,
      archivedAt: clients.archivedAt,
    })
    .from(tasks)
    .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
    .where(
      and(
        eq(tasks.firmId, actor.firmId),
        eq(tasks.id, taskId),
        visibleClient(tasks.firmId, tasks.clientId, sql`${userId}`),
      ),
    )
    .for("update", { of: tasks });
  if (!task) throw new AppError("NOT_FOUND", "Task not found");
  assertVersion(task.version, ifMatch, "task");
  const rule = task.dueDateRule === null ? undefined : dueDateRule(task.dueDateRule);
  const before = datesBefore(task);
  if (!rule || !before || task.periodStart === null || task.periodEnd === null || task.dueDate === null)
    throw new AppError("CONFLICT", noRule);
  if (task.status === "completed") throw new AppError("CONFLICT", "This task is signed off and cannot be changed");
  if (task.archivedAt !== null)
    throw new AppError("CONFLICT", "This client is archived. Restore it before changing its tasks.");
  return {
    ...task,
    rule,
    userId,
    before,
    periodStart: task.periodStart,
    periodEnd: task.periodEnd,
    dueDate: task.dueDate,
  };
}

/**
 * POST /api/tasks/{id}/extension: an extension was filed for the task. Its extended due date is
 * counted by the rule from the unshifted statutory date, then moved (and postponed by a disaster
 * relief whose window holds it); the task falls due at the end of that day, and the due date it
 * had stays shown. Logged (reason EXTENSION) and audited.
 */
export async function fileExtension(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  ifMatch?: IfMatch;
}): Promise<TaskDueDates> {
  const { db, actor, taskId } = options;
  return db.transaction(async (tx) => {
    const task = await lockRuleTask(
      tx,
      actor,
      taskId,
      "tasks.create",
      options.ifMatch,
      "This task follows no statutory due-date rule, so it has no extension to file",
    );
    const { rule } = task;
    if (task.extendedDueOn !== null) throw new AppError("CONFLICT", "An extension is already filed for this task");
    const extension = extensionOf(rule, task.periodStart, task.periodEnd);
    const dates = dueDatesFor(rule, {
      periodEnd: task.periodEnd,
      periodStart: task.periodStart,
      ...(rule.jurisdiction === "US" && task.state ? { state: task.state } : {}),
    });
    if (!extension || !dates.extendedDueDate)
      throw new AppError("CONFLICT", `${rule.name} has no extension of time to file`);
    const now = new Date();
    const ruleDay = dates.extendedDueDate.toString();
    const relief =
      rule.jurisdiction === "US"
        ? reliefFor(ruleDay, task.state, rule.id, (await reliefsOf(tx, [actor.firmId])).get(actor.firmId) ?? [])
        : undefined;
    const extendedDueOn = relief?.day ?? ruleDay;
    const after = {
      ...task.before,
      extendedDueOn: ruleDay,
      override: null,
      explanation: dates.explanation,
      version: dates.version,
    };
    const filed = { by: actor.userId, at: now };
    const base = { taskId, ruleId: rule.id, periodEnd: task.periodEnd, changedBy: actor.userId };
    const extended = await writeTaskDateChanges(
      tx,
      actor.firmId,
      [
        {
          ...base,
          before: task.before,
          after,
          reason: "EXTENSION",
          note: extension.by,
          extensionFiled: filed,
        },
      ],
      now,
    );
    const postponed = !relief
      ? undefined
      : await writeTaskDateChanges(
          tx,
          actor.firmId,
          [
            {
              ...base,
              before: after,
              after: {
                ...after,
                extendedDueOn,
                override: "DISASTER_RELIEF",
                explanation: [...dates.explanation, reliefSentence(relief.relief)],
              },
              reason: "DISASTER_RELIEF",
              note: relief.relief.name,
              sourceUrl: relief.relief.sourceUrl,
            },
          ],
          now,
        );
    await recordAudit(tx, actor, {
      action: "task.extension_filed",
      entityType: "task",
      entityId: taskId,
      before: { dueDate: task.dueDate.toISOString(), extendedDueOn: null },
      after: { dueDate: (postponed ?? extended).dueDates.get(taskId)?.toISOString() ?? null, extendedDueOn },
    });
    return answer(tx, actor.firmId, taskId, task.userId);
  });
}

/** How far from its statutory date a hand-set due day may be: a typing slip, not a decision, beyond that. */
const manualChangeYears = 5;

/**
 * POST /api/tasks/{id}/due-date: a person with the right (dueDates.override) moves the day the
 * task is due (its extended due day once an extension is filed), saying why. The rule's dates stay
 * shown; a new version of the rules or calendars leaves the day as set. Logged (MANUAL, with the
 * reason) and audited.
 */
export async function changeDueDate(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  change: ManualDueDateChange;
  ifMatch?: IfMatch;
}): Promise<TaskDueDates> {
  const { db, actor, taskId, change } = options;
  const day = parseCivilDate(change.dueOn);
  if (!day) throw fieldError("dueOn", "dueOn must be a real date written YYYY-MM-DD");
  return db.transaction(async (tx) => {
    const task = await lockRuleTask(
      tx,
      actor,
      taskId,
      "dueDates.override",
      options.ifMatch,
      "This task follows no statutory due-date rule: change its due date by editing the task",
    );
    const dueOn = day.toString();
    if (dueOn <= task.periodEnd)
      throw fieldError("dueOn", `dueOn must be after the period it is for ends (${task.periodEnd})`);
    const statutory = parseCivilDate(task.before.statutoryDueOn);
    if (statutory && Math.abs(day.year - statutory.year) > manualChangeYears)
      throw fieldError("dueOn", `dueOn must be within ${manualChangeYears} years of the statutory date`);
    const field = task.before.extendedDueOn === null ? "dueOn" : "extendedDueOn";
    if (task.before[field] === dueOn) throw fieldError("dueOn", "The task is already due on that day");
    const now = new Date();
    const after = {
      ...task.before,
      [field]: dueOn,
      ...(field === "dueOn" ? { clearByOn: clearByDateFor(task.rule, day)?.toString() ?? null } : {}),
      override: "MANUAL" as const,
      explanation: task.explanation ?? [],
      version: task.datesVersion ?? datesVersionOf(task.rule),
    };
    const { dueDates } = await writeTaskDateChanges(
      tx,
      actor.firmId,
      [
        {
          taskId,
          ruleId: task.rule.id,
          periodEnd: task.periodEnd,
          before: task.before,
          after,
          reason: "MANUAL",
          note: change.reason,
          changedBy: actor.userId,
        },
      ],
      now,
    );
    await recordAudit(tx, actor, {
      action: "task.due_date_changed",
      entityType: "task",
      entityId: taskId,
      before: { dueDate: task.dueDate.toISOString(), dueOn: task.before[field] },
      after: { dueDate: dueDates.get(taskId)?.toISOString() ?? null, dueOn, reason: change.reason },
    });
    return answer(tx, actor.firmId, taskId, task.userId);
  });
}
