import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useForm, useFormContext } from "react-hook-form";
import { z } from "zod";
import {
  type ClientDetail,
  clientStatuses,
  createClientSchema,
  entityTypeLabels,
  entityTypes,
  stateFitsJurisdiction,
  stateOutsideUsMessage,
  taxJurisdictionLabels,
  taxJurisdictions,
} from "../../../shared/clients";
import { usStateCodes } from "../../../shared/due-dates";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { EditConflictNotice, useEditConflict } from "../../components/ui/edit-conflict";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, useFormBusy } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import { clientDetailQueryOptions, useUpdateClient } from "./api";
import { clientStatusBadge } from "./client-status";
import { dayNumbers, monthDay, monthNames, parseMonthDay, withMonth } from "./tax-details";

/*
 * The client's own fields and its tax details (S-DUE-14), with the messages of S-VAL-09..10 and
 * S-DUE-15, from the route's schema. Its fields are taken one by one: the schema carries a
 * refinement (a state for a US client only), and zod refuses .pick() on a refined object.
 */
const routeFields = createClientSchema.shape;
const clientFormSchema = z
  .object({
    name: routeFields.name,
    industry: routeFields.industry,
    address: routeFields.address,
    phone: routeFields.phone,
    email: routeFields.email,
    status: routeFields.status,
    fiscalYearEnd: routeFields.fiscalYearEnd,
    entityType: routeFields.entityType,
    jurisdiction: routeFields.jurisdiction,
    state: routeFields.state,
  })
  .refine(stateFitsJurisdiction, { message: stateOutsideUsMessage, path: ["state"] });
type ClientFields = z.input<typeof clientFormSchema>;
const fieldNames = Object.keys(clientFormSchema.shape);

const valuesOf = (client: ClientDetail): ClientFields => ({
  name: client.name,
  industry: client.industry ?? "",
  address: client.address ?? "",
  phone: client.phone ?? "",
  email: client.email ?? "",
  status: client.status,
  fiscalYearEnd: client.fiscalYearEnd,
  entityType: client.entityType,
  jurisdiction: client.jurisdiction,
  state: client.state,
});

/** A select's value for "Not set" (Radix refuses "" as an item's value). */
const notSet = "none";

const textFields = [
  { name: "industry", label: "Industry", autoComplete: "off", type: "text" },
  { name: "address", label: "Address", autoComplete: "street-address", type: "text" },
  { name: "phone", label: "Phone", autoComplete: "tel", type: "tel" },
  { name: "email", label: "Email", autoComplete: "email", type: "email" },
] as const;

