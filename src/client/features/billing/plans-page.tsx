import { Check, Gift } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { defaultPlanId, type PlanId, planIds, plans, trialDays } from "../../../shared/plans";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { cn } from "../../lib/cn";
import { formatMonthlyPrice, planFeatures } from "./onboarding-format";
import { OnboardingGuard } from "./onboarding-guard";
import { OnboardingLayout } from "./onboarding-layout";
import { readSelectedPlan, saveSelectedPlan } from "./onboarding-store";

export function PlansPage() {
  return <OnboardingGuard requirePlan={false}>{() => <PlanSelection />}</OnboardingGuard>;
}

function PlanSelection() {
  const navigate = useNavigate();
  // Professional is preselected (S-PLANS-03); coming back from payment keeps the visitor's choice.
  const [selected, setSelected] = useState<PlanId>(() => readSelectedPlan() ?? defaultPlanId);
  const plan = plans[selected];

  const onContinue = () => {
    saveSelectedPlan(selected);
    navigate("/onboarding/payment");
  };

  return (
    <OnboardingLayout
      step={2}
      width="wide"
      title="Choose Your Plan"
      description="Every plan includes unlimited users and all features. Change plans at any time."
    >
      {/* A fieldset of same-named native radios: the browser's radio group, arrow keys included. */}
      <fieldset className="grid gap-4 md:grid-cols-3">
        <legend className="sr-only">Plans</legend>
        {planIds.map((id) => (
          <PlanCard key={id} id={id} checked={id === selected} onSelect={() => setSelected(id)} />
        ))}
      </fieldset>

      <div className="grid gap-4 md:grid-cols-[1fr_1fr]">
        <Card className="shadow-sm" role="region" aria-labelledby="your-selection">
          <CardContent className="flex flex-col gap-1 p-5">
            <h2 id="your-selection" className="text-sm font-medium text-muted-foreground">
              Your Selection
            </h2>
            <p className="flex items-baseline justify-between gap-4" aria-live="polite">
              <span className="text-lg font-semibold">{plan.name}</span>
              <span className="text-lg font-semibold tabular-nums">{formatMonthlyPrice(plan)}</span>
            </p>
            <p className="text-sm text-muted-foreground">Billed monthly after your free trial.</p>
          </CardContent>
        </Card>
        <div className="flex gap-3 rounded-lg border border-primary/20 bg-primary-subtle p-5 text-primary-subtle-foreground">
          <Gift className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <h2 className="text-sm font-semibold">{trialDays}-day free trial</h2>
            <p className="text-sm">
              Try every feature free for {trialDays} days. Nothing is charged today, and you can cancel anytime.
            </p>
          </div>
        </div>
      </div>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button asChild variant="outline" size="lg">
          <Link to="/signup">Back to Account</Link>
        </Button>
        <Button size="lg" onClick={onContinue}>
          Continue to Payment
        </Button>
      </div>
    </OnboardingLayout>
  );
}

/**
 * One plan as a native radio inside its card: arrow keys move the choice and the fieldset is the
 * radio group. The radio's name is the plan and price; the card's lines describe it.
 */
function PlanCard({ id, checked, onSelect }: { id: PlanId; checked: boolean; onSelect: () => void }) {
  const plan = plans[id];
  const nameId = `plan-${id}-name`;
  const featuresId = `plan-${id}-features`;
  return (
    <label
      className={cn(
        "relative flex cursor-pointer flex-col gap-4 rounded-lg border bg-card p-5 shadow-xs transition-colors",
        "hover:border-primary/50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2",
        checked && "border-primary ring-1 ring-primary",
      )}
    >
      {plan.popular && (
        <span className="absolute -top-2.5 left-5 rounded-full bg-primary px-2.5 py-0.5 text-xs font-medium text-primary-foreground">
          Most Popular
        </span>
      )}
      <span className="flex items-start justify-between gap-3">
        <span id={nameId} className="flex flex-col gap-1">
          <span className="text-base font-semibold">{plan.name}</span>
          <span>
            <span className="text-3xl font-semibold tracking-tight tabular-nums">${plan.monthlyPriceUsd}</span>
            <span className="text-sm text-muted-foreground">/mo</span>
          </span>
        </span>
        <input
          type="radio"
          name="plan"
          value={id}
          checked={checked}
          onChange={onSelect}
          aria-labelledby={nameId}
          aria-describedby={featuresId}
          className="mt-1 size-4 shrink-0 accent-primary"
        />
      </span>
      <span className="text-sm text-muted-foreground">{plan.description}</span>
      <span id={featuresId} className="flex flex-col gap-2 border-t pt-4 text-sm">
        {planFeatures(plan).map((feature) => (
          <span key={feature} className="flex items-start gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            <span>{feature}</span>
          </span>
        ))}
      </span>
    </label>
  );
}
