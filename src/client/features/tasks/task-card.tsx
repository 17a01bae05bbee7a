import { Building2, CalendarClock, CheckCircle2 } from "lucide-react";
import type { TaskListItem } from "../../../shared/tasks";
import { PriorityBadge, TaskStatusBadge } from "../../components/task-badges";
import { Button } from "../../components/ui/button";

/** S-TAUD-07..08: status, priority, name, description, client, due and completed dates, View Details. */
export function TaskCard({
  task,
  formatDate,
  onView,
}: {
  task: TaskListItem;
  formatDate: (iso: string | null) => string;
  onView: () => void;
}) {
  return (
    <article
      aria-label={task.name}
      className="flex flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs sm:flex-row sm:items-start sm:gap-4"
    >
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-1.5">
          <TaskStatusBadge status={task.status} />
          <PriorityBadge priority={task.priority} />
        </div>
        <div className="flex min-w-0 flex-col gap-0.5">
          <h2 className="text-sm font-semibold break-words" data-testid="task-name">
            {task.name}
          </h2>
          {task.description && (
            <p className="line-clamp-2 text-sm text-muted-foreground break-words" data-testid="task-description">
              {task.description}
            </p>
          )}
        </div>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <div className="flex min-w-0 items-center gap-1.5">
            <dt>
              <Building2 className="size-3.5" aria-hidden="true" />
              <span className="sr-only">Client</span>
            </dt>
            <dd className="truncate font-medium text-foreground" data-testid="task-client">
              {task.clientName}
            </dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt className="flex items-center gap-1.5">
              <CalendarClock className="size-3.5" aria-hidden="true" />
              Due
            </dt>
            <dd
              className={task.status === "overdue" ? "font-medium text-destructive" : undefined}
              data-testid="task-due"
            >
              {task.dueDate ? formatDate(task.dueDate) : "No due date"}
            </dd>
          </div>
          {task.completedAt && (
            <div className="flex items-center gap-1.5">
              <dt className="flex items-center gap-1.5">
                <CheckCircle2 className="size-3.5 text-success" aria-hidden="true" />
                Completed
              </dt>
              <dd data-testid="task-completed">{formatDate(task.completedAt)}</dd>
            </div>
          )}
        </dl>
      </div>
      <Button variant="outline" size="sm" onClick={onView} className="self-start">
        View Details
        <span className="sr-only">: {task.name}</span>
      </Button>
    </article>
  );
}
