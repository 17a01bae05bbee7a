import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { ClientDetail } from "../../../shared/clients";
import type { Database } from "../../platform/db/database";
import { preparedStatement } from "../../platform/db/prepared";
import { clients, contacts, tasks, userClients, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, visibleClient } from "../../tenancy/scopes";
import { taskColumns, toTask } from "../tasks/task-rows";
import { clientColumns, taxColumns, toSummary } from "./client-rows";

/** The prepared reads' scope: `$userId` is null or the client is assigned to that user. */
const visibleTo = visibleClient(clients.firmId, clients.id, sql.placeholder("userId"));

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
