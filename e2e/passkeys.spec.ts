import { expect, type Locator, type Page } from "@playwright/test";
import type { AccountSecurity } from "../src/shared/mfa";
import type { CurrentUser } from "../src/shared/users";
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
 * Passkeys on screen (decision 0044): one added in Settings, the second step of sign-in with it, a
 * sign-in with it alone from the login page, and a step-up with it before it is removed. WebAuthn
 * ties a passkey to the site's name and none works on an IP address, so this spec reaches the app
 * (the same server) at localhost; Chromium's virtual authenticator stands in for the device, and
 * verifies its user (a fingerprint, say) without asking. Every test registers a firm of its own.
 */

test.use({
  // The virtual authenticator outlives Playwright's reset between tests, and a browser takes only
  // one: each test here has a context of its own.
  reuseContext: false,
  // biome-ignore lint/correctness/noEmptyPattern: Playwright names a fixture's dependencies by destructuring; this one has none.
  baseURL: async ({}, use, testInfo) => use(testInfo.project.use.baseURL?.replace("127.0.0.1", "localhost")),
});

type VirtualAuthenticator = {
  /** How many passkeys the device keeps. */
  passkeys(): Promise<number>;
  /** Whether the device verifies its user: false makes the browser answer as when a person closes its prompt. */
  setUserVerified(verified: boolean): Promise<void>;
};

/** A device with passkeys for the page: Chromium's virtual authenticator, built in like a laptop's fingerprint reader. */
async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    passkeys: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.length,
    setUserVerified: async (isUserVerified) => {
      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified });
    },
  };
}

const securityCard = (page: Page): Locator => page.getByTestId("sign-in-security");

/** Adds a passkey in Settings as the signed-in user; the first factor's recovery codes are saved and closed. */
async function addPasskeyOnScreen(page: Page, name = "MacBook Touch ID"): Promise<void> {
  await page.goto("/settings");
  await securityCard(page).getByRole("button", { name: "Add a passkey" }).click();
  const add = page.getByRole("dialog", { name: "Add a passkey" });
  await add.getByLabel("Name").fill(name);
  await add.getByRole("button", { name: "Create passkey" }).click();
  await page
    .getByRole("dialog", { name: "Save your recovery codes" })
    .getByRole("button", { name: "I have saved them" })
    .click();
  await expect(securityCard(page).getByTestId("factor")).toContainText(name);
}

/** Signs out through the user menu, as a person would; the login page follows. */
async function signOutOnScreen(page: Page): Promise<void> {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The password on the login page; the second step's screen follows. */
async function enterPassword(page: Page, user: FirmUser): Promise<void> {
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/login\/verify$/);
}

