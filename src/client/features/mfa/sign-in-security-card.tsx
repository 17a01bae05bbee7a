import { useQuery } from "@tanstack/react-query";
import { KeyRound, Plus, ShieldAlert } from "lucide-react";
import { useState } from "react";
import {
  type AccountSecurity,
  type PasskeyCreationOptions,
  RECOVERY_CODE_COUNT,
  type TotpEnrolment,
} from "../../../shared/mfa";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useDateFormat } from "../../lib/firm";
import { passkeysSupported } from "../../lib/passkeys";
import { FEW_RECOVERY_CODES } from "../../lib/recovery-codes";
import { AddAuthenticatorDialog } from "./add-authenticator-dialog";
import { AddPasskeyDialog } from "./add-passkey-dialog";
import { accountSecurityQueryOptions, useMakeRecoveryCodes, useStartPasskey, useStartTotp } from "./api";
import { FactorList } from "./factor-list";
import { RecoveryCodesDialog } from "./recovery-codes-dialog";

/**
 * Two-step sign-in for the signed-in user (decision 0044): their factors, adding an authenticator
 * app or a passkey (where the browser can make one), and their recovery codes. A new set of codes, whether it came with the first factor or was
 * asked for, shows once in its own dialog.
 */
export function SignInSecurityCard() {
  const security = useQuery(accountSecurityQueryOptions());
  return (
    <Card data-testid="sign-in-security">
      <CardHeader>
        <CardTitle>Sign-in security</CardTitle>
        <CardDescription>
          Two-step sign-in asks for a code from your phone or a passkey after your password, so your password alone is
          not enough to sign in as you.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {security.data ? (
          <SecurityDetails security={security.data} />
        ) : security.isError ? (
          <p className="text-sm text-destructive">
            {errorMessage(security.error, "Your sign-in security could not be loaded.")}
          </p>
        ) : (
          <div className="flex flex-col gap-3" aria-hidden="true">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-9 w-48" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function SecurityDetails({ security }: { security: AccountSecurity }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [passkeyOptions, setPasskeyOptions] = useState<PasskeyCreationOptions>();
  const [newCodes, setNewCodes] = useState<string[]>();
  const [offerPasskey] = useState(passkeysSupported);
  const start = useStartTotp();
  const startPasskey = useStartPasskey();
  const format = useDateFormat();
  const { factors, firmPolicy } = security;
  const requiredByFirm = firmPolicy.policy === "required";

  const add = () =>
    start.mutate(undefined, {
      onSuccess: setEnrolment,
      onError: (error) =>
        toast.error("Could not start adding an app", { description: errorMessage(error, "Please try again.") }),
    });

  const addPasskey = () =>
    startPasskey.mutate(undefined, {
      onSuccess: setPasskeyOptions,
      onError: (error) =>
        toast.error("Could not start adding a passkey", { description: errorMessage(error, "Please try again.") }),
    });

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="sign-in-factors" className="flex flex-col gap-3">
        <h3 id="sign-in-factors" className="text-sm font-semibold">
          Authenticator apps and passkeys
        </h3>
        {factors.length > 0 ? (
          <FactorList factors={factors} requiredByFirm={requiredByFirm} />
        ) : (
          <div
            role={requiredByFirm ? "note" : undefined}
            className="flex gap-2 rounded-md border border-dashed px-3 py-3 text-sm text-muted-foreground"
          >
            {requiredByFirm && <ShieldAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />}
            <p>
              {requiredByFirm
                ? `Your firm requires two-step sign-in${firmPolicy.requiredFrom ? ` from ${format(firmPolicy.requiredFrom)}` : ""}. Add an authenticator app${offerPasskey ? " or a passkey" : ""} to be ready.`
                : "None yet: your password alone signs you in."}
            </p>
          </div>
        )}
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" onClick={add} disabled={start.isPending}>
            <Plus aria-hidden="true" />
            {start.isPending ? "Starting..." : "Add an authenticator app"}
          </Button>
          {offerPasskey && (
            <Button variant="outline" onClick={addPasskey} disabled={startPasskey.isPending}>
              <KeyRound aria-hidden="true" />
              {startPasskey.isPending ? "Starting..." : "Add a passkey"}
            </Button>
          )}
        </div>
      </section>
      <RecoveryCodesSection left={security.recoveryCodesLeft} hasFactor={factors.length > 0} onCodes={setNewCodes} />
      <AddAuthenticatorDialog
        enrolment={enrolment}
        onClose={() => setEnrolment(undefined)}
        onRecoveryCodes={setNewCodes}
      />
      <AddPasskeyDialog
        options={passkeyOptions}
        onClose={() => setPasskeyOptions(undefined)}
        onRecoveryCodes={setNewCodes}
      />
      <RecoveryCodesDialog codes={newCodes} onClose={() => setNewCodes(undefined)} />
    </div>
  );
}

/** How many recovery codes are left, and a new set on request (which voids the old one). */
function RecoveryCodesSection({
  left,
  hasFactor,
  onCodes,
}: {
  left: number;
  hasFactor: boolean;
  onCodes: (codes: string[]) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const make = useMakeRecoveryCodes();

  const onMake = () =>
    make.mutate(undefined, {
      onSuccess: ({ codes }) => onCodes(codes),
      onError: (error) =>
        toast.error("Failed to make new codes", { description: errorMessage(error, "Please try again.") }),
      onSettled: () => setConfirming(false),
    });

  return (
    <section aria-labelledby="recovery-codes" className="flex flex-col gap-3">
      <h3 id="recovery-codes" className="text-sm font-semibold">
        Recovery codes
      </h3>
      {hasFactor ? (
        <>
          <p className="text-sm" data-testid="recovery-codes-left">
            {left === 0 ? "You have no recovery codes left." : `${left} of ${RECOVERY_CODE_COUNT} codes left.`}{" "}
            <span className="text-muted-foreground">
              {left <= FEW_RECOVERY_CODES
                ? "Make new ones so you can still sign in without your phone."
                : "Each signs you in once without your phone."}
            </span>
          </p>
          <Button variant="outline" className="self-start" onClick={() => setConfirming(true)}>
            Make new codes
          </Button>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">
          You get {RECOVERY_CODE_COUNT} when you add your first authenticator app or passkey.
        </p>
      )}
      <AlertDialog open={confirming} onOpenChange={(open) => !make.isPending && setConfirming(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Make new recovery codes?</AlertDialogTitle>
            <AlertDialogDescription>
              Your current codes stop working as soon as the new ones are made. The new ones are shown once.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={make.isPending}>Cancel</AlertDialogCancel>
            <Button disabled={make.isPending} onClick={onMake}>
              {make.isPending ? "Making..." : "Make new codes"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
