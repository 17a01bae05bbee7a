import { sql } from "drizzle-orm";
import { roleLabels, scopeOf } from "../../shared/permissions";
import { activityTasksLimit, type UserActivity } from "../../shared/reports";
import { taskStatus } from "../../shared/tasks";
import type { SessionInfo } from "../auth/sessions";
import type { Database } from "../db/database";
import { AppError } from "../errors";
import { getUser } from "./users.service";

/*
 * The user profile's activity (spec 2, decision 0019). A user's tasks are the tasks of the
 * clients assigned to them and the tasks they signed off elsewhere; clients that are archived
 * leave both, as they leave every list. The set is written as two index-led halves that cannot
 * overlap, so nothing is de-duplicated: the assigned clients' tasks (tasks_firm_id_client_id_idx,
 * one range per client) and the user's sign-offs on any other client
 * (tasks_firm_id_completed_by_completed_at_idx). The counts are exact and made in SQL; only the
 * newest 200 tasks in the audit order (decision 0011) and the assigned clients leave the database.
 */

/** The statement's two halves, as a CTE body: firm $firmId, user $userId. */
const usersTasks = (firmId: string, userId: string) => sql`
  assigned as materialized (
    select uc.client_id
    from user_clients uc
    join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
    where uc.firm_id = ${firmId} and uc.user_id = ${userId}
  ),
  mine as (
    select t.id, t.client_id, t.name, t.status, t.priority, t.due_date, t.created_at, t.completed_at, t.printed_name
    from tasks t
    where t.firm_id = ${firmId} and t.client_id = any (array(select client_id from assigned))
    union all
    select t.id, t.client_id, t.name, t.status, t.priority, t.due_date, t.created_at, t.completed_at, t.printed_name
    from tasks t
    join clients c on c.firm_id = t.firm_id and c.id = t.client_id and c.archived_at is null
    where t.firm_id = ${firmId} and t.completed_by = ${userId}
      and t.client_id <> all (array(select client_id from assigned))
  )`;

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
 * Everything the profile shows about `userId`, as of `now`. Design section 3: super admins and
 * admins see anyone's; a `user` sees only their own (the user audit is "self" for them), since
 * another user's work lies on clients they may not see.
 */
export async function getUserActivity(options: {
  db: Database;
  actor: SessionInfo;
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
    db.execute<TotalsRow>(sql`
      with ${usersTasks(firmId, userId)},
      counts as (
        select count(*)::int as total,
               count(*) filter (where status = 'completed')::int as completed,
               count(*) filter (where status = 'pending' and (due_date is null or due_date >= ${now}))::int as pending,
               count(*) filter (where status = 'pending' and due_date < ${now})::int as overdue,
               avg(extract(epoch from completed_at - created_at) / 86400) filter (where status = 'completed') as days
        from mine
      )
      select total, completed, pending, overdue,
             case when total = 0 then null else round(100.0 * completed / total)::int end as completion_rate,
             round(days)::int as average_days
      from counts`),
    db.execute<TaskRow>(sql`
      with ${usersTasks(firmId, userId)}
      select m.id, m.client_id, c.name as client_name, m.name, m.status, m.priority, m.due_date, m.created_at,
             m.completed_at, m.printed_name
      from mine m
      join clients c on c.firm_id = ${firmId} and c.id = m.client_id
      order by coalesce(m.completed_at, '-infinity'::timestamptz) desc, coalesce(m.due_date, '-infinity'::timestamptz) desc,
               m.created_at desc, m.id desc
      limit ${activityTasksLimit}`),
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
