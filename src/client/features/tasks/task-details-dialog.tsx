import { AlertTriangle, Clock, PenLine } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { TaskListItem } from "../../../shared/tasks";
import { PriorityBadge, TaskStatusBadge } from "../../components/task-badges";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { TaskDueDatesSection } from "../due-dates/task-due-dates";

/**
 * The details of one task (S-TAUD-12..16): client, created, due, priority, status, completed; for signed-off
 * work who signed it and the signature; otherwise a note on what the task still needs.
 */
export function TaskDetailsDialog({
  task,
  formatDate,
  onOpenChange,
}: {
  task: TaskListItem | null;
  formatDate: (iso: string | null, withTime?: boolean) => string;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={task !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        {task && (
          <>
            <DialogHeader>
              <DialogTitle className="break-words">{task.name}</DialogTitle>
              <DialogDescription className="break-words">{task.description || "No description"}</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-4 rounded-lg border bg-muted/40 p-4 sm:grid-cols-2">
              <Detail label="Client">
                <Link
                  to={`/client/${task.clientId}`}
                  className="font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {task.clientName}
                </Link>
              </Detail>
              <Detail label="Status">
                <TaskStatusBadge status={task.status} />
              </Detail>
              <Detail label="Priority">
                <PriorityBadge priority={task.priority} />
              </Detail>
              <Detail label="Created">{formatDate(task.createdAt)}</Detail>
              <Detail label="Due date">{task.dueDate ? formatDate(task.dueDate) : "No due date"}</Detail>
              {/* The sign-off's time is recorded automatically (S-TCOMP-09), so the audit view shows it. */}
              <Detail label="Completed">{task.completedAt ? formatDate(task.completedAt, true) : "Not yet"}</Detail>
            </dl>
            <TaskDueDatesSection taskId={task.id} status={task.status} />
            {task.status === "completed" ? (
              <SignOff task={task} />
            ) : task.status === "overdue" ? (
              <Note tone="overdue" icon={<AlertTriangle className="size-4" aria-hidden="true" />}>
                This task is overdue and requires immediate attention.
              </Note>
            ) : (
              <Note tone="pending" icon={<Clock className="size-4" aria-hidden="true" />}>
                Completion is pending. This task has not been signed off yet.
              </Note>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

/** Who signed the work off: their name and @username, or the stored id when the user is gone (S-TAUD-13). */
function SignOff({ task }: { task: TaskListItem }) {
  const signer = task.completedByUser;
  return (
    <section aria-label="Sign-off" className="flex flex-col gap-3">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <PenLine className="size-4 text-muted-foreground" aria-hidden="true" />
        Signed off
      </h3>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
        <Detail label="Completed by">
          {signer ? (
            <span data-testid="completed-by">
              <span className="font-medium">{signer.fullName}</span>{" "}
              <span className="text-muted-foreground">@{signer.username}</span>
            </span>
          ) : (
            <span data-testid="completed-by" className="font-mono text-xs break-all">
              {task.completedBy ?? "Unknown"}
            </span>
          )}
        </Detail>
        {task.printedName && <Detail label="Printed name">{task.printedName}</Detail>}
      </dl>
      {task.signature ? (
        <figure className="flex flex-col gap-1.5">
          <div className="rounded-md border bg-white p-2">
            {/* Loaded from its own address (the list carries no image); sized up front, so nothing shifts. */}
            <img
              src={task.signature}
              width={400}
              height={128}
              alt={`Signature of ${task.printedName ?? signer?.fullName ?? "the signer"}`}
              className="mx-auto h-auto max-h-32 w-full max-w-[400px] object-contain"
            />
          </div>
          <figcaption className="text-xs text-muted-foreground">Signature captured at completion</figcaption>
        </figure>
      ) : (
        <p className="text-sm text-muted-foreground">No signature was recorded.</p>
      )}
    </section>
  );
}

function Note({ tone, icon, children }: { tone: "pending" | "overdue"; icon: ReactNode; children: ReactNode }) {
  return (
    <p
      data-testid="task-note"
      className={
        tone === "overdue"
          ? "flex items-start gap-2 rounded-md border border-destructive/25 bg-destructive-subtle px-3 py-2.5 text-sm text-destructive-subtle-foreground"
          : "flex items-start gap-2 rounded-md border border-warning/30 bg-warning-subtle px-3 py-2.5 text-sm text-warning-subtle-foreground"
      }
    >
      <span className="mt-0.5 shrink-0">{icon}</span>
      {children}
    </p>
  );
}
