import { scopeOf } from "../../../shared/permissions";
import {
  type Completion,
  type ReportDays,
  type ReportRange,
  type UserReport,
  userReportClientsListed,
} from "../../../shared/reports";
import type { Role } from "../../../shared/roles";
import type { TaskPriority } from "../../../shared/tasks";
import type { Database } from "../../platform/db/database";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { buckets, keptStatements, rate } from "./report-parts";
import { type RangeBounds, rangeBounds, rangeOf } from "./report-range";
import { averageDaysText, signedOffText, signOffDaysText, userOpenWork } from "./user-work";

/*
 * The user audit: the tasks a user signed off in the range (user-work.ts), their figures, the
 * clients served, the recent completions, and every completion for the CSV. What the audits
 * share is in report-parts.ts.
 */

/** The user audit's SQL by statement name, for the scale bench's EXPLAIN of them on a large firm. */
export const userReportStatements: Record<string, string> = {};
const reportSql = keptStatements(userReportStatements);

const userReportHead = reportSql<
  {
    id: string;
    username: string;
    full_name: string;
    email: string | null;
    role: Role;
    disabled: boolean;
    created_at: Date;
    assigned_clients: number;
    time_zone: string;
  } & RangeBounds
>(
  "report_user_head",
  `select u.id, u.username, u.full_name, u.email, u.role, u.disabled_at is not null as disabled, u.created_at,
          -- Archived clients leave the count, as they leave the profile and every list.
          (select count(*) from user_clients uc
           join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
           where uc.firm_id = u.firm_id and uc.user_id = u.id)::int as assigned_clients,
          f.time_zone, ${rangeBounds("f.time_zone", "$3", "$4")}
   from users u join firms f on f.id = u.firm_id
   where u.firm_id = $1 and u.id = $2`,
);

/**
 * The user's completions of the range, the "completed" of a user's work (user-work.ts): $1 firm,
 * $2 user, $3 from, $4 now. A task with a signer is completed (tasks_completion_check), so this is
 * a range of the partial index of sign-offs, which carries every column the figures read (an
 * index-only scan).
 */
const completionsOfRange = `select id, client_id, name, priority, due_date, created_at, completed_at
   from tasks t
   where ${signedOffText("t", { firm: "$1", user: "$2", from: "$3", to: "$4" })}`;

type Breakdown = { completed: number; on_time_rate: number | null };

const userReportFigures = reportSql<{
  completed: number;
  on_time_rate: number | null;
  average_days: number | null;
  by_priority: (Breakdown & { priority: TaskPriority })[];
  series: { start: string; completed: number; onTime: number; late: number }[];
}>(
  "report_user_figures",
  // The kept days and today's sign-offs (signOffDaysText), grouped three ways at once (the total,
  // per priority, per bucket): a few hundred rows at most, however many sign-offs.
  // $1 firm, $2 user, $3 first day, $4 today, $5 today's start, $6 now, $7 range start, $8 zone, $9 unit.
  `with g as (
     select grouping(priority) = 0 as per_priority, grouping(bucket) = 0 as per_bucket, priority, bucket,
            sum(completed)::int as completed, sum(on_time)::int as on_time, sum(with_due)::int as with_due,
            sum(seconds) as seconds
     from (select r.*, date_trunc($9, r.day::timestamp)::date as bucket
           from (${signOffDaysText({ firm: "$1", user: "$2", firstDay: "$3", today: "$4", todayFrom: "$5", now: "$6" })}) r) t
     group by grouping sets ((), (priority), (bucket))
   ),
   total as (select * from g where not per_priority and not per_bucket)
   select coalesce(total.completed, 0) as completed,
          ${rate("total.on_time", "total.with_due")} as on_time_rate,
          ${averageDaysText("total.seconds", "coalesce(total.completed, 0)")} as average_days,
          (select json_agg(json_build_object('priority', p.priority, 'completed', coalesce(x.completed, 0),
                                             'on_time_rate', ${rate("x.on_time", "x.with_due")}) order by p.ord)
           from unnest(array['low', 'medium', 'high']) with ordinality as p(priority, ord)
           left join g x on x.per_priority and x.priority = p.priority) as by_priority,
          (select json_agg(json_build_object('start', b.start, 'completed', coalesce(x.completed, 0),
                                             'onTime', coalesce(x.on_time, 0), 'late', coalesce(x.with_due - x.on_time, 0))
                           order by b.start)
           from (${buckets("$7", "$6", "$8", "$9")}) b left join g x on x.per_bucket and x.bucket = b.start) as series
   from (select 1) as one left join total on true`,
);

type ClientsServed = { clients_served: number; by_client: (Breakdown & { id: string; name: string })[] };

/** The breakdown's top clients as JSON, from rows of (client_id, name, completed, on_time, with_due) named `rows`. */
const topClients = (rows: string) =>
  `(select coalesce(json_agg(json_build_object('id', x.client_id, 'name', x.name, 'completed', x.completed,
                                               'on_time_rate', ${rate("x.on_time", "x.with_due")})
                             order by x.completed desc, x.name, x.client_id), '[]')
    from (select * from ${rows} order by completed desc, name, client_id limit ${userReportClientsListed}) x)`;

