import { expect, type Page } from "@playwright/test";
import type { CurrentUser } from "../src/shared/users";
import { apiGet, checkAtBothWidths, demoUsers, holdRequests, test } from "./fixtures";
import { browserStorage, fillSignup, newSignup, reachPayment, signUp } from "./onboarding-support";

/*
 * Onboarding in the no-card mode (the e2e server has no Stripe configured): /signup, the plan, the
 * payment step that creates the account, the welcome screen, then the dashboard. Each test signs up
 * its own new firm, so usernames are unique per run.
 */

/** S-SIGNUP-08: the typed password is in no browser storage and no cookie. */
async function expectPasswordNowhere(page: Page, password: string): Promise<void> {
  const { session, local } = await browserStorage(page);
  const cookies = await page.context().cookies();
  const everything = [
    ...Object.entries(session).flat(),
    ...Object.entries(local).flat(),
    ...cookies.flatMap((cookie) => [cookie.name, cookie.value]),
    await page.evaluate(() => document.cookie),
  ];
  for (const value of everything) expect(value).not.toContain(password);
}

/** "December 7, 2026" for today plus the given days, as the app writes it. */
function longDateFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric" }).format(date);
}

test.describe("signup", () => {
  test('S-SIGNUP-01 S-SIGNUP-02 S-SIGNUP-03 S-SIGNUP-04 /signup is public: "Create Your Account", five fields, the button and a "Sign in" link to /login', async ({
    page,
  }) => {
    await page.goto("/signup");
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
    const form = page.locator("form");
    await expect(form.locator("input")).toHaveCount(5);
    await expect(form.locator('input[name="fullName"]')).toBeVisible();
    await expect(form.locator('input[name="email"]')).toBeVisible();
    await expect(form.locator('input[name="username"]')).toBeVisible();
    await expect(form.locator('input[name="password"]')).toHaveAttribute("type", "password");
    await expect(form.locator('input[name="confirmPassword"]')).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Continue to Plan Selection" })).toBeVisible();

    await page.getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  });

  test("S-SIGNUP-05 S-VAL-01 S-VAL-02 S-VAL-03 S-VAL-04 S-VAL-05 S-VAL-06 S-VAL-07 S-ERR-04 the checks run in the required order, one message at a time, cleared by any edit", async ({
    page,
  }) => {
    const registrations: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/register")) registrations.push(request.method());
    });
    await page.goto("/signup");
    const alert = page.getByRole("alert");
    const submit = page.getByRole("button", { name: "Continue to Plan Selection" });
    const expectOnly = async (message: string) => {
      await expect(alert).toHaveCount(1);
      await expect(alert).toHaveText(message);
      await expect(page).toHaveURL(/\/signup$/);
    };

    // S-VAL-06: everything empty shows only the first message.
    await submit.click();
    await expectOnly("Full name is required");
    // S-VAL-07: editing any field (here a later one) clears it.
    await page.getByLabel("Username").fill("x");
    await expect(alert).toHaveCount(0);
    await page.getByLabel("Username").fill("");

    // S-VAL-01: blank after trimming.
    await page.getByLabel("Full Name").fill("   ");
    await submit.click();
    await expectOnly("Full name is required");
    await page.getByLabel("Full Name").fill("Rowan Ellis");
    await expect(alert).toHaveCount(0);

    // S-VAL-02: empty, then without "@".
    await submit.click();
    await expectOnly("Valid email is required");
    await page.getByLabel("Email").fill("abc");
    await expect(alert).toHaveCount(0);
    await submit.click();
    await expectOnly("Valid email is required");
    await page.getByLabel("Email").fill(`rowan.${Date.now()}@ellis-partners.example`);

    // S-VAL-03: empty, then two characters; three are accepted.
    await submit.click();
    await expectOnly("Username must be at least 3 characters");
    await page.getByLabel("Username").fill("ab");
    await submit.click();
    await expectOnly("Username must be at least 3 characters");
    await page.getByLabel("Username").fill("abc");

    // S-VAL-04: five characters; six are accepted.
    await submit.click();
    await expectOnly("Password must be at least 6 characters");
    await page.getByLabel("Password", { exact: true }).fill("12345");
    await submit.click();
    await expectOnly("Password must be at least 6 characters");
    await page.getByLabel("Password", { exact: true }).fill("123456");

    // S-VAL-05: the confirmation differs.
    await submit.click();
    await expectOnly("Passwords do not match");
    await page.getByLabel("Confirm Password").fill("123457");
    await submit.click();
    await expectOnly("Passwords do not match");
    await page.getByLabel("Confirm Password").fill("123456");
    await expect(alert).toHaveCount(0);

    await submit.click();
    await expect(page).toHaveURL(/\/onboarding\/plans$/);
    expect(registrations).toEqual([]);
  });

  test('S-ERR-04 an unexpected failure while keeping the signup data shows "Signup failed. Please try again."', async ({
    page,
  }) => {
    // Session storage refusing the write (a browser with storage disabled, say).
    await page.addInitScript(() => {
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
        if (key === "signupData") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        setItem.call(this, key, value);
      };
    });
    await page.goto("/signup");
    await fillSignup(page, newSignup("fail"));
    await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
    await expect(page.getByRole("alert")).toHaveText("Signup failed. Please try again.");
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("S-SIGNUP-06 S-SIGNUP-07 S-SIGNUP-08 a valid submit registers nothing, keeps fullName, email and username in session storage, and the password nowhere", async ({
    page,
  }) => {
    const registrations: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/register")) registrations.push(request.method());
    });
    const signup = newSignup("store");
    await signUp(page, signup);
    expect(registrations).toEqual([]);

    const { session, local } = await browserStorage(page);
    expect(JSON.parse(session.signupData ?? "null")).toEqual({
      fullName: signup.fullName,
      email: signup.email,
      username: signup.username,
    });
    expect(Object.keys(session)).toEqual(["signupData"]);
    expect(local).toEqual({});
    expect(await page.context().cookies()).toEqual([]);
    await expectPasswordNowhere(page, signup.password);

    // Also on the payment screen (S-SIGNUP-08).
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByRole("heading", { name: "Complete Your Setup" })).toBeVisible();
    await expectPasswordNowhere(page, signup.password);
    expect(registrations).toEqual([]);
  });

  test("S-SIGNUP-09 after a reload the password is gone: the signup form asks for it again, the rest prefilled", async ({
    page,
  }) => {
    const signup = newSignup("reload");
    await signUp(page, signup);

    await page.reload();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByText("Please enter it again to continue.")).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveValue(signup.fullName);
    await expect(page.getByLabel("Email")).toHaveValue(signup.email);
    await expect(page.getByLabel("Username")).toHaveValue(signup.username);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Confirm Password")).toHaveValue("");

    // The flow cannot continue without it.
    await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
    await expect(page.getByRole("alert")).toHaveText("Password must be at least 6 characters");
    await page.getByLabel("Password", { exact: true }).fill(signup.password);
    await page.getByLabel("Confirm Password").fill(signup.password);
    await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByRole("heading", { name: "Complete Your Setup" })).toBeVisible();

    // The same from the payment screen.
    await page.reload();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByLabel("Username")).toHaveValue(signup.username);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  });
});

