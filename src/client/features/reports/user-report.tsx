import { useQuery } from "@tanstack/react-query";
import {
  AlertTriangle,
  Building2,
  CalendarCheck,
  CheckCircle2,
  CircleDashed,
  Clock,
  Info,
  ListChecks,
  type LucideIcon,
  Mail,
  ShieldCheck,
  Timer,
  UserRound,
  Users,
} from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { roleLabels } from "../../../shared/permissions";
import {
  type Completion,
  defaultReportDays,
  type ReportDays,
  type UserReport,
  userWorkSentence,
} from "../../../shared/reports";
import { RangeSelect } from "../../components/range-select";
import { Badge, roleBadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDateFormat } from "../../lib/firm";
import { initials } from "../../lib/user-display";
import { currentUserQueryOptions } from "../auth/api";
import { usersQueryOptions } from "../users/api";
import { userReportQueryOptions, userReportUrl } from "./api";
import { ReportSkeleton } from "./client-report";
import { EntityPicker } from "./entity-picker";
import { LazyUserCharts } from "./lazy-charts";
import { DownloadCsvButton, ReportError, ReportToolbar } from "./report-controls";
import {
  formatCount,
  formatDays,
  formatRange,
  formatRate,
  prioritiesDown,
  priorityLabels,
  rateTone,
} from "./report-format";
import { ReportStatCard } from "./report-stat-card";

/** Clients listed in the breakdown before "Show all". */
const clientRowsShown = 8;

/**
 * The User Audit tab (S-REP-14..21). A `user` may audit only themself (S-ROLE-16), so their picker offers
 * them alone and the firm's user list is not even asked for; the API refuses anyone else anyway.
 */
export function UserReportTab({
  userId,
  days,
  onUserChange,
  onDaysChange,
}: {
  userId: string | null;
  days: ReportDays;
  onUserChange: (userId: string) => void;
  onDaysChange: (days: ReportDays) => void;
}) {
  const [query, setQuery] = useState("");
  const { data: me } = useQuery(currentUserQueryOptions());
  const onlySelf = me?.role === "user";
  const users = useQuery({ ...usersQueryOptions(), enabled: me !== undefined && !onlySelf });
  const report = useQuery({
    ...userReportQueryOptions(userId ?? "", days),
    enabled: userId !== null,
    placeholderData: (previous) => (previous?.user.id === userId ? previous : undefined),
  });

  const everyone = onlySelf && me ? [{ ...me, disabled: false }] : (users.data ?? []);
  const needle = query.trim().toLowerCase();
  const items = everyone
    .filter((user) => !needle || `${user.fullName} ${user.username}`.toLowerCase().includes(needle))
    .map((user) => ({
      id: user.id,
      label: user.fullName,
      detail: `@${user.username} · ${roleLabels[user.role]}${user.disabled ? " · disabled" : ""}`,
    }));
  const selected = everyone.find((user) => user.id === userId);
  const reportUser = report.data?.user.id === userId ? report.data?.user : undefined;
  const selectedLabel = reportUser?.fullName ?? selected?.fullName ?? null;

  return (
    <div className="flex flex-col gap-4">
      <ReportToolbar>
        <EntityPicker
          label="User"
          placeholder="Choose a user"
          searchLabel="Find a user"
          icon={UserRound}
          selectedId={userId}
          selectedLabel={selectedLabel ?? (userId && report.isPending ? "Loading…" : null)}
          items={items}
          query={query}
          onQueryChange={setQuery}
          onSelect={(item) => onUserChange(item.id)}
          status={{
            pending: !onlySelf && users.isPending,
            error: users.isError ? errorMessage(users.error, "The users could not be loaded.") : null,
          }}
          emptyText={needle ? `No users match “${query.trim()}”.` : "No users yet."}
        />
        <RangeSelect days={days} onChange={onDaysChange} />
        {userId && (
          <div className="flex sm:col-span-2 lg:col-span-1 lg:justify-end">
            <DownloadCsvButton href={userReportUrl(userId, days, "csv")} />
          </div>
        )}
      </ReportToolbar>

      {userId === null ? (
        <EmptyState
          icon={Users}
          title="Select a User"
          description={
            onlySelf
              ? "Choose yourself above to see the work you completed in the date range."
              : "Choose a team member above to see the work they completed, on time and late, in the date range."
          }
        />
      ) : report.isPending ? (
        <ReportSkeleton />
      ) : report.isError ? (
        <ReportError error={report.error} onRetry={() => report.refetch()} />
      ) : (
        <UserReportView
          report={report.data}
          updating={report.isPlaceholderData}
          onShowYear={days < 365 ? () => onDaysChange(365) : undefined}
        />
      )}
    </div>
  );
}

