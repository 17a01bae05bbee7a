import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { Link, Navigate, useNavigate } from "react-router";
import type { z } from "zod";
import { loginSchema } from "../../../shared/auth";
import { brand } from "../../../shared/brand";
import { trialDays } from "../../../shared/plans";
import { BrandMark } from "../../components/brand-mark";
import { LoadingScreen } from "../../components/loading-screen";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { FormAlert, FormControl, FormField, FormItem, FormLabel } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { errorMessage } from "../../lib/api";
import { currentUserQueryOptions, useSignIn } from "./api";

type LoginFields = z.input<typeof loginSchema>;

export function LoginPage() {
  const session = useQuery(currentUserQueryOptions());
  const signIn = useSignIn();
  const navigate = useNavigate();
  const form = useForm<LoginFields, unknown, z.output<typeof loginSchema>>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });

  if (session.isPending) return <LoadingScreen />;
  // A signed-in user has nothing to do here (issue 8); the mutation's own redirect wins while pending.
  if (session.data && !signIn.isPending) return <Navigate to="/dashboard" replace />;

  const { errors } = form.formState;
  // S-VAL-08 gives one message for both fields, so it is shown once, above the form.
  const validationMessage = errors.username?.message ?? errors.password?.message;
  const failure = signIn.isError ? errorMessage(signIn.error, "Login failed. Please try again.") : undefined;
  const pending = signIn.isPending;

  // A refusal shows from signIn.error, above the form.
  const submit = (input: z.output<typeof loginSchema>) =>
    signIn.mutateAsync(input).then(
      () => navigate("/dashboard", { replace: true }),
      () => undefined,
    );

  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-background px-4 py-12">
      <div className="flex w-full max-w-sm flex-col gap-8">
        <div className="flex flex-col items-center gap-6 text-center">
          <BrandMark />
          <div className="flex flex-col gap-1.5">
            <h1 className="text-2xl font-semibold tracking-tight">Welcome Back</h1>
            <p className="text-sm text-muted-foreground">Sign in to your {brand.name} workspace</p>
          </div>
        </div>
        <Card className="shadow-sm">
          <CardContent className="p-6">
            <GuardedForm form={form} onValid={submit}>
              {(busy) => (
                <fieldset disabled={busy || pending} className="flex flex-col gap-4">
                  {(validationMessage ?? failure) && <FormAlert>{validationMessage ?? failure}</FormAlert>}
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
                    {pending ? "Signing in..." : "Sign In"}
                  </Button>
                </fieldset>
              )}
            </GuardedForm>
          </CardContent>
        </Card>
        {/* S-EDGE-13: a visitor without an account finds the way to the sign-up, as /signup links back here. */}
        <p className="text-center text-sm text-muted-foreground">
          New to {brand.name}?{" "}
          <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
            Start your {trialDays}-day free trial
          </Link>
        </p>
        <p className="text-center text-xs text-muted-foreground">
          © {new Date().getFullYear()} {brand.legalEntity}
        </p>
      </div>
    </main>
  );
}
