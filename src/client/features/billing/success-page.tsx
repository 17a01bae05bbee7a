import { CalendarCheck, CircleCheck, CreditCard, Mail } from "lucide-react";
import { useEffect, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { brand } from "../../../shared/brand";
import { trialDays } from "../../../shared/plans";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { formatLongDate, trialEndDate } from "./onboarding-format";
import { OnboardingLayout } from "./onboarding-layout";
import {
  clearOnboardingComplete,
  completeOnboarding,
  isAccountCreated,
  isOnboardingComplete,
} from "./onboarding-store";
import type { PaymentLocationState } from "./payment-page";

const gettingStarted = [
  { title: "Add your first clients", text: "Create the firms you serve, with their contacts and their work." },
  { title: "Set up task templates", text: "Turn your recurring work into templates, or start from the library." },
  { title: "Invite your team", text: "Add colleagues and choose who sees which clients." },
] as const;

/**
 * A return from the card provider's redirect (confirmSetup with a return address, S-API-34) lands
 * here with `redirect_status`: a success completes the onboarding like the in-page path does; any
 * other status goes back to the payment step with its error. Registration already happened.
 */
function useCardRedirectReturn(): "none" | "failed" {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const hasReturn = params.has("redirect_status");
  // Read once: the address loses the parameters below, and this must not run again.
  const [outcome] = useState(() => {
    if (!hasReturn || !params.get("setup_intent")) return "none" as const;
    if (params.get("redirect_status") !== "succeeded") return "failed" as const;
    if (isAccountCreated()) completeOnboarding();
    return "none" as const;
  });
  // The provider's parameters are dropped from the address once read.
  useEffect(() => {
    if (hasReturn && outcome === "none") navigate("/onboarding/success", { replace: true });
  }, [hasReturn, outcome, navigate]);
  return outcome;
}

export function SuccessPage() {
  const navigate = useNavigate();
  const redirectReturn = useCardRedirectReturn();
  // Read once per visit: the button clears the flag while this screen still shows (the next route
  // loads lazily), and that must not send the user to /signup instead of /login.
  const [complete] = useState(isOnboardingComplete);

  if (redirectReturn === "failed") {
    // The retry confirms the same setup intent, the one the new firm's subscription waits on.
    const clientSecret = new URLSearchParams(window.location.search).get("setup_intent_client_secret") ?? undefined;
    const state: PaymentLocationState = { error: "Payment setup failed", clientSecret };
    return <Navigate to="/onboarding/payment" replace state={state} />;
  }
  if (!complete) return <Navigate to="/signup" replace />;

  const trialEnd = formatLongDate(trialEndDate());
  const onContinue = () => {
    // S-STATE-03: the flag is cleared when the user proceeds to login.
    clearOnboardingComplete();
    navigate("/login", { replace: true });
  };

  return (
    <OnboardingLayout
      title={`Welcome to ${brand.name}!`}
      description={`Your account is ready and your ${trialDays}-day free trial has started.`}
      icon={
        <span
          className="mb-2 flex size-14 items-center justify-center rounded-full bg-success-subtle text-success-subtle-foreground"
          aria-hidden="true"
        >
          <CircleCheck className="size-7" />
        </span>
      }
    >
      <Card className="shadow-sm">
        <CardContent className="flex flex-col gap-5 p-6">
          <InfoRow icon={<CalendarCheck />} title="Free trial">
            Your free trial ends on <strong className="font-semibold text-foreground">{trialEnd}</strong>.
          </InfoRow>
          <InfoRow icon={<CreditCard />} title="Billing">
            Your first charge comes after the trial, on {trialEnd}, and billing is monthly after that. Cancel anytime
            before then and you won't be charged.
          </InfoRow>
          <InfoRow icon={<Mail />} title="Confirmation email">
            {/* Honest until e-mail sending exists (not built yet): nothing is sent, so nothing is promised. */}
            No confirmation email will arrive: this installation of {brand.name} does not send email yet. Your account
            is ready as it is; sign in with the username and password you chose.
          </InfoRow>
        </CardContent>
      </Card>
      <section className="flex flex-col gap-3" aria-labelledby="getting-started">
        <h2 id="getting-started" className="text-base font-semibold">
          Getting started
        </h2>
        <ol className="flex flex-col gap-3">
          {gettingStarted.map((step, index) => (
            <li key={step.title} className="flex gap-3 rounded-lg border bg-card p-4 shadow-xs">
              <span
                className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary-subtle text-xs font-semibold text-primary-subtle-foreground"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <span className="flex flex-col gap-0.5">
                <span className="text-sm font-medium">{step.title}</span>
                <span className="text-sm text-muted-foreground">{step.text}</span>
              </span>
            </li>
          ))}
        </ol>
      </section>
      <Button size="lg" className="w-full" onClick={onContinue}>
        Access Your Dashboard
      </Button>
    </OnboardingLayout>
  );
}

function InfoRow({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3">
      <span className="mt-0.5 text-primary [&_svg]:size-5" aria-hidden="true">
        {icon}
      </span>
      <div className="flex flex-col gap-0.5">
        <h2 className="text-sm font-semibold">{title}</h2>
        <p className="text-sm text-muted-foreground">{children}</p>
      </div>
    </div>
  );
}
