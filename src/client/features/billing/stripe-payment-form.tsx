import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe, type StripeElementsOptions } from "@stripe/stripe-js";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { paymentNotInitializedMessage, type SubscriptionSetupInput } from "../../../shared/billing";
import { Button } from "../../components/ui/button";
import { FormAlert } from "../../components/ui/form";
import { errorMessage } from "../../lib/api";
import { subscriptionSetupQueryOptions } from "./api";
import { type CheckoutActions, CheckoutForm } from "./checkout-form";
import { PaymentFormSkeleton } from "./payment-form-skeleton";

/*
 * The card step on an installation with Stripe (issue 10, docs/design/onboarding-screens.md). This module, and with it
 * Stripe's libraries, is loaded only by the payment screen and only in this mode.
 */

// One Stripe.js per publishable key for the life of the page (loadStripe must not run per render).
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    // A failed load is not kept: the next visit of the payment screen tries again.
    stripe = loadStripe(publishableKey).catch((error: unknown) => {
      stripes.delete(publishableKey);
      throw error;
    });
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

// Stripe's form lives in its own frame and cannot read our CSS tokens: the brand's teal and
// destructive red from styles.css, as the sRGB colours Stripe accepts.
const appearance: StripeElementsOptions["appearance"] = {
  theme: "stripe",
  variables: {
    colorPrimary: "#0f6b6b",
    colorDanger: "#c5302b",
    borderRadius: "8px",
    fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif",
  },
};

export function StripePaymentForm({
  publishableKey,
  setup,
  retryClientSecret,
  actions,
}: {
  publishableKey: string;
  setup: SubscriptionSetupInput;
  /** After a failed bank check the account exists: the card goes on its subscription's setup intent. */
  retryClientSecret: string | undefined;
  actions: CheckoutActions;
}) {
  // S-PAY-10: on load, the trial subscription's setup intent; its client secret drives the form.
  const subscription = useQuery({ ...subscriptionSetupQueryOptions(setup), enabled: !retryClientSecret });
  // Once per visit: a failed load is retried by the next visit, not by every render.
  const [stripe] = useState(() => stripeFor(publishableKey));
  // Stripe.js comes from Stripe's servers: when it cannot load, say so instead of a form that never appears.
  const [stripeMissing, setStripeMissing] = useState(false);
  useEffect(() => {
    let current = true;
    stripe.then(
      (loaded) => current && setStripeMissing(loaded === null),
      () => current && setStripeMissing(true),
    );
    return () => {
      current = false;
    };
  }, [stripe]);

  if (subscription.isError) {
    return <FormAlert>{errorMessage(subscription.error, "Failed to setup payment. Please try again.")}</FormAlert>;
  }
  const clientSecret = retryClientSecret ?? subscription.data?.clientSecret;
  if (subscription.isSuccess && !clientSecret) {
    return <FormAlert>{paymentNotInitializedMessage}</FormAlert>;
  }
  if (stripeMissing) return <FormAlert>Failed to setup payment. Please try again.</FormAlert>;
  if (!clientSecret) return <PaymentFormSkeleton />;

  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance }}>
      <CardForm actions={actions} />
    </Elements>
  );
}

function CardForm({ actions }: { actions: CheckoutActions }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const { pending, setError, registerAccount, finish } = actions;

  const onSubmit = async () => {
    if (!stripe || !elements) return;
    // The card fields are checked first, so an incomplete card does not leave an account behind.
    const fields = await elements.submit();
    if (fields.error) {
      setError(fields.error.message ?? "Payment setup failed");
      return;
    }
    // S-STATE-04, S-PAY-11: the account is created before the card setup is confirmed.
    if (!(await registerAccount())) return;
    const result = await stripe.confirmSetup({
      elements,
      confirmParams: { return_url: `${window.location.origin}/onboarding/success` },
      redirect: "if_required",
    });
    if (result.error) {
      setError(result.error.message ?? "Payment setup failed");
      return;
    }
    finish();
  };

  return (
    <CheckoutForm title="Payment details" actions={actions} onSubmit={onSubmit}>
      {/* Card is the only method (S-PAY-05): the server's setup intent allows only cards, and no wallets show. */}
      <PaymentElement
        options={{
          layout: "tabs",
          readOnly: pending,
          wallets: { applePay: "never", googlePay: "never", link: "never" },
        }}
        onReady={() => setReady(true)}
      />
      <Button type="submit" size="lg" className="w-full" disabled={!stripe || !elements || !ready}>
        {pending ? "Starting Your Trial..." : "Start Free Trial"}
      </Button>
    </CheckoutForm>
  );
}
