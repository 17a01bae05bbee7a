import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type Firm, updateFirmSchema } from "../../../shared/firm";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { EditConflictNotice, useEditConflict } from "../../components/ui/edit-conflict";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { firmQueryOptions } from "../../lib/firm";
import { showFieldIssues } from "../../lib/form-errors";
import { useUpdateFirm } from "./api";
import { TimeZonePicker } from "./time-zone-picker";

type Fields = z.input<typeof updateFirmSchema>;
type Output = z.output<typeof updateFirmSchema>;

/** The firm's settings for a card's form once loaded; meanwhile a skeleton, or why they could not be. */
export function WithFirm({ children }: { children: (firm: Firm) => ReactNode }) {
  const firm = useQuery(firmQueryOptions());
  if (firm.data) return children(firm.data);
  if (firm.isError)
    return <p className="text-sm text-destructive">{errorMessage(firm.error, "The firm could not be loaded.")}</p>;
  return (
    <div className="flex flex-col gap-3" aria-hidden="true">
      <Skeleton className="h-9 w-full" />
      <Skeleton className="h-9 w-full" />
    </div>
  );
}

/** A super admin renames the firm and sets the time zone its dates are computed in (issue 9). */
export function FirmCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Firm</CardTitle>
        <CardDescription>
          Your firm's name and the time zone its due dates, reports and audit trail are shown in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <WithFirm>{(firm) => <FirmForm firm={firm} />}</WithFirm>
      </CardContent>
    </Card>
  );
}

const valuesOf = (firm: Firm): Fields => ({ name: firm.name, timeZone: firm.timeZone });

function FirmForm({ firm }: { firm: Firm }) {
  const update = useUpdateFirm();
  const queryClient = useQueryClient();
  const form = useForm<Fields, unknown, Output>({
    resolver: zodResolver(updateFirmSchema),
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
      toast.success("Firm settings saved");
      return;
    }
    return update.mutateAsync({ input, version: conflict.version }).then(
      (saved) => {
        conflict.saved(saved);
        toast.success("Firm settings saved");
      },
      (error: unknown) => {
        if (conflict.caught(error)) return;
        showFieldIssues(form.setError, error, ["name", "timeZone"]);
        toast.error("Failed to save firm settings", { description: errorMessage(error, "Please try again.") });
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={save} aria-label="Firm settings">
      {(busy) => (
        <fieldset disabled={busy} className="flex flex-col gap-4">
          <EditConflictNotice conflict={conflict} entity="firm's settings" />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Firm name</FormLabel>
                <FormControl>
                  <Input autoComplete="organization" {...field} value={field.value ?? ""} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Time zone</FormLabel>
                <FormControl>
                  <TimeZonePicker value={field.value ?? firm.timeZone} onChange={field.onChange} disabled={busy} />
                </FormControl>
                <FormDescription>"Today", due dates and report ranges follow this zone.</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <div>
            <Button type="submit">{busy ? "Saving..." : "Save firm settings"}</Button>
          </div>
        </fieldset>
      )}
    </GuardedForm>
  );
}