test.describe("plans", () => {
  test('S-PLANS-01 S-PLANS-02 S-PLANS-03 S-PLANS-04 S-PLANS-05 S-PLANS-06 S-CONST-01 S-CONST-19 three cards, Professional popular and preselected, one selection, the "Your Selection" summary, the trial notice', async ({
    page,
  }) => {
    await signUp(page, newSignup("plans"));
    const radios = page.getByRole("radio");
    await expect(radios).toHaveCount(3);
    const starter = page.getByRole("radio", { name: /Starter/ });
    const professional = page.getByRole("radio", { name: /Professional/ });
    const enterprise = page.getByRole("radio", { name: /Enterprise/ });
    await expect(professional).toBeChecked();
    await expect(starter).not.toBeChecked();
    await expect(enterprise).not.toBeChecked();
    const cards = page.locator("fieldset label");
    await expect(cards).toHaveCount(3);
    await expect(cards.filter({ hasText: "Most Popular" })).toHaveCount(1);
    await expect(cards.filter({ hasText: "Most Popular" })).toContainText("Professional");

    const summary = page.getByRole("region", { name: "Your Selection" });
    await expect(summary).toContainText("Professional");
    await expect(summary).toContainText("$249/mo");

    // Clicking anywhere on a card selects it.
    await cards.filter({ hasText: "Starter" }).getByText("Up to 100 clients").click();
    await expect(starter).toBeChecked();
    await expect(professional).not.toBeChecked();
    await expect(summary).toContainText("Starter");
    await expect(summary).toContainText("$149/mo");

    await enterprise.check();
    await expect(page.getByRole("radio", { checked: true })).toHaveCount(1);
    await expect(enterprise).toBeChecked();
    await expect(summary).toContainText("Enterprise");
    await expect(summary).toContainText("$319/mo");

    // Arrow keys move the choice (a native radio group).
    await enterprise.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(professional).toBeChecked();

    await expect(page.getByRole("heading", { name: "14-day free trial" })).toBeVisible();
    await expect(page.getByText("Try every feature free for 14 days.")).toBeVisible();
  });

  test("S-PLANS-07 S-PLANS-08 S-PLANS-09 S-CONST-18 S-CONST-20 the cards carry the landing page's values, everything shared, and the support of each plan", async ({
    page,
  }) => {
    await signUp(page, newSignup("values"));
    const card = (name: string) => page.locator("fieldset label").filter({ hasText: name });
    const shared = ["Unlimited users", "All features included", "Role-based access"];

    await expect(card("Starter")).toContainText("$149/mo");
    await expect(card("Starter")).toContainText("Up to 100 clients");
    await expect(card("Starter")).toContainText("Up to 20 custom templates");
    await expect(card("Starter")).toContainText("Email support");

    await expect(card("Professional")).toContainText("$249/mo");
    await expect(card("Professional")).toContainText("Up to 250 clients");
    await expect(card("Professional")).toContainText("Up to 50 custom templates");
    await expect(card("Professional")).toContainText("Priority email support");

    await expect(card("Enterprise")).toContainText("$319/mo");
    await expect(card("Enterprise")).toContainText("Unlimited clients");
    await expect(card("Enterprise")).toContainText("Unlimited custom templates");
    await expect(card("Enterprise")).toContainText("Priority phone support");

    for (const name of ["Starter", "Professional", "Enterprise"]) {
      for (const line of shared) await expect(card(name)).toContainText(line);
    }
    // Only Enterprise has custom integrations and an account manager; Starter lacks nothing shown.
    for (const name of ["Starter", "Professional"]) {
      await expect(card(name)).not.toContainText("custom integrations");
      await expect(card(name)).not.toContainText("account manager");
    }
    await expect(card("Enterprise")).toContainText("custom integrations");
    await expect(card("Enterprise")).toContainText("dedicated account manager");
    await expect(card("Starter")).not.toContainText(/no |not included|lacks/i);
  });

  test('S-PLANS-10 S-PLANS-11 "Back to Account" returns to /signup with the data kept; "Continue to Payment" stores the plan id', async ({
    page,
  }) => {
    const signup = newSignup("back");
    await signUp(page, signup);
    await page.getByRole("link", { name: "Back to Account" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByLabel("Full Name")).toHaveValue(signup.fullName);
    await expect(page.getByLabel("Username")).toHaveValue(signup.username);
    await page.getByRole("button", { name: "Continue to Plan Selection" }).click();

    await page.getByRole("radio", { name: /Enterprise/ }).check();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/onboarding\/payment$/);
    const { session } = await browserStorage(page);
    expect(session.selectedPlan).toBe("enterprise");
  });
});

