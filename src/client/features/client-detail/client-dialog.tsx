import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useForm, useFormContext } from "react-hook-form";
import type { z } from "zod";
import { type ClientDetail, clientStatuses, createClientSchema } from "../../../shared/clients";
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
import { clientDetailQueryOptions, useUpdateClient } from "./api";
import { clientStatusBadge } from "./client-status";

/** The client's own fields, with the messages of S-VAL-09..10, from the route's schema. */
const clientFormSchema = createClientSchema.pick({
  name: true,
  industry: true,
  address: true,
  phone: true,
  email: true,
  status: true,
});
type ClientFields = z.input<typeof clientFormSchema>;

const valuesOf = (client: ClientDetail): ClientFields => ({
  name: client.name,
  industry: client.industry ?? "",
  address: client.address ?? "",
  phone: client.phone ?? "",
  email: client.email ?? "",
  status: client.status,
});

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
      <DialogFooter className="pt-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">{busy ? "Saving..." : "Save Changes"}</Button>
      </DialogFooter>
    </fieldset>
  );
}
