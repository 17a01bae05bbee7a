import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  type ClientDetail,
  type ClientNameMatch,
  type ClientSummary,
  type CreateClientInput,
  clientHealth,
  type ListClientsQuery,
  stateFitsJurisdiction,
  stateOutsideUsMessage,
  type UpdateClientInput,
} from "../../../shared/clients";
import { isUuidText } from "../../../shared/validation";
import { changedFields, previousValues } from "../../platform/changes";
import type { Database, DbExecutor } from "../../platform/db/database";
import { plannedPerExecution, preparedSql, preparedStatement } from "../../platform/db/prepared";
import {
  clientSearchText,
  clients,
  contacts,
  firmClients,
  recurringSchedules,
  tasks,
  taskTemplates,
  userClients,
  users,
} from "../../platform/db/schema";
import { containsPattern } from "../../platform/db/search";
import { AppError, fieldError } from "../../platform/errors";
import { unacceptableInput } from "../../platform/http";
import { decodeCursor, keysetPage } from "../../platform/keyset";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf, overdueText, visibleClient } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { assertRoomFor } from "../billing/plan-usage";
import { reworkClientDueDates } from "../due-dates/due-date-versions";
import { createSchedule, resumeSchedules, revisitRuleSchedules } from "../schedules/schedules.service";
import { taskColumns, toTask } from "../tasks/task-rows";

/*
 * Clients: the firm's client profiles. Every query is scoped to the actor's firm, and for the
 * `user` role to the clients assigned to them (S-ROLE-07): a client they may not see is
 * answered like one that does not exist.
 */

type ClientRow = Pick<
  typeof clients.$inferSelect,
  "id" | "name" | "industry" | "address" | "phone" | "email" | "status" | "createdAt" | "archivedAt"
>;
type TaxRow = Pick<typeof clients.$inferSelect, "fiscalYearEnd" | "entityType" | "jurisdiction" | "state">;

/** Where a page of clients is read from: the table, or (for a search) the firm's view of it. */
type ClientSource = typeof clients | typeof firmClients;

const columnsOf = (c: ClientSource) => ({
  id: c.id,
  name: c.name,
  industry: c.industry,
  address: c.address,
  phone: c.phone,
  email: c.email,
  status: c.status,
  createdAt: c.createdAt,
  archivedAt: c.archivedAt,
});
const clientColumns = columnsOf(clients);
/** What due dates need of a client (decision 0053): its detail carries them, the lists do not. */
const taxColumns = {
  fiscalYearEnd: clients.fiscalYearEnd,
  entityType: clients.entityType,
  jurisdiction: clients.jurisdiction,
  state: clients.state,
};

/** The prepared reads' scope: `$userId` is null or the client is assigned to that user. */
const visibleTo = visibleClient(clients.firmId, clients.id, sql.placeholder("userId"));

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
    .select(columnsOf(firmClients))
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

const clientById = preparedStatement("client_by_id", (db) =>
  db
    .select({ ...clientColumns, ...taxColumns, version: clients.version })
    .from(clients)
    .where(and(eq(clients.firmId, sql.placeholder("firmId")), eq(clients.id, sql.placeholder("clientId")), visibleTo)),
);

const contactsOfClient = preparedStatement("contacts_of_client", (db) =>
  db
    .select({
      id: contacts.id,
      clientId: contacts.clientId,
      name: contacts.name,
      title: contacts.title,
      phone: contacts.phone,
      email: contacts.email,
      isPrimary: contacts.isPrimary,
      createdAt: contacts.createdAt,
      version: contacts.version,
    })
    .from(contacts)
    .where(and(eq(contacts.firmId, sql.placeholder("firmId")), eq(contacts.clientId, sql.placeholder("clientId"))))
    .orderBy(sql`${contacts.isPrimary} desc`, asc(contacts.name), asc(contacts.id)),
);

