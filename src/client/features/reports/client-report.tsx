import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Building2, CheckCircle2, ClipboardList, Clock, History, Timer } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { formatCivilDate } from "../../../shared/dates";
import { dueDateFieldLabels, dueDateReasonLabels } from "../../../shared/due-dates";
import type { ClientReport, ClientReportTask, ReportDays, ReportDueDateChange } from "../../../shared/reports";
import type { TaskStatus } from "../../../shared/tasks";
import { RangeSelect } from "../../components/range-select";
import { Badge, type BadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { clientPickerLimit, clientPickerQueryOptions } from "../clients/api";
import { clientReportQueryOptions, clientReportUrl } from "./api";
import { EntityPicker, type PickerItem } from "./entity-picker";
import { LazyClientCharts } from "./lazy-charts";
import { DownloadCsvButton, ReportError, ReportToolbar } from "./report-controls";
import { formatCount, formatDays, formatRange, formatRate, priorityLabels, rateTone } from "./report-format";
import { ReportStatCard, ReportStatsSkeleton } from "./report-stat-card";

/** Typing pauses this long before the API is asked, as in the header's search. */
const searchDebounceMs = 250;
/** History rows drawn at first; the rest are one click away, so a busy year does not flood the DOM. */
const historyPageSize = 25;

/** The Client Audit tab (S-REP-02, S-REP-05..13): a client, a range, its figures, charts and task history. */
export function ClientReportTab({
  clientId,
  days,
  onClientChange,
  onDaysChange,
}: {
  clientId: string | null;
  days: ReportDays;
  onClientChange: (clientId: string) => void;
  onDaysChange: (days: ReportDays) => void;
}) {
  const [query, setQuery] = useState("");
  const [picked, setPicked] = useState<PickerItem | null>(null);
  const search = useDebouncedValue(query.trim(), searchDebounceMs);
  const clients = useQuery(clientPickerQueryOptions(search));
  const report = useQuery({
    ...clientReportQueryOptions(clientId ?? "", days),
    enabled: clientId !== null,
    // A new range of the same client keeps the figures on screen until the new ones arrive.
    placeholderData: (previous) => (previous?.client.id === clientId ? previous : undefined),
  });

  const reportClient = report.data?.client.id === clientId ? report.data?.client : undefined;
  const selectedLabel = reportClient?.name ?? (picked?.id === clientId ? picked.label : null);

  return (
    <div className="flex flex-col gap-4">
      <ReportToolbar>
        <EntityPicker
          label="Client"
          placeholder="Choose a client"
          searchLabel="Find a client"
          icon={Building2}
          selectedId={clientId}
          selectedLabel={selectedLabel ?? (clientId && report.isPending ? "Loading…" : null)}
          items={(clients.data ?? []).map((client) => ({ id: client.id, label: client.name, detail: client.industry }))}
          query={query}
          onQueryChange={setQuery}
          onSelect={(item) => {
            setPicked(item);
            onClientChange(item.id);
          }}
          status={{
            pending: clients.isPending,
            error: clients.isError ? errorMessage(clients.error, "The clients could not be loaded.") : null,
          }}
          emptyText={search ? `No clients match “${search}”.` : "No clients yet."}
          hint={
            (clients.data?.length ?? 0) >= clientPickerLimit
              ? `Showing the first ${clientPickerLimit}: type to find any client.`
              : undefined
          }
        />
        <RangeSelect days={days} onChange={onDaysChange} />
        {clientId && (
          <div className="flex sm:col-span-2 lg:col-span-1 lg:justify-end">
            <DownloadCsvButton href={clientReportUrl(clientId, days, "csv")} />
          </div>
        )}
      </ReportToolbar>

      {clientId === null ? (
        <EmptyState
          icon={Building2}
          title="Select a Client"
          description="Choose a client above to see their tasks, completion rate and history for the date range."
        />
      ) : report.isPending ? (
        <ReportSkeleton />
      ) : report.isError ? (
        <ReportError error={report.error} onRetry={() => report.refetch()} />
      ) : (
        <ClientReportView
          report={report.data}
          updating={report.isPlaceholderData}
          onShowYear={days < 365 ? () => onDaysChange(365) : undefined}
        />
      )}
    </div>
  );
}

function ClientReportView({
  report,
  updating,
  onShowYear,
}: {
  report: ClientReport;
  updating: boolean;
  onShowYear?: () => void;
}) {
  const tone = rateTone(report.completionRate);
  return (
    <section
      aria-labelledby="client-report-title"
      aria-busy={updating}
      className="flex flex-col gap-4 transition-opacity aria-busy:opacity-60"
      data-testid="client-report"
    >
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h2 id="client-report-title" className="truncate text-lg font-semibold tracking-tight">
            <Link
              to={`/client/${report.client.id}`}
              className="rounded-sm hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {report.client.name}
            </Link>
          </h2>
          <Badge
            variant={
              report.client.status === "active"
                ? "success"
                : report.client.status === "prospect"
                  ? "outline"
                  : "secondary"
            }
            className="capitalize"
          >
            {report.client.status}
          </Badge>
          {report.client.industry && <span className="text-sm text-muted-foreground">{report.client.industry}</span>}
        </div>
        <p className="text-sm text-muted-foreground" data-testid="report-range">
          {formatRange(report.range)}
        </p>
      </div>

      {report.totalTasks === 0 ? (
        <EmptyState
          icon={ClipboardList}
          title="No tasks found for the selected date range"
          description="No task of this client was created or completed in the range. A longer range may include earlier work."
          action={
            onShowYear && (
              <Button variant="outline" onClick={onShowYear}>
                Show the last 365 days
              </Button>
            )
          }
        />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
            <ReportStatCard
              label="Total Tasks"
              value={formatCount(report.totalTasks)}
              detail="Created or completed in the range"
              icon={ClipboardList}
              tone="primary"
            />
            <ReportStatCard
              label="Completion Rate"
              value={formatRate(report.completionRate)}
              valueTone={tone}
              detail={`${formatCount(report.completedTasks)} of ${formatCount(report.totalTasks)} completed · ${tone === "good" ? "on target (80%+)" : "below the 80% target"}`}
              icon={CheckCircle2}
              tone="success"
            />
            <ReportStatCard
              label="Overdue Tasks"
              value={formatCount(report.overdueTasks)}
              detail={report.overdueTasks === 0 ? "Nothing past due" : "Past due and not completed"}
              icon={AlertTriangle}
              tone="destructive"
            />
            <ReportStatCard
              label="Avg. Completion"
              value={formatDays(report.averageCompletionDays)}
              detail="From creation to completion"
              icon={Timer}
              tone="warning"
            />
          </div>
          <LazyClientCharts report={report} />
          <TaskHistory report={report} />
        </>
      )}
    </section>
  );
}

const statusLook: Record<TaskStatus, { label: string; variant: BadgeVariant; icon: typeof Clock }> = {
  completed: { label: "Completed", variant: "success", icon: CheckCircle2 },
  pending: { label: "Pending", variant: "warning", icon: Clock },
  overdue: { label: "Overdue", variant: "destructive", icon: AlertTriangle },
};

function TaskHistory({ report }: { report: ClientReport }) {
  const [showAll, setShowAll] = useState(false);
  const date = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: report.range.timeZone });
  const when = (iso: string | null) => (iso ? date.format(new Date(iso)) : "—");
  const rows = showAll ? report.history : report.history.slice(0, historyPageSize);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-4 text-muted-foreground" aria-hidden="true" />
          Task History
        </CardTitle>
        <CardDescription>
          {formatCount(report.history.length)} {report.history.length === 1 ? "task" : "tasks"} created or completed in
          the range, latest activity first
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0 pb-2">
        <table className="w-full table-fixed text-sm" aria-label="Task history">
          <thead className="border-y bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">
                Task
              </th>
              <th scope="col" className="hidden w-30 px-3 py-2 font-medium lg:table-cell">
                Created
              </th>
              <th scope="col" className="hidden w-30 px-3 py-2 font-medium lg:table-cell">
                Due
              </th>
              <th scope="col" className="hidden w-30 px-3 py-2 font-medium sm:table-cell">
                Completed
              </th>
              <th scope="col" className="hidden w-40 px-3 py-2 font-medium xl:table-cell">
                Signed by
              </th>
              <th scope="col" className="w-36 px-5 py-2 text-right font-medium">
                Status
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {rows.map((task) => (
              <HistoryRow key={task.id} task={task} when={when} />
            ))}
          </tbody>
        </table>
        {report.history.length > historyPageSize && !showAll && (
          <div className="border-t px-5 pt-3 pb-2">
            <Button variant="ghost" size="sm" onClick={() => setShowAll(true)}>
              Show all {formatCount(report.history.length)} tasks
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function HistoryRow({ task, when }: { task: ClientReportTask; when: (iso: string | null) => string }) {
  const look = statusLook[task.status];
  const signer = task.printedName ?? task.completedBy?.fullName ?? null;
  return (
    <tr data-testid="history-row" data-task-id={task.id} className="align-top">
      <td className="px-5 py-3">
        <div className="flex min-w-0 flex-col gap-1">
          <span className="line-clamp-2 font-medium break-words" data-testid="history-task">
            {task.name}
          </span>
          <span className="text-xs text-muted-foreground">
            {priorityLabels[task.priority]} priority
            <span className="lg:hidden">{task.dueDate ? ` · Due ${when(task.dueDate)}` : " · No due date"}</span>
            <span className="sm:hidden">{task.completedAt && ` · Completed ${when(task.completedAt)}`}</span>
          </span>
          {signer && <span className="truncate text-xs text-muted-foreground xl:hidden">Signed by {signer}</span>}
          {task.dueDateChanges.length > 0 && <DueDateChanges changes={task.dueDateChanges} />}
        </div>
      </td>
      <td className="hidden px-3 py-3 whitespace-nowrap tabular-nums lg:table-cell">{when(task.createdAt)}</td>
      <td className="hidden px-3 py-3 whitespace-nowrap tabular-nums lg:table-cell">{when(task.dueDate)}</td>
      <td className="hidden px-3 py-3 whitespace-nowrap tabular-nums sm:table-cell">{when(task.completedAt)}</td>
      <td className="hidden truncate px-3 py-3 xl:table-cell">{signer ?? "—"}</td>
      <td className="px-5 py-3 text-right">
        <Badge variant={look.variant} data-testid="history-status" className="ml-auto">
          <look.icon aria-hidden="true" />
          {look.label}
        </Badge>
      </td>
    </tr>
  );
}

/** A statutory task's date changes (decision 0053), folded: the audit shows why its dates are what they are. */
function DueDateChanges({ changes }: { changes: ReportDueDateChange[] }) {
  return (
    <details className="text-xs text-muted-foreground" data-testid="history-due-date-changes">
      <summary className="cursor-pointer select-none hover:text-foreground">Date changes ({changes.length})</summary>
      <ol className="mt-1 flex flex-col gap-1 border-l pl-3">
        {changes.map((change) => (
          <li key={`${change.changedAt}-${change.field}-${change.reason}`} className="break-words">
            {dueDateFieldLabels[change.field]}: {change.from ? `${formatCivilDate(change.from)} → ` : ""}
            {change.to ? formatCivilDate(change.to) : "none"} ({dueDateReasonLabels[change.reason]}
            {change.note ? `: ${change.note}` : ""}) · {change.changedBy ?? "Tendwell"}
          </li>
        ))}
      </ol>
    </details>
  );
}

export function ReportSkeleton() {
  return (
    <div className="flex flex-col gap-4" role="status" aria-label="Loading the report" data-testid="report-skeleton">
      <div className="flex items-center justify-between">
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-40" />
      </div>
      <ReportStatsSkeleton />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Skeleton className="h-72" />
        <Skeleton className="h-72" />
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}
