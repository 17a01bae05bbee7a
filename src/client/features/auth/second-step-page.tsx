import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Navigate, useNavigate } from "react-router";
import type { PendingSignIn } from "../../../shared/mfa";
import { LoadingScreen } from "../../components/loading-screen";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { Separator } from "../../components/ui/separator";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { recoveryCodesLeftMessage } from "../../lib/recovery-codes";
import { isSignInExpired, pendingSignInQueryOptions, useFinishSignIn, useSecondStep } from "./api";
import { EnrolmentRequired } from "./enrolment-required";
import { ProofForm } from "./proof-form";
import { SignInAsSomeoneElse, SignInFrame, type SignInNotice, signInExpired } from "./sign-in-frame";

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

type CodeMethod = "totp" | "recovery_code";

/**
 * The code from the authenticator app, or a recovery code instead. The other ways to finish sit
 * in their own list under the form, where a passkey will join them.
 */
function SecondFactor({ methods }: { methods: PendingSignIn["methods"] }) {
  const [method, setMethod] = useState<CodeMethod>(methods.includes("totp") ? "totp" : "recovery_code");
  const secondStep = useSecondStep();
  const finishSignIn = useFinishSignIn();
  const navigate = useNavigate();
  const other: CodeMethod = method === "totp" ? "recovery_code" : "totp";
  const offerOther = methods.includes(other);

  const submit = (code: string) =>
    secondStep.mutateAsync({ method, code }).then(
      ({ user, recoveryCodesLeft }) => {
        if (recoveryCodesLeft !== null) {
          toast.success("Signed in with a recovery code", { description: recoveryCodesLeftMessage(recoveryCodesLeft) });
        }
        return finishSignIn(user);
      },
      async (error: unknown) => {
        if (isSignInExpired(error)) await navigate("/login", { replace: true, state: signInExpired });
        throw error;
      },
    );

  return (
    <SignInFrame
      title="Two-step sign-in"
      description={
        method === "totp"
          ? "Enter the code from your authenticator app to finish signing in."
          : "Enter one of your recovery codes to finish signing in."
      }
    >
      <Card className="shadow-sm">
        <CardContent className="flex flex-col gap-5 p-6">
          <ProofForm key={method} method={method} submit={submit} submitLabel="Verify" pendingLabel="Verifying..." />
          {offerOther && (
            <>
              <div className="flex items-center gap-3 text-xs text-muted-foreground">
                <Separator className="flex-1" />
                or
                <Separator className="flex-1" />
              </div>
              <ul aria-label="Other ways to sign in" className="flex flex-col gap-2">
                <li>
                  <Button variant="outline" className="w-full" onClick={() => setMethod(other)}>
                    {other === "recovery_code" ? "Use a recovery code instead" : "Use your authenticator app instead"}
                  </Button>
                </li>
              </ul>
            </>
          )}
        </CardContent>
      </Card>
      <SignInAsSomeoneElse />
    </SignInFrame>
  );
}
