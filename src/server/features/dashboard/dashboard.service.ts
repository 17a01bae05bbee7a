import type { Dashboard } from "../../../shared/dashboard";
import type { Database } from "../../platform/db/database";
import { preparedSql } from "../../platform/db/prepared";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, overdueText } from "../../tenancy/scopes";

/*
 * The dashboard's figures, counted by PostgreSQL in one round trip, with no task row read for a
 * role that sees the whole firm. Archived clients and their tasks are left out; pending means not
 * completed and not overdue, as everywhere else.
 *
 * The firm's figures come from its kept counts (migration 0017, decision 0036): one row of
 * firm_work_counts, and for overdue work, which moves with the clock, the rows of
 * pending_due_counts due before now (one per distinct due date with open work), so the read costs
 * the same for 30 clients as for 10,000. A `user` sees only their assigned clients (S-ROLE-07):
 * their figures add up those clients' rows of client_task_counts and count their overdue tasks
 * from each one's range of the (firm, client, status, due date) index, growing with their own
 * clients, never with the firm.
 */
const firmCounts = preparedSql<Record<string, number>>(
  "dashboard_counts",
  `select
     (f.clients_active + f.clients_inactive + f.clients_prospect)::int as clients_total,
     f.clients_active::int as clients_active,
     f.clients_inactive::int as clients_inactive,
     f.clients_prospect::int as clients_prospect,
     late.clients::int as clients_with_overdue,
     f.tasks_total::int as tasks_total,
     (f.tasks_total - f.tasks_completed - late.tasks)::int as tasks_pending,
     late.tasks::int as tasks_overdue,
     f.tasks_completed::int as tasks_completed
   from (select coalesce(sum(p.tasks), 0) as tasks, coalesce(sum(p.clients), 0) as clients
         from pending_due_counts p where p.firm_id = $1 and p.due_date < $2::timestamptz) as late
   left join firm_work_counts f on f.firm_id = $1`,
);

const assignedCounts = preparedSql<Record<string, number>>(
  "dashboard_counts_of_user",
  `with visible as (
     select c.id, c.status, k.total, k.completed, k.earliest_pending_due
     from user_clients uc
     join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
     left join client_task_counts k on k.firm_id = uc.firm_id and k.client_id = uc.client_id
     where uc.firm_id = $1 and uc.user_id = $2
   ),
   late as (
     select count(*) as tasks from visible v join tasks t on t.firm_id = $1 and t.client_id = v.id
     where ${overdueText("t.status", "t.due_date", "$3")}
   )
   select
     count(*)::int as clients_total,
     (count(*) filter (where v.status = 'active'))::int as clients_active,
     (count(*) filter (where v.status = 'inactive'))::int as clients_inactive,
     (count(*) filter (where v.status = 'prospect'))::int as clients_prospect,
     (count(*) filter (where v.earliest_pending_due < $3::timestamptz))::int as clients_with_overdue,
     coalesce(sum(v.total), 0)::int as tasks_total,
     (coalesce(sum(v.total), 0) - coalesce(sum(v.completed), 0) - (select tasks from late))::int as tasks_pending,
     (select tasks from late)::int as tasks_overdue,
     coalesce(sum(v.completed), 0)::int as tasks_completed
   from visible v`,
);

export async function getDashboard(options: {
  db: Database;
  actor: Pick<Actor, "firmId" | "userId" | "role">;
  now?: Date;
}): Promise<Dashboard> {
  const { db, actor, now = new Date() } = options;
  const assignedUser = assignedUserOf(actor, "clients.read");
  const [row = {}] =
    assignedUser === null
      ? await firmCounts(db, [actor.firmId, now])
      : await assignedCounts(db, [actor.firmId, assignedUser, now]);
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
