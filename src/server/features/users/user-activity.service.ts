import { sql } from "drizzle-orm";
import { roleLabels, scopeOf } from "../../../shared/permissions";
import { activityTasksLimit, type UserActivity } from "../../../shared/reports";
import { taskStatus } from "../../../shared/tasks";
import type { Database } from "../../platform/db/database";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { overdue, pending } from "../../tenancy/scopes";
import { getUser } from "./users.service";

/*
 * The user profile's activity (S-UPROF-02..10, docs/design/people-screens.md). A user's tasks are
 * the tasks of the clients assigned to them and the tasks they signed off elsewhere; clients that
 * are archived leave both, as they leave every list. The set is written as two index-led halves
 * that cannot overlap, so nothing is de-duplicated: the assigned clients' tasks
 * (tasks_firm_id_client_id_idx, one range per client) and the user's sign-offs on any other client
 * (tasks_firm_id_completed_by_sign_offs_idx). The counts are exact and made in SQL; only the newest
 * 200 tasks in the audit order (decision 0011) and the assigned clients leave the database.
 */

/** The clients assigned to the user that are not archived: the first half's ranges. */
const assignedCte = (firmId: string, userId: string) => sql`
  assigned as materialized (
    select uc.client_id
    from user_clients uc
    join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
    where uc.firm_id = ${firmId} and uc.user_id = ${userId}
  )`;

const taskFields = sql.raw(
  "t.id, t.client_id, t.name, t.status, t.priority, t.due_date, t.created_at, t.completed_at, t.printed_name",
);

/** The first half: every task of the assigned clients. */
const onAssignedClients = (firmId: string) => sql`
  from tasks t
  where t.firm_id = ${firmId} and t.client_id = any (array(select client_id from assigned))`;

/**
 * The second half: the user's sign-offs on any other live client. Counting streams all of them
 * past two anti-joins against small sets (the user's clients, the firm's archived ones); the
 * list reads the newest few from the index backwards, checking each row's client as it goes.
 * (Measured on a firm of a million tasks, each form is the faster one for its use: docs/design/people-screens.md.)
 */
const signedElsewhere = (firmId: string, userId: string, use: "count" | "list") =>
  use === "count"
    ? sql`
  from tasks t
  where t.firm_id = ${firmId} and t.completed_by = ${userId}
    and not exists (select 1 from assigned a where a.client_id = t.client_id)
    and not exists (
      select 1 from clients c where c.firm_id = t.firm_id and c.id = t.client_id and c.archived_at is not null
    )`
    : sql`
  from tasks t
  join clients c on c.firm_id = t.firm_id and c.id = t.client_id and c.archived_at is null
  where t.firm_id = ${firmId} and t.completed_by = ${userId}
    and t.client_id <> all (array(select client_id from assigned))`;

/** The audit order of decision 0011, over rows of `mine` or `t`. */
const auditOrder = (alias: string) =>
  sql.raw(
    `coalesce(${alias}.completed_at, '-infinity'::timestamptz) desc, coalesce(${alias}.due_date, '-infinity'::timestamptz) desc, ${alias}.created_at desc, ${alias}.id desc`,
  );

/**
 * Exact totals, each half added up on its own and then combined. The second half is all
 * sign-offs (completed, never pending), read from the sign-off index alone, which carries
 * client_id and created_at for this.
 */
export const totalsQuery = (firmId: string, userId: string, now: Date) => sql`
  with ${assignedCte(firmId, userId)},
  first_half as (
    select count(*)::int as total,
           count(*) filter (where t.status = 'completed')::int as completed,
           count(*) filter (where ${pending(sql.raw("t.status"), sql.raw("t.due_date"), sql`${now}`)})::int as pending,
           count(*) filter (where ${overdue(sql.raw("t.status"), sql.raw("t.due_date"), sql`${now}`)})::int as overdue,
           coalesce(sum(extract(epoch from t.completed_at - t.created_at) / 86400) filter (where t.status = 'completed'), 0) as days
    ${onAssignedClients(firmId)}
  ),
  second_half as (
    select count(*)::int as completed,
           coalesce(sum(extract(epoch from t.completed_at - t.created_at) / 86400), 0) as days
    ${signedElsewhere(firmId, userId, "count")}
  )
  select f.total + s.completed as total,
         f.completed + s.completed as completed,
         f.pending,
         f.overdue,
         case when f.total + s.completed = 0 then null
              else round(100.0 * (f.completed + s.completed) / (f.total + s.completed))::int end as completion_rate,
         case when f.completed + s.completed = 0 then null
              else round((f.days + s.days) / (f.completed + s.completed))::int end as average_days
  from first_half f, second_half s`;

