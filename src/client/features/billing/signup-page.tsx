import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { type FieldErrors, type Resolver, useForm } from "react-hook-form";
import { Link, useLocation, useNavigate } from "react-router";
import {
  type SignupField,
  type SignupFormInput,
  type SignupFormOutput,
  signupFieldOrder,
  signupFormSchema,
} from "../../../shared/signup";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { FormAlert, FormControl, FormField, FormItem, FormLabel } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { OnboardingLayout } from "./onboarding-layout";
import { readSignupData, rememberedPassword, rememberPassword, saveSignupData } from "./onboarding-store";

/** Set by the later screens when a reload has forgotten the password (S-SIGNUP-09). */
export type SignupLocationState = { reenterPassword?: boolean } | null;

const signupFailed = "Signup failed. Please try again.";

/**
 * S-VAL-06: one message at a time, the first failing check in the required order. The shared schema
 * reports every failing field; this keeps only the first, so only that field is marked invalid.
 */
const zodSignupResolver = zodResolver(signupFormSchema);
const firstErrorResolver: Resolver<SignupFormInput, unknown, SignupFormOutput> = async (values, context, options) => {
  const result = await zodSignupResolver(values, context, options);
  const first = signupFieldOrder.find((field) => result.errors[field]);
  if (!first) return result;
  const errors: FieldErrors<SignupFormInput> = { [first]: result.errors[first] };
  return { values: {}, errors };
};

const fields: { name: SignupField; label: string; type: string; autoComplete: string }[] = [
  { name: "fullName", label: "Full Name", type: "text", autoComplete: "name" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "username", label: "Username", type: "text", autoComplete: "username" },
  { name: "password", label: "Password", type: "password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirm Password", type: "password", autoComplete: "new-password" },
];

/**
 * Coming back ("Back to Account", or sent here after a reload): what the visitor typed is kept,
 * except the password after a reload, which only ever lived in memory.
 */
function signupDefaults(): SignupFormInput {
  const stored = readSignupData();
  const password = rememberedPassword() ?? "";
  return {
    fullName: stored?.fullName ?? "",
    email: stored?.email ?? "",
    username: stored?.username ?? "",
    password,
    confirmPassword: password,
  };
}

export function SignupPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const reenterPassword = (location.state as SignupLocationState)?.reenterPassword === true;
  const [failure, setFailure] = useState<string>();
  const [initialValues] = useState(signupDefaults);
  const form = useForm<SignupFormInput, unknown, SignupFormOutput>({
    resolver: firstErrorResolver,
    // The message stays until a field is edited, and is checked again only on the next submit.
    reValidateMode: "onSubmit",
    defaultValues: initialValues,
  });

  // S-VAL-07: the error clears when any field is edited.
  useEffect(() => {
    const subscription = form.watch((_values, { type }) => {
      if (type !== "change") return;
      form.clearErrors();
      setFailure(undefined);
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const { errors } = form.formState;
  const validationMessage = signupFieldOrder.map((field) => errors[field]?.message).find(Boolean);
  const message = validationMessage ?? failure;

  const submit = (input: SignupFormOutput) => {
    try {
      // No account yet (S-SIGNUP-06): the data waits in session storage, the password in memory only.
      saveSignupData({ fullName: input.fullName, email: input.email, username: input.username });
      rememberPassword(input.password);
      navigate("/onboarding/plans");
    } catch {
      setFailure(signupFailed);
    }
  };

  return (
    <OnboardingLayout
      step={1}
      title="Create Your Account"
      description="Start your 14-day free trial. No setup fees, cancel anytime."
    >
      <Card className="shadow-sm">
        <CardContent className="p-6 sm:p-8">
          <GuardedForm
            form={form}
            onValid={submit}
            onInvalid={() => setFailure(undefined)}
            className="flex flex-col gap-4"
          >
            {message && <FormAlert>{message}</FormAlert>}
            {reenterPassword && !message && (
              <p className="rounded-md border border-primary/20 bg-primary-subtle px-3 py-2 text-sm text-primary-subtle-foreground">
                For your security, your password is not kept when the page reloads. Please enter it again to continue.
              </p>
            )}
            {fields.map((item) => (
              <FormField
                key={item.name}
                control={form.control}
                name={item.name}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{item.label}</FormLabel>
                    <FormControl>
                      <Input
                        type={item.type}
                        autoComplete={item.autoComplete}
                        autoCapitalize={item.name === "fullName" ? undefined : "none"}
                        spellCheck={item.name === "fullName" ? undefined : false}
                        {...field}
                      />
                    </FormControl>
                  </FormItem>
                )}
              />
            ))}
            <Button type="submit" size="lg" className="mt-2 w-full">
              Continue to Plan Selection
            </Button>
          </GuardedForm>
        </CardContent>
      </Card>
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Sign in
        </Link>
      </p>
    </OnboardingLayout>
  );
}