/**
 * The clients served and the top 20 from the user's report window (decision 0041), kept as of
 * today for the range's days before it, with today's sign-offs so far added: only clients among
 * the window's top 20 or served today can be in the answer's top 20, since today only adds.
 * `clients_served` is null when the window is not as of today (another reader moved it on at
 * midnight, or the report is for another day): the caller then counts from the sign-offs.
 * $1 firm, $2 user, $3 days, $4 today, $5 today's start, $6 now.
 */
const userReportClients = reportSql<Omit<ClientsServed, "clients_served"> & { clients_served: number | null }>(
  "report_user_clients",
  `with w as (
     select clients_served from user_report_windows
     where firm_id = $1 and user_id = $2 and days = $3 and as_of = $4::date
   ),
   -- Today's sign-offs, read apart from their grouping so that nothing asks the scan for client order.
   today as materialized (
     select t.client_id, t.completed_at, t.due_date
     from tasks t where ${signedOffText("t", { firm: "$1", user: "$2", from: "$5", to: "$6" })}
   ),
   live as (
     select client_id, count(*)::int as completed, (count(*) filter (where completed_at <= due_date))::int as on_time,
            count(due_date)::int as with_due
     from today group by client_id
   ),
   top as (
     select k.client_id, k.client_name, k.completed, k.on_time, k.with_due from user_report_clients k
     where k.firm_id = $1 and k.user_id = $2 and k.days = $3
     order by k.completed desc, k.client_name, k.client_id limit ${userReportClientsListed}
   ),
   candidates as (
     select top.client_id, false as new_today, top.client_name as name,
            top.completed + coalesce(l.completed, 0) as completed, top.on_time + coalesce(l.on_time, 0) as on_time,
            top.with_due + coalesce(l.with_due, 0) as with_due
     from top left join live l on l.client_id = top.client_id
     union all
     -- Today's other clients, each with its kept row by key if it has one ("offset 0" keeps the
     -- lookup per client: joined, a plan may read the whole window to hash it).
     select l.client_id, k.client_id is null,
            coalesce(k.client_name, (select cl.name from clients cl where cl.firm_id = $1 and cl.id = l.client_id)),
            coalesce(k.completed, 0) + l.completed, coalesce(k.on_time, 0) + l.on_time, coalesce(k.with_due, 0) + l.with_due
     from live l
     left join lateral (
       select k.client_id, k.client_name, k.completed, k.on_time, k.with_due from user_report_clients k
       where k.firm_id = $1 and k.user_id = $2 and k.days = $3 and k.client_id = l.client_id offset 0
     ) k on true
     where l.client_id not in (select top.client_id from top)
   )
   select ((select clients_served from w) + (select count(*) from candidates where new_today))::int as clients_served,
          ${topClients("candidates")} as by_client`,
);

/**
 * The same figures counted from the sign-offs themselves, for a report whose window is not kept as
 * of its today: it reads every sign-off of the range. $1 firm, $2 user, $3 from, $4 now.
 */
const userReportClientsCounted = reportSql<ClientsServed>(
  "report_user_clients_counted",
  `with g as (
     select t.client_id, count(*)::int as completed, (count(*) filter (where t.completed_at <= t.due_date))::int as on_time,
            count(t.due_date)::int as with_due
     from tasks t where ${signedOffText("t", { firm: "$1", user: "$2", from: "$3", to: "$4" })}
     group by t.client_id
   ),
   named as (select g.*, (select c.name from clients c where c.firm_id = $1 and c.id = g.client_id) as name from g)
   select (select count(*) from g)::int as clients_served, ${topClients("named")} as by_client`,
);

/** Brings the user's report windows to today (decision 0041): true when they are as of it. */
const userReportWindowsTo = reportSql<{ ready: boolean }>(
  "report_user_windows_to",
  "select user_report_windows_to($1, $2, $3::date) as ready",
);

type CompletionRow = {
  id: string;
  /** completed_at in full (microseconds), for the next page's seek. */
  completed_key: string;
  client_id: string;
  client_name: string;
  name: string;
  priority: TaskPriority;
  due_date: Date | null;
  created_at: Date;
  completed_at: Date;
};

/** The user's completions newest first, a page at a time: $5/$6 the last row seen, $7 the page size. */
const userCompletionsPage = reportSql<CompletionRow>(
  "report_user_completions",
  `select t.id, t.completed_at::text as completed_key, t.client_id, c.name as client_name, t.name, t.priority, t.due_date, t.created_at, t.completed_at
   from (${completionsOfRange}
         and (completed_at, id) < ($5::timestamptz, $6::uuid)
         order by completed_at desc, id desc limit $7) t
   join clients c on c.firm_id = $1 and c.id = t.client_id
   order by t.completed_at desc, t.id desc`,
);

