import { CalendarClock, CalendarDays, Pencil, Repeat, Trash2 } from "lucide-react";
import type { Template } from "../../../shared/templates";
import { PriorityBadge } from "../../components/task-badges";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { ruleLabel, useDueDateRules } from "./due-date-rule";
import { everyText, templateDescriptionLimit, templateNameLimit, truncate } from "./format";

/**
 * The template card (S-TTPL-04..11). The full name and description are in the View dialog; the card
 * cuts them at 50 and 100 characters (S-CONST-29..30). Edit and Delete only reach the card for a
 * super admin.
 */
export function TemplateCard({
  template,
  formatDate,
  onView,
  onEdit,
  onDelete,
}: {
  template: Template;
  formatDate: (iso: string | null) => string;
  onView: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const { data: rules } = useDueDateRules(template.dueDateRule !== null);
  const rule = rules?.find((each) => each.id === template.dueDateRule);
  return (
    <article
      aria-label={template.name}
      className="flex h-full flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs transition-colors hover:border-primary/30"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <PriorityBadge priority={template.priority} />
        {template.isRecurring ? (
          <Badge
            variant="secondary"
            className="bg-primary-subtle text-primary-subtle-foreground"
            data-testid="template-kind"
          >
            <Repeat aria-hidden="true" />
            Recurring
          </Badge>
        ) : (
          <Badge variant="secondary" data-testid="template-kind">
            One-time
          </Badge>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h2 className="text-sm font-semibold break-words" title={template.name} data-testid="template-name">
          {truncate(template.name, templateNameLimit)}
        </h2>
        <p className="text-sm text-muted-foreground break-words" data-testid="template-description">
          {truncate(template.description, templateDescriptionLimit)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="flex items-center gap-1.5" data-testid="template-created">
          <CalendarDays className="size-3.5" aria-hidden="true" />
          Created {formatDate(template.createdAt)}
        </span>
        {template.frequency && (
          <span className="flex items-center gap-1.5 font-medium text-foreground" data-testid="template-frequency">
            <Repeat className="size-3.5 text-primary" aria-hidden="true" />
            {everyText(template.frequency)}
          </span>
        )}
        {template.dueDateRule && (
          <span
            className="flex items-center gap-1.5"
            title={rule ? ruleLabel(rule) : undefined}
            data-testid="template-due-date-rule"
          >
            <CalendarClock className="size-3.5" aria-hidden="true" />
            Due by rule: {template.dueDateRule}
          </span>
        )}
      </div>
      <div className="flex items-center gap-2 border-t pt-3">
        <Button variant="outline" size="sm" onClick={onView} className="flex-1 sm:flex-none">
          View Details
          <span className="sr-only">: {template.name}</span>
        </Button>
        {onEdit && (
          <Button variant="ghost" size="sm" onClick={onEdit}>
            <Pencil aria-hidden="true" />
            Edit
            <span className="sr-only">: {template.name}</span>
          </Button>
        )}
        {onDelete && (
          <Button
            variant="ghost"
            size="sm"
            onClick={onDelete}
            className="text-destructive hover:bg-destructive-subtle hover:text-destructive"
          >
            <Trash2 aria-hidden="true" />
            Delete
            <span className="sr-only">: {template.name}</span>
          </Button>
        )}
      </div>
    </article>
  );
}
