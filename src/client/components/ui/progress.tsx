import { Progress as ProgressPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

/**
 * A determinate progress bar (Radix: role="progressbar" with its value, maximum and
 * `getValueLabel` text for assistive technology). Give it an accessible name (aria-label or
 * aria-labelledby); the visible words beside it are the caller's.
 */
export function Progress({ className, value, max = 100, ...props }: ComponentProps<typeof ProgressPrimitive.Root>) {
  const share = max > 0 && value != null ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <ProgressPrimitive.Root
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-muted", className)}
      value={value}
      max={max}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className="h-full w-full bg-primary transition-transform duration-200 motion-reduce:transition-none"
        style={{ transform: `translateX(-${100 - share * 100}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
