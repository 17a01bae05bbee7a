import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, Plus } from "lucide-react";
import { useId } from "react";
import { type FieldPath, useForm } from "react-hook-form";
import { Link } from "react-router";
import { z } from "zod";
import {
  type ClientNameMatch,
  type ClientStatus,
  type CreateClientInput,
  clientStatuses,
  createClientSchema,
} from "../../../shared/clients";
import { clientStatusLabels } from "../../components/client-status-badge";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog";
import { DuplicateNameNotice, useDuplicateName } from "../../components/ui/duplicate-name";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { findClientsNamed, useCreateClient } from "./api";
import { TemplatePicker } from "./template-picker";

const emptyForm: NewClientFields = {
  name: "",
  industry: "",
  address: "",
  phone: "",
  email: "",
  status: "active",
  primaryContact: { name: "", title: "", phone: "", email: "" },
  templateIds: [],
};

/** The select's order is S-CNEW-09's, not the schema's. */
const statusOptions: ClientStatus[] = ["active", "prospect", "inactive"];

/**
 * The form's text as typed, then the route's own schema (createClientSchema, S-VAL-09..15's messages).
 * Between the two, one rule of the form: an untouched Primary Contact section is no contact at
 * all, so "Contact name is required" shows only once some contact field is filled, and a
 * contact whose fields are only spaces is not sent.
 */
const newClientFormSchema = z
  .object({
    name: z.string(),
    industry: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    status: z.enum(clientStatuses),
    primaryContact: z.object({ name: z.string(), title: z.string(), phone: z.string(), email: z.string() }),
    templateIds: z.array(z.string()),
  })
  .transform(
    ({ primaryContact, ...client }): z.input<typeof createClientSchema> => ({
      ...client,
      primaryContact: Object.values(primaryContact).every((value) => value.trim() === "") ? undefined : primaryContact,
    }),
  )
  .pipe(createClientSchema);

type NewClientFields = z.input<typeof newClientFormSchema>;

/** The product's toasts (S-CNEW-23) explain a failure; this is for a failure without a server message. */
const noAnswerMessage = "The server could not be reached. Please try again.";

/**
 * "New Client" and the "Create New Client" dialog (the CNEW requirements), saved in one request.
 * The page holds whether it is open, so its empty state can open the same dialog (S-EDGE-12).
 */
