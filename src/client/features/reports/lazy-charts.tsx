import { AlertTriangle } from "lucide-react";
import { Component, lazy, type ReactNode, Suspense } from "react";
import type { ClientReport, UserReport } from "../../../shared/reports";
import { Card } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";

/*
 * Recharts is loaded only when a report with data is shown: report-charts.tsx is its own chunk,
 * outside both /dashboard's JavaScript and the first chunk of /reports (docs/design/reports-screen.md).
 */
const ClientCharts = lazy(() => import("./report-charts").then((module) => ({ default: module.ClientReportCharts })));
const UserCharts = lazy(() => import("./report-charts").then((module) => ({ default: module.UserReportCharts })));

export function LazyClientCharts({ report }: { report: ClientReport }) {
  return (
    <ChartsBoundary>
      <Suspense fallback={<ChartsSkeleton count={2} />}>
        <ClientCharts report={report} />
      </Suspense>
    </ChartsBoundary>
  );
}

export function LazyUserCharts({ report }: { report: UserReport }) {
  return (
    <ChartsBoundary>
      <Suspense fallback={<ChartsSkeleton count={3} />}>
        <UserCharts report={report} />
      </Suspense>
    </ChartsBoundary>
  );
}

export function ChartsSkeleton({ count }: { count: number }) {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" role="status" aria-label="Loading the charts">
      {["first", "second", "third"].slice(0, count).map((key) => (
        <Card key={key} className="flex flex-col gap-3 p-5 last:odd:lg:col-span-2">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-3 w-64 max-w-full" />
          <Skeleton className="h-56" />
        </Card>
      ))}
    </div>
  );
}

/**
 * A charts chunk that fails to load (the network dropped, or a new release replaced it) costs the
 * charts only: the figures, history and lists around them stay, with a note instead of the charts.
 */
class ChartsBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Card role="alert" className="flex items-center gap-2 p-4 text-sm text-muted-foreground">
        <AlertTriangle className="size-4 text-warning" aria-hidden="true" />
        The charts could not be loaded. Reload the page to try again; the figures and lists are complete.
      </Card>
    );
  }
}
