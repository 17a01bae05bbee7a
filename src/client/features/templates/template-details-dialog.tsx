import { Info } from "lucide-react";
import type { ReactNode } from "react";
import type { Template } from "../../../shared/templates";
import { PriorityBadge } from "../../components/task-badges";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { cn } from "../../lib/cn";
import { ruleLabel, useDueDateRules } from "./due-date-rule";
import { everyText } from "./format";

/** The View dialog (S-TTPL-23..24): priority, recurring or one-time, frequency, statutory due date when set (S-DUE-18), created, description, usage note. */
export function TemplateDetailsDialog({
  template,
  formatDate,
  onOpenChange,
}: {
  template: Template | null;
  formatDate: (iso: string | null) => string;
  onOpenChange: (open: boolean) => void;
}) {
  const ruleId = template?.dueDateRule ?? null;
  const { data: rules } = useDueDateRules(ruleId !== null);
  const rule = rules?.find((each) => each.id === ruleId);
  return (
    <Dialog open={template !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        {template && (
          <>
            <DialogHeader>
              <DialogTitle className="break-words">{template.name}</DialogTitle>
              <DialogDescription>Task template</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-4 rounded-lg border bg-muted/40 p-4 sm:grid-cols-2">
              <Detail label="Priority">
                <PriorityBadge priority={template.priority} />
              </Detail>
              <Detail label="Type">{template.isRecurring ? "Recurring" : "One-time"}</Detail>
              <Detail label="Frequency">
                {template.frequency ? everyText(template.frequency) : "Does not repeat"}
              </Detail>
              {ruleId !== null && (
                <Detail label="Statutory due date">
                  <span data-testid="template-due-date-rule">{rule ? `${ruleLabel(rule)} (${ruleId})` : ruleId}</span>
                </Detail>
              )}
              <Detail label="Created">{formatDate(template.createdAt)}</Detail>
              <Detail label="Description" className="sm:col-span-2">
                <span className="whitespace-pre-line">{template.description}</span>
              </Detail>
            </dl>
            <p
              className="flex items-start gap-2 rounded-md border border-primary/20 bg-primary-subtle px-3 py-2.5 text-sm text-primary-subtle-foreground"
              data-testid="template-usage"
            >
              <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                This template is assigned to clients when creating tasks. Recurring templates automatically create a new
                task for each period.
              </span>
            </p>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}