function UserReportView({
  report,
  updating,
  onShowYear,
}: {
  report: UserReport;
  updating: boolean;
  onShowYear?: () => void;
}) {
  const tone = rateTone(report.onTimeRate);
  const empty = report.tasksCompleted === 0;
  return (
    <section
      aria-labelledby="user-report-title"
      aria-busy={updating}
      className="flex flex-col gap-4 transition-opacity aria-busy:opacity-60"
      data-testid="user-report"
    >
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="user-report-title" className="truncate text-lg font-semibold tracking-tight">
          {report.user.fullName}
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="report-range">
          {formatRange(report.range)}
        </p>
      </div>
      <p
        className="-mt-2 flex items-start gap-2 text-sm text-pretty text-muted-foreground"
        data-testid="user-work-definition"
      >
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {userWorkSentence(report.range.days)}
      </p>

      {!empty && (
        <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
          <ReportStatCard
            label="Tasks Completed"
            value={formatCount(report.tasksCompleted)}
            detail="Signed off in the range"
            icon={CheckCircle2}
            tone="success"
          />
          <ReportStatCard
            label="On-time Rate"
            value={formatRate(report.onTimeRate)}
            valueTone={tone}
            detail={
              tone === "none"
                ? "No completed task had a due date"
                : `By the due date · ${tone === "good" ? "on target (80%+)" : "below the 80% target"}`
            }
            icon={CalendarCheck}
            tone="primary"
          />
          <ReportStatCard
            label="Clients Served"
            value={formatCount(report.clientsServed)}
            detail={
              report.user.assignedClients > 0
                ? `Of ${formatCount(report.user.assignedClients)} assigned`
                : "With work signed off in the range"
            }
            icon={Building2}
            tone="warning"
          />
          <ReportStatCard
            label="Avg. Completion"
            value={formatDays(report.averageCompletionDays)}
            detail="From creation to completion"
            icon={Timer}
            tone="destructive"
          />
        </div>
      )}

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-4 lg:col-span-2">
          {empty ? (
            <EmptyState
              icon={ListChecks}
              title="No completed tasks found for the selected date range"
              description="This user signed off no task in the range. A longer range may include earlier work."
              action={
                onShowYear && (
                  <Button variant="outline" onClick={onShowYear}>
                    Show the last 365 days
                  </Button>
                )
              }
              className="h-full"
            />
          ) : (
            <PerformanceBreakdown report={report} />
          )}
        </div>
        <UserInformation report={report} />
      </div>

      {!empty && (
        <>
          <LazyUserCharts report={report} />
          <RecentCompletions report={report} />
        </>
      )}
    </section>
  );
}

function RateText({ rate }: { rate: number | null }) {
  const tone = rateTone(rate);
  return (
    <span
      className={cn(
        "tabular-nums",
        tone === "good" && "text-success-subtle-foreground",
        tone === "bad" && "text-destructive",
        tone === "none" && "text-muted-foreground",
      )}
      data-tone={tone}
    >
      {formatRate(rate)}
    </span>
  );
}

