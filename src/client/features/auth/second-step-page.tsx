import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Navigate, useNavigate } from "react-router";
import type { PendingSignIn } from "../../../shared/mfa";
import { BrandFrame } from "../../components/brand-frame";
import { LoadingScreen } from "../../components/loading-screen";
import { PasskeyProblemMessage } from "../../components/passkey-problem";
import { ProofForm } from "../../components/proof-form";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { Separator } from "../../components/ui/separator";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { type PasskeyProblem, passkeyProblem, passkeysSupported } from "../../lib/passkeys";
import { recoveryCodesLeftMessage } from "../../lib/recovery-codes";
import {
  isSignInExpired,
  pendingSignInQueryOptions,
  useFinishSignIn,
  usePasskeySecondStep,
  useSecondStep,
} from "./api";
import { EnrolmentRequired } from "./enrolment-required";
import { SignInAsSomeoneElse, type SignInNotice, signInExpired } from "./sign-in-frame";

/**
 * /login/verify (decision 0044): what a pending sign-in waits for, read from the server so a
 * reload keeps working: a second factor, or, where the firm requires one and the user has none,
 * setting one up. A sign-in that is no longer pending goes back to /login.
 */
export function SecondStepPage() {
  const pending = useQuery(pendingSignInQueryOptions());
  if (pending.isPending) return <LoadingScreen />;
  if (pending.isError) {
    const state: SignInNotice = isSignInExpired(pending.error)
      ? signInExpired
      : { notice: errorMessage(pending.error, "Your sign-in could not be continued. Please sign in again.") };
    return <Navigate to="/login" replace state={state} />;
  }
  return pending.data.next === "enrol" ? <EnrolmentRequired /> : <SecondFactor methods={pending.data.methods} />;
}

/** The ways to finish, in the order they are offered: a passkey first, where the user has one and the browser can use it. */
type Way = "passkey" | "totp" | "recovery_code";

const otherWayLabels: Record<Exclude<Way, "passkey">, string> = {
  totp: "Use your authenticator app instead",
  recovery_code: "Use a recovery code instead",
};

const descriptions: Record<Way, string> = {
  passkey: "Use your passkey to finish signing in.",
  totp: "Enter the code from your authenticator app to finish signing in.",
  recovery_code: "Enter one of your recovery codes to finish signing in.",
};

/**
 * A passkey, the code from the authenticator app, or a recovery code instead. The first of the
 * user's ways shows; the others sit in their own list under it, "Use a passkey" first, which starts
 * the browser's prompt at once. A closed prompt is said calmly, and every way stays open.
 */
function SecondFactor({ methods }: { methods: PendingSignIn["methods"] }) {
  const [passkeys] = useState(() => methods.includes("passkey") && passkeysSupported());
  const ways: Way[] = [
    ...(passkeys ? (["passkey"] as const) : []),
    ...methods.filter((method): method is "totp" | "recovery_code" => method === "totp" || method === "recovery_code"),
  ];
  const [way, setWay] = useState<Way>(ways[0] ?? "recovery_code");
  const [problem, setProblem] = useState<PasskeyProblem>();
  const secondStep = useSecondStep();
  const passkey = usePasskeySecondStep();
  const finishSignIn = useFinishSignIn();
  const navigate = useNavigate();
  const others = ways.filter((other) => other !== way);

  const leaveIfExpired = async (error: unknown) => {
    if (isSignInExpired(error)) await navigate("/login", { replace: true, state: signInExpired });
  };

  const submit = (code: string) =>
    secondStep.mutateAsync({ method: way === "totp" ? "totp" : "recovery_code", code }).then(
      ({ user, recoveryCodesLeft }) => {
        if (recoveryCodesLeft !== null) {
          toast.success("Signed in with a recovery code", { description: recoveryCodesLeftMessage(recoveryCodesLeft) });
        }
        return finishSignIn(user);
      },
      async (error: unknown) => {
        await leaveIfExpired(error);
        throw error;
      },
    );

  const startPasskey = () => {
    setWay("passkey");
    setProblem(undefined);
    passkey.mutateAsync().then(
      ({ user }) => finishSignIn(user),
      async (error: unknown) => {
        await leaveIfExpired(error);
        setProblem(passkeyProblem(error));
      },
    );
  };

  return (
    <BrandFrame title="Two-step sign-in" description={descriptions[way]}>
      <Card className="shadow-sm">
        <CardContent className="flex flex-col gap-5 p-6">
          {way === "passkey" ? (
            <div className="flex flex-col gap-4">
              <PasskeyProblemMessage problem={problem} />
              <p className="text-sm text-muted-foreground">
                Your browser asks for your passkey: your fingerprint, your face or your device's screen lock.
              </p>
              <Button className="w-full" disabled={passkey.isPending} onClick={startPasskey}>
                <KeyRound aria-hidden="true" />
                {passkey.isPending ? "Waiting for your passkey..." : "Use a passkey"}
              </Button>
            </div>
          ) : (
            <ProofForm key={way} method={way} submit={submit} submitLabel="Verify" pendingLabel="Verifying..." />
          )}
          {others.length > 0 && (
            <>
              <div className="flex items-center gap-3 text-xs text-muted-foreground">
                <Separator className="flex-1" />
                or
                <Separator className="flex-1" />
              </div>
              <ul aria-label="Other ways to sign in" className="flex flex-col gap-2">
                {others.map((other) => (
                  <li key={other}>
                    {other === "passkey" ? (
                      <Button variant="outline" className="w-full" disabled={passkey.isPending} onClick={startPasskey}>
                        <KeyRound aria-hidden="true" />
                        Use a passkey
                      </Button>
                    ) : (
                      <Button variant="outline" className="w-full" onClick={() => setWay(other)}>
                        {otherWayLabels[other]}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </CardContent>
      </Card>
      <SignInAsSomeoneElse />
    </BrandFrame>
  );
}