export const recentCompletionsLimit = 10;

const csvPageSize = 1000;

type UserReportScope = { head: NonNullable<Awaited<ReturnType<typeof userReportHead>>[number]>; values: unknown[] };

async function userScope(options: {
  db: Database;
  actor: Actor;
  userId: string;
  days: ReportDays;
  now: Date;
}): Promise<UserReportScope> {
  const { db, actor, userId, days, now } = options;
  // A `user` reports on themselves only (S-ROLE-16): another user is refused with 403, as
  // the role's other refusals are; the firm's users are no secret to them (GET /api/users).
  if (scopeOf(actor.role, "reports.userAudit") === "self" && userId !== actor.userId) {
    throw new AppError("FORBIDDEN", "You can only view your own user report");
  }
  const [head] = await userReportHead(db, [actor.firmId, userId, now, days]);
  if (!head) throw new AppError("NOT_FOUND", "User not found");
  return { head, values: [actor.firmId, userId, head.range_from, now] };
}

/** The user audit: 404 for a user not of the actor's firm, 403 for a `user` asking about another. */
export async function getUserReport(options: {
  db: Database;
  actor: Actor;
  userId: string;
  days: ReportDays;
  now?: Date;
}): Promise<UserReport> {
  const { now = new Date() } = options;
  const { head, values } = await userScope({ ...options, now });
  const range = rangeOf(options.days, head.range_from, now, head.time_zone);
  const { db, actor } = options;
  const today = [head.today, head.today_from, now];
  const clientsOf = async (): Promise<ClientsServed> => {
    const [windows] = await userReportWindowsTo(db, [actor.firmId, head.id, head.today]);
    const [kept] = windows?.ready ? await userReportClients(db, [actor.firmId, head.id, options.days, ...today]) : [];
    if (kept && kept.clients_served !== null) return { clients_served: kept.clients_served, by_client: kept.by_client };
    const [counted] = await userReportClientsCounted(db, values);
    if (!counted) throw new Error("the clients query answers one row");
    return counted;
  };
  const [[figures], clients, recent, open] = await Promise.all([
    userReportFigures(db, [
      actor.firmId,
      head.id,
      head.first_day,
      ...today,
      head.range_from,
      head.time_zone,
      range.bucket,
    ]),
    clientsOf(),
    userCompletionsPage(db, [...values, "infinity", maxUuid, recentCompletionsLimit]),
    userOpenWork({ db, firmId: actor.firmId, userId: head.id, now }),
  ]);
  if (!figures) throw new Error("the figures query answers one row");
  const breakdown = (row: Breakdown) => ({ completed: row.completed, onTimeRate: row.on_time_rate });
  return {
    user: {
      id: head.id,
      username: head.username,
      fullName: head.full_name,
      email: head.email,
      role: head.role,
      disabled: head.disabled,
      createdAt: head.created_at.toISOString(),
      assignedClients: head.assigned_clients,
    },
    range,
    tasksCompleted: figures.completed,
    onTimeRate: figures.on_time_rate,
    clientsServed: clients.clients_served,
    averageCompletionDays: figures.average_days,
    byPriority: figures.by_priority.map((row) => ({ priority: row.priority, ...breakdown(row) })),
    byClient: clients.by_client.map((row) => ({ client: { id: row.id, name: row.name }, ...breakdown(row) })),
    recentCompletions: recent.map(toCompletion),
    series: figures.series,
    ...open,
  };
}

const maxUuid = "ffffffff-ffff-ffff-ffff-ffffffffffff";

function toCompletion(row: CompletionRow): Completion {
  return {
    taskId: row.id,
    name: row.name,
    client: { id: row.client_id, name: row.client_name },
    priority: row.priority,
    dueDate: row.due_date?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at.toISOString(),
    onTime: row.due_date === null ? null : row.completed_at.getTime() <= row.due_date.getTime(),
  };
}

/**
 * Every completion of a user's range, newest first, read a page of 1,000 at a time (for the CSV):
 * the user is checked before the first row is read, so a refusal is still a JSON error.
 */
export async function userCompletions(options: {
  db: Database;
  actor: Actor;
  userId: string;
  days: ReportDays;
  now?: Date;
}): Promise<{ user: { username: string }; range: ReportRange; rows: AsyncIterable<Completion> }> {
  const { db, now = new Date() } = options;
  const { head, values } = await userScope({ ...options, now });
  async function* rows() {
    let after: [string, string] = ["infinity", maxUuid];
    for (;;) {
      const page = await userCompletionsPage(db, [...values, ...after, csvPageSize]);
      for (const row of page) yield toCompletion(row);
      const last = page.at(-1);
      if (page.length < csvPageSize || !last) return;
      after = [last.completed_key, last.id];
    }
  }
  return {
    user: { username: head.username },
    range: rangeOf(options.days, head.range_from, now, head.time_zone),
    rows: rows(),
  };
}