const completer = sql`completer`;
const tasksOfClient = preparedStatement("tasks_of_client", (db) =>
  db
    .select({
      task: taskColumns,
      completerFullName: sql<string | null>`${completer}.full_name`,
      completerUsername: sql<string | null>`${completer}.username`,
    })
    .from(tasks)
    .leftJoin(
      sql`${users} as ${completer}`,
      sql`${completer}.firm_id = ${tasks.firmId} and ${completer}.id = ${tasks.completedBy}`,
    )
    .where(and(eq(tasks.firmId, sql.placeholder("firmId")), eq(tasks.clientId, sql.placeholder("clientId"))))
    // The audit list's order (task-list.service): completed first, newest completion first, then due
    // date descending, then newest created.
    .orderBy(
      sql`${tasks.completedAt} desc nulls last`,
      sql`${tasks.dueDate} desc nulls last`,
      desc(tasks.createdAt),
      desc(tasks.id),
    ),
);

const teamOfClient = preparedStatement("team_of_client", (db) =>
  db
    .select({ id: users.id, username: users.username, fullName: users.fullName, role: users.role })
    .from(userClients)
    .innerJoin(users, and(eq(users.firmId, userClients.firmId), eq(users.id, userClients.userId)))
    .where(
      and(eq(userClients.firmId, sql.placeholder("firmId")), eq(userClients.clientId, sql.placeholder("clientId"))),
    )
    .orderBy(asc(users.fullName), asc(users.id)),
);

// -------------------------------------------------------------------------------------------
// Reads

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

/** One client with its contacts, tasks and team; 404 when the actor may not see it. */
export async function getClient(options: {
  db: Database;
  actor: Actor;
  clientId: string;
  now?: Date;
}): Promise<ClientDetail> {
  const { db, actor, clientId, now = new Date() } = options;
  const firmId = actor.firmId;
  const [[row], contactRows, taskRows, team] = await Promise.all([
    clientById(db).execute({ firmId, clientId, userId: assignedUserOf(actor, "clients.read") }),
    contactsOfClient(db).execute({ firmId, clientId }),
    tasksOfClient(db).execute({ firmId, clientId }),
    teamOfClient(db).execute({ firmId, clientId }),
  ]);
  if (!row) throw new AppError("NOT_FOUND", "Client not found");
  const clientTasks = taskRows.map(({ task, completerFullName, completerUsername }) =>
    toTask(
      task,
      now,
      completerFullName !== null && completerUsername !== null
        ? { fullName: completerFullName, username: completerUsername }
        : null,
    ),
  );
  const counts = { total: clientTasks.length, pending: 0, overdue: 0, completed: 0 };
  for (const task of clientTasks) counts[task.status] += 1;
  return {
    ...toSummary(row, counts),
    fiscalYearEnd: row.fiscalYearEnd,
    entityType: row.entityType,
    jurisdiction: row.jurisdiction,
    state: row.state,
    version: row.version,
    contacts: contactRows.map((contact) => ({
      id: contact.id,
      clientId: contact.clientId,
      name: contact.name,
      title: contact.title,
      phone: contact.phone,
      email: contact.email,
      isPrimary: contact.isPrimary,
      createdAt: contact.createdAt.toISOString(),
      version: contact.version,
    })),
    tasks: clientTasks,
    team,
  };
}

// -------------------------------------------------------------------------------------------
// Writes

/**
 * Creates a client, with its primary contact and a task from each chosen template, in one
 * transaction: a failure at any step leaves nothing behind. Refused beyond the plan's limit.
 */
