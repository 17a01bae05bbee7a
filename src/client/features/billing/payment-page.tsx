import { useQuery } from "@tanstack/react-query";
import { CalendarClock, Lock, ShieldCheck } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { brand } from "../../../shared/brand";
import { type PlanId, plans, trialDays } from "../../../shared/plans";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { FormAlert } from "../../components/ui/form";
import { errorMessage } from "../../lib/api";
import { billingConfigQueryOptions, useRegister } from "./api";
import { type CheckoutActions, CheckoutForm } from "./checkout-form";
import { formatLongDate, formatMonthlyPrice, trialEndDate } from "./onboarding-format";
import { OnboardingGuard, type OnboardingProgress } from "./onboarding-guard";
import { OnboardingLayout } from "./onboarding-layout";
import { completeOnboarding, isAccountCreated, markAccountCreated } from "./onboarding-store";
import { PaymentFormSkeleton } from "./payment-form-skeleton";

// Stripe's libraries load only here, and only on an installation that takes cards (docs/design/onboarding-screens.md).
const StripePaymentForm = lazy(() => import("./stripe-payment-form").then((m) => ({ default: m.StripePaymentForm })));

/**
 * Carried to this screen by a return from the card provider whose setup did not succeed: its error,
 * and the setup intent to try again (the account, linked to that intent's subscription, exists).
 */
export type PaymentLocationState = { error?: string; clientSecret?: string } | null;

export function PaymentPage() {
  return <OnboardingGuard requirePlan>{(progress) => <PaymentStep progress={progress} />}</OnboardingGuard>;
}

function PaymentStep({ progress }: { progress: OnboardingProgress }) {
  const navigate = useNavigate();
  const location = useLocation();
  const config = useQuery(billingConfigQueryOptions());
  const register = useRegister();
  const [pending, setPending] = useState(false);
  // Read once: finishing drops the state and the stored flags while this screen still shows, and
  // that must not start a new subscription setup.
  const [returned] = useState(() => {
    const state = location.state as PaymentLocationState;
    return { error: state?.error, retryClientSecret: isAccountCreated() ? state?.clientSecret : undefined };
  });
  const [error, setError] = useState<string | undefined>(returned.error);
  const plan = progress.plan as PlanId;

  const registerAccount = async (): Promise<boolean> => {
    // A retry after a failed card step: the account exists already (S-STATE-04), so no second one.
    if (isAccountCreated()) return true;
    try {
      await register.mutateAsync({ ...progress.signup, password: progress.password ?? "", subscriptionPlan: plan });
    } catch (failure) {
      setError(errorMessage(failure, "Failed to create account"));
      return false;
    }
    markAccountCreated();
    return true;
  };

  const finish = () => {
    completeOnboarding();
    navigate("/onboarding/success", { replace: true });
  };

  const actions: CheckoutActions = { registerAccount, finish, pending, setPending, error, setError };
  const stripeKey = config.data?.stripePublishableKey ?? null;
  const configFailure = config.isError
    ? errorMessage(config.error, "Failed to setup payment. Please try again.")
    : null;

  return (
    <OnboardingLayout
      step={3}
      width="wide"
      title="Complete Your Setup"
      description={`Start your ${trialDays}-day free trial. You won't be charged today.`}
    >
      <div className="grid items-start gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <div className="flex flex-col gap-4">
          {configFailure ? (
            <FormAlert>{configFailure}</FormAlert>
          ) : !config.data ? (
            <PaymentFormSkeleton />
          ) : stripeKey ? (
            <Suspense fallback={<PaymentFormSkeleton />}>
              <StripePaymentForm
                publishableKey={stripeKey}
                setup={{ email: progress.signup.email, fullName: progress.signup.fullName, plan }}
                retryClientSecret={returned.retryClientSecret}
                actions={actions}
              />
            </Suspense>
          ) : (
            <NoCardForm actions={actions} />
          )}
          <SecureNote card={Boolean(stripeKey)} />
          <div>
            <Button variant="outline" size="lg" disabled={pending} onClick={() => navigate("/onboarding/plans")}>
              Back to Plans
            </Button>
          </div>
        </div>
        <OrderSummary plan={plan} />
      </div>
    </OnboardingLayout>
  );
}

/** An installation without Stripe (the embedded default): no card, and never a fake card form. */
function NoCardForm({ actions }: { actions: CheckoutActions }) {
  const { pending, registerAccount, finish } = actions;
  return (
    <CheckoutForm
      title="No card needed"
      actions={actions}
      onSubmit={async () => {
        if (await registerAccount()) finish();
      }}
    >
      <p className="text-sm text-muted-foreground">
        This installation of {brand.name} does not take card payments, so no card is needed. Your {trialDays}
        -day free trial starts as soon as your account is created.
      </p>
      <Button type="submit" size="lg" className="w-full">
        {pending ? "Creating Account..." : "Create Account"}
      </Button>
    </CheckoutForm>
  );
}

function SecureNote({ card }: { card: boolean }) {
  return (
    <p className="flex items-start gap-2 text-sm text-muted-foreground">
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        Secure payment: everything you send is encrypted in transit.
        {card && " Your card details go straight to Stripe, our payment processor, and never reach our servers."}
      </span>
    </p>
  );
}

function OrderSummary({ plan: planId }: { plan: PlanId }) {
  const plan = plans[planId];
  const firstCharge = formatLongDate(trialEndDate());
  return (
    <Card className="shadow-sm md:sticky md:top-6" role="region" aria-labelledby="order-summary">
      <CardHeader>
        <CardTitle id="order-summary">Order Summary</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <dl className="flex flex-col gap-3">
          <div className="flex items-baseline justify-between gap-4">
            <dt className="font-medium">{plan.name} plan</dt>
            <dd className="tabular-nums">{formatMonthlyPrice(plan)}</dd>
          </div>
          <div className="flex items-baseline justify-between gap-4 text-muted-foreground">
            <dt>Billing</dt>
            <dd>Monthly</dd>
          </div>
          <div className="flex items-baseline justify-between gap-4 text-muted-foreground">
            <dt>Free trial</dt>
            <dd>{trialDays} days</dd>
          </div>
          <div className="flex items-baseline justify-between gap-4 border-t pt-3 text-base font-semibold">
            <dt>Due today</dt>
            <dd className="tabular-nums">$0.00</dd>
          </div>
        </dl>
        <p className="flex items-start gap-2 rounded-md bg-muted px-3 py-2.5 text-muted-foreground">
          <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            First charge on day {trialDays + 1} ({firstCharge}): ${plan.monthlyPriceUsd}.00, then monthly. Cancel
            anytime before then and you won't be charged.
          </span>
        </p>
        <p className="flex items-start gap-2 text-muted-foreground">
          <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Charges appear on your statement as “{brand.legalEntity}”.</span>
        </p>
      </CardContent>
    </Card>
  );
}
