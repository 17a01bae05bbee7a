import { useQuery } from "@tanstack/react-query";
import {
  AlertTriangle,
  ArrowLeft,
  BarChart3,
  Building2,
  CalendarDays,
  CheckCircle2,
  ClipboardList,
  Clock,
  Info,
  Lock,
  type LucideIcon,
  Percent,
  UserX,
} from "lucide-react";
import { Link, useParams, useSearchParams } from "react-router";
import { roleLabels, scopeOf } from "../../../shared/permissions";
import { defaultReportDays, type ReportDays, type UserActivity, userWorkSentence } from "../../../shared/reports";
import type { TaskStatus } from "../../../shared/tasks";
import type { UserSummary } from "../../../shared/users";
import { ClientStatusBadge } from "../../components/client-status-badge";
import { RangeSelect } from "../../components/range-select";
import { PriorityBadge, TaskStatusBadge } from "../../components/task-badges";
import { Badge, roleBadgeVariant } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { Skeleton } from "../../components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { ApiError, errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDateFormat } from "../../lib/firm";
import { initials } from "../../lib/user-display";
import { currentUserQueryOptions } from "../auth/api";
import { userActivityQueryOptions, userQueryOptions } from "./api";
import { completionRateTone, formatDays, formatRate, profileDays, type RateTone, userReportLink } from "./people";

/** S-ERR-27's not-found texts. */
export const userNotFoundTexts = {
  title: "User Not Found",
  description: "The user you're looking for doesn't exist.",
} as const;

/**
 * /users/{id} (the UPROF requirements, docs/design/people-screens.md): the user from GET
 * /api/users/{id}, their figures, audit trail and clients from GET /api/users/{id}/activity. A
 * `user` may open anyone's profile but sees the activity only of their own (S-ROLE-16: the user
 * audit is theirs alone). The figures are the user audit's, over the same ranges (S-EDGE-03); the
 * range is in the URL (`?days=90`), and choosing one is a history entry, as on /reports. The role
 * table says whose activity the viewer may read, so the page does not ask for another's only to be
 * refused.
 */
