import { AlertTriangle, CheckCircle2, Clock, type LucideIcon } from "lucide-react";
import type { ClientHealth, HealthLevel } from "../../../shared/clients";
import { Tooltip, TooltipContent, TooltipTrigger } from "../../components/ui/tooltip";
import { cn } from "../../lib/cn";

/** Green good, amber warning, red critical: the same colours as badges and the bell, everywhere. */
const looks: Record<HealthLevel, { icon: LucideIcon; tone: string }> = {
  good: { icon: CheckCircle2, tone: "bg-success-subtle text-success-subtle-foreground" },
  warning: { icon: Clock, tone: "bg-warning-subtle text-warning-subtle-foreground" },
  critical: { icon: AlertTriangle, tone: "bg-destructive-subtle text-destructive-subtle-foreground" },
};

/**
 * A client's health (S-STATE-15..18) as an icon whose tooltip gives the label. The trigger is a
 * button so keyboard users can focus it and hear the label; the delays come from the app's
 * TooltipProvider (S-CONST-42..43: 700 ms, 300 ms).
 */
export function HealthIndicator({ health }: { health: ClientHealth }) {
  const { icon: Icon, tone } = looks[health.level];
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={`Health: ${health.label}`}
          data-health={health.level}
          className={cn(
            "flex size-7 shrink-0 items-center justify-center rounded-full outline-none focus-visible:ring-2 focus-visible:ring-ring",
            tone,
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
        </button>
      </TooltipTrigger>
      <TooltipContent>{health.label}</TooltipContent>
    </Tooltip>
  );
}
