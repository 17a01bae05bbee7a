import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { ListOverdueQuery, TaskListItem } from "../../../shared/tasks";
import type { Database } from "../../platform/db/database";
import { preparedSql, preparedStatement } from "../../platform/db/prepared";
import { clients, tasks } from "../../platform/db/schema";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, overdue, overdueText } from "../../tenancy/scopes";
import { toTaskListItem, visibleTo } from "./task-rows";

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
