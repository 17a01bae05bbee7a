import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type FirmMfaPolicy,
  type MfaPolicy,
  mfaPolicies,
  type UpdateMfaPolicyInput,
  updateMfaPolicySchema,
} from "../../../shared/mfa";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Skeleton } from "../../components/ui/skeleton";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useDateFormat } from "../../lib/firm";
import { accountSecurityQueryOptions, useUpdateMfaPolicy } from "./api";

const policyLabels: Record<MfaPolicy, string> = {
  optional: "Optional: each person chooses",
  required: "Required for everyone",
};

/**
 * A super admin decides whether everyone in the firm must sign in with a second step (decision
 * 0044). A new firm's "required" waits out a grace period first, so the card says from when.
 */
export function MfaPolicyCard() {
  const security = useQuery(accountSecurityQueryOptions());
  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-step sign-in for your firm</CardTitle>
        <CardDescription>
          When it is required, people without an authenticator app set one up the next time they sign in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {security.data ? (
          <PolicyForm policy={security.data.firmPolicy} />
        ) : security.isError ? (
          <p className="text-sm text-destructive">
            {errorMessage(security.error, "The firm's policy could not be loaded.")}
          </p>
        ) : (
          <Skeleton className="h-9 w-full" />
        )}
      </CardContent>
    </Card>
  );
}

type Fields = z.input<typeof updateMfaPolicySchema>;

function PolicyForm({ policy }: { policy: FirmMfaPolicy }) {
  const update = useUpdateMfaPolicy();
  const format = useDateFormat();
  const form = useForm<Fields, unknown, UpdateMfaPolicyInput>({
    resolver: zodResolver(updateMfaPolicySchema),
    defaultValues: { policy: policy.policy },
  });
  const inGrace = policy.requiredFrom !== null && new Date(policy.requiredFrom) > new Date();

  const save = (input: UpdateMfaPolicyInput) => {
    // As the firm's settings: a save that changes nothing sends nothing.
    if (input.policy === policy.policy) {
      toast.success("Policy saved");
      return;
    }
    return update.mutateAsync(input).then(
      (saved) => {
        form.reset({ policy: saved.policy });
        toast.success("Policy saved", {
          description: saved.policy === "required" ? "Two-step sign-in is required." : "Two-step sign-in is optional.",
        });
      },
      (error: unknown) =>
        toast.error("Failed to save the policy", { description: errorMessage(error, "Please try again.") }),
    );
  };

  return (
    <GuardedForm form={form} onValid={save} aria-label="Two-step sign-in policy">
      {(busy) => (
        <fieldset disabled={busy} className="flex flex-col gap-4">
          <FormField
            control={form.control}
            name="policy"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Two-step sign-in</FormLabel>
                <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                  <FormControl>
                    <SelectTrigger onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    {mfaPolicies.map((value) => (
                      <SelectItem key={value} value={value}>
                        {policyLabels[value]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FormDescription data-testid="mfa-policy-status">
                  {policy.policy === "optional"
                    ? "Now optional."
                    : inGrace && policy.requiredFrom
                      ? `Required from ${format(policy.requiredFrom)}. Until then, people can still sign in without it.`
                      : "Now required: everyone signs in with a second step."}
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <div>
            <Button type="submit">{busy ? "Saving..." : "Save policy"}</Button>
          </div>
        </fieldset>
      )}
    </GuardedForm>
  );
}
