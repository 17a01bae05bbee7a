import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { type Frequency, frequencies, taskPriorities } from "../../../shared/tasks";
import { createTemplateSchema, type Template, updateTemplateSchema } from "../../../shared/templates";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { DuplicateNameNotice, useDuplicateName } from "../../components/ui/duplicate-name";
import { EditConflictNotice, useEditConflict } from "../../components/ui/edit-conflict";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Textarea } from "../../components/ui/textarea";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import {
  type TemplateBody,
  templatesQueryOptions,
  useCreateTemplate,
  useFindTemplatesNamed,
  useUpdateTemplate,
} from "./api";
import { DueDateRuleSelect, ruleFits, useDueDateRules } from "./due-date-rule";

type TemplateFields = z.input<typeof createTemplateSchema>;
type TemplateOutput = z.output<typeof createTemplateSchema>;

export const priorityLabels = { low: "Low", medium: "Medium", high: "High" } as const;
export const frequencyLabels: Record<Frequency, string> = {
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
  quarterly: "Quarterly",
  annually: "Annually",
};
/** What the create dialog's frequency select holds for one-time work (the API reads "none" as one-time). */
const oneTime = "none";
/** What checking "recurring" in edit preselects, so the checkbox is never on without a frequency. */
const defaultFrequency: Frequency = "monthly";

const bodyOf = (output: TemplateOutput): TemplateBody => ({
  name: output.name,
  description: output.description,
  priority: output.priority,
  frequency: output.frequency,
  isRecurring: output.isRecurring,
  // Always sent, so None clears a rule the template had.
  dueDateRule: output.frequency ? (output.dueDateRule ?? null) : null,
});

const isFrequency = (value: unknown): value is Frequency => frequencies.includes(value as Frequency);

/** The fields a refusal may name, to show its message beside the field. */
const fieldNames = ["name", "description", "priority", "frequency", "dueDateRule"];

/**
 * Create and edit share one form on the shared schema (S-VAL-16..19's messages before any request).
 * S-STATE-19 gives both one frequency list; create offers one-time in that list, edit a
 * "recurring" checkbox that shows the list, and unchecking it saves the template as one-time.
 */
