import { Mail, Pencil, Phone, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import type { ClientDetail, Contact } from "../../../shared/clients";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useDeleteContact } from "./api";
import { ContactLink } from "./client-info-card";
import { ContactDialog } from "./contact-dialog";

/** What the contact dialog is open for: a new contact, or one to change. */
type Editing = { contact: Contact | undefined } | undefined;

/**
 * S-CDET-07..08: per contact its name, a Primary badge, title, phone and email; "No contacts
 * added" when there are none. Adding, changing and removing contacts is for admins and up.
 */
export function ContactsCard({ client, canEdit }: { client: ClientDetail; canEdit: boolean }) {
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<Contact>();
  const remove = useDeleteContact(client.id);
  // An archived client is kept as it was; restoring it makes it editable again.
  const editable = canEdit && client.archivedAt === null;

  const onDelete = (contact: Contact) =>
    remove.mutate(contact.id, {
      onSuccess: () => {
        setDeleting(undefined);
        toast.success("Contact deleted", { description: `${contact.name} was removed from ${client.name}.` });
      },
      onError: (error) => {
        setDeleting(undefined);
        toast.error("Failed to delete contact", { description: errorMessage(error, "Please try again.") });
      },
    });

  return (
    <Card data-testid="contacts">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>Key Contacts</CardTitle>
        {editable && (
          <Button variant="outline" size="sm" onClick={() => setEditing({ contact: undefined })}>
            <Plus aria-hidden="true" />
            Add Contact
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {client.contacts.length === 0 ? (
          <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            No contacts added
          </p>
        ) : (
          <ul className="flex flex-col divide-y" aria-label="Key contacts">
            {client.contacts.map((contact) => (
              <li key={contact.id} className="flex gap-3 py-3 first:pt-0 last:pb-0" data-testid="contact">
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="min-w-0 text-sm font-medium wrap-anywhere">{contact.name}</span>
                    {contact.isPrimary && <Badge variant="default">Primary</Badge>}
                  </div>
                  {contact.title && <p className="text-xs text-muted-foreground">{contact.title}</p>}
                  {contact.phone && (
                    <p className="flex items-center gap-1.5 text-xs">
                      <Phone className="size-3.5 shrink-0 text-muted-foreground" aria-label="Phone" />
                      <ContactLink href={`tel:${contact.phone}`}>{contact.phone}</ContactLink>
                    </p>
                  )}
                  {contact.email && (
                    <p className="flex min-w-0 items-center gap-1.5 text-xs">
                      <Mail className="size-3.5 shrink-0 text-muted-foreground" aria-label="Email" />
                      <span className="min-w-0 truncate" title={contact.email}>
                        <ContactLink href={`mailto:${contact.email}`}>{contact.email}</ContactLink>
                      </span>
                    </p>
                  )}
                </div>
                {editable && (
                  <div className="flex shrink-0 items-start gap-1">
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`Edit ${contact.name}`}
                      onClick={() => setEditing({ contact })}
                    >
                      <Pencil aria-hidden="true" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8 text-muted-foreground hover:text-destructive"
                      aria-label={`Delete ${contact.name}`}
                      onClick={() => setDeleting(contact)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      {editable && (
        <ContactDialog
          clientId={client.id}
          contact={editing?.contact}
          open={editing !== undefined}
          onOpenChange={(open) => !open && setEditing(undefined)}
        />
      )}

      <AlertDialog open={deleting !== undefined} onOpenChange={(open) => !open && setDeleting(undefined)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this contact?</AlertDialogTitle>
            <AlertDialogDescription>
              {deleting?.name} will be removed from {client.name}'s key contacts. This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => deleting && onDelete(deleting)}>
              {remove.isPending ? "Deleting..." : "Delete Contact"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
