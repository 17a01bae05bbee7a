import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { z } from "zod";
import { type EnrolledAndSignedIn, totpCodeSchema } from "../../../shared/mfa";
import { AuthenticatorKey } from "../../components/authenticator-key";
import { BrandFrame } from "../../components/brand-frame";
import { RecoveryCodes } from "../../components/recovery-codes";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import { CodeInput } from "../../components/ui/code-input";
import { FormAlert, FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Label } from "../../components/ui/label";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import { isSignInExpired, pendingTotpEnrolmentQueryOptions, useConfirmPendingTotp, useFinishSignIn } from "./api";
import { SignInAsSomeoneElse, signInExpired } from "./sign-in-frame";

/**
 * The firm requires a second step and this user has none yet (decision 0044): the sign-in waits
 * while they add an authenticator app, then shows their recovery codes once, and opens the app only
 * after they say they have saved them.
 */
export function EnrolmentRequired() {
  const [enrolled, setEnrolled] = useState<EnrolledAndSignedIn>();
  return enrolled ? <SaveRecoveryCodes enrolled={enrolled} /> : <AddAuthenticator onEnrolled={setEnrolled} />;
}

const codeFormSchema = z.object({ code: totpCodeSchema });
type CodeFields = z.input<typeof codeFormSchema>;

function AddAuthenticator({ onEnrolled }: { onEnrolled: (enrolled: EnrolledAndSignedIn) => void }) {
  const enrolment = useQuery(pendingTotpEnrolmentQueryOptions());
  const confirm = useConfirmPendingTotp();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();
  const form = useForm<CodeFields, unknown, z.output<typeof codeFormSchema>>({
    resolver: zodResolver(codeFormSchema),
    defaultValues: { code: "" },
  });

  const submit = ({ code }: z.output<typeof codeFormSchema>) => {
    setFailure(undefined);
    return confirm.mutateAsync({ code }).then(onEnrolled, (error: unknown) => {
      if (isSignInExpired(error)) return navigate("/login", { replace: true, state: signInExpired });
      if (!showFieldIssues(form.setError, error, ["code"])) {
        setFailure(errorMessage(error, "Your authenticator app could not be added. Please try again."));
      }
    });
  };

  return (
    <BrandFrame
      wide
      title="Set up two-step sign-in"
      description="Your firm asks everyone to confirm their sign-in with a code from an authenticator app. It takes a minute."
    >
      <Card className="shadow-sm">
        <CardHeader>
          <CardTitle>1. Add your account to the app</CardTitle>
        </CardHeader>
        <CardContent>
          {enrolment.data ? (
            <AuthenticatorKey enrolment={enrolment.data} />
          ) : enrolment.isError ? (
            <FormAlert>
              {errorMessage(enrolment.error, "The QR code could not be made. Please reload the page.")}
            </FormAlert>
          ) : (
            <div className="flex flex-col gap-4 sm:flex-row" aria-hidden="true">
              <Skeleton className="size-40 shrink-0" />
              <Skeleton className="h-24 w-full" />
            </div>
          )}
        </CardContent>
      </Card>
      <Card className="shadow-sm">
        <CardHeader>
          <CardTitle>2. Enter the code it shows</CardTitle>
          <CardDescription>The app shows a new 6-digit code every 30 seconds.</CardDescription>
        </CardHeader>
        <CardContent>
          <GuardedForm form={form} onValid={submit} aria-label="Confirm your authenticator app">
            {(busy) => (
              <fieldset disabled={busy || !enrolment.data} className="flex flex-col gap-4">
                {failure && <FormAlert>{failure}</FormAlert>}
                <FormField
                  control={form.control}
                  name="code"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Authentication code</FormLabel>
                      <FormControl>
                        <CodeInput {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <Button type="submit" className="w-full">
                  {busy ? "Checking..." : "Turn on two-step sign-in"}
                </Button>
              </fieldset>
            )}
          </GuardedForm>
        </CardContent>
      </Card>
      <SignInAsSomeoneElse />
    </BrandFrame>
  );
}

function SaveRecoveryCodes({ enrolled }: { enrolled: EnrolledAndSignedIn }) {
  const [saved, setSaved] = useState(false);
  const finishSignIn = useFinishSignIn();
  const savedId = useId();
  const { user } = enrolled;

  return (
    <BrandFrame
      wide
      title="Save your recovery codes"
      description="Two-step sign-in is on. If you lose your phone, each of these codes signs you in once instead of the app."
    >
      <Card className="shadow-sm">
        <CardContent className="flex flex-col gap-5 p-6">
          <p className="text-sm">
            Keep them somewhere safe, apart from your phone, such as a password manager. They are shown only this once.
          </p>
          <RecoveryCodes
            codes={enrolled.recoveryCodes ?? []}
            owner={{ username: user.username, firmName: user.firm.name }}
          />
          <div className="flex items-center gap-2">
            <Checkbox id={savedId} checked={saved} onCheckedChange={(checked) => setSaved(checked === true)} />
            <Label htmlFor={savedId}>I have saved these codes</Label>
          </div>
          <Button className="w-full" disabled={!saved} onClick={() => void finishSignIn(user)}>
            Continue
          </Button>
        </CardContent>
      </Card>
    </BrandFrame>
  );
}