export async function createClient(options: {
  db: Database;
  actor: Actor;
  input: CreateClientInput;
}): Promise<ClientDetail> {
  const { db, actor, input } = options;
  const id = await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    await assertRoomFor(tx, actor.firmId, "clients");
    const templates = await findTemplates(tx, actor.firmId, input.templateIds);
    const [client] = await tx
      .insert(clients)
      .values({
        firmId: actor.firmId,
        name: input.name,
        industry: input.industry,
        address: input.address,
        phone: input.phone,
        email: input.email,
        status: input.status,
        fiscalYearEnd: input.fiscalYearEnd ?? null,
        entityType: input.entityType ?? null,
        jurisdiction: input.jurisdiction ?? null,
        state: input.state ?? null,
      })
      .returning({ id: clients.id });
    if (!client) throw new Error("client insert returned nothing");
    if (input.primaryContact) {
      await tx
        .insert(contacts)
        .values({ firmId: actor.firmId, clientId: client.id, ...input.primaryContact, isPrimary: true });
    }
    // A recurring template becomes a schedule, whose current period's task is made at once with
    // its real due date (decision 0009); a one-time template starts a pending task with no due
    // date (S-STATE-13).
    for (const template of templates) {
      if (template.frequency === null) continue;
      await createSchedule(tx, {
        firmId: actor.firmId,
        clientId: client.id,
        templateId: template.id,
        frequency: template.frequency,
        createdBy: actor.userId,
      });
    }
    const oneTime = templates.filter((template) => template.frequency === null);
    if (oneTime.length > 0) {
      await tx.insert(tasks).values(
        oneTime.map((template) => ({
          firmId: actor.firmId,
          clientId: client.id,
          templateId: template.id,
          name: template.name,
          description: template.description,
          priority: template.priority,
          createdBy: actor.userId,
        })),
      );
    }
    await recordAudit(tx, actor, {
      action: "client.created",
      entityType: "client",
      entityId: client.id,
      after: {
        ...pickAudited(input),
        primaryContact: input.primaryContact?.name ?? null,
        templateIds: templates.map((template) => template.id),
      },
    });
    return client.id;
  });
  return getClient({ db, actor, clientId: id });
}

/** Changes the fields given; admins and super admins only (the route checks the role). */
export async function updateClient(options: {
  db: Database;
  actor: Actor;
  clientId: string;
  input: UpdateClientInput;
  ifMatch?: IfMatch;
}): Promise<ClientDetail> {
  const { db, actor, clientId, input } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const before = await findClientForChange(tx, actor.firmId, clientId);
    assertVersion(before.version, options.ifMatch, "client");
    const changes = changedFields(before, input);
    if (Object.keys(changes).length === 0) return;
    // A state belongs to a US client: judged on the client as the change would leave it.
    const state = changes.state === undefined ? before.state : changes.state;
    const jurisdiction = changes.jurisdiction === undefined ? before.jurisdiction : changes.jurisdiction;
    if (!stateFitsJurisdiction({ state, jurisdiction })) throw fieldError("state", stateOutsideUsMessage);
    await tx
      .update(clients)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
    // A new year end or state moves the periods and dates of the tasks its rule schedules make next;
    // a new state also moves the open ones' (a statewide holiday moves a filing).
    if (changes.fiscalYearEnd !== undefined || changes.state !== undefined)
      await revisitRuleSchedules(tx, { firmId: actor.firmId, clientId });
    if (changes.state !== undefined)
      await reworkClientDueDates(tx, { firmId: actor.firmId, clientId, changedBy: actor.userId, now: new Date() });
    await recordAudit(tx, actor, {
      action: "client.updated",
      entityType: "client",
      entityId: clientId,
      before: previousValues(before, changes),
      after: changes,
    });
  });
  return getClient({ db, actor, clientId });
}

/**
 * DELETE /api/clients/{id}: archives. Signed-off work is evidence a firm keeps for years, so the
 * client leaves lists and search but stays readable. With `purge`, a super admin removes a client
 * that has no completed tasks for good.
 */
