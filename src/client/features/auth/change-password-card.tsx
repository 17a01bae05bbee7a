import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { changePasswordFormSchema } from "../../../shared/auth";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import { useChangePassword } from "./api";

type Fields = z.input<typeof changePasswordFormSchema>;
type Output = z.output<typeof changePasswordFormSchema>;
const fields = ["currentPassword", "newPassword", "confirmPassword"] as const;

/**
 * Account Management that works (issue 9): the current password, the new one twice. The server
 * keeps this session and signs the user out everywhere else (decision 0005).
 */
export function ChangePasswordCard() {
  const change = useChangePassword();
  const form = useForm<Fields, unknown, Output>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

  const submit = ({ currentPassword, newPassword }: Output) =>
    change.mutateAsync({ currentPassword, newPassword }).then(
      () => {
        form.reset();
        toast.success("Password changed", {
          description: "You stay signed in here; your other sessions were signed out.",
        });
      },
      (error: unknown) => {
        // A field the server names (a wrong current password, a too-common new one) shows under it.
        showFieldIssues(form.setError, error, fields);
        toast.error("Failed to change password", { description: errorMessage(error, "Please try again.") });
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>Enter your current password, then the new one twice.</CardDescription>
      </CardHeader>
      <CardContent>
        <GuardedForm form={form} onValid={submit} aria-label="Change password">
          {(busy) => (
            <fieldset disabled={busy} className="flex flex-col gap-4">
              <FormField
                control={form.control}
                name="currentPassword"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Current password</FormLabel>
                    <FormControl>
                      <Input type="password" autoComplete="current-password" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="newPassword"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>New password</FormLabel>
                    <FormControl>
                      <Input type="password" autoComplete="new-password" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="confirmPassword"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Confirm new password</FormLabel>
                    <FormControl>
                      <Input type="password" autoComplete="new-password" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <div>
                <Button type="submit">{busy ? "Changing..." : "Change password"}</Button>
              </div>
            </fieldset>
          )}
        </GuardedForm>
      </CardContent>
    </Card>
  );
}