export function UserProfilePage() {
  const { id = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const days = profileDays(params);
  const { data: me } = useQuery(currentUserQueryOptions());
  const mayReadActivity = me ? scopeOf(me.role, "reports.userAudit") !== "self" || me.id === id : false;
  const user = useQuery(userQueryOptions(id));
  const activity = useQuery({
    ...userActivityQueryOptions(id, days),
    enabled: user.isSuccess && mayReadActivity,
    // Another range of the same user keeps the figures on screen, dimmed, until it arrives.
    placeholderData: (previous) => (previous?.user.id === id ? previous : undefined),
  });
  const changeDays = (next: ReportDays) =>
    setParams((current) => {
      const changed = new URLSearchParams(current);
      if (next === defaultReportDays) changed.delete("days");
      else changed.set("days", String(next));
      return changed;
    });

  return (
    <div className="flex flex-col gap-6">
      <Link
        to="/users"
        className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Users
      </Link>
      {user.isPending ? (
        <p role="status" className="py-16 text-center text-sm text-muted-foreground">
          Loading...
        </p>
      ) : user.isError ? (
        user.error instanceof ApiError && user.error.status === 404 ? (
          <EmptyState
            icon={UserX}
            title={userNotFoundTexts.title}
            description={userNotFoundTexts.description}
            action={
              <Button asChild variant="outline">
                <Link to="/users">Back to Users</Link>
              </Button>
            }
          />
        ) : (
          <LoadFailed what="user" error={user.error} retry={() => void user.refetch()} />
        )
      ) : (
        <Profile
          user={user.data}
          activity={activity}
          days={days}
          onDaysChange={changeDays}
          mayReadActivity={mayReadActivity}
        />
      )}
    </div>
  );
}

type ActivityQuery = {
  data: UserActivity | undefined;
  isPending: boolean;
  isPlaceholderData: boolean;
  error: Error | null;
  refetch: () => unknown;
};

function Profile({
  user,
  activity,
  days,
  onDaysChange,
  mayReadActivity,
}: {
  user: UserSummary;
  activity: ActivityQuery;
  days: ReportDays;
  onDaysChange: (days: ReportDays) => void;
  mayReadActivity: boolean;
}) {
  const format = useDateFormat();
  // The server has the last word: a role changed since sign-in is refused with 403.
  const forbidden = !mayReadActivity || (activity.error instanceof ApiError && activity.error.status === 403);
  const totals = activity.data?.totals;
  return (
    <>
      <Card className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center" data-testid="profile-header">
        <span
          className="flex size-14 shrink-0 items-center justify-center rounded-full bg-primary-subtle text-lg font-semibold text-primary-subtle-foreground"
          aria-hidden="true"
        >
          {initials(user.fullName)}
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <h2 className="truncate text-xl font-semibold tracking-tight" data-testid="profile-name">
            {user.fullName}
          </h2>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm text-muted-foreground">
            <Badge variant={roleBadgeVariant[user.role]} className="capitalize" data-testid="profile-role">
              {roleLabels[user.role]}
            </Badge>
            {user.disabled && <Badge variant="outline">Disabled</Badge>}
            <span className="inline-flex items-center gap-1.5" data-testid="profile-joined">
              <CalendarDays className="size-4" aria-hidden="true" />
              Joined {format(user.createdAt)}
            </span>
          </div>
        </div>
      </Card>

      {forbidden ? (
        <Card className="flex items-start gap-3 p-5" data-testid="activity-forbidden">
          <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm text-muted-foreground">Activity is visible to admins and to {user.fullName} only.</p>
        </Card>
      ) : (
        <Card className="grid grid-cols-1 items-end gap-3 p-4 sm:grid-cols-[12rem_minmax(0,1fr)_auto]">
          <RangeSelect days={days} onChange={onDaysChange} />
          <p
            className="flex items-start gap-2 text-sm text-pretty text-muted-foreground sm:pb-2"
            data-testid="user-work-definition"
          >
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {userWorkSentence(days)}
          </p>
          <Button variant="outline" asChild>
            <Link to={userReportLink(user.id, days)}>
              <BarChart3 aria-hidden="true" />
              Open User Audit
            </Link>
          </Button>
        </Card>
      )}
      {forbidden ? null : activity.error ? (
        <LoadFailed what="activity" error={activity.error} retry={() => void activity.refetch()} />
      ) : (
        <section
          aria-label="Totals"
          aria-busy={activity.isPlaceholderData}
          className="grid grid-cols-2 gap-3 transition-opacity aria-busy:opacity-60 sm:gap-4 lg:grid-cols-4"
        >
          <Stat label="Total Tasks" icon={ClipboardList} value={totals?.total.toLocaleString("en-US")} />
          <Stat label="Completed" icon={CheckCircle2} value={totals?.completed.toLocaleString("en-US")} />
          <Stat
            label="Completion Rate"
            icon={Percent}
            value={totals ? formatRate(totals.completionRate) : undefined}
            tone={totals ? completionRateTone(totals.completionRate) : "none"}
          />
          <Stat
            label="Avg. Completion"
            icon={Clock}
            value={totals ? formatDays(totals.averageCompletionDays) : undefined}
          />
        </section>
      )}

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        {!forbidden && <AuditTrail activity={activity.data} days={days} className="min-w-0 lg:col-span-2" />}
        <Card className={cn("min-w-0", forbidden && "lg:col-span-3")} data-testid="profile-sidebar">
          <CardHeader>
            <CardTitle>User Information</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Username</dt>
              <dd className="truncate font-medium" data-testid="sidebar-username">
                @{user.username}
              </dd>
              <dt className="text-muted-foreground">Role</dt>
              <dd className="font-medium capitalize" data-testid="sidebar-role">
                {roleLabels[user.role]}
              </dd>
              <dt className="text-muted-foreground">Member since</dt>
              <dd className="font-medium" data-testid="sidebar-member-since">
                {format(user.createdAt)}
              </dd>
            </dl>
            {!forbidden && <AssignedClients activity={activity.data} />}
          </CardContent>
        </Card>
      </div>
    </>
  );
}

const toneClasses: Record<RateTone, string> = {
  good: "text-success-subtle-foreground",
  fair: "text-warning-subtle-foreground",
  poor: "text-destructive-subtle-foreground",
  none: "",
};
const toneChips: Record<RateTone, string> = {
  good: "bg-success-subtle text-success-subtle-foreground",
  fair: "bg-warning-subtle text-warning-subtle-foreground",
  poor: "bg-destructive-subtle text-destructive-subtle-foreground",
  none: "bg-primary-subtle text-primary-subtle-foreground",
};

function Stat({
  label,
  icon: Icon,
  value,
  tone = "none",
}: {
  label: string;
  icon: LucideIcon;
  value: string | undefined;
  tone?: RateTone;
}) {
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-5" role="group" aria-label={label} data-testid="profile-stat">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-muted-foreground">{label}</h3>
        <span className={cn("hidden size-8 shrink-0 items-center justify-center rounded-md sm:flex", toneChips[tone])}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </div>
      {value === undefined ? (
        <Skeleton className="h-8 w-16" />
      ) : (
        <p
          className={cn("text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl", toneClasses[tone])}
          data-testid="stat-value"
          data-tone={tone}
        >
          {value}
        </p>
      )}
    </Card>
  );
}