export function NewClientDialog({
  open,
  onOpenChange: setOpen,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const createClient = useCreateClient();
  const form = useForm<NewClientFields, unknown, CreateClientInput>({
    resolver: zodResolver(newClientFormSchema),
    defaultValues: emptyForm,
  });
  const duplicate = useDuplicateName({ form, field: "name", find: findClientsNamed });
  const pending = createClient.isPending;

  // Every way out (Cancel, Escape, the close button) is a cancel: the next opening starts empty.
  const onOpenChange = (next: boolean) => {
    if (pending) return;
    if (!next) {
      form.reset(emptyForm);
      createClient.reset();
      duplicate.reset();
    }
    setOpen(next);
  };

  // S-EDGE-04: a name the firm already has is asked about before the create is sent.
  const create = async (input: CreateClientInput, { idempotencyKey }: Submission) => {
    try {
      if (!(await duplicate.check(input.name))) return;
      await createClient.mutateAsync({ input, idempotencyKey });
    } catch (error) {
      toast.error("Failed to create client", { description: errorMessage(error, noAnswerMessage) });
      return;
    }
    toast.success("Client created successfully!");
    form.reset(emptyForm);
    duplicate.reset();
    setOpen(false);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          New Client
        </Button>
      </DialogTrigger>
      <DialogContent
        className="max-w-4xl"
        bodyClassName="gap-0 p-0"
        // A long form is not thrown away by a stray click beside it.
        onInteractOutside={(event) => event.preventDefault()}
      >
        <GuardedForm form={form} onValid={create} className="flex min-w-0 flex-col">
          {(busy) => (
            <>
              <DialogHeader className="px-6 pt-6 pb-4">
                <DialogTitle>Create New Client</DialogTitle>
                <DialogDescription>
                  Add the client's details, an optional primary contact and the work to start with.
                </DialogDescription>
              </DialogHeader>
              <fieldset
                disabled={busy}
                className="grid min-w-0 grid-cols-1 gap-x-8 gap-y-6 border-t px-6 py-5 md:grid-cols-2"
              >
                <div className="flex min-w-0 flex-col gap-4">
                  <TextField name="name" label="Company Name" required autoComplete="organization" />
                  {duplicate.warning && (
                    <DuplicateNameNotice entity="client" onConfirm={duplicate.confirm}>
                      <SameNameClients matches={duplicate.warning.matches} />
                    </DuplicateNameNotice>
                  )}
                  <TextField name="industry" label="Industry" />
                  <TextField name="address" label="Address" autoComplete="street-address" />
                  <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
                    <TextField name="phone" label="Phone" type="tel" autoComplete="tel" />
                    <TextField name="email" label="Email" type="email" autoComplete="email" />
                  </div>
                  <FormField<NewClientFields, "status">
                    name="status"
                    render={({ field }) => (
                      <FormItem>
                        <FormLabel>Status</FormLabel>
                        <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                          <FormControl>
                            <SelectTrigger onBlur={field.onBlur}>
                              <SelectValue />
                            </SelectTrigger>
                          </FormControl>
                          <SelectContent>
                            {statusOptions.map((status) => (
                              <SelectItem key={status} value={status}>
                                {clientStatusLabels[status]}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                  <PrimaryContactSection />
                </div>
                <div className="min-w-0 md:border-l md:pl-8">
                  <FormField<NewClientFields, "templateIds">
                    name="templateIds"
                    render={({ field }) => (
                      <TemplatePicker value={field.value} onChange={field.onChange} disabled={busy} />
                    )}
                  />
                </div>
              </fieldset>
              <DialogFooter className="bottom-0 mx-0 mb-0 py-4">
                <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy}>
                  {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
                  {busy ? "Creating..." : "Create Client"}
                </Button>
              </DialogFooter>
            </>
          )}
        </GuardedForm>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Names the clients that already have the name, each a link (in a new tab, so the form keeps what
 * was typed), and says which are archived: one of those may be worth restoring instead.
 */
function SameNameClients({ matches }: { matches: ClientNameMatch[] }) {
  const [only] = matches;
  if (matches.length === 1 && only) {
    return only.archivedAt ? (
      <p>
        You already have an archived client named <ClientLink client={only} />. You could restore it from its page
        instead.
      </p>
    ) : (
      <p>
        You already have a client named <ClientLink client={only} />.
      </p>
    );
  }
  return (
    <>
      <p>You already have clients with this name:</p>
      <ul className="list-disc pl-5">
        {matches.map((client) => (
          <li key={client.id}>
            <ClientLink client={client} />
            {client.archivedAt && " (archived)"}
          </li>
        ))}
      </ul>
    </>
  );
}

function ClientLink({ client }: { client: ClientNameMatch }) {
  return (
    <Link
      to={`/client/${client.id}`}
      target="_blank"
      rel="noopener"
      className="font-semibold break-words underline underline-offset-2"
    >
      {client.name}
    </Link>
  );
}

function PrimaryContactSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-2 flex flex-col gap-4 border-t pt-5">
      <div className="flex flex-col gap-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Primary Contact
        </h3>
        <p className="text-xs text-muted-foreground">Optional. Leave it empty to add contacts later.</p>
      </div>
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
        <TextField name="primaryContact.name" label="Contact Name" autoComplete="name" />
        <TextField name="primaryContact.title" label="Title" autoComplete="organization-title" />
        <TextField name="primaryContact.phone" label="Contact Phone" type="tel" autoComplete="tel" />
        <TextField name="primaryContact.email" label="Contact Email" type="email" autoComplete="email" />
      </div>
    </section>
  );
}

type TextFieldName = Exclude<FieldPath<NewClientFields>, "status" | "templateIds" | "primaryContact">;

/** A labelled text input bound to the form, with its zod message under it. */
function TextField({
  name,
  label,
  required = false,
  type = "text",
  autoComplete = "off",
}: {
  name: TextFieldName;
  label: string;
  required?: boolean;
  type?: "text" | "tel" | "email";
  autoComplete?: string;
}) {
  return (
    <FormField<NewClientFields, TextFieldName>
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>
            {label}
            {required && <span className="text-destructive"> *</span>}
          </FormLabel>
          <FormControl>
            <Input {...field} type={type} autoComplete={autoComplete} aria-required={required || undefined} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