export function TemplateFormDialog({
  mode,
  template,
  open,
  onOpenChange,
}: {
  mode: "create" | "edit";
  template?: Template;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // The mutations live here, not in the form, so their toasts still show if the form unmounts.
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const pending = create.isPending || update.isPending;

  const save = (body: TemplateBody, options: { version?: number; idempotencyKey: string }) =>
    mode === "create"
      ? create.mutateAsync({ input: body, idempotencyKey: options.idempotencyKey }).then(() => {
          toast.success("Task template created successfully!");
          onOpenChange(false);
        })
      : template &&
        update.mutateAsync({ id: template.id, input: body, version: options.version }).then(() => {
          toast.success("Task template updated successfully!");
          onOpenChange(false);
        });

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{mode === "create" ? "Create Task Template" : "Edit Task Template"}</DialogTitle>
          <DialogDescription>
            {mode === "create"
              ? "Reusable work your team can assign to any client."
              : "Changes apply to tasks created from this template from now on."}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted on each opening, so the form starts from the template as it is now, or empty. */}
        <TemplateForm mode={mode} template={template} onSave={save} onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TemplateForm({
  mode,
  template,
  onSave,
  onCancel,
}: {
  mode: "create" | "edit";
  template?: Template;
  /** Sends the template; resolves once saved, rejects with the server's refusal. */
  onSave: (body: TemplateBody, options: { version?: number; idempotencyKey: string }) => Promise<unknown> | undefined;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const valuesOf = (template: Template | undefined): TemplateFields => ({
    name: template?.name ?? "",
    description: template?.description ?? "",
    priority: template?.priority ?? "medium",
    frequency: template?.frequency ?? oneTime,
    // Create leaves it unset: its frequency alone says whether the template recurs (S-STATE-20).
    isRecurring: mode === "edit" ? (template?.isRecurring ?? false) : undefined,
    dueDateRule: template?.dueDateRule ?? null,
  });
  const form = useForm<TemplateFields, unknown, TemplateOutput>({
    resolver: zodResolver(mode === "create" ? createTemplateSchema : updateTemplateSchema),
    defaultValues: valuesOf(template),
  });
  const conflict = useEditConflict({
    resource: template,
    form,
    valuesOf,
    load: async () => {
      const templates = await queryClient.fetchQuery({ ...templatesQueryOptions(), staleTime: 0 });
      const latest = templates.find((other) => other.id === template?.id);
      if (!latest) throw new Error("This template has been deleted");
      return latest;
    },
  });
  const duplicate = useDuplicateName({ form, field: "name", find: useFindTemplatesNamed() });
  const isRecurring = useWatch({ control: form.control, name: "isRecurring" });
  const frequency = useWatch({ control: form.control, name: "frequency" });
  // The frequency the template will recur at, as the form stands; null while it is one-time.
  const recurringFrequency: Frequency | null =
    mode === "create"
      ? isFrequency(frequency)
        ? frequency
        : null
      : isRecurring
        ? isFrequency(frequency)
          ? frequency
          : defaultFrequency
        : null;
  const { data: rules } = useDueDateRules();
  /** Clears the chosen rule when the template is to recur at a frequency it does not fit (or not at all). */
  const keepRuleFitting = (next: Frequency | null) => {
    if (!ruleFits(form.getValues("dueDateRule"), next, rules)) form.setValue("dueDateRule", null);
  };

  // A template is saved whole (PUT), so If-Match is what keeps a colleague's edit from being lost.
  // A new one whose name the firm already has is asked about first (S-EDGE-04).
  const submit = async (output: TemplateOutput, { idempotencyKey }: Submission) => {
    try {
      if (mode === "create" && !(await duplicate.check(output.name))) return;
      await onSave(bodyOf(output), { version: conflict.version, idempotencyKey });
    } catch (error) {
      if (conflict.caught(error)) return;
      // A field the server refused (S-DUE-17: a rule the frequency does not fit) shows its message beside it.
      showFieldIssues(form.setError, error, fieldNames);
      toast.error(mode === "create" ? "Failed to create task template" : "Failed to update task template", {
        description: errorMessage(error, "Please try again."),
      });
    }
  };

  return (
    <GuardedForm form={form} onValid={submit}>
      {(pending) => (
        <fieldset disabled={pending} className="flex min-w-0 flex-col gap-4">
          <EditConflictNotice conflict={conflict} entity="template" />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Name</FormLabel>
                <FormControl>
                  <Input placeholder="e.g. Monthly bank reconciliation" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {duplicate.warning && (
            <DuplicateNameNotice entity="template" onConfirm={duplicate.confirm}>
              <p>
                You already have {duplicate.warning.matches.length === 1 ? "a template" : "templates"} named{" "}
                <span className="font-semibold break-words">{duplicate.warning.matches[0]?.name}</span>.
              </p>
            </DuplicateNameNotice>
          )}
          <FormField
            control={form.control}
            name="description"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Description</FormLabel>
                <FormControl>
                  <Textarea rows={4} placeholder="What the work involves and when it is done" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField
              control={form.control}
              name="priority"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Priority</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange} disabled={pending}>
                    <FormControl>
                      <SelectTrigger>
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {taskPriorities.map((priority) => (
                        <SelectItem key={priority} value={priority}>
                          {priorityLabels[priority]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            {mode === "create" && (
              <FormField
                control={form.control}
                name="frequency"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Frequency</FormLabel>
                    <Select
                      value={field.value ?? oneTime}
                      onValueChange={(next) => {
                        field.onChange(next);
                        keepRuleFitting(isFrequency(next) ? next : null);
                      }}
                      disabled={pending}
                    >
                      <FormControl>
                        <SelectTrigger>
                          <SelectValue />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        <SelectItem value={oneTime}>None (one-time)</SelectItem>
                        {frequencies.map((frequency) => (
                          <SelectItem key={frequency} value={frequency}>
                            {frequencyLabels[frequency]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <FormMessage />
                  </FormItem>
                )}
              />
            )}
          </div>
          {mode === "edit" && (
            <>
              <FormField
                control={form.control}
                name="isRecurring"
                render={({ field }) => (
                  <FormItem className="flex flex-row items-start gap-3 rounded-md border p-3">
                    <FormControl>
                      <Checkbox
                        checked={field.value ?? false}
                        onCheckedChange={(checked) => {
                          field.onChange(checked === true);
                          const frequency = form.getValues("frequency");
                          if (checked === true && (!frequency || frequency === oneTime)) {
                            form.setValue("frequency", defaultFrequency);
                          }
                          const next = form.getValues("frequency");
                          keepRuleFitting(checked === true && isFrequency(next) ? next : null);
                        }}
                        className="mt-0.5"
                      />
                    </FormControl>
                    <div className="grid gap-1">
                      <FormLabel>Recurring template</FormLabel>
                      <FormDescription>
                        Creates a new task for each period on the clients it is assigned to.
                      </FormDescription>
                    </div>
                  </FormItem>
                )}
              />
              {isRecurring && (
                <FormField
                  control={form.control}
                  name="frequency"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Frequency</FormLabel>
                      <Select
                        value={
                          typeof field.value === "string" && field.value !== oneTime ? field.value : defaultFrequency
                        }
                        onValueChange={(next) => {
                          field.onChange(next);
                          keepRuleFitting(isFrequency(next) ? next : null);
                        }}
                        disabled={pending}
                      >
                        <FormControl>
                          <SelectTrigger>
                            <SelectValue />
                          </SelectTrigger>
                        </FormControl>
                        <SelectContent>
                          {frequencies.map((frequency) => (
                            <SelectItem key={frequency} value={frequency}>
                              {frequencyLabels[frequency]}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              )}
            </>
          )}
          {recurringFrequency && (
            <FormField
              control={form.control}
              name="dueDateRule"
              render={({ field }) => (
                <DueDateRuleSelect
                  frequency={recurringFrequency}
                  value={field.value}
                  onChange={field.onChange}
                  disabled={pending}
                />
              )}
            />
          )}
          <DialogFooter className="pt-2">
            <Button variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit">
              {mode === "create"
                ? pending
                  ? "Creating..."
                  : "Create Template"
                : pending
                  ? "Saving..."
                  : "Save Changes"}
            </Button>
          </DialogFooter>
        </fieldset>
      )}
    </GuardedForm>
  );
}
