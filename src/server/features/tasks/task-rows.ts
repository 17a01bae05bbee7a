import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Task, type TaskListItem, taskStatus } from "../../../shared/tasks";
import type { DbExecutor } from "../../platform/db/database";
import { clients, type firmTasks, tasks, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { visibleClient } from "../../tenancy/scopes";
import { signaturePath } from "./signature";

/*
 * What the tasks' operations share: the columns a task's answer is made from and the answer
 * itself, the reads' scope, and the checks every write makes of the task and its client.
 */

/** The prepared reads' scope: `$userId` is null or the task's client is assigned to that user. */
export const visibleTo = visibleClient(tasks.firmId, tasks.clientId, sql.placeholder("userId"));

/** The user who signed a task off, as the reads that name them join it. */
export const completer = alias(users, "completer");

/** Where a page of tasks is read from: the table, or (for the firm's search) the firm's view of it. */
export type TaskSource = typeof tasks | typeof firmTasks;

/**
 * The columns a task's answer is made from: the signature's hash, never its image (which only
 * GET /api/tasks/{id}/signature reads), nor the IP and user agent of the sign-off.
 */
export const taskColumnsOf = (t: TaskSource) => ({
  id: t.id,
  clientId: t.clientId,
  templateId: t.templateId,
  name: t.name,
  description: t.description,
  priority: t.priority,
  status: t.status,
  dueDate: t.dueDate,
  createdAt: t.createdAt,
  completedAt: t.completedAt,
  completedBy: t.completedBy,
  printedName: t.printedName,
  signatureSha256: t.signatureSha256,
  version: t.version,
});
export const taskColumns = taskColumnsOf(tasks);

export type TaskRow = typeof tasks.$inferSelect;

/** The task if the actor may reach it (its firm, and for a `user` an assigned client); else 404. */
export async function findTask(
  tx: DbExecutor,
  firmId: string,
  taskId: string,
  userId: string | null,
): Promise<TaskRow> {
  const [row] = await tx
    .select()
    .from(tasks)
    .where(
      and(eq(tasks.firmId, firmId), eq(tasks.id, taskId), visibleClient(tasks.firmId, tasks.clientId, sql`${userId}`)),
    );
  if (!row) throw new AppError("NOT_FOUND", "Task not found");
  return row;
}

/**
 * An archived client's work is read-only until the client is restored (decision 0031): its
 * signed evidence stays readable, and nothing of it is changed, deleted or signed off meanwhile.
 * Archiving takes the firm lock, as every task write does, so the check cannot race it.
 */
export async function refuseArchivedClient(
  tx: DbExecutor,
  firmId: string,
  clientId: string,
  doing: string,
): Promise<void> {
  const [client] = await tx
    .select({ archivedAt: clients.archivedAt })
    .from(clients)
    .where(and(eq(clients.firmId, firmId), eq(clients.id, clientId)));
  if (client?.archivedAt) throw new AppError("CONFLICT", `This client is archived. Restore it before ${doing}.`);
}

/** The columns a task's answer is made from. */
export type TaskFields = Pick<
  TaskRow,
  | "id"
  | "clientId"
  | "templateId"
  | "name"
  | "description"
  | "priority"
  | "status"
  | "dueDate"
  | "createdAt"
  | "completedAt"
  | "completedBy"
  | "printedName"
  | "signatureSha256"
  | "version"
>;

/** A task as the API answers it, its status derived against `now`. */
export function toTask(
  task: TaskFields,
  now: Date,
  completedByUser: { fullName: string; username: string } | null,
): Task {
  return {
    id: task.id,
    clientId: task.clientId,
    templateId: task.templateId,
    name: task.name,
    description: task.description,
    priority: task.priority,
    status: taskStatus(task, now),
    dueDate: task.dueDate?.toISOString() ?? null,
    createdAt: task.createdAt.toISOString(),
    completedAt: task.completedAt?.toISOString() ?? null,
    completedBy: task.completedBy,
    completedByUser: task.completedBy && completedByUser ? { id: task.completedBy, ...completedByUser } : null,
    printedName: task.printedName,
    signature: task.signatureSha256 === null ? null : signaturePath(task.id, task.signatureSha256),
    signatureSha256: task.signatureSha256,
    version: task.version,
  };
}

/**
 * A task of a list, with its client's name. The name is added to toTask's answer, and the bell's
 * rows are written out, rather than spread: on Node 20 each property written after a spread
 * (`{ ...task, clientName }`) costs about a microsecond, and the bell's rows paid 15 µs each that
 * way (decision 0008).
 */
export function toTaskListItem(
  task: TaskFields,
  now: Date,
  completedByUser: { fullName: string; username: string } | null,
  clientName: string,
): TaskListItem {
  const item: Task & { clientName?: string } = toTask(task, now, completedByUser);
  item.clientName = clientName;
  return item as TaskListItem;
}
