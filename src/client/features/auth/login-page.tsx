import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import type { z } from "zod";
import { loginSchema } from "../../../shared/auth";
import { brand } from "../../../shared/brand";
import { trialDays } from "../../../shared/plans";
import { BrandFrame } from "../../components/brand-frame";
import { LoadingScreen } from "../../components/loading-screen";
import { PasskeyProblemMessage } from "../../components/passkey-problem";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { FormAlert, FormControl, FormField, FormItem, FormLabel } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Separator } from "../../components/ui/separator";
import { errorMessage } from "../../lib/api";
import { type PasskeyProblem, passkeyProblem, passkeysSupported } from "../../lib/passkeys";
import { currentUserQueryOptions, isPendingSignIn, usePasskeySignIn, useSignIn } from "./api";
import type { SignInNotice } from "./sign-in-frame";

type LoginFields = z.input<typeof loginSchema>;

export function LoginPage() {
  const session = useQuery(currentUserQueryOptions());
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const [offerPasskey] = useState(passkeysSupported);
  const [problem, setProblem] = useState<PasskeyProblem>();
  const navigate = useNavigate();
  // Why the visitor is back here, when a screen sent them (a second step that timed out).
  const notice = (useLocation().state as SignInNotice | null)?.notice;
  const form = useForm<LoginFields, unknown, z.output<typeof loginSchema>>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });

  if (session.isPending) return <LoadingScreen />;
  // A signed-in user has nothing to do here (issue 8); the mutation's own redirect wins while pending.
  if (session.data && !signIn.isPending && !passkey.isPending) return <Navigate to="/dashboard" replace />;

  const { errors } = form.formState;
  // S-VAL-08 gives one message for both fields, so it is shown once, above the form.
  const validationMessage = errors.username?.message ?? errors.password?.message;
  const failure = signIn.isError ? errorMessage(signIn.error, "Login failed. Please try again.") : undefined;
  const alert = validationMessage ?? failure;
  const pending = signIn.isPending || passkey.isPending;

  // A refusal shows from signIn.error, above the form. A password that needs a second step leads to it.
  const submit = (input: z.output<typeof loginSchema>) => {
    setProblem(undefined);
    return signIn.mutateAsync(input).then(
      (answer) => navigate(isPendingSignIn(answer) ? "/login/verify" : "/dashboard", { replace: true }),
      () => undefined,
    );
  };

  // A passkey names its user and is itself two factors: no username, no password, no second step.
  const signInWithPasskey = () => {
    setProblem(undefined);
    signIn.reset();
    passkey.mutateAsync().then(
      () => navigate("/dashboard", { replace: true }),
      (error: unknown) => setProblem(passkeyProblem(error)),
    );
  };

  return (
    <BrandFrame title="Welcome Back" description={`Sign in to your ${brand.name} workspace`}>
      <Card className="shadow-sm">
        <CardContent className="p-6">
          <GuardedForm form={form} onValid={submit}>
            {(busy) => (
              <fieldset disabled={busy || pending} className="flex flex-col gap-4">
                {alert ? (
                  <FormAlert>{alert}</FormAlert>
                ) : (
                  notice && (
                    <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
                      {notice}
                    </p>
                  )
                )}
                <FormField
                  control={form.control}
                  name="username"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Username</FormLabel>
                      <FormControl>
                        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...field} />
                      </FormControl>
                    </FormItem>
                  )}
                />
                <FormField
                  control={form.control}
                  name="password"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Password</FormLabel>
                      <FormControl>
                        <Input type="password" autoComplete="current-password" {...field} />
                      </FormControl>
                    </FormItem>
                  )}
                />
                <Button type="submit" className="mt-2 w-full">
                  {signIn.isPending ? "Signing in..." : "Sign In"}
                </Button>
              </fieldset>
            )}
          </GuardedForm>
          {offerPasskey && (
            <div className="mt-5 flex flex-col gap-4">
              <div className="flex items-center gap-3 text-xs text-muted-foreground">
                <Separator className="flex-1" />
                or
                <Separator className="flex-1" />
              </div>
              <PasskeyProblemMessage problem={problem} />
              <Button variant="outline" className="w-full" disabled={pending} onClick={signInWithPasskey}>
                <KeyRound aria-hidden="true" />
                {passkey.isPending ? "Waiting for your passkey..." : "Sign in with a passkey"}
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
      {/* S-EDGE-13: a visitor without an account finds the way to the sign-up, as /signup links back here. */}
      <p className="text-center text-sm text-muted-foreground">
        New to {brand.name}?{" "}
        <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
          Start your {trialDays}-day free trial
        </Link>
      </p>
    </BrandFrame>
  );
}
