import { CalendarRange } from "lucide-react";
import { useId } from "react";
import { type ReportDays, reportDays } from "../../shared/reports";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "./ui/select";

/** The range select's words for each of S-CONST-24's ranges. */
export function rangeOptionLabel(days: ReportDays): string {
  return `Last ${days} days`;
}

/**
 * S-REP-04, S-CONST-24: the last 7, 30, 90 or 365 days (default 30). The reports and a user's
 * profile choose their range with it, so the two count a user's work over the same days.
 */
export function RangeSelect({ days, onChange }: { days: ReportDays; onChange: (days: ReportDays) => void }) {
  const labelId = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <span id={labelId} className="text-xs font-medium text-muted-foreground">
        Date range
      </span>
      <Select
        value={String(days)}
        onValueChange={(value) => onChange(reportDays.find((option) => String(option) === value) ?? days)}
      >
        <SelectTrigger aria-labelledby={labelId}>
          <span className="flex items-center gap-2">
            <CalendarRange className="size-4 text-muted-foreground" aria-hidden="true" />
            <SelectValue />
          </span>
        </SelectTrigger>
        <SelectContent>
          {reportDays.map((option) => (
            <SelectItem key={option} value={String(option)}>
              {rangeOptionLabel(option)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
