import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { useId } from "react";
import { useFieldArray, useForm, useFormState, useWatch } from "react-hook-form";
import { z } from "zod";
import { formatCivilDate } from "../../../shared/dates";
import {
  type Firm,
  maxClosedDayNameLength,
  maxClosedDays,
  maxInternalTargetDays,
  minInternalTargetDays,
} from "../../../shared/firm";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { EditConflictNotice, useEditConflict } from "../../components/ui/edit-conflict";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { firmQueryOptions } from "../../lib/firm";
import { showFieldIssues } from "../../lib/form-errors";
import { useUpdateFirm } from "./api";
import { WithFirm } from "./firm-card";

/**
 * A super admin sets the firm's internal target for statutory work (business days before the due
 * date, or none) and the firm's own closed days, which the target skips as it skips weekends and
 * public holidays (decision 0053). PATCH /api/firm, with the Firm card's conflict handling.
 */
export function DeadlinesCard() {
  return (
    <Card data-testid="deadlines-card">
      <CardHeader>
        <CardTitle>Statutory deadlines</CardTitle>
        <CardDescription>
          Set an internal target so your team finishes statutory work before the deadline. Overdue counts and client
          health then use the target.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <WithFirm>{(firm) => <DeadlinesForm firm={firm} />}</WithFirm>
      </CardContent>
    </Card>
  );
}

const targetMessage = `Enter a whole number of business days from ${minInternalTargetDays} to ${maxInternalTargetDays}, or leave it empty`;

/*
 * The route's limits (updateFirmSchema) in words for the person at the form: the target as typed
 * (empty for none), and each closed day with a date, a name and no date listed twice.
 */
const deadlinesSchema = z.object({
  internalTargetDays: z
    .string()
    .trim()
    .refine(
      (days) =>
        days === "" ||
        (/^\d+$/.test(days) && Number(days) >= minInternalTargetDays && Number(days) <= maxInternalTargetDays),
      targetMessage,
    )
    .transform((days) => (days === "" ? null : Number(days))),
  closedDays: z
    .array(
      z.object({
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Choose the date"),
        name: z
          .string()
          .trim()
          .min(1, "Name the closed day")
          .max(maxClosedDayNameLength, `Keep the name to ${maxClosedDayNameLength} characters`),
      }),
    )
    .max(maxClosedDays, `A firm keeps at most ${maxClosedDays} closed days`)
    .superRefine((days, context) => {
      const seen = new Set<string>();
      for (const [index, day] of days.entries()) {
        if (seen.has(day.date)) {
          context.addIssue({ code: "custom", message: "This date is already listed", path: [index, "date"] });
        }
        if (day.date) seen.add(day.date);
      }
    }),
});
type Fields = z.input<typeof deadlinesSchema>;
type Output = z.output<typeof deadlinesSchema>;

const valuesOf = (firm: Firm): Fields => ({
  internalTargetDays: firm.internalTargetDays === null ? "" : String(firm.internalTargetDays),
  closedDays: firm.closedDays.map(({ date, name }) => ({ date, name })),
});

