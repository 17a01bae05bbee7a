import type { LucideIcon } from "lucide-react";
import { Card } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";
import { cn } from "../../lib/cn";
import type { RateTone } from "./report-format";

export type StatTone = "primary" | "warning" | "destructive" | "success";

const iconTones: Record<StatTone, string> = {
  primary: "bg-primary-subtle text-primary-subtle-foreground",
  warning: "bg-warning-subtle text-warning-subtle-foreground",
  destructive: "bg-destructive-subtle text-destructive-subtle-foreground",
  success: "bg-success-subtle text-success-subtle-foreground",
};

const valueTones: Record<RateTone, string> = {
  good: "text-success-subtle-foreground",
  bad: "text-destructive",
  none: "",
};

/**
 * One figure of a report, drawn like the dashboard's stat cards. A rate carries its tone (S-CONST-26:
 * green at 80% or more, red below) as colour and in words in `detail`, never colour alone.
 */
export function ReportStatCard({
  label,
  value,
  detail,
  icon: Icon,
  tone,
  valueTone = "none",
}: {
  label: string;
  value: string;
  detail: string;
  icon: LucideIcon;
  tone: StatTone;
  valueTone?: RateTone;
}) {
  return (
    <Card className="flex min-w-0 flex-col gap-3 p-4 sm:p-5" role="group" aria-label={label}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-muted-foreground">{label}</h3>
        <span className={cn("hidden size-8 shrink-0 items-center justify-center rounded-md sm:flex", iconTones[tone])}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </div>
      <div className="flex flex-col gap-1">
        <p
          className={cn("text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl", valueTones[valueTone])}
          data-testid="stat-value"
          data-tone={valueTone}
        >
          {value}
        </p>
        <p className="text-xs text-muted-foreground" data-testid="stat-detail">
          {detail}
        </p>
      </div>
    </Card>
  );
}

export function ReportStatsSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {[1, 2, 3, 4].map((key) => (
        <Card key={key} className="flex flex-col gap-3 p-4 sm:p-5">
          <div className="flex items-center justify-between">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="size-8" />
          </div>
          <Skeleton className="h-8 w-16" />
          <Skeleton className="h-3 w-28" />
        </Card>
      ))}
    </div>
  );
}
