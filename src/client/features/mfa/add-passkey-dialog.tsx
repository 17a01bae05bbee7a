import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { addPasskeySchema, type PasskeyCreationOptions } from "../../../shared/mfa";
import { PasskeyProblemMessage } from "../../components/passkey-problem";
import { Button } from "../../components/ui/button";
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
import { showFieldIssues } from "../../lib/form-errors";
import { type PasskeyProblem, passkeyProblem } from "../../lib/passkeys";
import { useAddPasskey } from "./api";

// The name is asked for here (the API would name it "Passkey"): a person with several tells them apart by it.
const nameSchema = z.object({ name: addPasskeySchema.shape.name.unwrap() });
type Fields = z.input<typeof nameSchema>;
type Output = z.output<typeof nameSchema>;

/**
 * Adding a passkey: a name to tell it apart, then the browser's prompt, where the device makes the
 * passkey and unlocks it with a fingerprint, a face or its screen lock. Open while `options` (the
 * server's, asked for when "Add a passkey" was chosen) are set.
 */
export function AddPasskeyDialog({
  options,
  onClose,
  onRecoveryCodes,
}: {
  options: PasskeyCreationOptions | undefined;
  onClose: () => void;
  /** The codes that come with a first factor, for the dialog that shows them once. */
  onRecoveryCodes: (codes: string[]) => void;
}) {
  return (
    <Dialog open={options !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Add a passkey</DialogTitle>
          <DialogDescription>
            This device keeps the passkey and unlocks it with your fingerprint, your face or its screen lock. It can
            then confirm your sign-ins, or sign you in without your password.
          </DialogDescription>
        </DialogHeader>
        {options && <NameForm options={options} onClose={onClose} onRecoveryCodes={onRecoveryCodes} />}
      </DialogContent>
    </Dialog>
  );
}

function NameForm({
  options,
  onClose,
  onRecoveryCodes,
}: {
  options: PasskeyCreationOptions;
  onClose: () => void;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const add = useAddPasskey();
  // The options' challenge answers once: a try after the first asks the server for new ones.
  const unused = useRef<PasskeyCreationOptions | undefined>(options);
  const [problem, setProblem] = useState<PasskeyProblem>();
  const form = useForm<Fields, unknown, Output>({ resolver: zodResolver(nameSchema), defaultValues: { name: "" } });

  const submit = ({ name }: Output) => {
    setProblem(undefined);
    const held = unused.current;
    unused.current = undefined;
    return add.mutateAsync({ name, options: held }).then(
      ({ factor, recoveryCodes }) => {
        toast.success("Passkey added", { description: `${factor.name} now confirms your sign-ins.` });
        onClose();
        if (recoveryCodes) onRecoveryCodes(recoveryCodes);
      },
      (error: unknown) => {
        if (!showFieldIssues(form.setError, error, ["name"])) setProblem(passkeyProblem(error));
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={submit} aria-label="The new passkey" className="flex flex-col gap-4">
      {(busy) => (
        <>
          <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
            <PasskeyProblemMessage problem={problem} />
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Name</FormLabel>
                  <FormControl>
                    <Input autoComplete="off" placeholder="MacBook Touch ID" {...field} />
                  </FormControl>
                  <FormDescription>To tell your passkeys apart, such as the device that keeps it.</FormDescription>
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
              {busy ? "Waiting for your passkey..." : problem ? "Try again" : "Create passkey"}
            </Button>
          </DialogFooter>
        </>
      )}
    </GuardedForm>
  );
}
