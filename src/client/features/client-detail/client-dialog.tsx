import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
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
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { Input } from "../../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useUpdateClient } from "./api";
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
  const form = useForm<ClientFields, unknown, z.output<typeof clientFormSchema>>({
    resolver: zodResolver(clientFormSchema),
    defaultValues: valuesOf(client),
  });

  const onSubmit = form.handleSubmit((input) =>
    update.mutate(input, {
      onSuccess: () => {
        toast.success("Client updated successfully!");
        onDone();
      },
      onError: (error) =>
        toast.error("Failed to update client", { description: errorMessage(error, "Please try again.") }),
    }),
  );

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={update.isPending} className="grid gap-4">
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
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit">{update.isPending ? "Saving..." : "Save Changes"}</Button>
          </DialogFooter>
        </fieldset>
      </form>
    </Form>
  );
}