/** Edit Client: PATCH /api/clients/{id} with the fields of the Create New Client dialog. */
export function ClientDialog({
  client,
  open,
  onOpenChange,
}: {
  client: ClientDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Client</DialogTitle>
          <DialogDescription>Change {client.name}'s details.</DialogDescription>
        </DialogHeader>
        {/* The form mounts with each opening, so it starts from the client as it is now. */}
        <ClientForm client={client} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ClientForm({ client, onDone }: { client: ClientDetail; onDone: () => void }) {
  const update = useUpdateClient(client.id);
  const queryClient = useQueryClient();
  const form = useForm<ClientFields, unknown, z.output<typeof clientFormSchema>>({
    resolver: zodResolver(clientFormSchema),
    defaultValues: valuesOf(client),
  });
  const conflict = useEditConflict({
    resource: client,
    form,
    valuesOf,
    load: () => queryClient.fetchQuery({ ...clientDetailQueryOptions(client.id), staleTime: 0 }),
  });

  const save = (values: z.output<typeof clientFormSchema>) => {
    const input = conflict.changes(values);
    if (Object.keys(input).length === 0) return onDone();
    return update.mutateAsync({ input, version: conflict.version }).then(
      () => {
        toast.success("Client updated successfully!");
        onDone();
      },
      (error: unknown) => {
        if (conflict.caught(error)) return;
        // A field the server refused (S-DUE-15: a state outside the US, say) shows its message beside it.
        showFieldIssues(form.setError, error, fieldNames);
        toast.error("Failed to update client", { description: errorMessage(error, "Please try again.") });
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={save}>
      <ClientFormFields conflict={conflict} onCancel={onDone} />
    </GuardedForm>
  );
}

function ClientFormFields({
  conflict,
  onCancel,
}: {
  conflict: ReturnType<typeof useEditConflict>;
  onCancel: () => void;
}) {
  const busy = useFormBusy();
  const form = useFormContext<ClientFields>();
  return (
    <fieldset disabled={busy} className="grid gap-4">
      <EditConflictNotice conflict={conflict} entity="client" />
      <FormField
        control={form.control}
        name="name"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Company Name *</FormLabel>
            <FormControl>
              <Input autoComplete="organization" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {textFields.map((text) => (
          <FormField
            key={text.name}
            control={form.control}
            name={text.name}
            render={({ field }) => (
              <FormItem className={text.name === "address" ? "sm:col-span-2" : undefined}>
                <FormLabel>{text.label}</FormLabel>
                <FormControl>
                  <Input type={text.type} autoComplete={text.autoComplete} {...field} value={field.value ?? ""} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        ))}
        <FormField
          control={form.control}
          name="status"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Status</FormLabel>
              <Select value={field.value} onValueChange={field.onChange}>
                <FormControl>
                  <SelectTrigger>
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {clientStatuses.map((status) => (
                    <SelectItem key={status} value={status}>
                      {clientStatusBadge[status].label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormMessage />
            </FormItem>
          )}
        />
      </div>
      <TaxDetailsFields />
      <DialogFooter className="pt-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">{busy ? "Saving..." : "Save Changes"}</Button>
      </DialogFooter>
    </fieldset>
  );
}

/**
 * S-DUE-16: fiscal year end (a month, then a day of it), entity type, jurisdiction and, for the
 * United States only, the state. Choosing another jurisdiction clears the state.
 */
function TaxDetailsFields() {
  const form = useFormContext<ClientFields>();
  const headingId = useId();
  const jurisdiction = form.watch("jurisdiction");
  return (
    <section aria-labelledby={headingId} className="grid gap-4 border-t pt-4">
      <div className="grid gap-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Tax details
        </h3>
        <p className="text-xs text-muted-foreground">Used to work out the client's statutory due dates.</p>
      </div>
      <FormField
        control={form.control}
        name="fiscalYearEnd"
        render={({ field, fieldState }) => {
          const date = parseMonthDay(field.value);
          return (
            <FormItem>
              <FormLabel>Fiscal year end</FormLabel>
              <div className="grid grid-cols-[minmax(0,1fr)_6rem] gap-2 sm:grid-cols-2 sm:gap-4">
                <Select
                  value={date ? String(date.month) : notSet}
                  onValueChange={(value) =>
                    field.onChange(value === notSet ? null : withMonth(field.value, Number(value)))
                  }
                >
                  <FormControl>
                    <SelectTrigger aria-label="Fiscal year end month" onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    <SelectItem value={notSet}>Not set</SelectItem>
                    {monthNames.map((name, index) => (
                      <SelectItem key={name} value={String(index + 1)}>
                        {name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <Select
                  value={date ? String(date.day) : ""}
                  onValueChange={(value) => date && field.onChange(monthDay(date.month, Number(value)))}
                  disabled={!date}
                >
                  <SelectTrigger aria-label="Fiscal year end day" aria-invalid={Boolean(fieldState.error)}>
                    <SelectValue placeholder="Day" />
                  </SelectTrigger>
                  <SelectContent>
                    {dayNumbers(date?.month).map((day) => (
                      <SelectItem key={day} value={String(day)}>
                        {day}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              <FormMessage />
            </FormItem>
          );
        }}
      />
      <FormField
        control={form.control}
        name="entityType"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Entity type</FormLabel>
            <Select
              value={field.value ?? notSet}
              onValueChange={(value) => field.onChange(value === notSet ? null : value)}
            >
              <FormControl>
                <SelectTrigger onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                <SelectItem value={notSet}>Not set</SelectItem>
                {entityTypes.map((type) => (
                  <SelectItem key={type} value={type}>
                    {entityTypeLabels[type]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormMessage />
          </FormItem>
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          control={form.control}
          name="jurisdiction"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Jurisdiction</FormLabel>
              <Select
                value={field.value ?? notSet}
                onValueChange={(value) => {
                  const next = value === notSet ? null : (value as (typeof taxJurisdictions)[number]);
                  field.onChange(next);
                  // A state belongs to a US client only.
                  if (next !== "US" && form.getValues("state")) form.setValue("state", null, { shouldDirty: true });
                  form.clearErrors("state");
                }}
              >
                <FormControl>
                  <SelectTrigger onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  <SelectItem value={notSet}>Not set</SelectItem>
                  {taxJurisdictions.map((code) => (
                    <SelectItem key={code} value={code}>
                      {taxJurisdictionLabels[code]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormMessage />
            </FormItem>
          )}
        />
        {jurisdiction === "US" && (
          <FormField
            control={form.control}
            name="state"
            render={({ field }) => (
              <FormItem>
                <FormLabel>State</FormLabel>
                <Select
                  value={field.value || notSet}
                  onValueChange={(value) => field.onChange(value === notSet ? null : value)}
                >
                  <FormControl>
                    <SelectTrigger onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    <SelectItem value={notSet}>Not set</SelectItem>
                    {usStateCodes.map((code) => (
                      <SelectItem key={code} value={code}>
                        {code}
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
    </section>
  );
}
