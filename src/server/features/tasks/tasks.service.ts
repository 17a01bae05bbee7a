import { and, eq, isNull, sql } from "drizzle-orm";
import type { CreateTaskInput, Task, UpdateTaskInput } from "../../../shared/tasks";
import { changedFields } from "../../platform/changes";
import type { Database } from "../../platform/db/database";
import { clients, tasks, taskTemplates } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf, visibleClient } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { completer, findTask, refuseArchivedClient, type TaskRow, taskColumns, toTask } from "./task-rows";

/*
 * Tasks: the work a firm does for its clients, and its sign-off. Every query is scoped to the
 * actor's firm and, for the `user` role, to the clients assigned to them (S-ROLE-07): a
 * task they may not see is answered like one that does not exist. `overdue` is never stored; it
 * is derived from the due date against one `now` per request, in SQL for the filters and in
 * `taskStatus` for the answer, so the two always agree.
 *
 * A completed task is evidence: it cannot be changed or deleted, and its sign-off (who, when,
 * from where, the printed name, the signature and its hash) is written once, by completeTask
 * (task-sign-off.service.ts). The list is task-list.service.ts, the bell overdue-tasks.service.ts.
 */

/** One task with who signed it off; 404 when the actor may not see its client. */
export async function getTask(options: { db: Database; actor: Actor; taskId: string; now?: Date }): Promise<Task> {
  const { db, actor, taskId, now = new Date() } = options;
  const [row] = await db
    .select({ task: taskColumns, fullName: completer.fullName, username: completer.username })
    .from(tasks)
    .leftJoin(completer, and(eq(completer.firmId, tasks.firmId), eq(completer.id, tasks.completedBy)))
    .where(
      and(
        eq(tasks.firmId, actor.firmId),
        eq(tasks.id, taskId),
        visibleClient(tasks.firmId, tasks.clientId, sql`${assignedUserOf(actor, "clients.read")}`),
      ),
    );
  if (!row) throw new AppError("NOT_FOUND", "Task not found");
  const signer =
    row.fullName !== null && row.username !== null ? { fullName: row.fullName, username: row.username } : null;
  return toTask(row.task, now, signer);
}

// -------------------------------------------------------------------------------------------
// Writes

/** Creates a pending task for a client the actor may reach; `createdBy` is the session's user. */
export async function createTask(options: { db: Database; actor: Actor; input: CreateTaskInput }): Promise<Task> {
  const { db, actor, input } = options;
  const row = await db.transaction(async (tx) => {
    const { role } = await lockFirmAsActor(tx, actor, "tasks.create");
    const userId = assignedUserOf({ role: role, userId: actor.userId }, "tasks.create");
    const [client] = await tx
      .select({ archivedAt: clients.archivedAt })
      .from(clients)
      .where(
        and(
          eq(clients.firmId, actor.firmId),
          eq(clients.id, input.clientId),
          visibleClient(clients.firmId, clients.id, sql`${userId}`),
        ),
      );
    if (!client) throw new AppError("NOT_FOUND", "Client not found");
    // An archived client keeps its history readable but takes no new work: new tasks would sit
    // outside every list, since lists leave archived clients out.
    if (client.archivedAt !== null) {
      throw new AppError("CONFLICT", "This client is archived. Restore it before adding tasks.");
    }
    const templateId = input.templateId ?? null;
    if (templateId !== null) {
      const [template] = await tx
        .select({ id: taskTemplates.id })
        .from(taskTemplates)
        .where(
          and(
            eq(taskTemplates.firmId, actor.firmId),
            eq(taskTemplates.id, templateId),
            isNull(taskTemplates.deletedAt),
          ),
        );
      if (!template) throw new AppError("NOT_FOUND", "Task template not found");
    }
    const [created] = await tx
      .insert(tasks)
      .values({
        firmId: actor.firmId,
        clientId: input.clientId,
        templateId,
        name: input.name,
        description: input.description ?? null,
        priority: input.priority,
        status: "pending",
        dueDate: input.dueDate === null ? null : new Date(input.dueDate),
        createdBy: actor.userId,
      })
      .returning();
    if (!created) throw new Error("task insert returned nothing");
    await recordAudit(tx, actor, {
      action: "task.created",
      entityType: "task",
      entityId: created.id,
      after: { clientId: created.clientId, ...audited(created) },
    });
    return created;
  });
  return toTask(row, new Date(), null);
}