const tabs: { value: "all" | TaskStatus; label: string }[] = [
  { value: "all", label: "All" },
  { value: "completed", label: "Completed" },
  { value: "pending", label: "Pending" },
  { value: "overdue", label: "Overdue" },
];

const emptyTexts = (days: ReportDays): Record<"all" | TaskStatus, string> => ({
  all: `No work to show: nothing signed off in the last ${days} days, and no open task on this user's clients.`,
  completed: `Nothing signed off in the last ${days} days.`,
  pending: "No pending tasks on this user's clients.",
  overdue: "No overdue tasks. Everything is on schedule.",
});

/** S-UPROF-07..08: the audit trail, in tabs with counts, scrolling beyond 24rem (max-h-96). */
function AuditTrail({
  activity,
  days,
  className,
}: {
  activity: UserActivity | undefined;
  days: ReportDays;
  className?: string;
}) {
  const format = useDateFormat();
  const counts = activity
    ? {
        all: activity.totals.total,
        completed: activity.totals.completed,
        pending: activity.totals.pending,
        overdue: activity.totals.overdue,
      }
    : undefined;
  return (
    <Card className={className} data-testid="audit-trail">
      <CardHeader>
        <CardTitle>Audit Trail</CardTitle>
      </CardHeader>
      <CardContent>
        {!activity || !counts ? (
          <div role="status" aria-label="Loading the audit trail" className="flex flex-col gap-2">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : (
          <Tabs defaultValue="all">
            <div>
              {/* The four tabs wrap onto two rows on a phone rather than hiding one off screen. */}
              <TabsList aria-label="Tasks by status" className="h-auto flex-wrap">
                {tabs.map((tab) => (
                  <TabsTrigger key={tab.value} value={tab.value} data-testid={`tab-${tab.value}`}>
                    {tab.label}
                    <span className="rounded-full bg-muted px-1.5 text-xs tabular-nums" data-testid="tab-count">
                      {counts[tab.value].toLocaleString("en-US")}
                    </span>
                  </TabsTrigger>
                ))}
              </TabsList>
            </div>
            {tabs.map((tab) => {
              const rows =
                tab.value === "all" ? activity.tasks : activity.tasks.filter((task) => task.status === tab.value);
              return (
                <TabsContent key={tab.value} value={tab.value}>
                  {rows.length === 0 ? (
                    <p className="rounded-md border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
                      {emptyTexts(days)[tab.value]}
                    </p>
                  ) : (
                    <ul
                      className="max-h-96 divide-y overflow-y-auto rounded-md border"
                      data-testid="audit-list"
                      aria-label={`${tab.label} tasks`}
                      // Scrollable regions take the keyboard's focus (axe: scrollable-region-focusable).
                      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard
                      tabIndex={0}
                    >
                      {rows.map((task) => (
                        <li key={task.id} className="flex flex-col gap-1.5 px-4 py-3" data-testid="audit-row">
                          <div className="flex flex-wrap items-start justify-between gap-2">
                            <div className="flex min-w-0 flex-col">
                              <span className="truncate text-sm font-medium">{task.name}</span>
                              <Link
                                to={`/client/${task.client.id}`}
                                className="w-fit truncate rounded-sm text-xs text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                              >
                                {task.client.name}
                              </Link>
                            </div>
                            <div className="flex flex-wrap items-center gap-1.5">
                              <PriorityBadge priority={task.priority} />
                              <TaskStatusBadge status={task.status} />
                            </div>
                          </div>
                          <p className="text-xs text-muted-foreground">
                            {task.completedAt
                              ? `Completed ${format(task.completedAt)}${task.printedName ? ` · signed by ${task.printedName}` : ""}`
                              : task.dueDate
                                ? `Due ${format(task.dueDate)}`
                                : "No due date"}
                            {` · created ${format(task.createdAt)}`}
                          </p>
                        </li>
                      ))}
                    </ul>
                  )}
                  {counts[tab.value] > rows.length && rows.length > 0 && (
                    <p className="mt-2 text-xs text-muted-foreground" data-testid="audit-limit-note">
                      Showing the newest {rows.length.toLocaleString("en-US")} of{" "}
                      {counts[tab.value].toLocaleString("en-US")} tasks.
                    </p>
                  )}
                </TabsContent>
              );
            })}
          </Tabs>
        )}
      </CardContent>
    </Card>
  );
}

function AssignedClients({ activity }: { activity: UserActivity | undefined }) {
  return (
    <section className="flex flex-col gap-2 border-t pt-4" aria-labelledby="assigned-clients-heading">
      <h3 id="assigned-clients-heading" className="text-sm font-semibold">
        Assigned Clients{activity ? ` (${activity.assignedClients.length})` : ""}
      </h3>
      {!activity ? (
        <Skeleton className="h-10 w-full" />
      ) : activity.assignedClients.length === 0 ? (
        <p className="text-sm text-muted-foreground">No clients assigned.</p>
      ) : (
        <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto" data-testid="assigned-clients">
          {activity.assignedClients.map((client) => (
            <li
              key={client.id}
              className="flex items-center gap-3 rounded-md border px-3 py-2"
              data-testid="assigned-client"
            >
              <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div className="flex min-w-0 flex-1 flex-col">
                <Link
                  to={`/client/${client.id}`}
                  className="truncate rounded-sm text-sm font-medium outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {client.name}
                </Link>
                <span className="truncate text-xs text-muted-foreground">{client.industry ?? "No industry"}</span>
              </div>
              <ClientStatusBadge status={client.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LoadFailed({ what, error, retry }: { what: string; error: Error; retry: () => void }) {
  return (
    <Card role="alert" className="flex flex-col items-start gap-3 p-6">
      <div className="flex items-center gap-2 font-medium">
        <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
        The {what} could not be loaded
      </div>
      <p className="text-sm text-muted-foreground">{errorMessage(error, "Please try again.")}</p>
      <Button variant="outline" size="sm" onClick={retry}>
        Try again
      </Button>
    </Card>
  );
}
