import type { ClientReport, ReportDays, ReportDueDateChange } from "../../../shared/reports";
import type { Database } from "../../platform/db/database";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { assignedUserOf, overdueText, visibleClientText } from "../../tenancy/scopes";
import { averageDays, bucketOf, buckets, keptStatements, type ReportTaskRow, rate, toReportTask } from "./report-parts";
import { rangeFrom, rangeOf } from "./report-range";

/*
 * The client audit: a client's tasks created or completed in the range, their figures, their
 * history and the logs of their statutory dates. What the audits share is in report-parts.ts.
 */

/** The client audit's SQL by statement name, for the scale bench's EXPLAIN of them on a large firm. */
export const clientReportStatements: Record<string, string> = {};
const reportSql = keptStatements(clientReportStatements);

const clientReportHead = reportSql<{
  id: string;
  name: string;
  industry: string | null;
  status: ClientReport["client"]["status"];
  time_zone: string;
  range_from: Date;
}>(
  "report_client_head",
  `select c.id, c.name, c.industry, c.status, f.time_zone, ${rangeFrom("f.time_zone", "$3", "$4")} as range_from
   from clients c join firms f on f.id = c.firm_id
   where c.firm_id = $1 and c.id = $2
     and ${visibleClientText("c.firm_id", "c.id", "$5")}`,
);

/** The client's tasks of the range: $1 firm, $2 client, $3 from, $4 now. */
const clientTasksOfRange = `select id, name, priority, status, due_date, created_at, completed_at, completed_by, printed_name,
     due_date_rule
   from tasks
   where firm_id = $1 and client_id = $2
     and ((created_at >= $3::timestamptz and created_at <= $4::timestamptz)
       or (completed_at >= $3::timestamptz and completed_at <= $4::timestamptz))`;

const clientReportFigures = reportSql<{
  total: number;
  completed: number;
  completion_rate: number | null;
  overdue: number;
  average_days: number | null;
  series: { start: string; created: number; completed: number }[];
}>(
  "report_client_figures",
  `with t as (${clientTasksOfRange}),
   created as (
     select ${bucketOf("created_at", "$5", "$6")} as start, count(*)::int as n from t
     where created_at >= $3::timestamptz and created_at <= $4::timestamptz group by 1),
   completed as (
     select ${bucketOf("completed_at", "$5", "$6")} as start, count(*)::int as n from t
     where completed_at >= $3::timestamptz and completed_at <= $4::timestamptz group by 1),
   series as (
     select json_agg(json_build_object('start', b.start, 'created', coalesce(c.n, 0), 'completed', coalesce(d.n, 0))
                     order by b.start) as points
     from (${buckets("$3", "$4", "$5", "$6")}) b
     left join created c on c.start = b.start left join completed d on d.start = b.start)
   select count(*)::int as total,
          (count(*) filter (where status = 'completed'))::int as completed,
          ${rate("count(*) filter (where status = 'completed')", "count(*)")} as completion_rate,
          (count(*) filter (where ${overdueText("status", "due_date", "$4")}))::int as overdue,
          ${averageDays("status = 'completed'")} as average_days,
          (select points from series) as series
   from t`,
);

type HistoryRow = ReportTaskRow & {
  completed_by: string | null;
  completer_name: string | null;
  due_date_rule: string | null;
};

type DueDateChangeRow = {
  task_id: string;
  field: ReportDueDateChange["field"];
  from_on: string | null;
  to_on: string | null;
  reason: ReportDueDateChange["reason"];
  note: string | null;
  source_url: string | null;
  changer_name: string | null;
  changed_at: Date;
};

/** The due-date logs of the history's tasks that follow a rule ($2), in order (decision 0053). */
const clientReportDueDateChanges = reportSql<DueDateChangeRow>(
  "report_client_due_date_changes",
  `select l.task_id, l.field, l.from_on::text, l.to_on::text, l.reason, l.note, l.source_url,
     u.full_name as changer_name, l.changed_at
   from task_due_date_changes l
   left join users u on u.firm_id = $1 and u.id = l.changed_by
   where l.firm_id = $1 and l.task_id = any($2::uuid[])
   order by l.task_id, l.changed_at, l.id`,
);

const clientReportHistory = reportSql<HistoryRow>(
  "report_client_history",
  `select t.*, u.full_name as completer_name
   from (${clientTasksOfRange}) t
   left join users u on u.firm_id = $1 and u.id = t.completed_by
   order by coalesce(t.completed_at, t.created_at) desc, t.id desc`,
);

/** The client audit; 404 when the client is not the actor's to see (a `user`: not assigned). */
export async function getClientReport(options: {
  db: Database;
  actor: Actor;
  clientId: string;
  days: ReportDays;
  now?: Date;
}): Promise<ClientReport> {
  const { db, actor, clientId, days, now = new Date() } = options;
  const assignedTo = assignedUserOf(actor, "reports.clientAudit");
  const [head] = await clientReportHead(db, [actor.firmId, clientId, now, days, assignedTo]);
  if (!head) throw new AppError("NOT_FOUND", "Client not found");
  const range = rangeOf(days, head.range_from, now, head.time_zone);
  const scope = [actor.firmId, clientId, head.range_from, now];
  const [[figures], history] = await Promise.all([
    clientReportFigures(db, [...scope, head.time_zone, range.bucket]),
    clientReportHistory(db, scope),
  ]);
  if (!figures) throw new Error("the figures query answers one row");
  const ruleTasks = history.filter((row) => row.due_date_rule !== null).map((row) => row.id);
  const changes = new Map<string, ReportDueDateChange[]>();
  if (ruleTasks.length > 0)
    for (const row of await clientReportDueDateChanges(db, [actor.firmId, ruleTasks]))
      changes.set(row.task_id, [
        ...(changes.get(row.task_id) ?? []),
        {
          field: row.field,
          from: row.from_on,
          to: row.to_on,
          reason: row.reason,
          note: row.note,
          sourceUrl: row.source_url,
          changedBy: row.changer_name,
          changedAt: row.changed_at.toISOString(),
        },
      ]);
  return {
    client: { id: head.id, name: head.name, industry: head.industry, status: head.status },
    range,
    totalTasks: figures.total,
    completedTasks: figures.completed,
    completionRate: figures.completion_rate,
    overdueTasks: figures.overdue,
    averageCompletionDays: figures.average_days,
    history: history.map((row) => ({
      ...toReportTask(row, now),
      completedBy:
        row.completed_by !== null && row.completer_name !== null
          ? { id: row.completed_by, fullName: row.completer_name }
          : null,
      dueDateChanges: changes.get(row.id) ?? [],
    })),
    series: figures.series,
  };
}
