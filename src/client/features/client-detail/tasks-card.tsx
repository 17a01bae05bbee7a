import { Archive, CalendarDays, CheckCircle2, ClipboardList, Flag, Pencil, Plus, Repeat, Trash2 } from "lucide-react";
import { useState } from "react";
import type { ClientDetail } from "../../../shared/clients";
import type { Task } from "../../../shared/tasks";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDeleteTask } from "./api";
import { CompleteTaskDialog } from "./complete-task-dialog";
import { formatDay } from "./due-dates";
import { TaskDialog } from "./task-dialog";
import { priorityLabels, taskStatusBadge } from "./task-labels";
import { tasksInWorkOrder } from "./task-order";

/** What a dialog is open for: adding a task, or editing, completing or deleting one. */
type Open = { dialog: "add" } | { dialog: "edit" | "complete" | "delete"; task: Task } | undefined;

/**
 * S-CDET-12..18, "Client Tasks": "N of M tasks completed", Add Task, and per task its name,
 * status, Recurring badge, description, due date and who completed it when. Open work can be
 * changed, deleted or signed off (Complete, red when overdue); signed-off work cannot change.
 * An archived client's work is read-only until it is restored, and the card says so (S-EDGE-10).
 */
export function TasksCard({
  client,
  timeZone,
  canManage,
  canComplete,
  canRestore,
  className,
}: {
  client: ClientDetail;
  timeZone: string;
  canManage: boolean;
  canComplete: boolean;
  /** Whether the viewer may restore the client, which decides what the archived note suggests. */
  canRestore: boolean;
  className?: string;
}) {
  const [open, setOpen] = useState<Open>();
  const remove = useDeleteTask();
  const close = () => setOpen(undefined);
  const tasks = tasksInWorkOrder(client.tasks);
  const completed = client.tasks.filter((task) => task.status === "completed").length;
  // An archived client's work is read-only until it is restored (decision 0031; the server
  // refuses it too); its record, signed work included, stays readable.
  const active = client.archivedAt === null;
  const openTasks = client.tasks.length - completed;

  const onDelete = (task: Task) =>
    remove.mutate(task.id, {
      onSuccess: () => {
        close();
        toast.success("Task deleted successfully!");
      },
      onError: (error) => {
        close();
        toast.error("Failed to delete task", { description: errorMessage(error, "Please try again.") });
      },
    });

  return (
    <Card className={className} data-testid="tasks">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <CardTitle>Client Tasks</CardTitle>
          <CardDescription data-testid="tasks-progress">
            {completed} of {client.tasks.length} tasks completed
          </CardDescription>
        </div>
        {canManage && active && (
          <Button size="sm" onClick={() => setOpen({ dialog: "add" })}>
            <Plus aria-hidden="true" />
            Add Task
          </Button>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!active && openTasks > 0 && (
          <p
            role="note"
            data-testid="archived-tasks-note"
            className="flex items-start gap-2 rounded-md border bg-muted px-3 py-2.5 text-sm text-muted-foreground"
          >
            <Archive className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {canRestore
              ? "This client is archived, so its open tasks cannot be completed or changed. Restore the client to work on them."
              : "This client is archived, so its open tasks cannot be completed or changed. An admin can restore the client to work on them."}
          </p>
        )}
        {client.tasks.length > 0 && (
          <div className="h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden="true">
            <div
              className="h-full rounded-full bg-success transition-[width]"
              style={{ width: `${(completed / client.tasks.length) * 100}%` }}
            />
          </div>
        )}
        {tasks.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-md border border-dashed px-4 py-10 text-center">
            <ClipboardList className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="text-sm font-medium">No tasks yet</p>
            <p className="max-w-xs text-sm text-muted-foreground">
              {canManage && active
                ? "Add the first task for this client with Add Task."
                : "Tasks for this client will be listed here."}
            </p>
          </div>
        ) : (
          <ul className="flex flex-col divide-y rounded-md border" aria-label="Client tasks">
            {tasks.map((task) => (
              <TaskRow
                key={task.id}
                task={task}
                timeZone={timeZone}
                canManage={canManage && active}
                canComplete={canComplete && active}
                onAction={(dialog) => setOpen({ dialog, task })}
              />
            ))}
          </ul>
        )}
      </CardContent>

      {canManage && (
        <TaskDialog
          clientId={client.id}
          task={open?.dialog === "edit" ? open.task : undefined}
          timeZone={timeZone}
          open={open?.dialog === "add" || open?.dialog === "edit"}
          onOpenChange={(isOpen) => !isOpen && close()}
        />
      )}
      {canComplete && (
        <CompleteTaskDialog
          task={open?.dialog === "complete" ? open.task : undefined}
          onOpenChange={(isOpen) => !isOpen && close()}
        />
      )}
      <AlertDialog open={open?.dialog === "delete"} onOpenChange={(isOpen) => !isOpen && close()}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this task?</AlertDialogTitle>
            <AlertDialogDescription>
              “{open?.dialog === "delete" ? open.task.name : ""}” will be removed from {client.name}. This action cannot
              be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => open?.dialog === "delete" && onDelete(open.task)}
            >
              {remove.isPending ? "Deleting..." : "Delete Task"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

function TaskRow({
  task,
  timeZone,
  canManage,
  canComplete,
  onAction,
}: {
  task: Task;
  timeZone: string;
  canManage: boolean;
  canComplete: boolean;
  onAction: (dialog: "edit" | "complete" | "delete") => void;
}) {
  const status = taskStatusBadge[task.status];
  const done = task.status === "completed";
  const signer = task.completedByUser?.fullName;

  return (
    <li
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between"
      data-testid="task"
      data-task-id={task.id}
    >
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="min-w-0 text-sm font-medium break-words">{task.name}</h3>
          <Badge variant={status.variant} data-testid="task-status">
            {status.label}
          </Badge>
          {task.templateId && (
            <Badge variant="outline">
              <Repeat aria-hidden="true" />
              Recurring
            </Badge>
          )}
        </div>
        {task.description && <p className="text-sm text-muted-foreground break-words">{task.description}</p>}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <span className={cn("inline-flex items-center gap-1.5", task.status === "overdue" && "text-destructive")}>
            <CalendarDays className="size-3.5" aria-hidden="true" />
            {task.dueDate ? `Due ${formatDay(task.dueDate, timeZone)}` : "No due date"}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Flag className="size-3.5" aria-hidden="true" />
            {priorityLabels[task.priority]} priority
          </span>
          {done && task.completedAt && (
            <span
              className="inline-flex items-center gap-1.5 text-success-subtle-foreground"
              data-testid="task-completed"
            >
              <CheckCircle2 className="size-3.5" aria-hidden="true" />
              Completed {formatDay(task.completedAt, timeZone)}
              {signer ? ` by ${signer}` : ""}
              {task.printedName && task.printedName !== signer ? ` (signed as “${task.printedName}”)` : ""}
            </span>
          )}
        </div>
      </div>
      {!done && (canComplete || canManage) && (
        <div className="flex shrink-0 items-center gap-1">
          {canManage && (
            <>
              <Button
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label={`Edit ${task.name}`}
                onClick={() => onAction("edit")}
              >
                <Pencil aria-hidden="true" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 text-muted-foreground hover:text-destructive"
                aria-label={`Delete ${task.name}`}
                onClick={() => onAction("delete")}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </>
          )}
          {canComplete && (
            <Button
              size="sm"
              className="ml-1"
              variant={task.status === "overdue" ? "destructive" : "default"}
              onClick={() => onAction("complete")}
            >
              <CheckCircle2 aria-hidden="true" />
              Complete
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
