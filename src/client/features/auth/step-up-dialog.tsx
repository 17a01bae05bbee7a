import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AccountSecurity } from "../../../shared/mfa";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { FormAlert } from "../../components/ui/form";
import { Skeleton } from "../../components/ui/skeleton";
import { accountSecurityQueryOptions } from "../../lib/account-security";
import { errorMessage } from "../../lib/api";
import { useStepUpCheck } from "./api";
import { ProofForm, type ProofMethod } from "./proof-form";

/**
 * "Confirm it's you": mounted while a change waits for the answer (step-up-provider.tsx), which
 * `onDone` gives: true once the server accepted the proof, false when the person cancelled.
 */
export function StepUpDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onDone(false)}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Confirm it's you</DialogTitle>
          <DialogDescription>
            This change protects your account, so we check it's you first. You won't be asked again for 5 minutes.
          </DialogDescription>
        </DialogHeader>
        <StepUpBody onConfirmed={() => onDone(true)} onCancel={() => onDone(false)} />
      </DialogContent>
    </Dialog>
  );
}

function StepUpBody({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const security = useQuery(accountSecurityQueryOptions());
  if (security.data) return <StepUpForm security={security.data} onConfirmed={onConfirmed} onCancel={onCancel} />;
  if (security.isError) {
    return (
      <FormAlert>
        {errorMessage(security.error, "Your sign-in methods could not be loaded. Please try again.")}
      </FormAlert>
    );
  }
  return (
    <div className="flex flex-col gap-2" aria-hidden="true">
      <Skeleton className="h-4 w-32" />
      <Skeleton className="h-9 w-full" />
    </div>
  );
}

/**
 * What is asked for follows the user's factors: a code from their authenticator app (or one of
 * their recovery codes instead), or, for a user without a second factor, their password.
 */
function StepUpForm({
  security,
  onConfirmed,
  onCancel,
}: {
  security: AccountSecurity;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const hasAuthenticator = security.factors.some((factor) => factor.kind === "totp");
  const [method, setMethod] = useState<ProofMethod>(
    hasAuthenticator ? "totp" : security.factors.length > 0 ? "recovery_code" : "password",
  );
  const check = useStepUpCheck();
  const other = method === "totp" ? "recovery_code" : method === "recovery_code" && hasAuthenticator ? "totp" : null;

  const submit = (value: string) =>
    check.mutateAsync(method === "password" ? { method, password: value } : { method, code: value }).then(onConfirmed);

  return (
    <div className="flex flex-col gap-3">
      <ProofForm
        key={method}
        method={method}
        submit={submit}
        submitLabel="Confirm"
        pendingLabel="Confirming..."
        actions={(busy) => (
          <Button variant="outline" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
      />
      {other && (
        <Button variant="link" className="h-auto self-start px-0" onClick={() => setMethod(other)}>
          {other === "recovery_code" ? "Use a recovery code instead" : "Use your authenticator app instead"}
        </Button>
      )}
    </div>
  );
}
