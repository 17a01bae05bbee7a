import { and, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { v7 as uuidv7 } from "uuid";
import type { TaskDueDates } from "../../../shared/due-dates";
import { isValidTimeZone } from "../../../shared/recurrence";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clients, firms, taskDueDateChanges, tasks, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf, visibleClient } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { endOfDay, parseCivilDate } from "./civil-date";
import { dueDatesFor, ruleVersionFor } from "./due-date-engine";
import { type DueDateRule, dueDateRule } from "./due-date-rules";

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
      filerName: filer.fullName,
      explanation: tasks.dueExplanation,
    })
    .from(tasks)
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

/**
 * POST /api/tasks/{id}/extension: an extension was filed for the task. Its extended due date is
 * counted by the rule from the unshifted statutory date, then moved; the task falls due at the end
 * of that day, and the due date it had stays shown. Logged (reason EXTENSION) and audited.
 */
export async function fileExtension(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  ifMatch?: IfMatch;
}): Promise<TaskDueDates> {
  const { db, actor, taskId } = options;
  return db.transaction(async (tx) => {
    const { role } = await lockFirmAsActor(tx, actor, "tasks.create");
    const userId = assignedUserOf({ role, userId: actor.userId }, "tasks.create");
    const [task] = await tx
      .select({
        id: tasks.id,
        status: tasks.status,
        version: tasks.version,
        dueDateRule: tasks.dueDateRule,
        periodStart: tasks.periodStart,
        periodEnd: tasks.periodEnd,
        extendedDueOn: tasks.extendedDueOn,
        dueDate: tasks.dueDate,
        state: clients.state,
        archivedAt: clients.archivedAt,
        timeZone: firms.timeZone,
      })
      .from(tasks)
      .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
      .innerJoin(firms, eq(firms.id, tasks.firmId))
      .where(
        and(
          eq(tasks.firmId, actor.firmId),
          eq(tasks.id, taskId),
          visibleClient(tasks.firmId, tasks.clientId, sql`${userId}`),
        ),
      );
    if (!task) throw new AppError("NOT_FOUND", "Task not found");
    assertVersion(task.version, options.ifMatch, "task");
    const rule = task.dueDateRule === null ? undefined : dueDateRule(task.dueDateRule);
    if (!rule || task.periodStart === null || task.periodEnd === null)
      throw new AppError("CONFLICT", "This task follows no statutory due-date rule, so it has no extension to file");
    if (task.status === "completed") throw new AppError("CONFLICT", "This task is signed off and cannot be changed");
    if (task.archivedAt !== null)
      throw new AppError("CONFLICT", "This client is archived. Restore it before changing its tasks.");
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
    const timeZone = isValidTimeZone(task.timeZone) ? task.timeZone : "UTC";
    const extendedDueOn = dates.extendedDueDate.toString();
    await tx
      .update(tasks)
      .set({
        extendedDueOn,
        extensionFiledAt: now,
        extensionFiledBy: actor.userId,
        dueDate: endOfDay(dates.extendedDueDate, timeZone),
        dueExplanation: dates.explanation,
        dueDatesVersion: dates.version,
        updatedAt: now,
      })
      .where(and(eq(tasks.firmId, actor.firmId), eq(tasks.id, taskId)));
    await tx.insert(taskDueDateChanges).values({
      id: uuidv7(),
      firmId: actor.firmId,
      taskId,
      field: "extended",
      fromOn: null,
      toOn: extendedDueOn,
      reason: "EXTENSION",
      ruleId: rule.id,
      dueDatesVersion: dates.version,
      note: `Extension filed (${extension.by})`,
      changedBy: actor.userId,
    });
    await recordAudit(tx, actor, {
      action: "task.extension_filed",
      entityType: "task",
      entityId: taskId,
      before: { dueDate: task.dueDate?.toISOString() ?? null, extendedDueOn: null },
      after: { dueDate: endOfDay(dates.extendedDueDate, timeZone).toISOString(), extendedDueOn },
    });
    return answer(tx, actor.firmId, taskId, userId);
  });
}