function PerformanceBreakdown({ report }: { report: UserReport }) {
  const [showAll, setShowAll] = useState(false);
  const byClient = [...report.byClient].sort(
    (a, b) => b.completed - a.completed || a.client.name.localeCompare(b.client.name),
  );
  const clients = showAll ? byClient : byClient.slice(0, clientRowsShown);
  const priorities = prioritiesDown.map(
    (priority) =>
      report.byPriority.find((row) => row.priority === priority) ?? { priority, completed: 0, onTimeRate: null },
  );
  const cell = "px-3 py-2";

  return (
    <Card className="h-full" data-testid="performance-breakdown">
      <CardHeader>
        <CardTitle>Performance Breakdown</CardTitle>
        <CardDescription>Completed tasks and the share done by their due date</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 items-start gap-6 md:grid-cols-5">
        <table className="w-full text-sm md:col-span-2" aria-label="By priority">
          <thead className="text-left text-xs text-muted-foreground">
            <tr className="border-b">
              <th scope="col" className={cn(cell, "pl-0 font-medium")}>
                By priority
              </th>
              <th scope="col" className={cn(cell, "text-right font-medium")}>
                Completed
              </th>
              <th scope="col" className={cn(cell, "pr-0 text-right font-medium")}>
                On time
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {priorities.map((row) => (
              <tr key={row.priority} data-testid="priority-row">
                <th scope="row" className={cn(cell, "pl-0 text-left font-normal")}>
                  {priorityLabels[row.priority]}
                </th>
                <td className={cn(cell, "text-right tabular-nums")}>{formatCount(row.completed)}</td>
                <td className={cn(cell, "pr-0 text-right")}>
                  <RateText rate={row.onTimeRate} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex min-w-0 flex-col gap-2 md:col-span-3">
          <table className="w-full table-fixed text-sm" aria-label="By client">
            <thead className="text-left text-xs text-muted-foreground">
              <tr className="border-b">
                <th scope="col" className={cn(cell, "pl-0 font-medium")}>
                  By client
                </th>
                <th scope="col" className={cn(cell, "w-22 text-right font-medium")}>
                  Completed
                </th>
                <th scope="col" className={cn(cell, "w-16 pr-0 text-right font-medium")}>
                  On time
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {clients.map((row) => (
                <tr key={row.client.id} data-testid="client-row">
                  <th scope="row" className={cn(cell, "truncate pl-0 text-left font-normal")}>
                    <Link
                      to={`/client/${row.client.id}`}
                      className="text-primary hover:underline"
                      title={row.client.name}
                    >
                      {row.client.name}
                    </Link>
                  </th>
                  <td className={cn(cell, "text-right tabular-nums")}>{formatCount(row.completed)}</td>
                  <td className={cn(cell, "pr-0 text-right")}>
                    <RateText rate={row.onTimeRate} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {/* The answer lists the top clients only (userReportClientsListed); the count says how many served. */}
          {report.clientsServed > byClient.length && (
            <p className="text-xs text-muted-foreground" data-testid="clients-listed">
              Top {formatCount(byClient.length)} of {formatCount(report.clientsServed)} clients served
            </p>
          )}
          {byClient.length > clientRowsShown && !showAll && (
            <Button variant="ghost" size="sm" className="self-start" onClick={() => setShowAll(true)}>
              {report.clientsServed > byClient.length
                ? `Show the top ${formatCount(byClient.length)} clients`
                : `Show all ${formatCount(byClient.length)} clients`}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function UserInformation({ report }: { report: UserReport }) {
  const { user } = report;
  const since = useDateFormat()(user.createdAt);
  const rows: { icon: LucideIcon; label: string; value: string }[] = [
    { icon: UserRound, label: "Username", value: `@${user.username}` },
    { icon: Mail, label: "Email", value: user.email ?? "Not provided" },
    { icon: Building2, label: "Assigned clients", value: formatCount(user.assignedClients) },
    { icon: CircleDashed, label: "Pending tasks", value: formatCount(report.pendingTasks) },
    { icon: AlertTriangle, label: "Overdue tasks", value: formatCount(report.overdueTasks) },
    { icon: CalendarCheck, label: "Member since", value: since },
  ];
  return (
    <Card data-testid="user-information">
      <CardHeader>
        <CardTitle>User Information</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex items-center gap-3">
          <span
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-subtle text-sm font-semibold text-primary-subtle-foreground"
            aria-hidden="true"
          >
            {initials(user.fullName)}
          </span>
          <div className="flex min-w-0 flex-col gap-1">
            <span className="truncate font-medium">{user.fullName}</span>
            <div className="flex flex-wrap gap-1.5">
              <Badge variant={roleBadgeVariant[user.role]} className="capitalize">
                <ShieldCheck aria-hidden="true" />
                {roleLabels[user.role]}
              </Badge>
              <Badge variant={user.disabled ? "secondary" : "success"}>{user.disabled ? "Disabled" : "Active"}</Badge>
            </div>
          </div>
        </div>
        <dl className="flex flex-col divide-y text-sm">
          {rows.map((row) => (
            <div key={row.label} className="flex items-center gap-3 py-2 first:pt-0 last:pb-0">
              <row.icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <dt className="text-muted-foreground">{row.label}</dt>
              <dd className="ml-auto min-w-0 truncate text-right font-medium" title={row.value}>
                {row.value}
              </dd>
            </div>
          ))}
        </dl>
        <Button variant="outline" size="sm" className="self-start" asChild>
          <Link to={`/users/${user.id}${report.range.days === defaultReportDays ? "" : `?days=${report.range.days}`}`}>
            <UserRound aria-hidden="true" />
            View profile
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

const onTimeLook = {
  true: { label: "On time", variant: "success", icon: CheckCircle2 },
  false: { label: "Late", variant: "destructive", icon: AlertTriangle },
  null: { label: "No due date", variant: "outline", icon: Clock },
} as const;

function RecentCompletions({ report }: { report: UserReport }) {
  const date = new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: report.range.timeZone,
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Completions</CardTitle>
        <CardDescription>The 10 most recent sign-offs in the range, newest first</CardDescription>
      </CardHeader>
      <CardContent className="pt-2">
        <ol className="flex flex-col divide-y" aria-label="Recent completions">
          {report.recentCompletions.map((completion) => (
            <CompletionRow key={completion.taskId} completion={completion} when={(iso) => date.format(new Date(iso))} />
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function CompletionRow({ completion, when }: { completion: Completion; when: (iso: string) => string }) {
  const look = onTimeLook[String(completion.onTime) as keyof typeof onTimeLook];
  return (
    <li
      className="flex flex-col gap-1.5 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:gap-4"
      data-testid="completion-row"
      data-task-id={completion.taskId}
    >
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="truncate font-medium" data-testid="completion-task">
          {completion.name}
        </span>
        <span className="truncate text-xs text-muted-foreground">
          {/* Underlined: it sits in a line of text, and its colour alone does not set it apart (axe link-in-text-block). */}
          <Link
            to={`/client/${completion.client.id}`}
            className="rounded-sm text-primary underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {completion.client.name}
          </Link>
          {` · ${priorityLabels[completion.priority]} priority`}
        </span>
      </div>
      <div className="flex items-center gap-3 sm:justify-end">
        <time dateTime={completion.completedAt} className="text-xs tabular-nums text-muted-foreground">
          {when(completion.completedAt)}
        </time>
        <Badge variant={look.variant} data-testid="completion-on-time">
          <look.icon aria-hidden="true" />
          {look.label}
        </Badge>
      </div>
    </li>
  );
}