function DeadlinesForm({ firm }: { firm: Firm }) {
  const update = useUpdateFirm();
  const queryClient = useQueryClient();
  const form = useForm<Fields, unknown, Output>({
    resolver: zodResolver(deadlinesSchema),
    defaultValues: valuesOf(firm),
  });
  const conflict = useEditConflict({
    resource: firm,
    form,
    valuesOf,
    load: () => queryClient.fetchQuery({ ...firmQueryOptions(), staleTime: 0 }),
  });

  const save = (values: Output) => {
    const input = conflict.changes(values);
    if (Object.keys(input).length === 0) {
      toast.success("Deadline settings saved");
      return;
    }
    return update.mutateAsync({ input, version: conflict.version }).then(
      (saved) => {
        conflict.saved(saved);
        toast.success("Deadline settings saved");
      },
      (error: unknown) => {
        if (conflict.caught(error)) return;
        // A refused field shows its message under the field: a closed day's under its row.
        showFieldIssues(form.setError, error, [
          "internalTargetDays",
          "closedDays",
          "closedDays.*.date",
          "closedDays.*.name",
        ]);
        toast.error("Failed to save deadline settings", { description: errorMessage(error, "Please try again.") });
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={save} aria-label="Statutory deadlines">
      {(busy) => (
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-5">
          <EditConflictNotice conflict={conflict} entity="firm's deadline settings" />
          <TargetField />
          <ClosedDaysField />
          <div>
            <Button type="submit">{busy ? "Saving..." : "Save deadlines"}</Button>
          </div>
        </fieldset>
      )}
    </GuardedForm>
  );
}

function TargetField() {
  const id = useId();
  return (
    <FormField<Fields, "internalTargetDays">
      name="internalTargetDays"
      render={({ field }) => (
        <FormItem>
          <FormLabel id={`${id}-label`}>Internal target</FormLabel>
          {/* On a phone the words wrap beside the box, never under it. */}
          <div className="flex items-center gap-3">
            <FormControl>
              <Input
                type="number"
                inputMode="numeric"
                min={minInternalTargetDays}
                max={maxInternalTargetDays}
                step={1}
                className="w-20 shrink-0"
                aria-labelledby={`${id}-label ${id}-unit`}
                {...field}
              />
            </FormControl>
            <span id={`${id}-unit`} className="min-w-0 text-sm leading-snug text-muted-foreground">
              business days before the due date
            </span>
          </div>
          <FormDescription>Leave empty to work to the due date itself.</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function ClosedDaysField() {
  const id = useId();
  const { fields, append, remove } = useFieldArray<Fields, "closedDays">({ name: "closedDays" });
  const days = useWatch<Fields, "closedDays">({ name: "closedDays" });
  // The list's own error (more days than a firm keeps), under the list.
  const { errors } = useFormState<Fields>({ name: "closedDays" });
  const listError = errors.closedDays?.message ?? errors.closedDays?.root?.message;
  return (
    <fieldset className="flex min-w-0 flex-col gap-3" aria-describedby={`${id}-about`}>
      <legend className="mb-2 text-sm font-medium leading-none">Closed days</legend>
      {fields.length > 0 ? (
        <ul aria-label="Closed days" className="flex flex-col gap-3">
          {fields.map((row, index) => {
            const day = days?.[index];
            const what = day?.name.trim() || (day?.date ? formatCivilDate(day.date) : `closed day ${index + 1}`);
            return (
              // On a phone a row's date and name stack, and a rule between rows keeps each pair together.
              <li
                key={row.id}
                className="flex items-start gap-2 border-t pt-3 first:border-t-0 first:pt-0 sm:border-t-0 sm:pt-0"
                data-testid="closed-day"
              >
                <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-[10.5rem_minmax(0,1fr)]">
                  <DayPart index={index} part="date" />
                  <DayPart index={index} part="name" />
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${what}`}
                  className="text-muted-foreground hover:text-destructive"
                  onClick={() => remove(index)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No closed days.</p>
      )}
      {listError && <p className="text-xs font-medium text-destructive">{listError}</p>}
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        disabled={fields.length >= maxClosedDays}
        onClick={() => append({ date: "", name: "" })}
      >
        <Plus aria-hidden="true" />
        Add closed day
      </Button>
      <p id={`${id}-about`} className="text-xs text-muted-foreground">
        Days your office is closed. Internal targets skip them, as they skip weekends and public holidays.
      </p>
    </fieldset>
  );
}

function DayPart({ index, part }: { index: number; part: "date" | "name" }) {
  return (
    <FormField<Fields, `closedDays.${number}.${typeof part}`>
      name={`closedDays.${index}.${part}`}
      render={({ field }) => (
        <FormItem className="gap-1.5">
          <FormLabel className="sr-only">{`Closed day ${index + 1} ${part}`}</FormLabel>
          <FormControl>
            {part === "date" ? (
              <Input type="date" {...field} />
            ) : (
              <Input
                autoComplete="off"
                placeholder="Name, e.g. Firm retreat"
                {...field}
                value={String(field.value ?? "")}
              />
            )}
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