/** Changes the fields given of a pending task; a signed-off one is evidence and stays as it is. */
export async function updateTask(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  input: UpdateTaskInput;
  ifMatch?: IfMatch;
}): Promise<Task> {
  const { db, actor, taskId, input } = options;
  const row = await db.transaction(async (tx) => {
    const { role } = await lockFirmAsActor(tx, actor, "tasks.create");
    const before = await findTask(
      tx,
      actor.firmId,
      taskId,
      assignedUserOf({ role: role, userId: actor.userId }, "tasks.create"),
    );
    assertVersion(before.version, options.ifMatch, "task");
    if (before.status === "completed") {
      throw new AppError("CONFLICT", "This task is signed off and cannot be changed");
    }
    await refuseArchivedClient(tx, actor.firmId, before.clientId, "changing its tasks");
    const changes = changedFields(before, {
      name: input.name,
      description: input.description,
      priority: input.priority,
      dueDate: input.dueDate === undefined ? undefined : input.dueDate === null ? null : new Date(input.dueDate),
    });
    // A statutory date moves only with its reason, so that its log stays whole (decision 0053).
    if (changes.dueDate !== undefined && before.dueDateRule !== null)
      throw fieldError(
        "dueDate",
        "This task's due date follows a statutory rule: it moves when an extension is filed, not by editing the task",
      );
    if (Object.keys(changes).length === 0) return before;
    const [updated] = await tx
      .update(tasks)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(tasks.firmId, actor.firmId), eq(tasks.id, taskId), eq(tasks.status, "pending")))
      .returning();
    if (!updated) throw new AppError("CONFLICT", "This task is signed off and cannot be changed");
    const changed = Object.keys(changes) as (keyof typeof changes)[];
    await recordAudit(tx, actor, {
      action: "task.updated",
      entityType: "task",
      entityId: taskId,
      before: pick(audited(before), changed),
      after: pick(audited(updated), changed),
    });
    return updated;
  });
  return toTask(row, new Date(), null);
}

/** Deletes a pending task (one made by mistake); signed-off work is kept. */
export async function deleteTask(options: { db: Database; actor: Actor; taskId: string }): Promise<void> {
  const { db, actor, taskId } = options;
  await db.transaction(async (tx) => {
    const { role } = await lockFirmAsActor(tx, actor, "tasks.create");
    const before = await findTask(
      tx,
      actor.firmId,
      taskId,
      assignedUserOf({ role: role, userId: actor.userId }, "tasks.create"),
    );
    if (before.status === "completed") {
      throw new AppError("CONFLICT", "This task is signed off and cannot be deleted");
    }
    await refuseArchivedClient(tx, actor.firmId, before.clientId, "deleting its tasks");
    const deleted = await tx
      .delete(tasks)
      .where(and(eq(tasks.firmId, actor.firmId), eq(tasks.id, taskId), eq(tasks.status, "pending")))
      .returning({ id: tasks.id });
    if (deleted.length === 0) throw new AppError("CONFLICT", "This task is signed off and cannot be deleted");
    await recordAudit(tx, actor, {
      action: "task.deleted",
      entityType: "task",
      entityId: taskId,
      before: { clientId: before.clientId, ...audited(before) },
    });
  });
}

/** A task's editable fields as the audit trail records them. */
function audited(row: Pick<TaskRow, "name" | "description" | "priority" | "dueDate" | "templateId">) {
  return {
    name: row.name,
    description: row.description,
    priority: row.priority,
    dueDate: row.dueDate?.toISOString() ?? null,
    templateId: row.templateId,
  };
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
