import { and, asc, eq, sql } from "drizzle-orm";
import type { ClientNameMatch, ClientSummary, ListClientsQuery } from "../../../shared/clients";
import { isUuidText } from "../../../shared/validation";
import type { Database } from "../../platform/db/database";
import { plannedPerExecution, preparedSql, preparedStatement } from "../../platform/db/prepared";
import { clientSearchText, clients, firmClients, userClients } from "../../platform/db/schema";
import { containsPattern } from "../../platform/db/search";
import { unacceptableInput } from "../../platform/http";
import { decodeCursor, keysetPage } from "../../platform/keyset";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, overdueText, visibleClient } from "../../tenancy/scopes";
import { type ClientRow, type ClientSource, clientColumns, clientColumnsOf, toSummary } from "./client-rows";

/* The clients list, a page at a time in name order, and the clients a name already belongs to. */

/** The conditions of a page of clients, whoever reads it; the caller's scope is the statement's. */
const pageConditions = (c: ClientSource) => [
  eq(c.firmId, sql.placeholder("firmId")),
  sql`(${c.archivedAt} is not null) = ${sql.placeholder("archived")}::boolean`,
  sql`(${sql.placeholder("status")}::text is null or ${c.status} = ${sql.placeholder("status")}::text)`,
  sql`(${sql.placeholder("afterName")}::text is null or (${c.name}, ${c.id}) > (${sql.placeholder("afterName")}::text, ${sql.placeholder("afterId")}::uuid))`,
];

/** The search: the name, the industry or the status contains the words, ignoring case. */
const matchesSearch = (c: ClientSource) =>
  sql`(${c.name} ilike ${sql.placeholder("pattern")}::text or ${c.industry} ilike ${sql.placeholder("pattern")}::text or ${c.status} ilike ${sql.placeholder("pattern")}::text)`;

/** A page of the firm's clients, walked in name order. */
const clientPage = preparedStatement("clients_page", (db) =>
  db
    .select(clientColumns)
    .from(clients)
    .where(and(...pageConditions(clients)))
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(sql.placeholder("limit")),
);

/**
 * A page of the firm's clients that match a search. It reads firm_clients (the same rows, as the
 * tables' owner) so that the search's trigram index can serve it, and is planned for its words
 * each time: a rare word is looked up in the index and its few clients sorted, a common one
 * walks the name order until the page is full (decision 0040). The whole search text narrows
 * the rows through the index; the fields, one by one, are the rule.
 */
const searchedClientPage = plannedPerExecution((db) =>
  db
    .select(clientColumnsOf(firmClients))
    .from(firmClients)
    .where(
      and(
        ...pageConditions(firmClients),
        sql`${clientSearchText(firmClients)} ilike ${sql.placeholder("pattern")}::text`,
        matchesSearch(firmClients),
      ),
    )
    .orderBy(asc(firmClients.name), asc(firmClients.id))
    .limit(sql.placeholder("limit")),
);

/** The firm's search statement, for the test and the scale bench that take its plans. */
export const clientSearchStatement = searchedClientPage;

/**
 * A page of a `user`'s clients, read from their assignments: a user with 25 clients in a firm of
 * 10,000 reads 25 rows and sorts them, instead of walking the firm in name order to find them.
 */
const assignedClientPage = preparedStatement("clients_page_of_user", (db) =>
  db
    .select(clientColumns)
    .from(userClients)
    .innerJoin(clients, and(eq(clients.firmId, userClients.firmId), eq(clients.id, userClients.clientId)))
    .where(
      and(
        eq(userClients.firmId, sql.placeholder("firmId")),
        eq(userClients.userId, sql.placeholder("userId")),
        ...pageConditions(clients),
        // A user's few clients are filtered as they are read.
        sql`(${sql.placeholder("pattern")}::text is null or ${matchesSearch(clients)})`,
      ),
    )
    .orderBy(asc(clients.name), asc(clients.id))
    .limit(sql.placeholder("limit")),
);

/*
 * The task counts of a page of clients: total and signed off from client_task_counts (kept by
 * triggers, decision 0036), overdue from each client's range of the (firm, client, status, due
 * date) index, only for a client whose earliest open task is already due. Nothing here grows with
 * a client's history.
 */
