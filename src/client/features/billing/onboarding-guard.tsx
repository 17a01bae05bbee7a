import { type ReactNode, useState } from "react";
import { Navigate } from "react-router";
import type { PlanId } from "../../../shared/plans";
import type { SignupData } from "../../../shared/signup";
import { isAccountCreated, readSelectedPlan, readSignupData, rememberedPassword } from "./onboarding-store";
import type { SignupLocationState } from "./signup-page";

export type OnboardingProgress = {
  signup: SignupData;
  /** null once the account exists (registration no longer needs it). */
  password: string | null;
  plan: PlanId | null;
};

/**
 * S-PLANS-12, S-PAY-08..09: the plans and payment screens send the visitor back to /signup when an
 * earlier step is missing. S-SIGNUP-09 adds one case: the password was only in memory, so after a
 * reload the signup form asks for it again (unless the account already exists).
 */
export function OnboardingGuard({
  requirePlan,
  children,
}: {
  requirePlan: boolean;
  children: (progress: OnboardingProgress) => ReactNode;
}) {
  // Read once per visit: finishing clears the stored data while this screen still shows (the next
  // route loads lazily), and that must not send the user back to /signup.
  const [{ signup, plan, password, accountCreated }] = useState(() => ({
    signup: readSignupData(),
    plan: readSelectedPlan(),
    password: rememberedPassword(),
    accountCreated: isAccountCreated(),
  }));
  if (!signup || (requirePlan && !plan)) return <Navigate to="/signup" replace />;
  if (!password && !accountCreated) {
    return <Navigate to="/signup" replace state={{ reenterPassword: true } satisfies SignupLocationState} />;
  }
  return children({ signup, password, plan });
}
