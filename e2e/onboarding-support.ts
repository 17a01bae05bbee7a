import { expect, type Page } from "@playwright/test";

/** Helpers of the onboarding specs (no-card and card mode): new signups and the steps to reach. */

export type Signup = { fullName: string; email: string; username: string; password: string };

let counter = 0;
export function newSignup(tag: string): Signup {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  return {
    fullName: `Rowan ${tag} Ellis`,
    email: `rowan.${tag}.${id}@ellis-partners.example`,
    username: `onb-${tag}-${id}`,
    // Not a common password (registration refuses those).
    password: `Trial-${id}-Ledger`,
  };
}

export async function fillSignup(page: Page, signup: Signup): Promise<void> {
  await page.getByLabel("Full Name").fill(signup.fullName);
  await page.getByLabel("Email").fill(signup.email);
  await page.getByLabel("Username").fill(signup.username);
  await page.getByLabel("Password", { exact: true }).fill(signup.password);
  await page.getByLabel("Confirm Password").fill(signup.password);
}

/** Fills /signup and continues to the plans screen. */
export async function signUp(page: Page, signup: Signup): Promise<void> {
  await page.goto("/signup");
  await fillSignup(page, signup);
  await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
  await expect(page).toHaveURL(/\/onboarding\/plans$/);
  await expect(page.getByRole("heading", { name: "Choose Your Plan" })).toBeVisible();
}

/** From /signup to the payment screen with the given plan. */
export async function reachPayment(page: Page, signup: Signup, plan = "Professional"): Promise<void> {
  await signUp(page, signup);
  await page.getByRole("radio", { name: new RegExp(plan) }).check();
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(/\/onboarding\/payment$/);
  await expect(page.getByRole("heading", { name: "Complete Your Setup" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeEnabled();
}

/** Every value the page's origin keeps in session storage, local storage and cookies. */
export async function browserStorage(
  page: Page,
): Promise<{ session: Record<string, string>; local: Record<string, string> }> {
  return page.evaluate(() => {
    const dump = (storage: Storage) => {
      const values: Record<string, string> = {};
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i);
        if (key !== null) values[key] = storage.getItem(key) ?? "";
      }
      return values;
    };
    return { session: dump(sessionStorage), local: dump(localStorage) };
  });
}
