import type { ReportTask } from "../../../shared/reports";
import { type StoredTaskStatus, type TaskPriority, taskStatus } from "../../../shared/tasks";
import { preparedSql } from "../../platform/db/prepared";

/*
 * What the client and user audits (S-REP-07..21, issue 9; docs/design/reports-api.md) share;
 * each is its own service (client-report.service.ts, user-report.service.ts). Every figure is
 * computed by PostgreSQL in the firm's time zone; only the rows an answer lists travel to Node
 * (a client's history, a user's 10 recent completions, or a CSV's rows, page by page).
 *
 * The range: from local midnight of (today - (days - 1)) in the firm's zone, up to now, both ends
 * included. A client's task is in it when created or completed in it; a user's completion when
 * its completed_at is in it.
 */

/**
 * Declares prepared statements whose SQL is also kept by name in `statements`, for the scale
 * bench's EXPLAIN of them on a large firm.
 */
export const keptStatements =
  (statements: Record<string, string>) =>
  <Row>(name: string, text: string) => {
    statements[name] = text;
    return preparedSql<Row>(name, text);
  };

/**
 * The chart's buckets: every day (or ISO week, from its Monday) from the range's first local day to
 * today, oldest first. `$from`/`$now` are instants, `$tz` the zone, `$unit` 'day' or 'week'.
 */
export const buckets = (from: string, now: string, tz: string, unit: string) =>
  `select b::date as start from generate_series(
     date_trunc(${unit}, ${from}::timestamptz at time zone ${tz}),
     date_trunc(${unit}, ${now}::timestamptz at time zone ${tz}),
     ('1 ' || ${unit})::interval) as b`;

/** The local day (or week) an instant falls in. */
export const bucketOf = (column: string, tz: string, unit: string) =>
  `date_trunc(${unit}, ${column} at time zone ${tz})::date`;

/** Whole percent, rounded half up; null when there is nothing to divide by. */
export const rate = (part: string, whole: string) =>
  `case when ${whole} = 0 then null else round(100.0 * ${part} / ${whole})::int end`;

/** The mean of (completed - created) in days, rounded half up, never below 0; null for none. */
export const averageDays = (filter: string) =>
  `case when count(*) filter (where ${filter}) = 0 then null
        else greatest(0, round(avg(extract(epoch from (completed_at - created_at))) filter (where ${filter}) / 86400))::int end`;

/** A task as a report's statement reads it (the client audit's history, a user's work). */
export type ReportTaskRow = {
  id: string;
  name: string;
  status: StoredTaskStatus;
  priority: TaskPriority;
  due_date: Date | null;
  created_at: Date;
  completed_at: Date | null;
  printed_name: string | null;
};

/** A task as a report lists it, its status derived against `now`; each report adds its own fields. */
export function toReportTask(row: ReportTaskRow, now: Date): Omit<ReportTask, "completedBy"> {
  return {
    id: row.id,
    name: row.name,
    status: taskStatus({ status: row.status, dueDate: row.due_date }, now),
    priority: row.priority,
    dueDate: row.due_date?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    printedName: row.printed_name,
  };
}
