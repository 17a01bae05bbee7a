import { useQuery } from "@tanstack/react-query";
import {
  AlertTriangle,
  BarChart3,
  Building2,
  CheckCircle2,
  ChevronRight,
  CircleSlash,
  ClipboardCheck,
  ClipboardList,
  Clock,
  LayoutTemplate,
  type LucideIcon,
  Settings,
  UserCog,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import type { Dashboard } from "../../../shared/dashboard";
import { type Action, can } from "../../../shared/permissions";
import { InternalTargetNote } from "../../components/internal-target-note";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { PageHeader } from "../../components/ui/page-header";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { currentUserQueryOptions } from "../auth/api";
import { dashboardQueryOptions } from "./api";
import { StatCard, StatCardSkeleton } from "./stat-card";

type QuickAction = {
  label: string;
  to: string;
  icon: LucideIcon;
  count?: (dashboard: Dashboard) => number;
  /** Shown only to roles the permission table allows this (a user never sees what is refused). */
  requires?: Action;
};

/** The quick actions of S-DASH-08..13, in their order. */
const quickActions: QuickAction[] = [
  { label: "View Clients", to: "/clients", icon: Building2, count: (d) => d.clients.total, requires: "clients.read" },
  { label: "Manage Tasks", to: "/tasks", icon: ClipboardList, count: (d) => d.tasks.total, requires: "clients.read" },
  { label: "View Reports", to: "/reports", icon: BarChart3, requires: "reports.clientAudit" },
  { label: "Settings", to: "/settings", icon: Settings },
  { label: "Manage Users", to: "/users", icon: UserCog, requires: "users.read" },
  { label: "Templates", to: "/tasks", icon: LayoutTemplate, requires: "templates.read" },
];

const subtitle = "Overview of your client relationships and task management";

export function DashboardPage() {
  const dashboard = useQuery(dashboardQueryOptions());
  const { data: user } = useQuery(currentUserQueryOptions());

  return (
    <div className="flex flex-col gap-6">
      <PageHeader description={subtitle} />
      {dashboard.isPending ? (
        <DashboardSkeleton />
      ) : dashboard.isError ? (
        <Card role="alert" className="flex flex-col items-start gap-3 p-6">
          <div className="flex items-center gap-2 font-medium">
            <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
            The dashboard could not be loaded
          </div>
          <p className="text-sm text-muted-foreground">{errorMessage(dashboard.error, "Please try again.")}</p>
          <Button variant="outline" size="sm" onClick={() => dashboard.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <DashboardContent
          data={dashboard.data}
          actions={quickActions.filter((action) => !action.requires || (user && can(user.role, action.requires)))}
        />
      )}
    </div>
  );
}

function DashboardContent({ data, actions }: { data: Dashboard; actions: QuickAction[] }) {
  const affected = data.clients.withOverdueTasks;
  return (
    <>
      <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard
          label="Total Clients"
          value={data.clients.total}
          detail={`${data.clients.active.toLocaleString("en-US")} active`}
          icon={Users}
          tone="primary"
        />
        <StatCard
          label="Pending Tasks"
          value={data.tasks.pending}
          detail="Awaiting completion"
          icon={Clock}
          tone="warning"
        />
        <StatCard
          label="Overdue Tasks"
          value={data.tasks.overdue}
          detail={`${affected.toLocaleString("en-US")} ${affected === 1 ? "client" : "clients"} affected`}
          icon={AlertTriangle}
          tone="destructive"
        />
        <StatCard
          label="Completed Tasks"
          value={data.tasks.completed}
          detail="Signed off"
          icon={CheckCircle2}
          tone="success"
        />
      </section>
      <InternalTargetNote className="-mt-2" />

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-5">
        <Card className="lg:col-span-3">
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
            <CardDescription>Jump to the work you do most</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {actions.map((action) => (
                <li key={action.label}>
                  <Link
                    to={action.to}
                    className="group flex items-center gap-3 rounded-md border px-3 py-2.5 outline-none transition-colors hover:border-primary/30 hover:bg-primary-subtle/50 focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground transition-colors group-hover:bg-primary-subtle group-hover:text-primary-subtle-foreground">
                      <action.icon className="size-4" aria-hidden="true" />
                    </span>
                    <span className="flex-1 text-sm font-medium">{action.label}</span>
                    {action.count && (
                      <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium tabular-nums text-secondary-foreground">
                        {action.count(data).toLocaleString("en-US")}
                      </span>
                    )}
                    <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
                  </Link>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Client Status Overview</CardTitle>
            <CardDescription>Where your client relationships stand</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col divide-y">
              <StatusRow label="Active Clients" value={data.clients.active} icon={CheckCircle2} tone="text-success" />
              <StatusRow
                label="Inactive Clients"
                value={data.clients.inactive}
                icon={CircleSlash}
                tone="text-muted-foreground"
              />
              <StatusRow
                label="Clients with Overdue Tasks"
                value={affected}
                icon={ClipboardCheck}
                tone="text-destructive"
              />
            </ul>
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function StatusRow({
  label,
  value,
  icon: Icon,
  tone,
}: {
  label: string;
  value: number;
  icon: LucideIcon;
  tone: string;
}) {
  return (
    <li className="flex items-center gap-3 py-3 first:pt-0 last:pb-0" aria-label={`${label}: ${value}`}>
      <Icon className={cn("size-4 shrink-0", tone)} aria-hidden="true" />
      <span className="flex-1 text-sm">{label}</span>
      <span className="text-sm font-semibold tabular-nums" data-testid="status-value">
        {value.toLocaleString("en-US")}
      </span>
    </li>
  );
}

function DashboardSkeleton() {
  return (
    <div
      className="flex flex-col gap-6"
      role="status"
      aria-label="Loading the dashboard"
      data-testid="dashboard-skeleton"
    >
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {["clients", "pending", "overdue", "completed"].map((key) => (
          <StatCardSkeleton key={key} />
        ))}
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-5">
        <Card className="flex flex-col gap-3 p-5 lg:col-span-3">
          <Skeleton className="h-5 w-32" />
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {[1, 2, 3, 4, 5, 6].map((key) => (
              <Skeleton key={key} className="h-12" />
            ))}
          </div>
        </Card>
        <Card className="flex flex-col gap-3 p-5 lg:col-span-2">
          <Skeleton className="h-5 w-44" />
          {[1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-8" />
          ))}
        </Card>
      </div>
    </div>
  );
}