const taskCountsOfClients = preparedSql<{ client_id: string; total: number; completed: number; overdue: number }>(
  "task_counts_of_clients",
  `select k.client_id, k.total, k.completed,
     case when k.earliest_pending_due < $1::timestamptz then
       (select count(*) from tasks t
        where t.firm_id = k.firm_id and t.client_id = k.client_id and ${overdueText("t.status", "t.due_date", "$1")})::int
     else 0 end as overdue
   from client_task_counts k
   where k.firm_id = $2 and k.client_id = any($3::uuid[])`,
);

/** A page of clients in name order; `nextCursor` is set when there are more. */
export async function listClients(options: {
  db: Database;
  actor: Actor;
  query: ListClientsQuery;
  now?: Date;
}): Promise<{ clients: ClientSummary[]; nextCursor: string | null }> {
  const { db, actor, query, now = new Date() } = options;
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, readClientKey);
  const assignedUser = assignedUserOf(actor, "clients.read");
  const statement = assignedUser !== null ? assignedClientPage : query.q ? searchedClientPage : clientPage;
  const rows = await statement(db).execute({
    firmId: actor.firmId,
    userId: assignedUser,
    archived: query.archived === "true",
    status: query.status ?? null,
    pattern: query.q ? containsPattern(query.q) : null,
    afterName: after?.name ?? null,
    afterId: after?.id ?? null,
    limit: query.limit === undefined ? null : query.limit + 1,
  });
  const page = keysetPage(rows, query.limit, (last) => [last.name, last.id]);
  const counts = await countTasks(db, actor.firmId, page.rows, now);
  return { clients: page.rows.map((row) => toSummary(row, counts.get(row.id))), nextCursor: page.nextCursor };
}

/** At most this many matches answer a name: enough to name them, and a bound on the answer. */
export const NAME_MATCHES_LIMIT = 10;

/**
 * The clients, archived ones included, whose name is `name` ignoring case (S-EDGE-04), live ones
 * first. The create dialog asks before it creates, once per submit, so this is no hot read; the
 * index on (firm_id, lower(name)) makes it one index lookup however many clients the firm has.
 * Names are stored trimmed (createClientSchema), so lower() alone compares them as src/shared/names.ts does.
 */
export async function findClientsNamed(options: {
  db: Database;
  actor: Actor;
  name: string;
}): Promise<ClientNameMatch[]> {
  const { db, actor, name } = options;
  const rows = await db
    .select({ id: clients.id, name: clients.name, status: clients.status, archivedAt: clients.archivedAt })
    .from(clients)
    .where(
      and(
        eq(clients.firmId, actor.firmId),
        sql`lower(${clients.name}) = lower(${name.trim()})`,
        visibleClient(clients.firmId, clients.id, sql`${assignedUserOf(actor, "clients.read")}`),
      ),
    )
    .orderBy(sql`${clients.archivedAt} is not null`, asc(clients.createdAt), asc(clients.id))
    .limit(NAME_MATCHES_LIMIT);
  return rows.map((row) => ({ ...row, archivedAt: row.archivedAt?.toISOString() ?? null }));
}

async function countTasks(db: Database, firmId: string, page: ClientRow[], now: Date) {
  const counts = new Map<string, { total: number; pending: number; overdue: number; completed: number }>();
  if (page.length === 0) return counts;
  const rows = await taskCountsOfClients(db, [now, firmId, page.map((row) => row.id)]);
  for (const row of rows) {
    counts.set(row.client_id, {
      total: row.total,
      completed: row.completed,
      overdue: row.overdue,
      pending: row.total - row.completed - row.overdue,
    });
  }
  return counts;
}

/**
 * The list's keyset cursor key: the last row's name and id, as the list gave them out. Anything
 * else is refused here, before it reaches PostgreSQL: an id that is not a uuid, or a name no
 * column can hold (NUL, a lone surrogate), would fail there as our error (a 500).
 */
const readClientKey = (key: unknown[]) => {
  const [name, id] = key;
  return key.length === 2 &&
    typeof name === "string" &&
    unacceptableInput(name) === undefined &&
    typeof id === "string" &&
    isUuidText(id)
    ? { name, id }
    : undefined;
};