/**
 * The newest tasks in the audit order. Each half brings its own first ${activityTasksLimit} (the
 * sign-offs straight from their index, newest completion first), and the merge keeps the first
 * of those: so a user with 600,000 sign-offs costs a short index read, not a sort of them all.
 */
export const tasksQuery = (firmId: string, userId: string) => sql`
  with ${assignedCte(firmId, userId)},
  mine as (
    (select ${taskFields} ${onAssignedClients(firmId)} order by ${auditOrder("t")} limit ${activityTasksLimit})
    union all
    (select ${taskFields} ${signedElsewhere(firmId, userId, "list")}
     order by t.completed_at desc, coalesce(t.due_date, '-infinity'::timestamptz) desc, t.created_at desc, t.id desc
     limit ${activityTasksLimit})
  )
  select mine.id, mine.client_id, c.name as client_name, mine.name, mine.status, mine.priority, mine.due_date,
         mine.created_at, mine.completed_at, mine.printed_name
  from mine
  join clients c on c.firm_id = ${firmId} and c.id = mine.client_id
  order by ${auditOrder("mine")}
  limit ${activityTasksLimit}`;

type TotalsRow = {
  total: number;
  completed: number;
  pending: number;
  overdue: number;
  completion_rate: number | null;
  average_days: number | null;
};

type TaskRow = {
  id: string;
  client_id: string;
  client_name: string;
  name: string;
  status: "pending" | "completed";
  priority: "low" | "medium" | "high";
  due_date: Date | string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  printed_name: string | null;
};

type ClientRow = {
  id: string;
  name: string;
  industry: string | null;
  status: "active" | "inactive" | "prospect";
};

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const iso = (value: Date | string | null) => (value === null ? null : toDate(value).toISOString());

/**
 * Everything the profile shows about `userId`, as of `now`. S-ROLE-16: super admins and
 * admins see anyone's; a `user` sees only their own (the user audit is "self" for them), since
 * another user's work lies on clients they may not see.
 */
export async function getUserActivity(options: {
  db: Database;
  actor: Actor;
  userId: string;
  now?: Date;
}): Promise<UserActivity> {
  const { db, actor, userId, now = new Date() } = options;
  // Firm-scoped: another firm's id is a 404, before any rule about whose activity it is.
  const user = await getUser({ db, actor, userId });
  if (scopeOf(actor.role, "reports.userAudit") === "self" && user.id !== actor.userId) {
    throw new AppError("FORBIDDEN", `Your role (${roleLabels[actor.role]}) allows you to see only your own activity`);
  }
  const { firmId } = actor;
  const [totals, taskRows, clientRows] = await Promise.all([
    db.execute<TotalsRow>(totalsQuery(firmId, userId, now)),
    db.execute<TaskRow>(tasksQuery(firmId, userId)),
    db.execute<ClientRow>(sql`
      select c.id, c.name, c.industry, c.status
      from user_clients uc
      join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
      where uc.firm_id = ${firmId} and uc.user_id = ${userId}
      order by c.name, c.id`),
  ]);
  const counts = totals.rows[0];
  if (!counts) throw new Error("the activity counts returned no row");
  return {
    user: {
      id: user.id,
      username: user.username,
      fullName: user.fullName,
      email: user.email,
      role: user.role,
      disabled: user.disabled,
      createdAt: user.createdAt,
    },
    totals: {
      total: counts.total,
      completed: counts.completed,
      pending: counts.pending,
      overdue: counts.overdue,
      completionRate: counts.completion_rate,
      averageCompletionDays: counts.average_days,
    },
    tasks: taskRows.rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: taskStatus({ status: row.status, dueDate: row.due_date === null ? null : toDate(row.due_date) }, now),
      priority: row.priority,
      dueDate: iso(row.due_date),
      createdAt: toDate(row.created_at).toISOString(),
      completedAt: iso(row.completed_at),
      printedName: row.printed_name,
      client: { id: row.client_id, name: row.client_name },
    })),
    assignedClients: clientRows.rows.map((row) => ({
      id: row.id,
      name: row.name,
      industry: row.industry,
      status: row.status,
    })),
  };
}
