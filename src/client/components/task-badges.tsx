import { AlertTriangle, CheckCircle2, Clock } from "lucide-react";
import type { TaskPriority, TaskStatus } from "../../shared/tasks";
import { cn } from "../lib/cn";
import { Badge, type BadgeVariant } from "./ui/badge";

const statusLook: Record<TaskStatus, { label: string; variant: BadgeVariant; icon: typeof Clock }> = {
  completed: { label: "Completed", variant: "success", icon: CheckCircle2 },
  pending: { label: "Pending", variant: "warning", icon: Clock },
  overdue: { label: "Overdue", variant: "destructive", icon: AlertTriangle },
};

/** Green completed, amber pending, red overdue: the same colours as the bell and client health, everywhere. */
export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  const { label, variant, icon: Icon } = statusLook[status];
  return (
    <Badge variant={variant} data-testid="task-status">
      <Icon aria-hidden="true" />
      {label}
    </Badge>
  );
}

const priorityLabels: Record<TaskPriority, string> = { high: "High", medium: "Medium", low: "Low" };
const priorityDots: Record<TaskPriority, string> = {
  high: "bg-destructive",
  medium: "bg-warning",
  low: "bg-muted-foreground/50",
};

/**
 * An outlined badge with a coloured dot: priority is not a status, so it stays quieter than the
 * status badge beside it.
 */
export function PriorityBadge({ priority, className }: { priority: TaskPriority; className?: string }) {
  return (
    <Badge variant="outline" className={cn("text-muted-foreground", className)} data-testid="priority">
      <span className={cn("size-1.5 rounded-full", priorityDots[priority])} aria-hidden="true" />
      {priorityLabels[priority]} priority
    </Badge>
  );
}
