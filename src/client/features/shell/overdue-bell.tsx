import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Bell, CheckCircle2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { calendarDaysBetween } from "../../../shared/dates";
import { InternalTargetNote } from "../../components/internal-target-note";
import { Button } from "../../components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover";
import { errorMessage } from "../../lib/api";
import { firmQueryOptions } from "../../lib/firm";
import { bellListed, overdueTasksQueryOptions } from "../tasks/api";

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "Due yesterday", "Due 3 days ago": counted in the days of the firm's calendar, where due days end. */
function dueText(dueDate: string | null, timeZone: string): string {
  if (!dueDate) return "";
  return `Due ${relative.format(-calendarDaysBetween(timeZone, dueDate, new Date()), "day")}`;
}

/** S-SHELL-11: a bell with a red count of overdue tasks; the popover links to their clients. */
export function OverdueBell() {
  const [open, setOpen] = useState(false);
  const overdue = useQuery(overdueTasksQueryOptions());
  // Until the firm is loaded, the browser's zone stands in (as for every date the app shows).
  const timeZone = useQuery(firmQueryOptions()).data?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const count = overdue.data?.total ?? 0;

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={`Overdue tasks: ${count}`}>
          <Bell className="size-5 text-muted-foreground" aria-hidden="true" />
          {count > 0 && (
            <span
              data-testid="overdue-count"
              className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] font-semibold leading-none text-destructive-foreground ring-2 ring-card"
            >
              {count > 99 ? "99+" : count}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-0" aria-label="Overdue tasks">
        <div className="flex items-center justify-between border-b px-4 py-3">
          <h2 className="text-sm font-semibold">Overdue tasks</h2>
          {count > 0 && <span className="text-xs font-medium text-destructive">{count} overdue</span>}
        </div>
        {overdue.isPending ? (
          <p className="px-4 py-6 text-center text-sm text-muted-foreground">Loading…</p>
        ) : overdue.isError ? (
          <p className="px-4 py-6 text-center text-sm text-destructive">
            {errorMessage(overdue.error, "Overdue tasks could not be loaded.")}
          </p>
        ) : count === 0 ? (
          <div className="flex flex-col items-center gap-2 px-4 py-8 text-center">
            <CheckCircle2 className="size-6 text-success" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">No overdue tasks. Everything is on schedule.</p>
          </div>
        ) : (
          <>
            <ul aria-label="Overdue tasks" className="max-h-80 overflow-y-auto p-1">
              {overdue.data.tasks.map((task) => (
                <li key={task.id}>
                  <Link
                    to={`/client/${task.clientId}`}
                    onClick={() => setOpen(false)}
                    className="flex gap-3 rounded-md px-3 py-2.5 outline-none hover:bg-accent focus-visible:bg-accent"
                  >
                    <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                    <span className="flex min-w-0 flex-col gap-0.5">
                      <span className="truncate text-sm font-medium">{task.name}</span>
                      <span className="truncate text-xs text-muted-foreground">
                        {task.clientName} · {dueText(task.dueDate, timeZone)}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
            <InternalTargetNote className="border-t px-4 py-2" />
            <div className="border-t p-1">
              <Link
                to="/tasks"
                onClick={() => setOpen(false)}
                className="block rounded-md px-3 py-2 text-center text-sm font-medium text-primary outline-none hover:bg-accent focus-visible:bg-accent"
              >
                {count > bellListed ? `View all ${count} in Task Audit` : "Open Task Audit"}
              </Link>
            </div>
          </>
        )}
      </PopoverContent>
    </Popover>
  );
}
