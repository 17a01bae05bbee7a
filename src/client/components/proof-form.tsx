import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { maxPasswordLength } from "../../shared/auth";
import { recoveryCodeSchema, totpCodeSchema } from "../../shared/mfa";
import { errorMessage } from "../lib/api";
import { showFieldIssues } from "../lib/form-errors";
import { Button } from "./ui/button";
import { CodeInput } from "./ui/code-input";
import { FormAlert, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "./ui/form";
import { GuardedForm } from "./ui/guarded-form";
import { Input } from "./ui/input";

/** The ways a person shows it's them after the password (decision 0044); the password only for a step-up. */
export type ProofMethod = "totp" | "recovery_code" | "password";

type Fields = { value: string };

/** Per method: its schema (the API's own), the field the server names in its issues, and the field's words. */
const proofs: Record<ProofMethod, { schema: z.ZodType<Fields, Fields>; field: string; label: string; hint?: string }> =
  {
    totp: {
      schema: z.object({ value: totpCodeSchema }),
      field: "code",
      label: "Authentication code",
      hint: "The 6-digit code your authenticator app shows now.",
    },
    recovery_code: {
      schema: z.object({ value: recoveryCodeSchema }),
      field: "code",
      label: "Recovery code",
      hint: "One of the codes you saved when you set up two-step sign-in. Each works once.",
    },
    password: {
      schema: z.object({ value: z.string().min(1, "Enter your password").max(maxPasswordLength) }),
      field: "password",
      label: "Password",
    },
  };

/**
 * One field for one proof, and its submit button. `submit` sends the checked value (a code without
 * its spaces); a wrong one comes back as the server's issue on the field and shows under it, with
 * the field focused again for the next try; any other refusal (too many tries) shows above it.
 * `actions` sit beside the submit button (Cancel, in a dialog).
 */
export function ProofForm({
  method,
  submit,
  submitLabel,
  pendingLabel,
  actions,
  className,
}: {
  method: ProofMethod;
  submit: (value: string) => Promise<unknown>;
  submitLabel: string;
  pendingLabel: string;
  actions?: (busy: boolean) => ReactNode;
  className?: string;
}) {
  const proof = proofs[method];
  const [failure, setFailure] = useState<string>();
  const [tries, setTries] = useState(0);
  const form = useForm<Fields, unknown, Fields>({ resolver: zodResolver(proof.schema), defaultValues: { value: "" } });

  // The field takes the focus when the form shows, and again after a refusal: the next try is typed there.
  useEffect(() => {
    form.setFocus("value", { shouldSelect: tries > 0 });
  }, [form, tries]);

  const onValid = ({ value }: Fields) => {
    setFailure(undefined);
    return submit(value).catch((error: unknown) => {
      if (!showFieldIssues(form.setError, error, { [proof.field]: "value" })) {
        setFailure(errorMessage(error, "That did not work. Please try again."));
      }
      setTries((count) => count + 1);
    });
  };

  return (
    <GuardedForm form={form} onValid={onValid} className={className}>
      {(busy) => (
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
          {failure && <FormAlert>{failure}</FormAlert>}
          <FormField
            control={form.control}
            name="value"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{proof.label}</FormLabel>
                <FormControl>
                  {method === "totp" ? (
                    <CodeInput {...field} />
                  ) : method === "recovery_code" ? (
                    <Input
                      autoComplete="off"
                      autoCapitalize="none"
                      spellCheck={false}
                      placeholder="xxxx-xxxx-xxxx-xxxx"
                      className="font-mono"
                      {...field}
                    />
                  ) : (
                    <Input type="password" autoComplete="current-password" {...field} />
                  )}
                </FormControl>
                {proof.hint && <FormDescription>{proof.hint}</FormDescription>}
                <FormMessage />
              </FormItem>
            )}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            {actions?.(busy)}
            <Button type="submit" className={actions ? undefined : "w-full"}>
              {busy ? pendingLabel : submitLabel}
            </Button>
          </div>
        </fieldset>
      )}
    </GuardedForm>
  );
}
