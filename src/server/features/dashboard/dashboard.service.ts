import type { Dashboard } from "../../../shared/dashboard";
import type { Database } from "../../platform/db/database";
import { preparedSql } from "../../platform/db/prepared";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, overdueText, visibleClientText } from "../../tenancy/scopes";

/*
 * The dashboard's figures, counted by PostgreSQL in one round trip: no task row travels to Node,
 * and no task row is read either. Totals come from client_task_counts (kept by triggers,
 * migration 0004); overdue work, which depends on the clock, is counted from its range of the
 * (firm, status, due date, client) index. Archived clients and their tasks are left out; a `user`
 * counts only the clients assigned to them (S-ROLE-07). Pending means not completed and
 * not overdue, as everywhere else.
 */
const dashboardCounts = preparedSql<Record<string, number>>(
  "dashboard_counts",
  `with visible as (
     select c.id, c.status from clients c
     where c.firm_id = $1 and c.archived_at is null
       and ${visibleClientText("c.firm_id", "c.id", "$2")}
   ),
   overdue as (
     select t.client_id, count(*) as n from tasks t join visible v on v.id = t.client_id
     where t.firm_id = $1 and ${overdueText("t.status", "t.due_date", "$3")}
     group by t.client_id
   ),
   counted as (
     select coalesce(sum(k.total), 0) as total, coalesce(sum(k.completed), 0) as completed
     from client_task_counts k join visible v on v.id = k.client_id
     where k.firm_id = $1
   ),
   late as (select coalesce(sum(n), 0) as n, count(*) as clients from overdue)
   select
     (select count(*) from visible)::int as clients_total,
     (select count(*) from visible where status = 'active')::int as clients_active,
     (select count(*) from visible where status = 'inactive')::int as clients_inactive,
     (select count(*) from visible where status = 'prospect')::int as clients_prospect,
     late.clients::int as clients_with_overdue,
     counted.total::int as tasks_total,
     (counted.total - counted.completed - late.n)::int as tasks_pending,
     late.n::int as tasks_overdue,
     counted.completed::int as tasks_completed
   from counted, late`,
);

export async function getDashboard(options: { db: Database; actor: Actor; now?: Date }): Promise<Dashboard> {
  const { db, actor, now = new Date() } = options;
  const [row = {}] = await dashboardCounts(db, [actor.firmId, assignedUserOf(actor, "clients.read"), now]);
  const n = (name: string) => row[name] ?? 0;
  return {
    clients: {
      total: n("clients_total"),
      active: n("clients_active"),
      inactive: n("clients_inactive"),
      prospect: n("clients_prospect"),
      withOverdueTasks: n("clients_with_overdue"),
    },
    tasks: {
      total: n("tasks_total"),
      pending: n("tasks_pending"),
      overdue: n("tasks_overdue"),
      completed: n("tasks_completed"),
    },
  };
}
