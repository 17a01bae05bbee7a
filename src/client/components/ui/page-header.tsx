import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

/**
 * The top of a page's content: its subtitle and its main actions. The page's title itself is the
 * shell header's heading (one h1 per page, taken from the route), so it is not repeated here.
 */
export function PageHeader({
  description,
  actions,
  className,
}: {
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between", className)}>
      {description && <p className="text-sm text-muted-foreground">{description}</p>}
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
