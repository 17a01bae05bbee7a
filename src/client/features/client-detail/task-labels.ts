import type { TaskPriority, TaskStatus } from "../../../shared/tasks";
import type { BadgeVariant } from "../../components/ui/badge";

/** Status colours keep their meaning everywhere (badges, bell, health): amber pending, red overdue, green done. */
export const taskStatusBadge: Record<TaskStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: "Pending", variant: "warning" },
  overdue: { label: "Overdue", variant: "destructive" },
  completed: { label: "Completed", variant: "success" },
};

export const priorityLabels: Record<TaskPriority, string> = { low: "Low", medium: "Medium", high: "High" };
