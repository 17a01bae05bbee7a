import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import {
  type CompleteTaskInput,
  type CreateTaskInput,
  type ListOverdueQuery,
  type ListTasksQuery,
  maxTasksPage,
  type Task,
  type TaskListItem,
  taskStatus,
  type UpdateTaskInput,
} from "../../../shared/tasks";
import { isUuidText } from "../../../shared/validation";
import { changedFields } from "../../platform/changes";
import type { Database, DbExecutor } from "../../platform/db/database";
import { plannedPerExecution, preparedSql, preparedStatement } from "../../platform/db/prepared";
import {
  clientSearchText,
  clients,
  firmClients,
  firmTasks,
  taskSearchText,
  tasks,
  taskTemplates,
  users,
} from "../../platform/db/schema";
import { containsPattern } from "../../platform/db/search";
import { AppError, fieldError } from "../../platform/errors";
import { decodeCursor, keysetPage } from "../../platform/keyset";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf, auditKey, overdue, overdueText, pending, visibleClient } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { checkSignature, signatureBytes, signaturePath } from "./signature";

/*
 * Tasks: the work a firm does for its clients, and its sign-off. Every query is scoped to the
 * actor's firm and, for the `user` role, to the clients assigned to them (S-ROLE-07): a
 * task they may not see is answered like one that does not exist. `overdue` is never stored; it
 * is derived from the due date against one `now` per request, in SQL for the filters and in
 * `taskStatus` for the answer, so the two always agree.
 *
 * A completed task is evidence: it cannot be changed or deleted, and its sign-off (who, when,
 * from where, the printed name, the signature and its hash) is written once, by completeTask.
 */

/** The prepared reads' scope: `$userId` is null or the task's client is assigned to that user. */
const visibleTo = visibleClient(tasks.firmId, tasks.clientId, sql.placeholder("userId"));

const completer = alias(users, "completer");

