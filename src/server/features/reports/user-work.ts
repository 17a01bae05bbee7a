import {
  activityTasksLimit,
  type ReportDays,
  type ReportRange,
  type UserActivity,
  type UserOpenWork,
} from "../../../shared/reports";
import type { Database } from "../../platform/db/database";
import { auditKeyText, overdueText } from "../../tenancy/scopes";
import { keptStatements, type ReportTaskRow, toReportTask } from "./report-parts";
import { type RangeBounds, rangeBounds, rangeOf } from "./report-range";

/*
 * A user's work: one definition for the user's profile (GET /api/users/{id}/activity) and their
 * user audit (GET /api/reports/users/{id}), so the two screens can never disagree (S-EDGE-03,
 * docs/design/people-screens.md).
 *
 * - Completed: the tasks the user signed off (tasks.completed_by) in the range, on any client,
 *   assigned to them or not, archived or not. It is the user's own work: another person's
 *   sign-off on their client is not theirs, and a user who signed nothing has completed nothing.
 * - Pending and overdue: the open tasks of the clients assigned to the user now (archived clients
 *   left out, as they leave every list), overdue once past their due date (S-STATE-10), pending
 *   otherwise. Open work falls in no range: it is what waits for the user today.
 *
 * The conditions are SQL text over a row of tasks named `task`, with the operands as their
 * statement binds them, so each statement below and the report's own statements share them.
 */

type Operands = { firm: string; user: string };

/** The statements' SQL by name, for the scale bench's EXPLAIN of them on a large firm. */
export const userWorkStatements: Record<string, string> = {};
const workSql = keptStatements(userWorkStatements);

/** "The user signed the task off between `from` and `to`", both included. */
export const signedOffText = (task: string, p: Operands & { from: string; to: string }) =>
  `${task}.firm_id = ${p.firm} and ${task}.completed_by = ${p.user}
     and ${task}.completed_at >= ${p.from}::timestamptz and ${task}.completed_at <= ${p.to}::timestamptz`;

/** "The task is open on a live client assigned to the user." */
const openOnAssignedText = (task: string, p: Operands) =>
  `${task}.firm_id = ${p.firm} and ${task}.status = 'pending'
     and ${task}.client_id = any (array(
       select uc.client_id from user_clients uc
       join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
       where uc.firm_id = ${p.firm} and uc.user_id = ${p.user}))`;

/**
 * The user's sign-offs of a range as rows of (day, priority, completed, on_time, with_due, seconds):
 * the kept rows of the range's days before today (user_completion_days, decision 0041), then one
 * row per sign-off of today so far, from the sign-offs index. However many tasks the user signed
 * off, that is at most a row per day and priority and one day's work.
 */
export const signOffDaysText = (
  p: Operands & { firstDay: string; today: string; todayFrom: string; now: string },
) => `select d.day, d.priority, d.completed, d.on_time, d.with_due, d.seconds
   from user_completion_days d
   where d.firm_id = ${p.firm} and d.user_id = ${p.user} and d.day >= ${p.firstDay}::date and d.day < ${p.today}::date
   union all
   select ${p.today}::date, t.priority, 1, case when t.completed_at <= t.due_date then 1 else 0 end,
          case when t.due_date is null then 0 else 1 end, extract(epoch from (t.completed_at - t.created_at))
   from tasks t
   where ${signedOffText("t", { firm: p.firm, user: p.user, from: p.todayFrom, to: p.now })}`;

/** The mean days from creation to completion of `count` sign-offs taking `seconds` in all, rounded half up, never below 0. */
export const averageDaysText = (seconds: string, count: string) =>
  `case when ${count} = 0 then null else greatest(0, round(${seconds} / ${count} / 86400))::int end`;

const workRange = workSql<{ time_zone: string } & RangeBounds>(
  "user_work_range",
  `select f.time_zone, ${rangeBounds("f.time_zone", "$2", "$3")} from firms f where f.id = $1`,
);

/** $1 firm, $2 user, $3 first day, $4 today, $5 today's start, $6 now. */
const signedOffTotals = workSql<{ completed: number; average_days: number | null }>(
  "user_work_signed_off",
  `select coalesce(sum(r.completed), 0)::int as completed,
          ${averageDaysText("sum(r.seconds)", "coalesce(sum(r.completed), 0)")} as average_days
   from (${signOffDaysText({ firm: "$1", user: "$2", firstDay: "$3", today: "$4", todayFrom: "$5", now: "$6" })}) r`,
);