test.describe("passkeys", () => {
  test("S-MFA-22 a passkey added in Settings: a name, the browser's prompt (closed once, then tried again), the recovery codes of a first factor, the passkey in the list", async ({
    page,
  }, testInfo) => {
    const device = await addVirtualAuthenticator(page);
    await OwnFirm.register(page.request, "professional");
    await page.goto("/settings");
    const card = securityCard(page);
    await expect(card.getByRole("heading", { name: "Authenticator apps and passkeys" })).toBeVisible();
    await card.getByRole("button", { name: "Add a passkey" }).click();

    const add = page.getByRole("dialog", { name: "Add a passkey" });
    const name = add.getByLabel("Name");
    await expect(name).toHaveAttribute("placeholder", "MacBook Touch ID");
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "passkey-add-1280");
    await page.setViewportSize(viewports.mobile);
    await expectNoHorizontalScroll(page);
    await attachScreenshot(page, testInfo, "passkey-add-375");
    await page.setViewportSize(viewports.desktop);

    // No name: the field says why, and the browser is not asked yet.
    await add.getByRole("button", { name: "Create passkey" }).click();
    await expect(add.getByText("Give it a name, such as the phone it is on")).toBeVisible();
    expect(await device.passkeys()).toBe(0);

    // The person closes the browser's prompt: a calm word, and the dialog stays to try again.
    await device.setUserVerified(false);
    await name.fill("MacBook Touch ID");
    await add.getByRole("button", { name: "Create passkey" }).click();
    await expect(add.getByRole("status")).toHaveText(
      "No passkey was used. Try again when you're ready, or use another way.",
    );
    await expect(add.getByRole("alert")).toHaveCount(0);
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "passkey-add-cancelled-1280");

    // Tried again by keyboard, the device verifying its user this time.
    await device.setUserVerified(true);
    await name.focus();
    await page.keyboard.press("Enter");

    // A first factor comes with ten recovery codes, shown once.
    const codesDialog = page.getByRole("dialog", { name: "Save your recovery codes" });
    await expect(codesDialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await codesDialog.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByText("Passkey added")).toBeVisible();

    const factor = card.getByTestId("factor");
    await expect(factor).toHaveCount(1);
    await expect(factor).toContainText("MacBook Touch ID");
    await expect(factor).toContainText(/Passkey · Added .+ · Not used yet/);
    await expect(card.getByTestId("recovery-codes-left")).toContainText("10 of 10 codes left.");
    expect(await device.passkeys()).toBe(1);
    const security = await apiGet<AccountSecurity>(page, "/api/account/security");
    expect(security.factors.map(({ kind, name: factorName }) => ({ kind, name: factorName }))).toEqual([
      { kind: "passkey", name: "MacBook Touch ID" },
    ]);
    expect(security.recoveryCodesLeft).toBe(10);
  });

  test("S-MFA-23 signed out, then the password and the passkey as the second step (a closed prompt first, then tried again)", async ({
    page,
  }, testInfo) => {
    const device = await addVirtualAuthenticator(page);
    const firm = await OwnFirm.register(page.request, "professional");
    await addPasskeyOnScreen(page);
    await signOutOnScreen(page);
    await enterPassword(page, firm.owner);

    // The passkey is the user's first way; a recovery code is the other.
    await expect(page.getByRole("heading", { name: "Two-step sign-in", level: 1 })).toBeVisible();
    await expect(page.getByText("Use your passkey to finish signing in.")).toBeVisible();
    const others = page.getByRole("list", { name: "Other ways to sign in" });
    await expect(others.getByRole("button")).toHaveText(["Use a recovery code instead"]);
    await checkAtBothWidths(page, testInfo, "passkey-second-step");
    await page.setViewportSize(viewports.desktop);

    await device.setUserVerified(false);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "No passkey was used. Try again when you're ready, or use another way.",
    );
    await expect(page).toHaveURL(/\/login\/verify$/);
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "passkey-second-step-cancelled-1280");

    // A recovery code is there, and the passkey is one click away again, first among the other ways.
    await others.getByRole("button", { name: "Use a recovery code instead" }).click();
    await expect(page.getByLabel("Recovery code")).toBeFocused();
    await expect(others.getByRole("button")).toHaveText(["Use a passkey"]);

    await device.setUserVerified(true);
    await others.getByRole("button", { name: "Use a passkey" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    const security = await apiGet<AccountSecurity>(page, "/api/account/security");
    expect(security.factors[0]?.lastUsedAt).not.toBeNull();
    expect(security.recoveryCodesLeft).toBe(10);
  });

  test("S-MFA-24 signed out, the passkey alone signs in from the login page, without a username or password", async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    const firm = await OwnFirm.register(page.request, "professional");
    await addPasskeyOnScreen(page);
    await signOutOnScreen(page);

    const passkey = page.getByRole("button", { name: "Sign in with a passkey" });
    await expect(passkey).toBeVisible();
    await checkAtBothWidths(page, testInfo, "passkey-login");

    // By keyboard: from the password field, Tab reaches the passkey's button after Sign In.
    await page.getByLabel("Password").focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(passkey).toBeFocused();
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    expect((await apiGet<CurrentUser>(page, "/api/auth/me")).username).toBe(firm.owner.username);
  });

  test("S-MFA-24 S-MFA-22 no passkey is offered where the browser has no WebAuthn, nor on an IP address, where none works", async ({
    page,
  }, testInfo) => {
    await page.addInitScript(() => {
      // A browser without WebAuthn.
      Reflect.deleteProperty(window, "PublicKeyCredential");
    });
    await OwnFirm.register(page.request, "professional");
    await page.goto("/settings");
    await expect(securityCard(page).getByRole("button", { name: "Add an authenticator app" })).toBeVisible();
    await expect(securityCard(page).getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
    await page.context().clearCookies();
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);

    // The same app at 127.0.0.1, in a browser context of its own, which has WebAuthn.
    const context = await page.context().browser()?.newContext();
    if (!context) throw new Error("no browser for a second context");
    try {
      const other = await context.newPage();
      await other.goto(`${testInfo.project.use.baseURL}/login`);
      await expect(other.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
      expect(await other.evaluate(() => typeof window.PublicKeyCredential)).toBe("function");
      await expect(other.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('S-MFA-25 removing the passkey asks "Confirm it\'s you", which the passkey answers; then it is gone', async ({
    page,
    browserConsole,
  }, testInfo) => {
    // The first DELETE is answered 403 here (see below), which the browser logs.
    browserConsole.expectFailedRequest(403, "/api/account/factors/");
    await addVirtualAuthenticator(page);
    const firm = await OwnFirm.register(page.request, "professional");
    // Optional, so the only factor may go.
    const policy = await firm.api.put("/api/firm/mfa-policy", { data: { policy: "optional" } });
    expect(policy.status(), await policy.text()).toBe(200);
    await addPasskeyOnScreen(page);

    // Adding the passkey was a fresh proof, and five minutes cannot be waited out in a test: the
    // first DELETE is answered as the server answers after them, the rest go through.
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

    const card = securityCard(page);
    await card.getByRole("button", { name: "Remove MacBook Touch ID" }).click();
    const remove = page.getByRole("alertdialog", { name: "Remove MacBook Touch ID?" });
    await expect(remove).toContainText("It is your only second step");
    await remove.getByRole("button", { name: "Remove" }).click();

    const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
    const usePasskey = confirm.getByRole("button", { name: "Use a passkey" });
    await expect(usePasskey).toBeVisible();
    await expect(confirm.getByRole("button", { name: "Use a recovery code instead" })).toBeVisible();
    await expectNoAxeViolations(page);
    await attachScreenshot(page, testInfo, "passkey-step-up-1280");
    await page.setViewportSize(viewports.mobile);
    await expectNoHorizontalScroll(page);
    await attachScreenshot(page, testInfo, "passkey-step-up-375");

    await usePasskey.click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("Removed", { exact: true })).toBeVisible();
    await expect(card.getByTestId("factor")).toHaveCount(0);
    expect(refused).toBe(true);
    expect((await apiGet<AccountSecurity>(page, "/api/account/security")).factors).toEqual([]);
  });
});