test.describe("onboarding redirects", () => {
  test("S-PLANS-12 S-PAY-08 S-SUCC-07 without signup data, the plans and payment screens go to /signup; without the flag, success does too", async ({
    page,
  }) => {
    for (const path of ["/onboarding/plans", "/onboarding/payment", "/onboarding/success"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/signup$/);
      await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
    }
  });

  test("S-PAY-09 with signup data but no stored plan, the payment screen goes to /signup", async ({ page }) => {
    const signup = newSignup("noplan");
    await reachPayment(page, signup);
    // Within the same page (the password still in memory), so only the missing plan can send it back.
    await page.getByRole("button", { name: "Back to Plans" }).click();
    await expect(page).toHaveURL(/\/onboarding\/plans$/);
    await page.evaluate(() => {
      sessionStorage.removeItem("selectedPlan");
      history.pushState(null, "", "/onboarding/payment");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByLabel("Username")).toHaveValue(signup.username);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue(signup.password);
  });
});

test.describe("payment and success", () => {
  test("S-STATE-01 S-PAY-01 S-PAY-02 S-PAY-03 S-PAY-04 S-PAY-06 S-PAY-07 S-PAY-11 S-PAY-14 S-PAY-15 S-STATE-02 S-STATE-03 S-SUCC-01 S-SUCC-02 S-SUCC-03 S-SUCC-04 S-SUCC-05 S-SUCC-06 S-SUCC-07 S-CONST-02 S-CONST-03 S-CONST-04 the whole onboarding, from the landing page's call to action to the dashboard", async ({
    page,
    browser,
  }) => {
    // Four screens, a dashboard and a second browser context: longer than 30 s on a busy machine.
    test.slow();
    const stripeRequests: string[] = [];
    page.on("request", (request) => {
      if (/stripe/i.test(request.url())) stripeRequests.push(request.url());
    });
    const signup = newSignup("flow");
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Get Started", exact: true }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await fillSignup(page, signup);
    await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
    await page.getByRole("radio", { name: /Starter/ }).check();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByRole("heading", { name: "Complete Your Setup" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create Account" })).toBeEnabled();
    const firstCharge = longDateFromToday(14);

    // The payment screen (no Stripe on this installation).
    const summary = page.getByRole("region", { name: "Order Summary" });
    await expect(summary).toContainText("Starter plan");
    await expect(summary).toContainText("$149/mo");
    await expect(summary).toContainText("Due today$0.00");
    await expect(summary).toContainText(`First charge on day 15 (${firstCharge}): $149.00, then monthly.`);
    await expect(summary).toContainText("Charges appear on your statement as “Tendwell, Inc.”");
    await expect(page.getByText(/^Secure payment:/)).toBeVisible();
    await expect(page.getByText("does not take card payments, so no card is needed")).toBeVisible();
    await expect(page.locator("iframe")).toHaveCount(0);
    await expect(page.getByLabel(/card number/i)).toHaveCount(0);

    // Stripe's libraries are a chunk of their own, loaded only on an installation that takes cards.
    expect(stripeRequests).toEqual([]);

    // S-PAY-07: back and forth keeps the choice.
    await page.getByRole("button", { name: "Back to Plans" }).click();
    await expect(page).toHaveURL(/\/onboarding\/plans$/);
    await expect(page.getByRole("radio", { name: /Starter/ })).toBeChecked();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expectPasswordNowhere(page, signup.password);

    const registration = page.waitForRequest((request) => request.url().endsWith("/api/auth/register"));
    await page.getByRole("button", { name: "Create Account" }).click();
    expect((await registration).postDataJSON()).toEqual({
      fullName: signup.fullName,
      email: signup.email,
      username: signup.username,
      password: signup.password,
      subscriptionPlan: "starter",
    });

    // The welcome screen.
    await expect(page).toHaveURL(/\/onboarding\/success$/);
    await expect(page.getByRole("heading", { name: "Welcome to Tendwell!" })).toBeVisible();
    const { session } = await browserStorage(page);
    expect(session).toEqual({ onboardingComplete: "true" });
    await expect(page.getByText(`Your free trial ends on ${firstCharge}.`)).toBeVisible();
    await expect(
      page.getByText(`Your first charge comes after the trial, on ${firstCharge}, and billing is monthly`),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Confirmation email" })).toBeVisible();
    await expect(page.getByText("No confirmation email will arrive")).toBeVisible();
    const steps = page.getByRole("region", { name: "Getting started" }).getByRole("listitem");
    await expect(steps).toHaveCount(3);

    // The button clears the flag and goes to /login, which sends the signed-in owner on to /dashboard.
    await page.evaluate(() => {
      const visited: string[] = [];
      (window as unknown as { visited: string[] }).visited = visited;
      for (const method of ["pushState", "replaceState"] as const) {
        const original = history[method].bind(history);
        history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
          if (url) visited.push(new URL(url, location.href).pathname);
          original(data, unused, url);
        };
      }
    });
    await page.getByRole("button", { name: "Access Your Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const visited = await page.evaluate(() => (window as unknown as { visited: string[] }).visited);
    expect(visited[0]).toBe("/login");
    expect(visited.at(-1)).toBe("/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    expect((await browserStorage(page)).session).toEqual({});
    const me = await apiGet<CurrentUser>(page, "/api/auth/me");
    expect(me).toMatchObject({ username: signup.username, fullName: signup.fullName, role: "super_admin" });

    // S-SUCC-07: once used, the welcome screen is gone.
    await page.goto("/onboarding/success");
    await expect(page).toHaveURL(/\/signup$/);

    // S-PAY-15: the new owner signs in with the new credentials elsewhere.
    const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const fresh = await other.newPage();
    await fresh.goto("/login");
    await fresh.getByLabel("Username").fill(signup.username);
    await fresh.getByLabel("Password").fill(signup.password);
    await fresh.getByRole("button", { name: "Sign In" }).click();
    await expect(fresh).toHaveURL(/\/dashboard$/);
    const again = await apiGet<CurrentUser>(fresh, "/api/auth/me");
    expect(again.role).toBe("super_admin");
    await other.close();
  });

  test("S-PAY-13 S-STATE-07 while the account is created every control is disabled", async ({ page }) => {
    await reachPayment(page, newSignup("pending"));
    const release = await holdRequests(page, "**/api/auth/register");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("button", { name: "Creating Account..." })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Back to Plans" })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/onboarding\/success$/);
  });

  test("S-PAY-16 S-ERR-07 S-ERR-09 a taken username shows the server's message in a red alert above the form", async ({
    page,
    browserConsole,
  }) => {
    // The taken username is refused: the browser logs the 409.
    browserConsole.expectFailedRequest(409, "/api/auth/register");
    const signup = { ...newSignup("taken"), username: demoUsers.super_admin.username };
    await reachPayment(page, signup);
    const answer = page.waitForResponse((response) => response.url().endsWith("/api/auth/register"));
    await page.getByRole("button", { name: "Create Account" }).click();
    const response = await answer;
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(response.status()).toBeLessThan(500);
    const { message } = (await response.json()) as { message: string };
    expect(message.length).toBeGreaterThan(0);

    const alert = page.getByRole("alert");
    await expect(alert).toHaveText(message);
    await expect(alert).toHaveClass(/text-destructive/);
    const alertBox = await alert.boundingBox();
    const formBox = await page.locator("form").boundingBox();
    expect(alertBox && formBox && alertBox.y + alertBox.height <= formBox.y).toBe(true);
    await expect(page).toHaveURL(/\/onboarding\/payment$/);
    await expect(page.getByRole("button", { name: "Create Account" })).toBeEnabled();
    expect((await browserStorage(page)).session.onboardingComplete).toBeUndefined();
  });

  test('S-ERR-07 S-ERR-09 a registration failure without a message shows "Failed to create account"; the retry creates it', async ({
    page,
    browserConsole,
  }) => {
    // The first registration is made to fail: the browser logs the 502.
    browserConsole.expectFailedRequest(502, "/api/auth/register");
    const signup = newSignup("no-message");
    await reachPayment(page, signup);
    // The first attempt fails with a bare 502 (as from a proxy), with no message to show.
    let refused = 0;
    await page.route("**/api/auth/register", (route) => {
      if (refused > 0) return route.continue();
      refused += 1;
      return route.fulfill({ status: 502, body: "" });
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText("Failed to create account");
    await expect(alert).toHaveClass(/text-destructive/);
    await expect(page).toHaveURL(/\/onboarding\/payment$/);
    expect((await page.request.get("/api/auth/me")).status()).toBe(401);

    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/onboarding\/success$/);
    expect((await apiGet<CurrentUser>(page, "/api/auth/me")).username).toBe(signup.username);
  });
});

test("onboarding screens have no axe violations and fit at 1280 and 375 px", async ({ page }, testInfo) => {
  // Five axe runs and full-page screenshots at each width on a shared 2-core machine outlast the default 30 s.
  test.slow();
  const check = (screen: string) => checkAtBothWidths(page, testInfo, screen);
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
  await check("signup");
  await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await check("signup-error");

  const signup = newSignup("axe");
  await fillSignup(page, signup);
  await page.getByRole("button", { name: "Continue to Plan Selection" }).click();
  await expect(page.getByRole("heading", { name: "Choose Your Plan" })).toBeVisible();
  await check("plans");

  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeEnabled();
  await check("payment");

  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Tendwell!" })).toBeVisible();
  await check("success");
});