/**
 * $1 firm, $2 user, $3 now: one range of tasks_firm_id_client_id_idx per assigned client. A task
 * without a due date is never overdue (its test is null, not false), so it counts as pending.
 */
const openTotals = workSql<{ pending: number; overdue: number }>(
  "user_work_open",
  `select (count(*) filter (where not o.overdue))::int as pending, (count(*) filter (where o.overdue))::int as overdue
   from (select coalesce(${overdueText("t.status", "t.due_date", "$3")}, false) as overdue
         from tasks t where ${openOnAssignedText("t", { firm: "$1", user: "$2" })}) o`,
);

type WorkTaskRow = ReportTaskRow & { client_id: string; client_name: string };

/** The audit order of decision 0011: completed first by newest completion, then by due date (none last), newest created. */
const auditOrder = (row: string) =>
  `${auditKeyText(`${row}.completed_at`)} desc, ${auditKeyText(`${row}.due_date`)} desc, ${row}.created_at desc, ${row}.id desc`;

/**
 * $1 firm, $2 user, $3 from, $4 now: the newest tasks of the user's work in the audit order. Each
 * half brings its own first few (the sign-offs straight from their index, newest first) and the
 * merge keeps the first of those, so thousands of sign-offs cost a short index read, not a sort.
 * The halves cannot overlap: one is completed tasks, the other open ones.
 */
const workTasks = workSql<WorkTaskRow>(
  "user_work_tasks",
  `with mine as (
     (select t.id, t.client_id, t.name, t.status, t.priority, t.due_date, t.created_at, t.completed_at, t.printed_name
      from tasks t where ${signedOffText("t", { firm: "$1", user: "$2", from: "$3", to: "$4" })}
      -- The audit order, with completed_at bare (a sign-off always has one): the index gives it.
      order by t.completed_at desc, coalesce(t.due_date, '-infinity'::timestamptz) desc, t.created_at desc, t.id desc
      limit ${activityTasksLimit})
     union all
     (select t.id, t.client_id, t.name, t.status, t.priority, t.due_date, t.created_at, t.completed_at, t.printed_name
      from tasks t where ${openOnAssignedText("t", { firm: "$1", user: "$2" })}
      order by ${auditOrder("t")} limit ${activityTasksLimit})
   )
   -- Each name is its own index lookup, for the 200 kept: as a join, the generic plan hashes the
   -- whole clients table, every firm's.
   select first.*, (select c.name from clients c where c.firm_id = $1 and c.id = first.client_id) as client_name
   from (select * from mine order by ${auditOrder("mine")} limit ${activityTasksLimit}) first
   order by ${auditOrder("first")}`,
);

/** The open work of the user as of `now`: the figures both screens show next to the completions. */
export async function userOpenWork(options: {
  db: Database;
  firmId: string;
  userId: string;
  now: Date;
}): Promise<UserOpenWork> {
  const [row] = await openTotals(options.db, [options.firmId, options.userId, options.now]);
  if (!row) throw new Error("the open work query answers one row");
  return { pendingTasks: row.pending, overdueTasks: row.overdue };
}

/**
 * The user's work over the last `days` days of the firm's zone, as the profile shows it: the
 * totals (completed + pending + overdue, the rate of completed among them, the average days of the
 * completed) and the newest tasks. The caller has checked that the user is the actor's to see.
 */
export async function userWork(options: {
  db: Database;
  firmId: string;
  userId: string;
  days: ReportDays;
  now: Date;
}): Promise<{ range: ReportRange; totals: UserActivity["totals"]; tasks: UserActivity["tasks"] }> {
  const { db, firmId, userId, days, now } = options;
  const [head] = await workRange(db, [firmId, now, days]);
  if (!head) throw new Error("the actor's firm has no row");
  const values = [firmId, userId, head.range_from, now];
  const [[done], open, rows] = await Promise.all([
    signedOffTotals(db, [firmId, userId, head.first_day, head.today, head.today_from, now]),
    userOpenWork({ db, firmId, userId, now }),
    workTasks(db, values),
  ]);
  if (!done) throw new Error("the sign-offs query answers one row");
  const total = done.completed + open.pendingTasks + open.overdueTasks;
  return {
    range: rangeOf(days, head.range_from, now, head.time_zone),
    totals: {
      total,
      completed: done.completed,
      pending: open.pendingTasks,
      overdue: open.overdueTasks,
      completionRate: total === 0 ? null : Math.round((100 * done.completed) / total),
      averageCompletionDays: done.average_days,
    },
    tasks: rows.map((row) => ({
      ...toReportTask(row, now),
      client: { id: row.client_id, name: row.client_name },
    })),
  };
}