/** A key as text the cursor can carry and PostgreSQL reads back exactly (UTC, microseconds). */
const keyText = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Where a page of tasks is read from: the table, or (for the firm's search) the firm's view of it. */
type TaskSource = typeof tasks | typeof firmTasks;

/**
 * The columns a task's answer is made from: the signature's hash, never its image (which only
 * GET /api/tasks/{id}/signature reads), nor the IP and user agent of the sign-off.
 */
const columnsOf = (t: TaskSource) => ({
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
export const taskColumns = columnsOf(tasks);

type PageScope = "firm" | "firm search" | "user" | "client";

/**
 * A page of the audit list. Each scope is its own statement, so each has its plan: the firm's
 * walks the audit-order index; a client's reads its few tasks by the client index and sorts them,
 * and so does a `user`'s, from their assigned clients (walking the firm's order instead passes
 * every other client's tasks: 400 for each of theirs when a user holds 25 clients of 10,000). A
 * client's and a user's search filters those few tasks. The firm's search reads firm_tasks and
 * firm_clients (the same rows, as the tables' owner) so the trigram index can serve it, and its
 * client-name arm is the ids of the clients whose names match, found first (decision 0040).
 */
const tasksPageQuery = (scope: PageScope) => (db: Database) => {
  const [t, c] = scope === "firm search" ? [firmTasks, firmClients] : [tasks, clients];
  /*
   * The list's order (S-TAUD-09): completed first, newest completion first, then by
   * due date descending with no due date last, then newest created first and the id. "None" sorts
   * as -infinity, so the keys are plain timestamps: the tasks_firm_id_audit_order_idx index holds
   * them in this order, a page is read straight from it, and the next page starts with a seek to
   * the cursor (a row comparison the index serves), however deep it is (decision 0011).
   */
  const completedKey = auditKey(t.completedAt);
  const dueKey = auditKey(t.dueDate);
  const pattern = sql.placeholder("pattern");
  const assignedClients = sql`array(select uc.client_id from user_clients uc
    where uc.firm_id = ${sql.placeholder("firmId")} and uc.user_id = ${sql.placeholder("userId")}::uuid)`;
  const conditions = and(
    eq(t.firmId, sql.placeholder("firmId")),
    // Archived clients leave lists (their tasks too), but stay readable when asked for by id.
    scope === "client" ? eq(t.clientId, sql.placeholder("clientId")) : isNull(c.archivedAt),
    // A user's clients, each read by its key, and their tasks by the client index (without the
    // clients' own condition, the planner hashes the firm's every client to join 25).
    ...(scope === "user" ? [sql`${t.clientId} = any(${assignedClients})`, sql`${c.id} = any(${assignedClients})`] : []),
    // A `user` asking for one client's tasks must hold the client.
    scope === "client" ? visibleTo : undefined,
    // Where the index walk starts (the cursor, or where the status's rows begin) and where
    // it may stop: unconditional row comparisons the index seeks on. The status filter
    // below is the exact rule.
    sql`(${completedKey}, ${dueKey}) >= (${sql.placeholder("lowestCompleted")}::timestamptz, ${sql.placeholder("lowestDue")}::timestamptz)`,
    // A cursor's "none" (null) is -infinity; greatest, unlike coalesce, keeps the bound an
    // index condition under row-level security (decision 0039).
    sql`(${completedKey}, ${dueKey}, ${t.createdAt}, ${t.id}) < (
            greatest(${sql.placeholder("afterCompleted")}::timestamptz, '-infinity'::timestamptz),
            greatest(${sql.placeholder("afterDue")}::timestamptz, '-infinity'::timestamptz),
            ${sql.placeholder("afterCreated")}::timestamptz, ${sql.placeholder("afterId")}::uuid)`,
    sql`(${sql.placeholder("status")}::text is null
            or (${sql.placeholder("status")}::text = 'completed' and ${t.status} = 'completed')
            or (${sql.placeholder("status")}::text = 'overdue' and ${overdue(t.status, t.dueDate, sql.placeholder("now"))})
            or (${sql.placeholder("status")}::text = 'pending' and ${pending(t.status, t.dueDate, sql.placeholder("now"))}))`,
    scope === "firm"
      ? undefined
      : scope === "firm search"
        ? // Each arm one an index serves, so the planner can read them together (a BitmapOr):
          // the whole search text narrows through the trigram index, the fields are the rule.
          // When most clients' names match, their ids are no narrowing worth sending, and the
          // client's name is checked on the rows the walk reads (planned away otherwise).
          sql`((${taskSearchText(t)} ilike ${pattern}::text and (${t.name} ilike ${pattern}::text or ${t.description} ilike ${pattern}::text))
                  or ${t.clientId} = any(${sql.placeholder("matchingClients")}::uuid[])
                  or (${sql.placeholder("manyClientsMatch")}::boolean and ${c.name} ilike ${pattern}::text))`
        : sql`(${pattern}::text is null or ${t.name} ilike ${pattern}::text or ${t.description} ilike ${pattern}::text or ${c.name} ilike ${pattern}::text)`,
  );
  const order = [sql`${completedKey} desc`, sql`${dueKey} desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`];
  const limit = sql.placeholder("limit");
  const page = db
    .select({
      ...columnsOf(t),
      clientName: c.name,
      completerFullName: completer.fullName,
      completerUsername: completer.username,
      // The row's sort key, exactly, for the next page's cursor.
      sortKey: sql<string>`json_build_array(${keyText(t.completedAt)}, ${keyText(t.dueDate)}, ${keyText(t.createdAt)}, ${t.id})::text`,
    })
    .from(t)
    .innerJoin(c, and(eq(c.firmId, t.firmId), eq(c.id, t.clientId)))
    .leftJoin(completer, and(eq(completer.firmId, t.firmId), eq(completer.id, t.completedBy)));
  if (scope === "firm")
    return page
      .where(conditions)
      .orderBy(...order)
      .limit(limit);
  // A page that is sorted, not walked in order, picks its rows by their keys first and only then
  // reads their signer and writes their cursor keys: done for every candidate before the sort,
  // that cost more than finding them (2,500 tasks of a user's 25 clients).
  const picked = db
    .select({ id: t.id })
    .from(t)
    .innerJoin(c, and(eq(c.firmId, t.firmId), eq(c.id, t.clientId)))
    .where(conditions)
    .orderBy(...order)
    .limit(limit);
  return page
    .where(and(eq(t.firmId, sql.placeholder("firmId")), inArray(t.id, picked)))
    .orderBy(...order)
    .limit(limit);
};
const firmTasksPage = preparedStatement("tasks_page", tasksPageQuery("firm"));
const searchedTasksPage = plannedPerExecution(tasksPageQuery("firm search"));
const userTasksPage = preparedStatement("tasks_page_of_user", tasksPageQuery("user"));
const clientTasksPage = preparedStatement("tasks_page_of_client", tasksPageQuery("client"));

/** At most this many clients' ids are sent as the task search's client arm; past it, a filter. */
const matchingClientsLimit = 500;

/** The ids of the firm's clients whose names contain the words: the task search's client arm. */
const clientsNamed = plannedPerExecution((db) =>
  db
    .select({ id: firmClients.id })
    .from(firmClients)
    .where(
      and(
        eq(firmClients.firmId, sql.placeholder("firmId")),
        sql`${clientSearchText(firmClients)} ilike ${sql.placeholder("pattern")}::text`,
        sql`${firmClients.name} ilike ${sql.placeholder("pattern")}::text`,
      ),
    )
    .limit(matchingClientsLimit + 1),
);

/** The firm's search statements, for the test and the scale bench that take their plans. */
export const taskSearchStatements = { page: searchedTasksPage, clientsNamed };

/**
 * The stretch of the audit order a status filter can be found in. Its first page starts at
 * `start` instead of the very top, so the index walk does not pass the rows before it: pending
 * and overdue work has no completion (-infinity), overdue work is due before now. It ends at
 * `lowest`: completed work has a real completion time.
 */
function statusRange(status: ListTasksQuery["status"], now: Date) {
  const pendingOnly = status === "pending" || status === "overdue";
  return {
    start: {
      completed: pendingOnly ? "-infinity" : "infinity",
      due: status === "overdue" ? now.toISOString() : "infinity",
      created: "infinity",
      id: "ffffffff-ffff-ffff-ffff-ffffffffffff",
    },
    lowest: { completed: "-infinity", due: status === "completed" ? "infinity" : "-infinity" },
  };
}

/** Overdue work (the bell): never completed ones, so no sign-off columns to read. */
const overdueWhere = and(
  eq(tasks.firmId, sql.placeholder("firmId")),
  overdue(tasks.status, tasks.dueDate, sql.placeholder("now")),
  isNull(clients.archivedAt),
  visibleTo,
);
/*
 * The bell's total. For a role that sees the firm it is the firm's kept open work due before now
 * (pending_due_counts, decision 0036): one row per due date, not one per task. A `user`'s is
 * counted from their assigned clients' ranges of the (firm, client, status, due date) index.
 */
const overdueCountOfFirm = preparedSql<{ total: number }>(
  "overdue_count",
  `select coalesce(sum(p.tasks), 0)::int as total from pending_due_counts p
   where p.firm_id = $1 and p.due_date < $2::timestamptz`,
);
const overdueCountOfUser = preparedSql<{ total: number }>(
  "overdue_count_of_user",
  `select count(*)::int as total
   from user_clients uc
   join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
   join tasks t on t.firm_id = uc.firm_id and t.client_id = uc.client_id
   where uc.firm_id = $1 and uc.user_id = $2 and ${overdueText("t.status", "t.due_date", "$3")}`,
);
const overdueCount = (db: Database, scope: { firmId: string; userId: string | null; now: Date }) =>
  scope.userId === null
    ? overdueCountOfFirm(db, [scope.firmId, scope.now])
    : overdueCountOfUser(db, [scope.firmId, scope.userId, scope.now]);
const overdueTasks = preparedStatement("overdue_tasks", (db) =>
  db
    .select({
      id: tasks.id,
      clientId: tasks.clientId,
      templateId: tasks.templateId,
      name: tasks.name,
      description: tasks.description,
      priority: tasks.priority,
      dueDate: tasks.dueDate,
      createdAt: tasks.createdAt,
      version: tasks.version,
      clientName: clients.name,
    })
    .from(tasks)
    .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
    .where(overdueWhere)
    .orderBy(asc(tasks.dueDate), asc(tasks.createdAt), asc(tasks.id))
    .limit(sql.placeholder("limit")),
);

/** The one read of a drawn signature's image. */
const signatureOfTask = preparedStatement("signature_of_task", (db) =>
  db
    .select({ signature: tasks.signature, sha256: tasks.signatureSha256 })
    .from(tasks)
    .where(and(eq(tasks.firmId, sql.placeholder("firmId")), eq(tasks.id, sql.placeholder("taskId")), visibleTo)),
);

// -------------------------------------------------------------------------------------------
// Reads

/** A page of tasks in the audit order; `nextCursor` is set when there are more. */
export async function listTasks(options: {
  db: Database;
  actor: Actor;
  query: ListTasksQuery;
  now?: Date;
}): Promise<{ tasks: TaskListItem[]; nextCursor: string | null }> {
  const { db, actor, query, now = new Date() } = options;
  const range = statusRange(query.status, now);
  const after = query.cursor === undefined ? range.start : decodeCursor(query.cursor, readTaskKey);
  // A firm may hold a million tasks: without a limit the answer is the largest page, never all.
  const limit = query.limit ?? maxTasksPage;
  const userId = assignedUserOf(actor, "clients.read");
  const pattern = query.q ? containsPattern(query.q) : null;
  const scope: PageScope =
    query.clientId !== undefined ? "client" : userId !== null ? "user" : pattern !== null ? "firm search" : "firm";
  const statement = {
    firm: firmTasksPage,
    "firm search": searchedTasksPage,
    user: userTasksPage,
    client: clientTasksPage,
  }[scope];
  const named = scope === "firm search" ? await clientsNamed(db).execute({ firmId: actor.firmId, pattern }) : [];
  const manyClientsMatch = named.length > matchingClientsLimit;
  const rows = await statement(db).execute({
    firmId: actor.firmId,
    userId,
    clientId: query.clientId ?? null,
    status: query.status ?? null,
    lowestCompleted: range.lowest.completed,
    lowestDue: range.lowest.due,
    now,
    pattern,
    matchingClients: manyClientsMatch ? [] : named.map((row) => row.id),
    manyClientsMatch,
    afterCompleted: after.completed,
    afterDue: after.due,
    afterCreated: after.created,
    afterId: after.id,
    limit: limit + 1,
  });
  // The sort key is JSON text written by PostgreSQL, so the cursor carries its instants exactly.
  const page = keysetPage(rows, limit, (last) => JSON.parse(last.sortKey) as unknown[]);
  return {
    tasks: page.rows.map((row) =>
      toTaskListItem(
        row,
        now,
        row.completerFullName !== null && row.completerUsername !== null
          ? { fullName: row.completerFullName, username: row.completerUsername }
          : null,
        row.clientName,
      ),
    ),
    nextCursor: page.nextCursor,
  };
}

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

/**
 * A signed-off task's signature, as the PNG it was drawn as, and its hash; 404 when the actor may
 * not see the task's client, when the task is not signed off, or when `sha256` (the `v` of the
 * image's URL) names another image.
 */
export async function getSignature(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  sha256?: string;
}): Promise<{ png: Buffer; sha256: string }> {
  const { db, actor, taskId } = options;
  const [row] = await signatureOfTask(db).execute({
    firmId: actor.firmId,
    taskId,
    userId: assignedUserOf(actor, "clients.read"),
  });
  if (!row || row.signature === null || row.sha256 === null) throw new AppError("NOT_FOUND", "Signature not found");
  if (options.sha256 !== undefined && options.sha256 !== row.sha256) {
    throw new AppError("NOT_FOUND", "Signature not found");
  }
  return { png: signatureBytes(row.signature), sha256: row.sha256 };
}

/**
 * Tasks not completed whose due date has passed, oldest due first, each with its client's name.
 * With a limit, only the first ones and, counted in SQL, how many there are.
 */
export async function listOverdueTasks(options: {
  db: Database;
  actor: Actor;
  query?: ListOverdueQuery;
  now?: Date;
}): Promise<{ tasks: TaskListItem[]; total?: number }> {
  const { db, actor, query = {}, now = new Date() } = options;
  const scope = { firmId: actor.firmId, userId: assignedUserOf(actor, "clients.read"), now };
  const [rows, counted] = await Promise.all([
    overdueTasks(db).execute({ ...scope, limit: query.limit ?? null }),
    query.limit === undefined ? undefined : overdueCount(db, scope),
  ]);
  const listed = rows.map((row) =>
    toTaskListItem(
      {
        id: row.id,
        clientId: row.clientId,
        templateId: row.templateId,
        name: row.name,
        description: row.description,
        priority: row.priority,
        status: "pending",
        dueDate: row.dueDate,
        createdAt: row.createdAt,
        completedAt: null,
        completedBy: null,
        printedName: null,
        signatureSha256: null,
        version: row.version,
      },
      now,
      null,
      row.clientName,
    ),
  );
  return counted ? { tasks: listed, total: counted[0]?.total ?? 0 } : { tasks: listed };
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

/**
 * Signs a pending task off. Who signed is the session's user; a `completedBy` in the body is
 * ignored (S-TCOMP-08). The signature is checked before any write. Exactly one of two
 * concurrent completions succeeds: the update only matches a task that is still pending, and the
 * other is answered 409.
 */
export async function completeTask(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  input: CompleteTaskInput;
  origin: { ip: string | null; userAgent: string | null };
  ifMatch?: IfMatch;
}): Promise<Task> {
  const { db, actor, taskId, input, origin } = options;
  const signature = checkSignature(input.signature);
  if (!signature.ok) throw fieldError("signature", signature.message);
  return db.transaction(async (tx) => {
    const { role } = await lockFirmAsActor(tx, actor, "tasks.complete");
    const before = await findTask(
      tx,
      actor.firmId,
      taskId,
      assignedUserOf({ role: role, userId: actor.userId }, "tasks.complete"),
    );
    assertVersion(before.version, options.ifMatch, "task");
    if (before.status === "completed") throw new AppError("CONFLICT", "This task is already completed");
    await refuseArchivedClient(tx, actor.firmId, before.clientId, "signing off its tasks");
    const completedAt = new Date();
    const [completed] = await tx
      .update(tasks)
      .set({
        status: "completed",
        completedAt,
        completedBy: actor.userId,
        printedName: input.printedName,
        signature: signature.dataUrl,
        signatureSha256: signature.sha256,
        completedIp: origin.ip,
        completedUserAgent: origin.userAgent,
        updatedAt: completedAt,
      })
      .where(and(eq(tasks.firmId, actor.firmId), eq(tasks.id, taskId), eq(tasks.status, "pending")))
      .returning();
    if (!completed) throw new AppError("CONFLICT", "This task is already completed");
    const [signer] = await tx
      .select({ fullName: users.fullName, username: users.username })
      .from(users)
      .where(and(eq(users.firmId, actor.firmId), eq(users.id, actor.userId)));
    await recordAudit(tx, actor, {
      action: "task.completed",
      entityType: "task",
      entityId: taskId,
      // The hash, never the image: it proves which signature the task carries.
      after: {
        clientId: completed.clientId,
        completedAt: completedAt.toISOString(),
        completedBy: actor.userId,
        printedName: input.printedName,
        signatureSha256: signature.sha256,
      },
    });
    return toTask(completed, completedAt, signer ?? null);
  });
}

// -------------------------------------------------------------------------------------------
// Helpers

type TaskRow = typeof tasks.$inferSelect;

/** The task if the actor may reach it (its firm, and for a `user` an assigned client); else 404. */
async function findTask(tx: DbExecutor, firmId: string, taskId: string, userId: string | null): Promise<TaskRow> {
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
async function refuseArchivedClient(tx: DbExecutor, firmId: string, clientId: string, doing: string): Promise<void> {
  const [client] = await tx
    .select({ archivedAt: clients.archivedAt })
    .from(clients)
    .where(and(eq(clients.firmId, firmId), eq(clients.id, clientId)));
  if (client?.archivedAt) throw new AppError("CONFLICT", `This client is archived. Restore it before ${doing}.`);
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

type Cursor = { completed: string | null; due: string | null; created: string; id: string };

/** A key as keyText writes it, and a real instant (not 30 February): anything else could make the cast fail. */
const timestampText = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const isTimestamp = (value: unknown): value is string => {
  if (typeof value !== "string" || !timestampText.test(value)) return false;
  const instant = new Date(value);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 23) === value.slice(0, 23);
};
const isTimestampOrNull = (value: unknown): value is string | null => value === null || isTimestamp(value);

/** The list's key: completion, due date, creation and id, as the database wrote them. */
function readTaskKey(key: unknown[]): Cursor | undefined {
  if (key.length !== 4) return undefined;
  const [completed, due, created, id] = key;
  return isTimestampOrNull(completed) &&
    isTimestampOrNull(due) &&
    isTimestamp(created) &&
    typeof id === "string" &&
    isUuidText(id)
    ? { completed, due, created, id }
    : undefined;
}
