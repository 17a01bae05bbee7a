import fs from "node:fs";
import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import type { AccountSecurity, Enrolled, TotpEnrolment } from "../src/shared/mfa";
import {
  apiGet,
  attachScreenshot,
  checkAtBothWidths,
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  type FirmUser,
  OwnFirm,
  test,
  viewports,
} from "./fixtures";

/*
 * Two-step sign-in's screens (decision 0044): the second step of sign-in, setting one up when the
 * firm requires it, Settings' sign-in security, the step-up dialog and a super admin's reset of
 * someone's factors. Every test works in a firm of its own, whose users enrol over the API or on
 * screen; codes come from the secret the enrolment hands out, as an authenticator app makes them.
 */

/**
 * The code an authenticator app shows for `secret`, `steps` 30-second steps from now. A code works
 * once, and never one of an earlier step than the last accepted: the next sign-in after an
 * enrolment uses the next step's code, which the server accepts as a phone's clock running ahead.
 */
function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret.replace(/\s/g, "")),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Adds an authenticator app over the API for the user `api` is signed in as (a fresh sign-in needs no step-up). */
async function enrolAuthenticator(
  api: APIRequestContext,
  name = "Work phone",
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = await api.post("/api/account/factors/totp");
  expect(start.status(), await start.text()).toBe(200);
  const { secret } = (await start.json()) as TotpEnrolment;
  const confirm = await api.post("/api/account/factors/totp/confirm", { data: { code: totpCode(secret), name } });
  expect(confirm.status(), await confirm.text()).toBe(200);
  return { secret, recoveryCodes: ((await confirm.json()) as Enrolled).recoveryCodes ?? [] };
}

