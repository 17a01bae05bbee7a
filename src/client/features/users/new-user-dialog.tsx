import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, UserPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { roleLabels } from "../../../shared/permissions";
import type { Role } from "../../../shared/roles";
import { type CreateUserInput, createUserSchema } from "../../../shared/users";
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
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useCreateUser } from "./api";

type NewUserFields = z.input<typeof createUserSchema>;

const emptyForm: NewUserFields = { username: "", password: "", fullName: "", role: "user" };

/** S-ERR-22..23's texts: the toast's title, then what happened (the server's reason after it, when it gave one). */
export const createUserTexts = {
  success: { title: "Success", description: "User created successfully" },
  failure: { title: "Error", description: "Failed to create user" },
} as const;

/**
 * "New User" (S-USERS-08): username, password, full name and role (default user), checked by the
 * route's own schema (S-VAL-20..23's messages) before any request. The role list is what the actor
 * may grant (S-ROLE-13: an admin creates admins and users).
 */
export function NewUserDialog({ grantable }: { grantable: readonly Role[] }) {
  const [open, setOpen] = useState(false);
  const createUser = useCreateUser();
  const form = useForm<NewUserFields, unknown, CreateUserInput>({
    resolver: zodResolver(createUserSchema),
    defaultValues: emptyForm,
  });
  const pending = createUser.isPending;

  const onOpenChange = (next: boolean) => {
    if (pending) return;
    if (!next) {
      form.reset(emptyForm);
      createUser.reset();
    }
    setOpen(next);
  };

  const create = (input: CreateUserInput, { idempotencyKey }: Submission) =>
    createUser.mutateAsync({ input, idempotencyKey }).then(
      () => {
        toast.success(createUserTexts.success.title, { description: createUserTexts.success.description });
        form.reset(emptyForm);
        setOpen(false);
      },
      (error: unknown) => {
        const reason = errorMessage(error, "");
        toast.error(createUserTexts.failure.title, {
          description: reason
            ? `${createUserTexts.failure.description}: ${reason}`
            : createUserTexts.failure.description,
        });
      },
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          New User
        </Button>
      </DialogTrigger>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        <GuardedForm form={form} onValid={create} className="flex flex-col gap-5">
          {(pending) => (
            <>
              <DialogHeader>
                <DialogTitle>Create New User</DialogTitle>
                <DialogDescription>They sign in with this username and password.</DialogDescription>
              </DialogHeader>
              <fieldset disabled={pending} className="flex min-w-0 flex-col gap-4">
                <TextField name="username" label="Username" autoComplete="off" />
                <TextField name="password" label="Password" type="password" autoComplete="new-password" />
                <TextField name="fullName" label="Full Name" autoComplete="off" />
                <FormField<NewUserFields, "role">
                  name="role"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Role</FormLabel>
                      <Select value={field.value} onValueChange={field.onChange} disabled={pending}>
                        <FormControl>
                          <SelectTrigger onBlur={field.onBlur}>
                            <SelectValue />
                          </SelectTrigger>
                        </FormControl>
                        <SelectContent>
                          {grantable.map((role) => (
                            <SelectItem key={role} value={role}>
                              <span className="capitalize">{roleLabels[role]}</span>
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              </fieldset>
              <DialogFooter>
                <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
                  Cancel
                </Button>
                <Button type="submit" disabled={pending}>
                  {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
                  {pending ? "Creating..." : "Create User"}
                </Button>
              </DialogFooter>
            </>
          )}
        </GuardedForm>
      </DialogContent>
    </Dialog>
  );
}

function TextField({
  name,
  label,
  type = "text",
  autoComplete,
}: {
  name: "username" | "password" | "fullName";
  label: string;
  type?: "text" | "password";
  autoComplete: string;
}) {
  return (
    <FormField<NewUserFields, typeof name>
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>
            {label}
            <span className="text-destructive"> *</span>
          </FormLabel>
          <FormControl>
            <Input {...field} value={field.value ?? ""} type={type} autoComplete={autoComplete} aria-required />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
