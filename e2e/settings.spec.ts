import { expect, type Page } from "@playwright/test";
import type { Firm } from "../src/shared/firm";
import type { CurrentUser } from "../src/shared/users";
import { signInToNewFirm, uniqueName } from "./clients-support";
import {
  apiGet,
  attachScreenshot,
  checkAtBothWidths,
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  signInAs,
  test,
  viewports,
} from "./fixtures";

/*
 * Settings (S-SET-01..05, issue 9): the four static cards, and below them the password change and,
 * for a super admin, the firm's name and time zone. Tests that write do so in a firm of their
 * own (signInToNewFirm): the demo users' passwords and firm name never change.
 */

const staticCards = ["Account Management", "Notification Preferences", "Security Settings", "System Preferences"];
/** The registration password signInToNewFirm uses. */
const newFirmPassword = "tendwell-e2e";

const card = (page: Page, title: string) => page.getByTestId("settings-card").filter({ hasText: title });

/** Every write the page sends from now on. */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET") writes.push(`${request.method()} ${request.url()}`);
  });
  return writes;
}

test.describe("settings", () => {
  test("S-SET-01 S-SET-02 S-SET-03 S-SET-04 the four static cards list their features", async ({ page }) => {
    await signInAs(page, "user");
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    for (const title of staticCards) {
      const item = card(page, title);
      await expect(item.getByRole("heading", { name: title })).toBeVisible();
      expect(await item.getByRole("listitem").count()).toBeGreaterThanOrEqual(3);
    }
    await expect(page.getByTestId("settings-card")).toHaveCount(4);
  });

  // One test per card (S-SET-01..04): its title as the product names it, and the features it lists, in order.
  const cardFeatures = [
    {
      id: "S-SET-01",
      title: "Account Management",
      features: ["Profile and contact details", "Password changes", "Sign-in sessions", "Your role and permissions"],
    },
    {
      id: "S-SET-02",
      title: "Notification Preferences",
      features: ["Overdue task alerts", "Task assignment notices", "Weekly activity digest", "Client status changes"],
    },
    {
      id: "S-SET-03",
      title: "Security Settings",
      features: ["Password requirements", "Session timeouts", "Role-based access", "Tamper-evident audit trail"],
    },
    {
      id: "S-SET-04",
      title: "System Preferences",
      features: ["Firm name and time zone", "Date and time formats", "Default task priority", "Data export"],
    },
  ];
  for (const [index, { id, title, features }] of cardFeatures.entries()) {
    test(`${id} /settings shows the static "${title}" card listing its features`, async ({ page }) => {
      await signInAs(page, "user");
      await page.goto("/settings");
      const overview = page.getByRole("region", { name: "Settings overview" });
      const item = overview.getByTestId("settings-card").nth(index);
      await expect(item.getByRole("heading")).toHaveText(title);
      await expect(item.getByRole("listitem")).toHaveText(features);
      await expect(overview.getByRole("heading", { name: title, exact: true })).toHaveCount(1);
    });
  }

  test("S-SET-05 the cards have no behaviour: clicking and typing in them sends no write", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/settings");
    await expect(card(page, "System Preferences")).toBeVisible();
    const writes = recordWrites(page);
    for (const title of staticCards) {
      const item = card(page, title);
      await expect(item.locator("button, a, input, select, textarea, form")).toHaveCount(0);
      await item.click();
      for (const feature of await item.getByRole("listitem").all()) await feature.click();
      await page.keyboard.press("Enter");
    }
    await page.waitForLoadState("networkidle");
    expect(writes).toEqual([]);
  });

  test("S-SET-01 change a password with the current one, stay signed in, then sign in with the new one", async ({
    page,
    browserConsole,
  }) => {
    // A wrong current password, then a sign-in with the old password: the browser logs both refusals.
    browserConsole.expectFailedRequest(400, "/api/auth/change-password");
    browserConsole.expectFailedRequest(401, "/api/auth/login");
    await signInToNewFirm(page);
    const me = await apiGet<CurrentUser>(page, "/api/auth/me");
    const newPassword = `ledger-${Date.now().toString(36)}-new`;
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Change password" });

    // The validation messages before any request: a mismatch, then a wrong current password from the server.
    await form.getByLabel("Current password").fill(newFirmPassword);
    await form.getByLabel("New password", { exact: true }).fill(newPassword);
    await form.getByLabel("Confirm new password").fill(`${newPassword}x`);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText("Passwords do not match")).toBeVisible();

    await form.getByLabel("Current password").fill("not-my-password");
    await form.getByLabel("Confirm new password").fill(newPassword);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText("Current password is incorrect")).toBeVisible();
    await expect(page.getByText("Failed to change password")).toBeVisible();

    await form.getByLabel("Current password").fill(newFirmPassword);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password changed")).toBeVisible();
    await expect(form.getByLabel("Current password")).toHaveValue("");

    // Still signed in here: the server kept this session.
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

    // Sign out, and back in through the login page: the old password fails, the new one works.
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Username").fill(me.username);
    await page.getByLabel("Password").fill(newFirmPassword);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await page.getByLabel("Password").fill(newPassword);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("S-SET-01 S-ROLE-06 a super admin renames the firm and sets its time zone", async ({ page }) => {
    await signInToNewFirm(page);
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Firm settings" });
    const name = uniqueName("Harbor Ledger LLP");

    await form.getByLabel("Firm name").fill("   ");
    await form.getByRole("button", { name: "Save firm settings" }).click();
    await expect(form.getByText("Firm name is required")).toBeVisible();

    await form.getByLabel("Firm name").fill(name);
    await form.getByRole("combobox", { name: "Time zone" }).click();
    await page.getByRole("option", { name: "Europe/London" }).click();
    await form.getByRole("button", { name: "Save firm settings" }).click();
    await expect(page.getByText("Firm settings saved")).toBeVisible();

    const firm = await apiGet<Firm>(page, "/api/firm");
    expect(firm).toMatchObject({ name, timeZone: "Europe/London" });
    await page.reload();
    await expect(page.getByRole("form", { name: "Firm settings" }).getByLabel("Firm name")).toHaveValue(name);
  });

  test("S-EDGE-06 the time zone is found by typing: Tokyo finds Asia/Tokyo, which is picked and saved; the keys work too", async ({
    page,
  }, testInfo) => {
    // Two saves, a reload, an axe run and two screenshots, on a machine two workers share.
    test.slow();
    await signInToNewFirm(page);
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Firm settings" });
    const picker = form.getByRole("combobox", { name: "Time zone" });
    await expect(picker).toHaveText(/^UTC/);

    await picker.click();
    const search = page.getByRole("combobox", { name: "Search time zones" });
    await expect(search).toBeFocused();
    const options = page.getByRole("listbox", { name: "Time zones" }).getByRole("option");
    expect(await options.count()).toBeGreaterThan(300);
    await search.fill("Tokyo");
    await expect(options).toHaveCount(1);
    await expect(options).toContainText("Asia/Tokyo");
    await expectNoAxeViolations(page, { popupOpen: true });
    await attachScreenshot(page, testInfo, "time-zone-search-1280");
    await options.getByText("Asia/Tokyo").click();
    await expect(search).toBeHidden();
    await expect(picker).toBeFocused();
    await expect(picker).toHaveText(/^Asia\/Tokyo/);
    await form.getByRole("button", { name: "Save firm settings" }).click();
    await expect(page.getByText("Firm settings saved")).toBeVisible();
    expect((await apiGet<Firm>(page, "/api/firm")).timeZone).toBe("Asia/Tokyo");

    // By keyboard: the arrow opens the list at the firm's zone; spaces stand for underscores.
    await page.reload();
    await picker.focus();
    await page.keyboard.press("ArrowDown");
    const selected = page.getByRole("option", { selected: true });
    await expect(selected).toContainText("Asia/Tokyo");
    await expect(search).toHaveAttribute("aria-activedescendant", (await selected.getAttribute("id")) ?? "");
    await page.keyboard.type("new york");
    await expect(options).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(picker).toHaveText(/^America\/New York/);
    // Radix hands focus back to the button a task after the list goes; keys sent before then are lost.
    await expect(picker).toBeFocused();
    // Typing on the closed picker opens it with that letter, and Escape leaves the choice as it was.
    await page.keyboard.type("z");
    await expect(search).toHaveValue("z");
    await page.keyboard.press("Escape");
    await expect(search).toBeHidden();
    await expect(picker).toHaveText(/^America\/New York/);
    await form.getByRole("button", { name: "Save firm settings" }).click();
    await expect(page.getByText("Firm settings saved")).toBeVisible();
    expect((await apiGet<Firm>(page, "/api/firm")).timeZone).toBe("America/New_York");

    await page.setViewportSize(viewports.mobile);
    await picker.click();
    await search.fill("pacific time");
    await expect(options.filter({ hasText: "America/Los Angeles" })).toHaveCount(1);
    await expectNoHorizontalScroll(page);
    await attachScreenshot(page, testInfo, "time-zone-search-375");
  });

  test("S-SAFE-13 saving the firm settings without a change sends nothing and adds no audit event", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Firm settings" });
    await expect(form.getByLabel("Firm name")).not.toHaveValue("");
    const eventsBefore = (await apiGet<unknown[]>(page, "/api/audit-events")).length;
    const writes = recordWrites(page);

    // Typed and typed back: the field holds what the firm already has.
    const name = await form.getByLabel("Firm name").inputValue();
    await form.getByLabel("Firm name").fill(`${name} draft`);
    await form.getByLabel("Firm name").fill(name);
    await form.getByRole("button", { name: "Save firm settings" }).click();
    await expect(page.getByText("Firm settings saved")).toBeVisible();
    expect(writes).toEqual([]);
    expect((await apiGet<unknown[]>(page, "/api/audit-events")).length).toBe(eventsBefore);
  });

  test("S-ROLE-06 an admin and a user see no Firm form; only super admins and admins see the audit trail link", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/settings");
    await expect(page.getByRole("form", { name: "Change password" })).toBeVisible();
    await expect(page.getByRole("form", { name: "Firm settings" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Open the audit trail" })).toBeVisible();

    await page.context().clearCookies();
    await signInAs(page, "user");
    await page.goto("/settings");
    await expect(page.getByRole("form", { name: "Change password" })).toBeVisible();
    await expect(page.getByRole("form", { name: "Firm settings" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Open the audit trail" })).toHaveCount(0);
  });

  test("S-SET-01 S-SET-02 S-SET-03 S-SET-04 axe and a screenshot at 1280 and 375 px", async ({ page }, testInfo) => {
    await signInAs(page, "super_admin");
    await page.goto("/settings");
    await expect(page.getByRole("form", { name: "Firm settings" }).getByLabel("Firm name")).not.toHaveValue("");
    await expect(page.getByTestId("settings-card").getByRole("heading")).toHaveText(
      cardFeatures.map((card) => card.title),
    );
    await checkAtBothWidths(page, testInfo, "settings");
  });
});