/** The firm's rule over the API, as its super admin: optional, or required from now on. */
async function setPolicy(firm: OwnFirm, policy: "optional" | "required"): Promise<void> {
  const response = await firm.api.put("/api/firm/mfa-policy", { data: { policy } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Signs the page in on the login page with the password; the second step's screen follows. */
async function enterPassword(page: Page, user: FirmUser): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/login\/verify$/);
}

/** Signs the page's context in over the API with the password and a recovery code. */
async function signInWithRecoveryCode(page: Page, user: FirmUser, code: string): Promise<void> {
  const login = await page.request.post("/api/auth/login", {
    data: { username: user.username, password: user.password },
  });
  expect(login.status(), await login.text()).toBe(202);
  const step = await page.request.post("/api/auth/second-step", { data: { method: "recovery_code", code } });
  expect(step.status(), await step.text()).toBe(200);
}

const securityCard = (page: Page): Locator => page.getByTestId("sign-in-security");

/** Signs out through the user menu, as a person would; the login page follows. */
async function signOutOnScreen(page: Page): Promise<void> {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe("two-step sign-in", () => {
  test("S-MFA-05 S-MFA-06 S-MFA-08 S-MFA-14 the whole way: an app set up from the key on screen, signed out, a computed code signs in, the same code again is refused, a recovery code signs in", async ({
    page,
    browserConsole,
  }) => {
    // The replayed code is refused with 400, which the browser logs.
    browserConsole.expectFailedRequest(400, "/api/auth/second-step");
    const firm = await OwnFirm.register(page.request, "professional");
    await page.goto("/settings");
    await securityCard(page).getByRole("button", { name: "Add an authenticator app" }).click();
    const add = page.getByRole("dialog", { name: "Add an authenticator app" });
    // What a person types into their authenticator app: the key as the screen shows it.
    const secret = (await add.getByTestId("totp-secret").textContent()) ?? "";
    await add.getByLabel("Name").fill("Phone");
    await add.getByLabel("Code from the app").fill(totpCode(secret));
    await add.getByRole("button", { name: "Add app" }).click();
    const codesDialog = page.getByRole("dialog", { name: "Save your recovery codes" });
    const codeItems = codesDialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(codeItems).toHaveCount(10);
    const recoveryCodes = await codeItems.allTextContents();
    await codesDialog.getByRole("button", { name: "I have saved them" }).click();
    await signOutOnScreen(page);

    // The next step's code (the enrolment used this one's), as the app shows it a moment later.
    const code = totpCode(secret, 1);
    await enterPassword(page, firm.owner);
    await page.getByLabel("Authentication code").fill(code);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await signOutOnScreen(page);

    // The same code once more: a code works once.
    await enterPassword(page, firm.owner);
    const field = page.getByLabel("Authentication code");
    await field.fill(code);
    await page.keyboard.press("Enter");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/login\/verify$/);

    await page
      .getByRole("list", { name: "Other ways to sign in" })
      .getByRole("button", { name: "Use a recovery code instead" })
      .click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[3] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("You have 9 of 10 recovery codes left.")).toBeVisible();
  });

  test("S-MFA-08 S-MFA-09 add an authenticator app in Settings, keep the recovery codes shown once, rename it, make new codes", async ({
    page,
  }, testInfo) => {
    const firm = await OwnFirm.register(page.request, "professional");
    await page.goto("/settings");
    const card = securityCard(page);
    await expect(card.getByText("Authenticator apps")).toBeVisible();
    await card.getByRole("button", { name: "Add an authenticator app" }).click();

    const add = page.getByRole("dialog", { name: "Add an authenticator app" });
    await expect(add.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
    const secret = (await add.getByTestId("totp-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "mfa-add-authenticator-1280");

    // No name: the field says why; then a name and the code the app shows.
    await add.getByLabel("Code from the app").fill(totpCode(secret));
    await add.getByRole("button", { name: "Add app" }).click();
    await expect(add.getByText("Give it a name, such as the phone it is on")).toBeVisible();
    await add.getByLabel("Name").fill("Work phone");
    await add.getByRole("button", { name: "Add app" }).click();

    // The first factor comes with ten recovery codes, shown once, to copy or download.
    const codesDialog = page.getByRole("dialog", { name: "Save your recovery codes" });
    const codes = codesDialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    const firstSet = await codes.allTextContents();
    for (const code of firstSet) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      codesDialog.getByRole("button", { name: "Download as .txt" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^tendwell-recovery-codes-\d{4}-\d{2}-\d{2}\.txt$/);
    const file = fs.readFileSync(await download.path(), "utf8");
    expect(file).toContain(`recovery codes for ${firm.owner.username}`);
    for (const code of firstSet) expect(file).toContain(code);
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "mfa-recovery-codes-1280");
    await codesDialog.getByRole("button", { name: "I have saved them" }).click();
    await expect(codesDialog).toBeHidden();

    const factor = card.getByTestId("factor");
    await expect(factor).toHaveCount(1);
    await expect(factor).toContainText("Work phone");
    await expect(factor).toContainText("Authenticator app");
    // Not used until it signs someone in: the code that confirmed it does not count.
    await expect(factor).toContainText(/Added .+ · Not used yet/);
    await expect(card.getByTestId("recovery-codes-left")).toContainText("10 of 10 codes left.");

    // Renamed by keyboard: the row's button, the field, Enter.
    await card.getByRole("button", { name: "Rename Work phone" }).focus();
    await page.keyboard.press("Enter");
    const rename = page.getByRole("dialog", { name: "Rename authenticator app" });
    await expect(rename.getByLabel("Name")).toHaveValue("Work phone");
    await rename.getByLabel("Name").fill("Old phone");
    await page.keyboard.press("Enter");
    await expect(rename).toBeHidden();
    await expect(factor).toContainText("Old phone");

    // A new set replaces the old one, and is shown once too.
    await card.getByRole("button", { name: "Make new codes" }).click();
    await page
      .getByRole("alertdialog", { name: "Make new recovery codes?" })
      .getByRole("button", { name: "Make new codes" })
      .click();
    await expect(codes).toHaveCount(10);
    const secondSet = await codes.allTextContents();
    expect(secondSet.filter((code) => firstSet.includes(code))).toEqual([]);
    await codesDialog.getByRole("button", { name: "I have saved them" }).click();

    const security = await apiGet<AccountSecurity>(page, "/api/account/security");
    expect(security.factors.map((each) => each.name)).toEqual(["Old phone"]);
    expect(security.recoveryCodesLeft).toBe(10);
  });

  test("S-MFA-05 after the password the code is asked for: a wrong code shows under the field, the right one signs in, and a reload keeps the step", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The wrong code is refused with 400, which the browser logs.
    browserConsole.expectFailedRequest(400, "/api/auth/second-step");
    const { secret } = await enrolAuthenticator(ownFirm.api);
    await enterPassword(page, ownFirm.owner);

    await expect(page.getByRole("heading", { name: "Two-step sign-in", level: 1 })).toBeVisible();
    const field = page.getByLabel("Authentication code");
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute("autocomplete", "one-time-code");
    await expect(field).toHaveAttribute("inputmode", "numeric");

    // A reload asks the server where the sign-in stands: still the second step.
    await page.reload();
    await expect(page.getByLabel("Authentication code")).toBeVisible();

    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("Enter the 6-digit code from your authenticator app")).toBeVisible();

    const wrong = totpCode(secret, 1) === "000000" ? "111111" : "000000";
    await field.fill(wrong);
    await page.keyboard.press("Enter");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toBeFocused();

    await field.fill(totpCode(secret, 1));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  });

  test("S-MFA-05 /login/verify without a sign-in in progress goes back to /login and says why", async ({
    page,
    browserConsole,
  }) => {
    // GET /api/auth/second-step answers 401 without a pending sign-in, which the browser logs.
    browserConsole.expectFailedRequest(401, "/api/auth/second-step");
    await page.goto("/login/verify");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("status")).toHaveText("Your sign-in timed out after 5 minutes. Please sign in again.");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  });

  test("S-MFA-06 a recovery code signs in instead, and the toast says how many are left", async ({ page, ownFirm }) => {
    const { recoveryCodes } = await enrolAuthenticator(ownFirm.api);
    await enterPassword(page, ownFirm.owner);

    const others = page.getByRole("list", { name: "Other ways to sign in" });
    await others.getByRole("button", { name: "Use a recovery code instead" }).click();
    const field = page.getByLabel("Recovery code");
    await expect(field).toBeFocused();
    // Typed as people copy it by hand: upper case, with spaces for dashes.
    await field.fill((recoveryCodes[0] ?? "").toUpperCase().replaceAll("-", " "));
    await page.getByRole("button", { name: "Verify" }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Signed in with a recovery code")).toBeVisible();
    await expect(page.getByText("You have 9 of 10 recovery codes left.")).toBeVisible();
  });

  test("S-MFA-07 where the firm requires a second step, a user without one sets it up at sign-in and saves the recovery codes first", async ({
    page,
    ownFirm,
  }, testInfo) => {
    // The owner enrols, then requires it at once (a new firm's "required" waits out its grace first).
    await enrolAuthenticator(ownFirm.api);
    await setPolicy(ownFirm, "optional");
    await setPolicy(ownFirm, "required");
    const user = await ownFirm.user("user");
    await page.setViewportSize(viewports.mobile);

    await enterPassword(page, user);
    await expect(page.getByRole("heading", { name: "Set up two-step sign-in", level: 1 })).toBeVisible();
    await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
    const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
    await expectNoAxeViolations(page);
    await expectNoHorizontalScroll(page);
    await attachScreenshot(page, testInfo, "mfa-enrolment-required-375");
    await page.setViewportSize(viewports.desktop);
    await attachScreenshot(page, testInfo, "mfa-enrolment-required-1280");

    await page.getByLabel("Authentication code").fill(totpCode(secret));
    await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();

    await expect(page.getByRole("heading", { name: "Save your recovery codes", level: 1 })).toBeVisible();
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    const next = page.getByRole("button", { name: "Continue" });
    await expect(next).toBeDisabled();
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "mfa-enrolment-codes-1280");
    await page.setViewportSize(viewports.mobile);
    await expectNoHorizontalScroll(page);
    await attachScreenshot(page, testInfo, "mfa-enrolment-codes-375");

    // By keyboard: the box, then Continue.
    await page.getByRole("checkbox", { name: "I have saved these codes" }).focus();
    await page.keyboard.press("Space");
    await expect(next).toBeEnabled();
    await next.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard$/);
    const security = await apiGet<AccountSecurity>(page, "/api/account/security");
    expect(security.factors).toHaveLength(1);
    expect(security.recoveryCodesLeft).toBe(10);
  });

  test("S-MFA-07 a user signed in before the firm required a second step is taken to set one up at their next request", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The request that finds the session short of its second step is refused with 401, which the browser logs.
    browserConsole.expectFailedRequest(401, "/api/");
    await enrolAuthenticator(ownFirm.api);
    await setPolicy(ownFirm, "optional");
    const admin = await ownFirm.user("admin");
    await ownFirm.signIn(page, admin);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Sign-in security" })).toBeVisible();

    await setPolicy(ownFirm, "required");
    // The next request the app makes (the page's own polling may make it first) meets the policy.
    await page.goto("/clients");
    await expect(page).toHaveURL(/\/login\/verify$/);
    await expect(page.getByRole("heading", { name: "Set up two-step sign-in", level: 1 })).toBeVisible();
  });

  test('S-MFA-11 S-MFA-08 removing a factor when the server wants a fresh proof asks "Confirm it\'s you", then removes it', async ({
    page,
    ownFirm,
    browserConsole,
  }, testInfo) => {
    // The first DELETE is answered 403 here (see below), which the browser logs.
    browserConsole.expectFailedRequest(403, "/api/account/factors/");
    const { secret, recoveryCodes } = await enrolAuthenticator(ownFirm.api);
    // Optional, so the only factor may go.
    await setPolicy(ownFirm, "optional");
    await signInWithRecoveryCode(page, ownFirm.owner, recoveryCodes[0] ?? "");

    // A recovery code just now counts as a fresh proof, and five minutes cannot be waited out in a
    // test: the first DELETE is answered as the server answers after them, the rest go through.
    let refused = false;
    await page.route("**/api/account/factors/*", async (route) => {
      if (route.request().method() !== "DELETE" || refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({ message: "Confirm it's you to make this change", code: "STEP_UP_REQUIRED" }),
      });
    });

    await page.goto("/settings");
    const card = securityCard(page);
    await card.getByRole("button", { name: "Remove Work phone" }).click();
    await page.getByRole("alertdialog", { name: "Remove Work phone?" }).getByRole("button", { name: "Remove" }).click();

    const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
    await expect(confirm).toBeVisible();
    const field = confirm.getByLabel("Authentication code");
    await expect(field).toBeFocused();
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "mfa-step-up-1280");
    await page.setViewportSize(viewports.mobile);
    await expectNoHorizontalScroll(page);
    await attachScreenshot(page, testInfo, "mfa-step-up-375");

    await field.fill(totpCode(secret, 1));
    await page.keyboard.press("Enter");
    await expect(confirm).toBeHidden();
    await expect(page.getByText("Removed", { exact: true })).toBeVisible();
    await expect(card.getByTestId("factor")).toHaveCount(0);
    expect(refused).toBe(true);
    expect((await apiGet<AccountSecurity>(page, "/api/account/security")).factors).toEqual([]);
  });

  test("S-MFA-10 a super admin sees the firm's policy, in its grace with the date, and makes it optional; an admin sees no policy", async ({
    page,
    ownFirm,
  }) => {
    const admin = await ownFirm.user("admin");
    await ownFirm.signIn(page);
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Two-step sign-in policy" });
    // A new firm: required after seven days' grace.
    await expect(form.getByTestId("mfa-policy-status")).toHaveText(/^Required from [A-Z][a-z]{2} \d{1,2}, \d{4}\./);
    await expect(form.getByRole("combobox", { name: "Two-step sign-in" })).toHaveText("Required for everyone");

    await form.getByRole("combobox", { name: "Two-step sign-in" }).click();
    await page.getByRole("option", { name: "Optional: each person chooses" }).click();
    await form.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByText("Policy saved")).toBeVisible();
    await expect(form.getByTestId("mfa-policy-status")).toHaveText("Now optional.");
    expect((await apiGet<AccountSecurity>(page, "/api/account/security")).firmPolicy).toEqual({
      policy: "optional",
      requiredFrom: null,
    });

    await page.context().clearCookies();
    await ownFirm.signIn(page, admin);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Sign-in security" })).toBeVisible();
    await expect(page.getByRole("form", { name: "Two-step sign-in policy" })).toHaveCount(0);
  });

  test("S-MFA-12 a super admin resets another user's factors from the user's card, after confirming", async ({
    page,
    ownFirm,
    playwright,
    baseURL,
  }) => {
    const user = await ownFirm.user("user");
    const theirs = await playwright.request.newContext({ baseURL });
    try {
      const login = await theirs.post("/api/auth/login", {
        data: { username: user.username, password: user.password },
      });
      expect(login.status()).toBe(200);
      await enrolAuthenticator(theirs);
    } finally {
      await theirs.dispose();
    }

    await ownFirm.signIn(page);
    await page.goto("/users");
    await page.getByRole("button", { name: `Manage ${user.fullName}` }).click();
    await page.getByRole("menuitem", { name: "Reset sign-in factors" }).click();
    const confirm = page.getByRole("alertdialog", { name: `Reset ${user.fullName}'s sign-in factors?` });
    await expect(confirm).toBeVisible();
    await expectNoAxeViolations(page);
    await confirm.getByRole("button", { name: "Reset factors" }).click();
    await expect(page.getByText("Sign-in factors reset")).toBeVisible();
    await expect(confirm).toBeHidden();

    // Their password alone signs them in again (the firm is still in its grace).
    const again = await page.request.post("/api/auth/login", {
      data: { username: user.username, password: user.password },
    });
    expect(again.status()).toBe(200);
    // No one resets their own factors here: Settings is the place for those.
    await page.context().clearCookies();
    await ownFirm.signIn(page);
    await page.goto("/users");
    await expect(page.getByRole("button", { name: `Manage ${ownFirm.owner.fullName}` })).toHaveCount(0);
  });

  test("S-MFA-05 S-MFA-06 S-MFA-08 S-MFA-09 the second step and Settings' sign-in security: axe and screenshots at 1280 and 375 px", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { recoveryCodes } = await enrolAuthenticator(ownFirm.api);
    await enterPassword(page, ownFirm.owner);
    await expect(page.getByLabel("Authentication code")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "mfa-second-step");

    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await expect(page.getByLabel("Recovery code")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "mfa-second-step-recovery");
    await page.getByLabel("Recovery code").fill(recoveryCodes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto("/settings");
    await expect(securityCard(page).getByTestId("factor")).toHaveCount(1);
    await expect(securityCard(page).getByTestId("recovery-codes-left")).toContainText("9 of 10 codes left.");
    await expect(page.getByRole("form", { name: "Two-step sign-in policy" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "mfa-settings");
  });
});
