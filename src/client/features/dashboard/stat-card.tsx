import type { LucideIcon } from "lucide-react";
import { Card } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";

export type StatTone = "primary" | "warning" | "destructive" | "success";

const toneClasses: Record<StatTone, string> = {
  primary: "bg-primary-subtle text-primary-subtle-foreground",
  warning: "bg-warning-subtle text-warning-subtle-foreground",
  destructive: "bg-destructive-subtle text-destructive-subtle-foreground",
  success: "bg-success-subtle text-success-subtle-foreground",
};

export function StatCard({
  label,
  value,
  detail,
  icon: Icon,
  tone,
}: {
  label: string;
  value: number;
  detail: string;
  icon: LucideIcon;
  tone: StatTone;
}) {
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-5" role="group" aria-label={label}>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-medium text-muted-foreground">{label}</h2>
        <span
          className={cn("hidden size-8 shrink-0 items-center justify-center rounded-md sm:flex", toneClasses[tone])}
        >
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </div>
      <div className="flex flex-col gap-1">
        <p className="text-2xl font-semibold sm:text-3xl tracking-tight tabular-nums" data-testid="stat-value">
          {value.toLocaleString("en-US")}
        </p>
        <p className="text-xs text-muted-foreground" data-testid="stat-detail">
          {detail}
        </p>
      </div>
    </Card>
  );
}

export function StatCardSkeleton() {
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-5">
      <div className="flex items-center justify-between">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="size-8" />
      </div>
      <Skeleton className="h-8 w-16" />
      <Skeleton className="h-3 w-28" />
    </Card>
  );
}
