import type { Task, TaskStatus } from "../../../shared/tasks";

const statusRank: Record<TaskStatus, number> = { overdue: 0, pending: 1, completed: 2 };

const time = (value: string | null, none: number) => (value === null ? none : new Date(value).getTime());

/**
 * A client's tasks in the order work is done: overdue first, then pending, each soonest due
 * first (no due date last), then completed work, most recently signed first.
 */
export function tasksInWorkOrder(tasks: readonly Task[]): Task[] {
  return [...tasks].sort((a, b) => {
    const byStatus = statusRank[a.status] - statusRank[b.status];
    if (byStatus !== 0) return byStatus;
    if (a.status === "completed") return time(b.completedAt, 0) - time(a.completedAt, 0);
    return (
      time(a.dueDate, Number.POSITIVE_INFINITY) - time(b.dueDate, Number.POSITIVE_INFINITY) ||
      a.name.localeCompare(b.name)
    );
  });
}
