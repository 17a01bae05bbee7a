import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import type { AccountSecurity } from "../../../shared/mfa";
import { PasskeyProblemMessage } from "../../components/passkey-problem";
import { ProofForm, type ProofMethod } from "../../components/proof-form";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { FormAlert } from "../../components/ui/form";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { type PasskeyProblem, passkeyProblem, passkeysSupported } from "../../lib/passkeys";
import { accountSecurityQueryOptions, usePasskeyStepUpCheck, useStepUpCheck } from "./api";

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

type Way = ProofMethod | "passkey";

const otherWayLabels: Record<Way, string> = {
  passkey: "Use a passkey instead",
  totp: "Use your authenticator app instead",
  recovery_code: "Use a recovery code instead",
  password: "Use your password instead",
};

/**
 * What is asked for follows the user's factors: one of their passkeys (where the browser can use
 * one), a code from their authenticator app, or one of their recovery codes instead; for a user
 * without a second factor, their password. A closed passkey prompt is said calmly, and the other
 * ways stay open.
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
  const [ways] = useState<Way[]>(() => {
    const kinds = new Set(security.factors.map((factor) => factor.kind));
    if (kinds.size === 0) return ["password"];
    return [
      ...(kinds.has("passkey") && passkeysSupported() ? (["passkey"] as const) : []),
      ...(kinds.has("totp") ? (["totp"] as const) : []),
      "recovery_code" as const,
    ];
  });
  const [way, setWay] = useState<Way>(ways[0] ?? "password");
  const [problem, setProblem] = useState<PasskeyProblem>();
  const check = useStepUpCheck();
  const passkey = usePasskeyStepUpCheck();
  const others = ways.filter((other) => other !== way);

  const submit = (value: string) =>
    check
      .mutateAsync(
        way === "password"
          ? { method: way, password: value }
          : { method: way === "totp" ? "totp" : "recovery_code", code: value },
      )
      .then(onConfirmed);

  const startPasskey = () => {
    setProblem(undefined);
    passkey.mutateAsync().then(onConfirmed, (error: unknown) => setProblem(passkeyProblem(error)));
  };

  return (
    <div className="flex flex-col gap-3">
      {way === "passkey" ? (
        <div className="flex flex-col gap-4">
          <PasskeyProblemMessage problem={problem} />
          <p className="text-sm text-muted-foreground">
            Your browser asks for your passkey: your fingerprint, your face or your device's screen lock.
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onCancel} disabled={passkey.isPending}>
              Cancel
            </Button>
            <Button onClick={startPasskey} disabled={passkey.isPending}>
              <KeyRound aria-hidden="true" />
              {passkey.isPending ? "Waiting for your passkey..." : "Use a passkey"}
            </Button>
          </div>
        </div>
      ) : (
        <ProofForm
          key={way}
          method={way}
          submit={submit}
          submitLabel="Confirm"
          pendingLabel="Confirming..."
          actions={(busy) => (
            <Button variant="outline" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
          )}
        />
      )}
      {others.map((other) => (
        <Button
          key={other}
          variant="link"
          className="h-auto self-start px-0"
          disabled={passkey.isPending}
          onClick={() => {
            setProblem(undefined);
            setWay(other);
          }}
        >
          {otherWayLabels[other]}
        </Button>
      ))}
    </div>
  );
}
