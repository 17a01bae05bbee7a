import type { FormEvent, ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { FormAlert } from "../../components/ui/form";
import { useSubmitGuard } from "../../components/ui/guarded-form";

/** What both payment modes share: registering once, and finishing the onboarding. */
export type CheckoutActions = {
  /** Registers the firm unless that already happened; false (with the error shown) when it failed. */
  registerAccount: () => Promise<boolean>;
  /** S-PAY-14: clears the signup data and plan, sets the completion flag, goes to /onboarding/success. */
  finish: () => void;
  pending: boolean;
  setPending: (pending: boolean) => void;
  error: string | undefined;
  setError: (error: string | undefined) => void;
};

/**
 * The frame of both payment forms (no card, Stripe's card): the error in a red alert above the
 * form (S-PAY-16), and the controls disabled while `onSubmit` runs. A failure `onSubmit` does not
 * turn into its own message shows S-ERR-08's "Setup failed. Please try again.".
 */
export function CheckoutForm({
  title,
  actions,
  onSubmit,
  children,
}: {
  title: string;
  actions: CheckoutActions;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  const { pending, setPending, error, setError } = actions;
  const { busy, guard } = useSubmitGuard();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void guard(async () => {
      setError(undefined);
      setPending(true);
      try {
        await onSubmit();
      } catch {
        setError("Setup failed. Please try again.");
      } finally {
        setPending(false);
      }
    });
  };

  return (
    <>
      {error && <FormAlert>{error}</FormAlert>}
      <Card className="shadow-sm">
        <CardHeader>
          <CardTitle>{title}</CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="flex flex-col gap-5">
            <fieldset disabled={busy || pending} className="flex flex-col gap-5">
              {children}
            </fieldset>
          </form>
        </CardContent>
      </Card>
    </>
  );
}
