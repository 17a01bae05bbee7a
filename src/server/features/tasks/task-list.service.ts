import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type ListTasksQuery, maxTasksPage, type TaskListItem } from "../../../shared/tasks";
import { isUuidText } from "../../../shared/validation";
import type { Database } from "../../platform/db/database";
import { plannedPerExecution, preparedStatement } from "../../platform/db/prepared";
import { clientSearchText, clients, firmClients, firmTasks, taskSearchText, tasks } from "../../platform/db/schema";
import { containsPattern } from "../../platform/db/search";
import { decodeCursor, keysetPage } from "../../platform/keyset";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, auditKey, overdue, pending } from "../../tenancy/scopes";
import { completer, taskColumnsOf, toTaskListItem, visibleTo } from "./task-rows";

/*
 * The tasks list (the audit list): a page at a time in the audit order, filtered by status,
 * client and search, through a keyset cursor. `overdue` is derived against one `now` per request
 * in SQL, as taskStatus derives it for the answer.
 */

/** A key as text the cursor can carry and PostgreSQL reads back exactly (UTC, microseconds). */
const keyText = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

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
      ...taskColumnsOf(t),
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
