import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type Contact, createContactSchema } from "../../../shared/clients";
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
import { EditConflictNotice, useEditConflict } from "../../components/ui/edit-conflict";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { type ContactChange, clientDetailQueryOptions, useSaveContact } from "./api";

/** POST /api/contacts's own schema less the client, which the page supplies. */
const contactFormSchema = createContactSchema.omit({ clientId: true });
type ContactFields = z.input<typeof contactFormSchema>;

const textFields = [
  { name: "title", label: "Title", autoComplete: "organization-title", type: "text" },
  { name: "phone", label: "Phone", autoComplete: "tel", type: "tel" },
  { name: "email", label: "Email", autoComplete: "email", type: "email" },
] as const;

const valuesOf = (contact: Contact | undefined): ContactFields => ({
  name: contact?.name ?? "",
  title: contact?.title ?? "",
  phone: contact?.phone ?? "",
  email: contact?.email ?? "",
  isPrimary: contact?.isPrimary ?? false,
});

/** Add Contact, or Edit Contact when `contact` is given. */
export function ContactDialog({
  clientId,
  contact,
  open,
  onOpenChange,
}: {
  clientId: string;
  contact: Contact | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{contact ? "Edit Contact" : "Add Contact"}</DialogTitle>
          <DialogDescription>
            {contact ? `Change ${contact.name}'s details.` : "Someone you work with at this client."}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted with each opening, so the form starts from the contact as it is now. */}
        <ContactForm clientId={clientId} contact={contact} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ContactForm({
  clientId,
  contact,
  onDone,
}: {
  clientId: string;
  contact: Contact | undefined;
  onDone: () => void;
}) {
  const save = useSaveContact(clientId);
  const queryClient = useQueryClient();
  const form = useForm<ContactFields, unknown, z.output<typeof contactFormSchema>>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: valuesOf(contact),
  });
  const conflict = useEditConflict({
    resource: contact,
    form,
    valuesOf,
    load: async () => {
      const client = await queryClient.fetchQuery({ ...clientDetailQueryOptions(clientId), staleTime: 0 });
      const latest = client.contacts.find((other) => other.id === contact?.id);
      if (!latest) throw new Error("This contact has been removed");
      return latest;
    },
  });
  const verb = contact ? "update" : "add";

  const submit = (values: z.output<typeof contactFormSchema>, { idempotencyKey }: Submission) => {
    const change: ContactChange = contact
      ? { contactId: contact.id, input: conflict.changes(values), version: conflict.version }
      : { contactId: undefined, input: { ...values, clientId }, idempotencyKey };
    if (Object.keys(change.input).length === 0) return onDone();
    return save.mutateAsync(change).then(
      () => {
        toast.success(contact ? "Contact updated successfully!" : "Contact added successfully!");
        onDone();
      },
      (error: unknown) => {
        if (conflict.caught(error)) return;
        toast.error(`Failed to ${verb} contact`, { description: errorMessage(error, "Please try again.") });
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={submit}>
      {(busy) => (
        <fieldset disabled={busy} className="grid gap-4">
          <EditConflictNotice conflict={conflict} entity="contact" />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Contact Name *</FormLabel>
                <FormControl>
                  <Input autoComplete="name" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {textFields.map((text) => (
            <FormField
              key={text.name}
              control={form.control}
              name={text.name}
              render={({ field }) => (
                <FormItem>
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
            name="isPrimary"
            render={({ field }) => (
              <FormItem className="flex items-start gap-3 rounded-md border p-3">
                <FormControl>
                  <Checkbox checked={field.value} onCheckedChange={(checked) => field.onChange(checked === true)} />
                </FormControl>
                <div className="grid gap-1">
                  <FormLabel>Primary contact</FormLabel>
                  <FormDescription>A client has one primary contact; this replaces the current one.</FormDescription>
                </div>
              </FormItem>
            )}
          />
          <DialogFooter className="pt-2">
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit">{busy ? "Saving..." : contact ? "Save Changes" : "Add Contact"}</Button>
          </DialogFooter>
        </fieldset>
      )}
    </GuardedForm>
  );
}
