import { useQuery } from "@tanstack/react-query";
import { cn } from "../lib/cn";
import { firmQueryOptions } from "../lib/firm";

/**
 * Says, where overdue work is counted, that statutory work counts as overdue from the firm's
 * internal target rather than its due date (decision 0053). Nothing when the firm sets none.
 */
export function InternalTargetNote({ className }: { className?: string }) {
  const { data: firm } = useQuery(firmQueryOptions());
  const days = firm?.internalTargetDays;
  if (!days) return null;
  return (
    <p className={cn("text-xs text-muted-foreground", className)} data-testid="internal-target-note">
      Statutory work counts as overdue from your firm's internal target: {days} business {days === 1 ? "day" : "days"}{" "}
      before its due date.
    </p>
  );
}
