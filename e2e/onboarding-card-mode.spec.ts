import { expect, type Page } from "@playwright/test";
import type { Billing } from "../src/shared/billing";
import { stripeTestKeys } from "../tests/stripe-stand-in";
import { apiGet, holdRequests, test } from "./fixtures";
import { browserStorage, newSignup, type Signup, signUp } from "./onboarding-support";
import {
  authenticatedCard,
  declinedCard,
  declinedMessage,
  failedAuthenticationCard,
  installStripeJsStandIn,
  type StripeStandInCall,
  stripeStandInCalls,
  throwingCard,
  unexplainedErrorCard,
} from "./stripe-js-stand-in";

/*
 * Onboarding on an installation that takes cards: the app of project "card-mode"
 * (e2e/card-mode-server.ts) has Stripe configured, its server calls answered by the local stand-in
 * of Stripe's API, and the browser's Stripe.js by e2e/stripe-js-stand-in.ts (the network is closed
 * here). The stand-in's failures are shared by every request, so these tests run one at a time.
 */
test.describe.configure({ mode: "serial" });

const standInUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4173) + 2}`;
const goodCard = "4242424242424242";

type StandInRequest = { method: string; path: string; form: Record<string, string> };

async function standInFails(page: Page, failure: "invalid_request" | "connection_reset" | "no_setup_intent" | "none") {
  const response = await page.request.post(`${standInUrl}/__stand-in/failure`, { data: failure });
  expect(response.status()).toBe(200);
}

async function standInRequests(page: Page): Promise<StandInRequest[]> {
  return (await page.request.get(`${standInUrl}/__stand-in/requests`)).json() as Promise<StandInRequest[]>;
}

/** From /signup to the card form of the payment step, with the plan chosen. */
async function reachCardForm(page: Page, signup: Signup, plan = "Professional"): Promise<void> {
  await installStripeJsStandIn(page);
  await signUp(page, signup);
  await page.getByRole("radio", { name: new RegExp(plan) }).check();
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Setup" })).toBeVisible();
}

async function payWith(page: Page, card: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByRole("button", { name: "Start Free Trial" }).click();
}

// The payment step allows 10 setups per client address in 10 minutes. Behind a proxy (the app
// trusts X-Forwarded-For here) each test is a visitor of its own address, as in production.
let visitors = 0;
test.beforeEach(async ({ page }, testInfo) => {
  await page.setExtraHTTPHeaders({
    "x-forwarded-for": `10.${testInfo.retry}.${testInfo.workerIndex % 250}.${++visitors}`,
  });
});

test.afterEach(async ({ page }) => {
  await standInFails(page, "none");
});

test("S-PAY-05 S-PAY-10 S-API-07 on load the payment step sets up a 14-day trial subscription and mounts Stripe's card form, and nothing else", async ({
  page,
}) => {
  const signup = newSignup("card-load");
  const setup = page.waitForRequest("**/api/create-subscription-setup");
  await reachCardForm(page, signup, "Enterprise");
  expect((await setup).postDataJSON()).toEqual({ email: signup.email, fullName: signup.fullName, plan: "enterprise" });
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Create Account" })).toHaveCount(0);

  const calls = await stripeStandInCalls(page);
  expect(calls[0]).toMatchObject({ method: "Stripe", args: { publishableKey: stripeTestKeys.STRIPE_PUBLISHABLE_KEY } });
  const elements = calls.find((call) => call.method === "elements")?.args as { clientSecret: string };
  expect(elements.clientSecret).toMatch(/^seti_[0-9a-f]+_secret_[0-9a-f]+$/);
  expect(calls.filter((call) => call.method === "elements.create").map((call) => call.args)).toEqual([
    expect.objectContaining({ type: "payment" }),
  ]);

  // What our server asked Stripe for: this visitor as the customer, the plan's price, a 14-day
  // trial, and cards as the only way to pay.
  const requests = await standInRequests(page);
  const customer = requests.findLast((request) => request.path === "/v1/customers");
  expect(customer?.form).toMatchObject({ email: signup.email, name: signup.fullName });
  const subscription = requests.findLast((request) => request.path === "/v1/subscriptions");
  expect(subscription?.form).toMatchObject({
    "items[0][price]": stripeTestKeys.STRIPE_PRICE_ENTERPRISE,
    trial_period_days: "14",
    "payment_settings[payment_method_types][0]": "card",
  });
});

test("S-PAY-07 S-PAY-10 back to the plans and on to the payment step again: the same card setup and one Stripe customer; another plan replaces it", async ({
  page,
}) => {
  const signup = newSignup("card-again");
  await reachCardForm(page, signup);
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  const clientSecrets = async () =>
    (await stripeStandInCalls(page))
      .filter((call) => call.method === "elements")
      .map((call) => (call.args as { clientSecret: string }).clientSecret);
  const customersOf = async () =>
    (await standInRequests(page)).filter(
      (request) => request.path === "/v1/customers" && request.form.email === signup.email,
    );

  const again = page.waitForResponse("**/api/create-subscription-setup");
  await page.getByRole("button", { name: "Back to Plans" }).click();
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  expect((await again).status()).toBe(200);
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  const [first, second] = await clientSecrets();
  expect(second).toBe(first);
  expect(await customersOf()).toHaveLength(1);

  const other = page.waitForResponse("**/api/create-subscription-setup");
  await page.getByRole("button", { name: "Back to Plans" }).click();
  await page.getByRole("radio", { name: /Starter/ }).check();
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  expect((await other).status()).toBe(200);
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  expect((await clientSecrets()).at(-1)).not.toBe(first);
  // The first customer was deleted (cancelling its trial) before the second was made.
  const paths = (await standInRequests(page)).map((request) => `${request.method} ${request.path}`);
  const deleted = paths.findIndex((path) => path.startsWith("DELETE /v1/customers/"));
  expect(deleted).toBeGreaterThan(-1);
  expect(paths.lastIndexOf("POST /v1/customers")).toBeGreaterThan(deleted);
  expect(await customersOf()).toHaveLength(2);
});

test("S-PAY-11 S-PAY-12 S-PAY-13 S-PAY-14 S-STATE-04 S-STATE-07 S-API-34 the account is created first, then the card setup is confirmed with the success page as return address, redirecting only if required", async ({
  page,
  baseURL,
}) => {
  const signup = newSignup("card-ok");
  await reachCardForm(page, signup);
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  const release = await holdRequests(page, "**/api/auth/register");
  await payWith(page, goodCard);

  // While the account is being created: every control disabled, and Stripe not yet asked.
  await expect(page.getByRole("button", { name: "Starting Your Trial..." })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Back to Plans" })).toBeDisabled();
  expect((await stripeStandInCalls(page)).map((call) => call.method)).not.toContain("confirmSetup");
  release();

  await expect(page).toHaveURL(/\/onboarding\/success$/);
  await expect(page.getByRole("heading", { name: "Welcome to Tendwell!" })).toBeVisible();
  const confirm = (await stripeStandInCalls(page)).filter((call) => call.method === "confirmSetup");
  expect(confirm).toEqual([
    {
      method: "confirmSetup",
      args: { confirmParams: { return_url: `${baseURL}/onboarding/success` }, redirect: "if_required" },
    },
  ]);
  expect((await browserStorage(page)).session).toEqual({ onboardingComplete: "true" });

  // The new firm is linked to its Stripe subscription, on the trial.
  const billing = await apiGet<Billing>(page, "/api/billing");
  expect(billing).toMatchObject({ plan: "professional", subscriptionStatus: "trialing", cardBilling: true });
});

test("S-ERR-08 S-ERR-09 S-STATE-04 a declined card shows the provider's message above the form; the account exists and the retry does not create it again", async ({
  page,
}) => {
  const signup = newSignup("card-declined");
  await reachCardForm(page, signup);
  const registrations: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/auth/register")) registrations.push(request.method());
  });
  await payWith(page, declinedCard);

  const alert = page.getByRole("alert");
  await expect(alert).toHaveText(declinedMessage);
  const alertBox = await alert.boundingBox();
  const formBox = await page.getByLabel("Card number").boundingBox();
  expect(alertBox && formBox && alertBox.y + alertBox.height <= formBox.y).toBe(true);
  await expect(page).toHaveURL(/\/onboarding\/payment$/);
  // S-STATE-04: the account was created at this step, before the card was refused.
  const me = await apiGet<{ username: string; role: string }>(page, "/api/auth/me");
  expect(me).toMatchObject({ username: signup.username, role: "super_admin" });

  await payWith(page, goodCard);
  await expect(page).toHaveURL(/\/onboarding\/success$/);
  expect(registrations).toEqual(["POST"]);
});

test("S-ERR-05 S-ERR-09 a failed subscription setup shows the server's message in the red alert, and no card form", async ({
  page,
  browserConsole,
}) => {
  // Both card setups are refused: the browser logs the 400 and the 503.
  browserConsole.expectFailedRequest(400, "/api/create-subscription-setup");
  browserConsole.expectFailedRequest(503, "/api/create-subscription-setup");
  await standInFails(page, "invalid_request");
  await reachCardForm(page, newSignup("card-setup-refused"));
  await expect(page.getByRole("alert")).toHaveText("Invalid email address: nope");
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toHaveCount(0);

  // Stripe out of reach is the provider's outage, said as such (decision 0025).
  await standInFails(page, "connection_reset");
  await reachCardForm(page, newSignup("card-setup-unreachable"));
  await expect(page.getByRole("alert")).toHaveText(
    "The payment provider cannot be reached right now. Please try again in a moment.",
  );
});

test('S-ERR-05 S-ERR-09 a subscription setup failure shows its message ("Failed to setup subscription"), and without one "Failed to setup payment. Please try again."', async ({
  page,
  browserConsole,
}) => {
  // Both card setups are made to fail: the browser logs the 500 and the 502.
  browserConsole.expectFailedRequest(500, "/api/create-subscription-setup");
  browserConsole.expectFailedRequest(502, "/api/create-subscription-setup");
  const setups: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/create-subscription-setup")) setups.push(request.method());
  });
  await page.route("**/api/create-subscription-setup", (route) =>
    route.fulfill({ status: 500, json: { message: "Failed to setup subscription", code: "INTERNAL" } }),
  );
  await reachCardForm(page, newSignup("card-setup-message"));
  await expect(page.getByRole("alert")).toHaveText("Failed to setup subscription");
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toHaveCount(0);

  // A bare failure (a proxy's 502 with no body): the required fallback (S-ERR-05), and no card form.
  await page.unroute("**/api/create-subscription-setup");
  await page.route("**/api/create-subscription-setup", (route) => route.fulfill({ status: 502, body: "" }));
  await reachCardForm(page, newSignup("card-setup-bare"));
  await expect(page.getByRole("alert")).toHaveText("Failed to setup payment. Please try again.");
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toHaveCount(0);
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  // Each screen asked once: the failed setup is not retried.
  expect(setups).toEqual(["POST", "POST"]);
});

test('S-ERR-08 S-ERR-09 a card setup error without the provider\'s message shows "Payment setup failed"; the retry does not register again', async ({
  page,
}) => {
  const signup = newSignup("card-unexplained");
  await reachCardForm(page, signup);
  const registrations: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/auth/register")) registrations.push(request.method());
  });
  await payWith(page, unexplainedErrorCard);
  await expect(page.getByRole("alert")).toHaveText("Payment setup failed");
  await expect(page).toHaveURL(/\/onboarding\/payment$/);
  expect((await stripeStandInCalls(page)).filter((call) => call.method === "confirmSetup")).toHaveLength(1);

  await payWith(page, goodCard);
  await expect(page).toHaveURL(/\/onboarding\/success$/);
  expect(registrations).toEqual(["POST"]);
});

test('S-ERR-08 S-ERR-09 a card setup that throws shows the fallback "Setup failed. Please try again." and the form is usable again', async ({
  page,
}) => {
  const signup = newSignup("card-throws");
  await reachCardForm(page, signup);
  await payWith(page, throwingCard);
  await expect(page.getByRole("alert")).toHaveText("Setup failed. Please try again.");
  await expect(page).toHaveURL(/\/onboarding\/payment$/);
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  // The account was created before the card step broke (S-PAY: registration comes before the card step).
  expect((await apiGet<{ username: string }>(page, "/api/auth/me")).username).toBe(signup.username);

  await payWith(page, goodCard);
  await expect(page).toHaveURL(/\/onboarding\/success$/);
});

test('S-ERR-06 S-ERR-09 a setup that gives no client secret shows "Failed to initialize payment. Please try again."', async ({
  page,
  browserConsole,
}) => {
  // The provider's answer lacks a setup, which the server refuses: the browser logs the 503.
  browserConsole.expectFailedRequest(503, "/api/create-subscription-setup");
  await standInFails(page, "no_setup_intent");
  await reachCardForm(page, newSignup("card-no-intent"));
  await expect(page.getByRole("alert")).toHaveText("Failed to initialize payment. Please try again.");
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toHaveCount(0);
});

test("S-PAY-12 S-PAY-14 S-API-34 a card that needs 3-D Secure leaves for the bank's check and the return to /onboarding/success completes the onboarding", async ({
  page,
  baseURL,
}) => {
  await reachCardForm(page, newSignup("card-3ds"));
  await payWith(page, authenticatedCard);

  await expect(page.getByRole("heading", { name: "Welcome to Tendwell!" })).toBeVisible();
  await expect(page).toHaveURL(/\/onboarding\/success$/);
  const confirm = (await stripeStandInCalls(page)).filter((call) => call.method === "confirmSetup");
  expect(confirm).toEqual([
    {
      method: "confirmSetup",
      args: { confirmParams: { return_url: `${baseURL}/onboarding/success` }, redirect: "if_required" },
    },
  ]);
  const { __stripeStandInCalls: _calls, ...session } = (await browserStorage(page)).session;
  expect(session).toEqual({ onboardingComplete: "true" });
  await page.getByRole("button", { name: "Access Your Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("S-STATE-04 S-ERR-08 a failed 3-D Secure check comes back to the payment step with its error; the retry needs no password and does not register again", async ({
  page,
}) => {
  const signup = newSignup("card-3ds-failed");
  await reachCardForm(page, signup);
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeEnabled();
  const registrations: string[] = [];
  const setups: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/auth/register")) registrations.push(request.method());
    if (request.url().endsWith("/api/create-subscription-setup")) setups.push(request.method());
  });
  await payWith(page, failedAuthenticationCard);

  // A full page load from the bank: the in-memory password is gone, and no longer needed.
  await expect(page).toHaveURL(/\/onboarding\/payment$/);
  await expect(page.getByRole("alert")).toHaveText("Payment setup failed");
  await payWith(page, goodCard);
  await expect(page).toHaveURL(/\/onboarding\/success$/);
  expect(registrations).toEqual(["POST"]);
  // The retry sets the card up on the same intent, the one the firm's subscription waits on.
  expect(setups).toEqual([]);
  const secretOf = (calls: StripeStandInCall[]) =>
    calls
      .filter((call) => call.method === "elements")
      .map((call) => (call.args as { clientSecret: string }).clientSecret);
  const beforeTheBank = await page.evaluate(() => sessionStorage.getItem("__stripeStandInCalls") ?? "[]");
  const [first] = secretOf(JSON.parse(beforeTheBank) as StripeStandInCall[]);
  expect(first).toMatch(/^seti_[0-9a-f]+_secret_/);
  expect(secretOf(await stripeStandInCalls(page))).toEqual([first]);
});
