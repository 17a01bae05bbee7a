import { useQuery } from "@tanstack/react-query";
import { Landmark } from "lucide-react";
import { useState } from "react";
import { formatCivilDate } from "../../../shared/dates";
import {
  type DueDateChange,
  type DueDateOverride,
  dueDateFieldLabels,
  dueDateReasonLabels,
  type TaskDueDates,
} from "../../../shared/due-dates";
import { can } from "../../../shared/permissions";
import type { TaskStatus } from "../../../shared/tasks";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { currentUserQueryOptions } from "../auth/api";
import { taskDueDatesQueryOptions, useFileExtension } from "./api";
import { ChangeDueDate } from "./change-due-date-dialog";

/** What set the day the task is due, when not its rule: said under that day. */
const overrideNotes: Record<DueDateOverride, string> = {
  MANUAL: "Set by hand",
  DISASTER_RELIEF: "Postponed by disaster relief",
};

/**
 * A task's statutory due date (decision 0053), below its details: the rule and period, the
 * statutory, due, clear-by and extended dates, why they are what they are, the due-date log, and
 * for a pending task whose rule has one, recording an extension filed; for those who may override
 * a statutory date, changing the day it is due. Nothing shows for a task that follows no rule.
 */
export function TaskDueDatesSection({ taskId, status }: { taskId: string; status: TaskStatus }) {
  const { data, isPending, isError } = useQuery(taskDueDatesQueryOptions(taskId));
  if (isPending) return null;
  if (isError) return <p className="text-sm text-muted-foreground">The statutory due date could not be loaded.</p>;
  if (data.rule === null) return null;
  return <StatutoryDates taskId={taskId} status={status} dates={data} rule={data.rule} />;
}

function StatutoryDates({
  taskId,
  status,
  dates,
  rule,
}: {
  taskId: string;
  status: TaskStatus;
  dates: TaskDueDates;
  rule: NonNullable<TaskDueDates["rule"]>;
}) {
  const { data: user } = useQuery(currentUserQueryOptions());
  const extended = dates.extendedDueOn !== null;
  // The override is on the day the task is due: the extended one once an extension is filed.
  const overrideNote = dates.override ? overrideNotes[dates.override] : undefined;
  const pending = status !== "completed";
  const mayOverride = user ? can(user.role, "dueDates.override") : false;
  const extensionBy = pending && !extended ? dates.extensionBy : null;
  const changeFrom = pending && mayOverride ? (dates.extendedDueOn ?? dates.dueOn) : null;
  return (
    <section aria-label="Statutory due date" className="flex flex-col gap-3">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <Landmark className="size-4 text-muted-foreground" aria-hidden="true" />
        Statutory due date
      </h3>
      <p className="text-sm">
        <span className="font-medium">{rule.name}</span>
        {dates.period && (
          <span className="text-muted-foreground">
            {" "}
            · {formatCivilDate(dates.period.start)} to {formatCivilDate(dates.period.end)}
          </span>
        )}
      </p>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-4">
        {dates.statutoryDueOn && <DateDetail label="Statutory date" date={dates.statutoryDueOn} />}
        {dates.dueOn && (
          <DateDetail
            label={extended ? "Original due date" : "Due date"}
            date={dates.dueOn}
            note={extended ? undefined : overrideNote}
          />
        )}
        {dates.extendedDueOn && <DateDetail label="Extended due date" date={dates.extendedDueOn} note={overrideNote} />}
        {dates.clearByOn && <DateDetail label="Payment clears by" date={dates.clearByOn} />}
        {dates.targetOn && (
          <DateDetail
            label="Internal target"
            date={dates.targetOn}
            note={`${dates.internalTargetDays} business ${dates.internalTargetDays === 1 ? "day" : "days"} before; overdue after it`}
          />
        )}
      </dl>
      {dates.explanation.length > 0 && (
        <details className="rounded-md border bg-muted/40 px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium">Why this date</summary>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-muted-foreground">
            {dates.explanation.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ol>
        </details>
      )}
      {dates.log.length > 0 && (
        <details className="rounded-md border bg-muted/40 px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium">Date changes ({dates.log.length})</summary>
          <ul className="mt-2 space-y-1.5" aria-label="Date changes">
            {dates.log.map((change) => (
              <li key={change.id} className="flex flex-col">
                <span>
                  {dueDateFieldLabels[change.field]}: {change.from ? `${formatCivilDate(change.from)} → ` : ""}
                  {change.to ? formatCivilDate(change.to) : "none"} ({dueDateReasonLabels[change.reason]}
                  <ChangeNote change={change} />)
                </span>
                <span className="text-xs text-muted-foreground">
                  {change.changedBy ? change.changedBy.fullName : "Tendwell"} ·{" "}
                  {new Date(change.changedAt).toLocaleDateString(undefined, { dateStyle: "medium" })} · {change.version}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {(extensionBy || changeFrom) && (
        <div className="flex flex-wrap gap-2">
          {extensionBy && <FileExtension taskId={taskId} extensionBy={extensionBy} />}
          {changeFrom && <ChangeDueDate taskId={taskId} dueOn={changeFrom} />}
        </div>
      )}
    </section>
  );
}

function DateDetail({ label, date, note }: { label: string; date: string; note?: string | undefined }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">
        {formatCivilDate(date)}
        {note && <span className="block text-xs text-muted-foreground">{note}</span>}
      </dd>
    </div>
  );
}

/**
 * What a change's log line says after its reason: the person's reason for a change by hand, the
 * relief's name linked to its announcement, or the system's note.
 */
function ChangeNote({ change }: { change: DueDateChange }) {
  if (!change.note) return null;
  if (change.reason === "DISASTER_RELIEF" && change.sourceUrl?.startsWith("https://")) {
    return (
      <>
        :{" "}
        <a
          href={change.sourceUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {change.note}
        </a>
      </>
    );
  }
  return <>: {change.note}</>;
}

/** "Record extension": asks first, then POSTs; the section shows the new date when it answers. */
function FileExtension({ taskId, extensionBy }: { taskId: string; extensionBy: string }) {
  const [open, setOpen] = useState(false);
  // One key for this task's recording: a resend after a lost answer is answered, not refused.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const fileExtension = useFileExtension(taskId);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Record extension filed ({extensionBy})
      </Button>
      <AlertDialog open={open} onOpenChange={setOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Record the extension?</AlertDialogTitle>
            <AlertDialogDescription>
              Record that {extensionBy} was filed for this task. It will then fall due on the extended date the rule
              gives, and the change is kept in its date changes.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              disabled={fileExtension.isPending}
              onClick={(event) => {
                event.preventDefault();
                // A promise, not mutate's callbacks: the refreshed dates take this button away (the
                // extension is filed), and callbacks of an unmounted component's mutate never run.
                fileExtension.mutateAsync({ idempotencyKey }).then(
                  (answer) => {
                    setOpen(false);
                    toast.success("Extension recorded", {
                      description: answer.extendedDueOn
                        ? `The task is now due on ${formatCivilDate(answer.extendedDueOn)}.`
                        : undefined,
                    });
                  },
                  (error: unknown) => {
                    setOpen(false);
                    toast.error("The extension could not be recorded", {
                      description: errorMessage(error, "Please try again."),
                    });
                  },
                );
              }}
            >
              Record extension
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
