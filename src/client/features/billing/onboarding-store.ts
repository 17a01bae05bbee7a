import { type PlanId, planIds } from "../../../shared/plans";
import { type SignupData, signupDataSchema } from "../../../shared/signup";

/*
 * What the onboarding screens hand each other (S-STATE-01..03, S-SIGNUP-07..08,
 * docs/design/onboarding-screens.md).
 * Session storage holds the signup data without the password, the chosen plan, and the flags that
 * outlive a page load (account created, onboarding complete). The password lives only in this
 * module's memory: a reload forgets it, and the signup form asks for it again.
 */
export const storageKeys = {
  signupData: "signupData",
  selectedPlan: "selectedPlan",
  accountCreated: "onboardingAccountCreated",
  complete: "onboardingComplete",
} as const;

let password: string | null = null;

export function rememberPassword(value: string): void {
  password = value;
}

export function rememberedPassword(): string | null {
  return password;
}

export function saveSignupData(data: SignupData): void {
  sessionStorage.setItem(storageKeys.signupData, JSON.stringify(data));
}

/** The stored signup data, or null when there is none (or it is not what this app wrote). */
export function readSignupData(): SignupData | null {
  const raw = sessionStorage.getItem(storageKeys.signupData);
  if (!raw) return null;
  try {
    const parsed = signupDataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveSelectedPlan(plan: PlanId): void {
  sessionStorage.setItem(storageKeys.selectedPlan, plan);
}

export function readSelectedPlan(): PlanId | null {
  const raw = sessionStorage.getItem(storageKeys.selectedPlan);
  return planIds.find((id) => id === raw) ?? null;
}

/**
 * Registration succeeded: a retry after a failed card step, or a return from the card provider's
 * redirect, must not register again (the username is taken by then: by this very account).
 */
export function markAccountCreated(): void {
  sessionStorage.setItem(storageKeys.accountCreated, "true");
}

export function isAccountCreated(): boolean {
  return sessionStorage.getItem(storageKeys.accountCreated) === "true";
}

/** S-STATE-02, S-PAY-14: after a successful setup the signup data and plan are cleared and the flag is set. */
export function completeOnboarding(): void {
  sessionStorage.removeItem(storageKeys.signupData);
  sessionStorage.removeItem(storageKeys.selectedPlan);
  sessionStorage.removeItem(storageKeys.accountCreated);
  sessionStorage.setItem(storageKeys.complete, "true");
  password = null;
}

export function isOnboardingComplete(): boolean {
  return sessionStorage.getItem(storageKeys.complete) === "true";
}

/** S-STATE-03: the flag is cleared when the user proceeds to login. */
export function clearOnboardingComplete(): void {
  sessionStorage.removeItem(storageKeys.complete);
}