export async function deleteClient(options: {
  db: Database;
  actor: Actor;
  clientId: string;
  purge: boolean;
}): Promise<void> {
  const { db, actor, clientId } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, options.purge ? "clients.purge" : "clients.write");
    const client = await findClientForChange(tx, actor.firmId, clientId);
    const inClient = and(eq(tasks.firmId, actor.firmId), eq(tasks.clientId, clientId));
    if (!options.purge) {
      if (client.archivedAt !== null) return;
      await tx
        .update(clients)
        .set({ archivedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
      await recordAudit(tx, actor, {
        action: "client.archived",
        entityType: "client",
        entityId: clientId,
        before: { name: client.name },
      });
      return;
    }
    const [signed] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(and(inClient, eq(tasks.status, "completed")));
    if ((signed?.n ?? 0) > 0) {
      throw new AppError(
        "CONFLICT",
        "This client has signed-off tasks, which are kept as evidence. Archive the client instead.",
      );
    }
    await tx.delete(tasks).where(inClient);
    await tx.delete(contacts).where(and(eq(contacts.firmId, actor.firmId), eq(contacts.clientId, clientId)));
    await tx.delete(userClients).where(and(eq(userClients.firmId, actor.firmId), eq(userClients.clientId, clientId)));
    await tx
      .delete(recurringSchedules)
      .where(and(eq(recurringSchedules.firmId, actor.firmId), eq(recurringSchedules.clientId, clientId)));
    await tx.delete(clients).where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
    await recordAudit(tx, actor, {
      action: "client.purged",
      entityType: "client",
      entityId: clientId,
      before: { name: client.name },
    });
  });
}

/** Brings an archived client back into lists and search. */
export async function restoreClient(options: { db: Database; actor: Actor; clientId: string }): Promise<ClientDetail> {
  const { db, actor, clientId } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const client = await findClientForChange(tx, actor.firmId, clientId);
    if (client.archivedAt === null) return;
    await assertRoomFor(tx, actor.firmId, "clients");
    await resumeSchedules(tx, { firmId: actor.firmId, clientId });
    await tx
      .update(clients)
      .set({ archivedAt: null, updatedAt: new Date() })
      .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
    await recordAudit(tx, actor, {
      action: "client.restored",
      entityType: "client",
      entityId: clientId,
      after: { name: client.name },
    });
  });
  return getClient({ db, actor, clientId });
}

// -------------------------------------------------------------------------------------------
// Helpers

async function findClientForChange(
  tx: DbExecutor,
  firmId: string,
  clientId: string,
): Promise<ClientRow & TaxRow & { version: number }> {
  const [client] = await tx
    .select({ ...clientColumns, ...taxColumns, version: clients.version })
    .from(clients)
    .where(and(eq(clients.firmId, firmId), eq(clients.id, clientId)));
  if (!client) throw new AppError("NOT_FOUND", "Client not found");
  return client;
}

/** Active (not archived) clients count against the plan (S-CONST-21). */
async function findTemplates(tx: DbExecutor, firmId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const found = await tx
    .select({
      id: taskTemplates.id,
      name: taskTemplates.name,
      description: taskTemplates.description,
      priority: taskTemplates.priority,
      frequency: taskTemplates.frequency,
    })
    .from(taskTemplates)
    .where(and(eq(taskTemplates.firmId, firmId), inArray(taskTemplates.id, ids), isNull(taskTemplates.deletedAt)));
  if (found.length !== ids.length) throw new AppError("NOT_FOUND", "Task template not found");
  // In the order the caller chose them.
  const order = new Map(ids.map((id, index) => [id, index]));
  return found.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
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

const noTasks = { total: 0, pending: 0, overdue: 0, completed: 0 };

function toSummary(row: ClientRow, counts = noTasks): ClientSummary {
  return {
    id: row.id,
    name: row.name,
    industry: row.industry,
    address: row.address,
    phone: row.phone,
    email: row.email,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
    taskCounts: counts,
    health: clientHealth(counts),
  };
}

function pickAudited(input: CreateClientInput) {
  const { name, industry, address, phone, email, status, fiscalYearEnd, entityType, jurisdiction, state } = input;
  return {
    name,
    industry,
    address,
    phone,
    email,
    status,
    fiscalYearEnd: fiscalYearEnd ?? null,
    entityType: entityType ?? null,
    jurisdiction: jurisdiction ?? null,
    state: state ?? null,
  };
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
