import {
  defaultReportDays,
  type ReportDays,
  type ReportRange,
  type ReportTask,
  reportDays,
} from "../../../shared/reports";
import { type TaskPriority, type TaskStatus, taskPriorities } from "../../../shared/tasks";
import { isUuidText } from "../../../shared/validation";

/*
 * Pure helpers of the Reports screen: how its figures read and what its URL means. Kept apart
 * from the components so they are tested on their own (report-format.test.ts).
 */

/** S-CONST-26: a report's completion rate is good (green) at 80% or more and a warning (red) below. */
export const goodRateThreshold = 80;

export type RateTone = "good" | "bad" | "none";

/** The colour a report's rate reads in: none when there is no rate (nothing to divide by). */
export function rateTone(rate: number | null): RateTone {
  if (rate === null) return "none";
  return rate >= goodRateThreshold ? "good" : "bad";
}

/** "75%", or "—" when there is nothing to divide by (a null rate is shown as a dash). */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${rate}%`;
}

/** "1 day", "3 days", or "—" when no task was completed. */
export function formatDays(days: number | null): string {
  if (days === null) return "—";
  return `${days.toLocaleString("en-US")} ${days === 1 ? "day" : "days"}`;
}

/** Whole numbers with thousands separators, as the dashboard shows them. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * A chart bucket's label. `start` is a calendar date (YYYY-MM-DD) of the firm's zone, so it is
 * read and written in UTC: no zone can move it to the day before.
 */
export function formatBucket(start: string, bucket: ReportRange["bucket"], long = false): string {
  const date = new Date(`${start}T00:00:00Z`);
  const text = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(date);
  return bucket === "week" && long ? `Week of ${text}` : text;
}

/** "Oct 25 – Nov 23, 2026": the range's first and last days in the firm's zone. */
export function formatRange(range: Pick<ReportRange, "from" | "to" | "timeZone">): string {
  const format = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: range.timeZone,
  });
  return format.formatRange(new Date(range.from), new Date(range.to));
}

export type ReportTab = "client" | "user";

/** What the page's URL holds, so a report can be linked and reloaded (docs/design/reports-screen.md). */
export type ReportParams = { tab: ReportTab; clientId: string | null; userId: string | null; days: ReportDays };

/** Reads the search params; anything unknown falls back to the defaults (Client Audit, 30 days). */
export function parseReportParams(params: URLSearchParams): ReportParams {
  const days = Number(params.get("days"));
  const id = (name: string) => {
    const value = params.get(name);
    return value && isUuidText(value) ? value : null;
  };
  return {
    tab: params.get("tab") === "user" ? "user" : "client",
    clientId: id("client"),
    userId: id("user"),
    days: reportDays.find((value) => value === days) ?? defaultReportDays,
  };
}

/** The search params of a state; defaults are left out so the plain /reports stays plain. */
export function reportSearchParams(state: ReportParams): URLSearchParams {
  const params = new URLSearchParams();
  if (state.tab === "user") params.set("tab", "user");
  if (state.clientId) params.set("client", state.clientId);
  if (state.userId) params.set("user", state.userId);
  if (state.days !== defaultReportDays) params.set("days", String(state.days));
  return params;
}

export const priorityLabels: Record<TaskPriority, string> = { high: "High", medium: "Medium", low: "Low" };
/** Highest first, as people rank work. */
export const prioritiesDown: readonly TaskPriority[] = [...taskPriorities].reverse();

export type PriorityStatusRow = { priority: TaskPriority; label: string; total: number } & Record<TaskStatus, number>;

/** The range's tasks counted by priority and status, highest priority first (the client report's chart). */
export function priorityStatusCounts(history: Pick<ReportTask, "priority" | "status">[]): PriorityStatusRow[] {
  return prioritiesDown.map((priority) => {
    const tasks = history.filter((task) => task.priority === priority);
    const count = (status: TaskStatus) => tasks.filter((task) => task.status === status).length;
    return {
      priority,
      label: priorityLabels[priority],
      total: tasks.length,
      completed: count("completed"),
      pending: count("pending"),
      overdue: count("overdue"),
    };
  });
}
