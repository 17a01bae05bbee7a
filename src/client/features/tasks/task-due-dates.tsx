import { useQuery } from "@tanstack/react-query";
import { Landmark } from "lucide-react";
import { useState } from "react";
import type { DueDateChange, TaskDueDates } from "../../../shared/due-dates";
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
import { taskDueDatesQueryOptions, useFileExtension } from "./api";

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "2027-04-15" as "Apr 15, 2027", as the app writes dates: a statutory date is a day of the
 * calendar, shown with no time zone.
 */
export function formatCivilDate(date: string): string {
  const [year, month, day] = date.split("-");
  return `${monthNames[Number(month) - 1] ?? ""} ${Number(day)}, ${year}`;
}

const fieldLabels: Record<DueDateChange["field"], string> = {
  statutory: "Statutory date",
  due: "Due date",
  extended: "Extended due date",
  clear_by: "Payment clears by",
};

const reasonLabels: Record<DueDateChange["reason"], string> = {
  RULE: "set by the rule",
  EXTENSION: "extension filed",
  DISASTER_RELIEF: "disaster relief",
  CALENDAR_VERSION: "holiday calendar updated",
  MANUAL: "changed by hand",
};

/**
 * A task's statutory due date (decision 0053), below its details: the rule and period, the
 * statutory, due, clear-by and extended dates, why they are what they are, the due-date log, and
 * for a pending task whose rule has one, recording an extension filed. Nothing shows for a task
 * that follows no rule.
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
  const extended = dates.extendedDueOn !== null;
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
        {dates.dueOn && <DateDetail label={extended ? "Original due date" : "Due date"} date={dates.dueOn} />}
        {dates.extendedDueOn && <DateDetail label="Extended due date" date={dates.extendedDueOn} />}
        {dates.clearByOn && <DateDetail label="Payment clears by" date={dates.clearByOn} />}
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
                  {fieldLabels[change.field]}: {change.from ? `${formatCivilDate(change.from)} → ` : ""}
                  {change.to ? formatCivilDate(change.to) : "none"} ({reasonLabels[change.reason]}
                  {change.note ? `; ${change.note}` : ""})
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
      {status !== "completed" && dates.extensionBy && !extended && (
        <FileExtension taskId={taskId} extensionBy={dates.extensionBy} />
      )}
    </section>
  );
}

function DateDetail({ label, date }: { label: string; date: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{formatCivilDate(date)}</dd>
    </div>
  );
}

/** "Record extension": asks first, then POSTs; the section shows the new date when it answers. */
function FileExtension({ taskId, extensionBy }: { taskId: string; extensionBy: string }) {
  const [open, setOpen] = useState(false);
  // One key for this task's recording: a resend after a lost answer is answered, not refused.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const fileExtension = useFileExtension(taskId);
  return (
    <>
      <Button variant="outline" size="sm" className="self-start" onClick={() => setOpen(true)}>
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
                fileExtension.mutate(
                  { idempotencyKey },
                  {
                    onSuccess: (answer) => {
                      setOpen(false);
                      toast.success("Extension recorded", {
                        description: answer.extendedDueOn
                          ? `The task is now due on ${formatCivilDate(answer.extendedDueOn)}.`
                          : undefined,
                      });
                    },
                    onError: (error) => {
                      setOpen(false);
                      toast.error("The extension could not be recorded", {
                        description: errorMessage(error, "Please try again."),
                      });
                    },
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
