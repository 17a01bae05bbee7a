import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { confirmTotpSchema, type TotpEnrolment } from "../../../shared/mfa";
import { AuthenticatorKey } from "../../components/authenticator-key";
import { Button } from "../../components/ui/button";
import { CodeInput } from "../../components/ui/code-input";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import { useConfirmTotp } from "./api";

type Fields = z.input<typeof confirmTotpSchema>;
type Output = z.output<typeof confirmTotpSchema>;

/**
 * Adding an authenticator app: the key it reads (QR code or text), a name to tell it apart, and
 * one code it shows, which proves it was added right. Open while `enrolment` is set.
 */
export function AddAuthenticatorDialog({
  enrolment,
  onClose,
  onRecoveryCodes,
}: {
  enrolment: TotpEnrolment | undefined;
  onClose: () => void;
  /** The codes that come with a first factor, for the dialog that shows them once. */
  onRecoveryCodes: (codes: string[]) => void;
}) {
  return (
    <Dialog open={enrolment !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl" onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Add an authenticator app</DialogTitle>
          <DialogDescription>After your password, you will enter the code this app shows.</DialogDescription>
        </DialogHeader>
        {enrolment && <AuthenticatorKey enrolment={enrolment} />}
        <ConfirmForm onClose={onClose} onRecoveryCodes={onRecoveryCodes} />
      </DialogContent>
    </Dialog>
  );
}

function ConfirmForm({
  onClose,
  onRecoveryCodes,
}: {
  onClose: () => void;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const confirm = useConfirmTotp();
  const form = useForm<Fields, unknown, Output>({
    resolver: zodResolver(confirmTotpSchema),
    defaultValues: { code: "", name: "" },
  });

  const submit = (input: Output) =>
    confirm.mutateAsync(input).then(
      ({ factor, recoveryCodes }) => {
        toast.success("Authenticator app added", { description: `${factor.name} now confirms your sign-ins.` });
        onClose();
        if (recoveryCodes) onRecoveryCodes(recoveryCodes);
      },
      (error: unknown) => {
        if (!showFieldIssues(form.setError, error, ["code", "name"])) {
          toast.error("Failed to add the authenticator app", { description: errorMessage(error, "Please try again.") });
        }
      },
    );

  return (
    <GuardedForm
      form={form}
      onValid={submit}
      aria-label="Confirm the authenticator app"
      className="flex flex-col gap-4"
    >
      {(busy) => (
        <>
          <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Name</FormLabel>
                  <FormControl>
                    <Input autoComplete="off" placeholder="Work phone" {...field} value={field.value ?? ""} />
                  </FormControl>
                  <FormDescription>To tell your apps apart, such as the phone it is on.</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="code"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Code from the app</FormLabel>
                  <FormControl>
                    <CodeInput {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
          </fieldset>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
              {busy ? "Adding..." : "Add app"}
            </Button>
          </DialogFooter>
        </>
      )}
    </GuardedForm>
  );
}
