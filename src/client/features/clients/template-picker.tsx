import { useQuery } from "@tanstack/react-query";
import { LayoutTemplate, Repeat } from "lucide-react";
import { useId } from "react";
import type { TaskPriority } from "../../../shared/tasks";
import type { Template } from "../../../shared/templates";
import { Badge, type BadgeVariant } from "../../components/ui/badge";
import { Checkbox } from "../../components/ui/checkbox";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { templatesQueryOptions } from "../templates/api";

const priorityLook: Record<TaskPriority, { label: string; variant: BadgeVariant; className?: string }> = {
  high: {
    label: "High",
    variant: "outline",
    className: "border-transparent bg-destructive-subtle text-destructive-subtle-foreground",
  },
  medium: { label: "Medium", variant: "warning" },
  low: { label: "Low", variant: "secondary" },
};

/**
 * "Initial Tasks (Optional)" of the New Client dialog (S-CNEW-11..14): the firm's templates as a
 * height-limited multi-select list, and a note saying how many tasks the selection creates.
 * `value` is the chosen template ids in the order they were picked.
 */
export function TemplatePicker({
  value,
  onChange,
  disabled,
}: {
  value: string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
}) {
  const templates = useQuery(templatesQueryOptions());
  const headingId = useId();
  const count = value.length;

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Initial Tasks (Optional)
        </h3>
        <p className="text-xs text-muted-foreground">Start the client's work from your task templates.</p>
      </div>
      {templates.isPending ? (
        <div className="flex flex-col gap-2" role="status" aria-label="Loading task templates">
          {[1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-16" />
          ))}
        </div>
      ) : templates.isError ? (
        <p role="alert" className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-destructive">
          {errorMessage(templates.error, "The task templates could not be loaded.")}
        </p>
      ) : templates.data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-md border border-dashed px-4 py-8 text-center">
          <LayoutTemplate className="size-5 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm font-medium">No task templates available</p>
          <p className="text-xs text-muted-foreground">Create task templates first to assign initial tasks</p>
        </div>
      ) : (
        <>
          <ul
            aria-labelledby={headingId}
            data-testid="template-list"
            className="flex max-h-80 flex-col gap-2 overflow-y-auto rounded-md border bg-muted/40 p-2 md:max-h-96"
          >
            {templates.data.map((template) => (
              <TemplateOption
                key={template.id}
                template={template}
                checked={value.includes(template.id)}
                disabled={disabled}
                onCheckedChange={(checked) =>
                  onChange(checked ? [...value, template.id] : value.filter((id) => id !== template.id))
                }
              />
            ))}
          </ul>
          <p aria-live="polite" data-testid="task-count-note" className="text-xs text-muted-foreground">
            {count} {count === 1 ? "task" : "tasks"} will be created for this client
          </p>
        </>
      )}
    </section>
  );
}

function TemplateOption({
  template,
  checked,
  disabled,
  onCheckedChange,
}: {
  template: Template;
  checked: boolean;
  disabled: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const checkboxId = useId();
  const nameId = useId();
  const descriptionId = useId();
  const priority = priorityLook[template.priority];
  return (
    <li>
      <label
        htmlFor={checkboxId}
        className={cn(
          "flex cursor-pointer gap-3 rounded-md border bg-card p-3 transition-colors hover:border-primary/40",
          checked && "border-primary/60 bg-primary-subtle/60",
          disabled && "cursor-not-allowed opacity-60",
        )}
      >
        <Checkbox
          id={checkboxId}
          checked={checked}
          onCheckedChange={(state) => onCheckedChange(state === true)}
          disabled={disabled}
          aria-labelledby={nameId}
          aria-describedby={descriptionId}
          className="mt-0.5"
        />
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span id={nameId} className="text-sm font-medium leading-snug">
              {template.name}
            </span>
            <Badge variant={priority.variant} className={priority.className}>
              {priority.label}
            </Badge>
            {template.frequency && (
              <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                <Repeat className="size-3" aria-hidden="true" />
                <span className="capitalize">{template.frequency}</span>
              </span>
            )}
          </span>
          <span id={descriptionId} className="line-clamp-2 text-xs text-muted-foreground">
            {template.description}
          </span>
        </span>
      </label>
    </li>
  );
}
