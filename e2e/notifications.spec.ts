import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { unsubscribeToken } from "../src/server/features/notifications/unsubscribe-token";
import { MFA_KEY_FILE } from "../src/server/platform/mfa-key";
import { sealingKeyFrom } from "../src/server/platform/sealed-secrets";
import { checkAtBothWidths, test } from "./fixtures";

/*
 * E-mail notifications (decisions 0050, 0052): a user of a firm of the test's own chooses them in
 * Settings, and an e-mail's unsubscribe link opens a page that asks before it turns one off. The
 * link is signed with the app server's own key, read from its data directory (as
 * playwright.config.ts names it), as the morning sweep signs the links it sends.
 */

const card = (page: Page) => page.getByTestId("notification-preferences");
const toast = (page: Page, text: string) => page.locator("[data-app-toast][data-state=open]").filter({ hasText: text });

/**
 * A link as a message made at `sentAt` carries it. The app under test judges links by the wall
 * clock, so a link is made relative to now (by default, now), never at a fixed date.
 */
async function unsubscribeLink(
  who: { firmId: string; userId: string },
  topic: "due_soon" | "overdue" | "digest",
  sentAt = new Date(),
) {
  const dataDir = path.join(os.tmpdir(), `tendwell-e2e-${Number(process.env.E2E_PORT ?? 4173)}`);
  const key = sealingKeyFrom(await readFile(path.join(dataDir, MFA_KEY_FILE), "utf8"));
  return `/unsubscribe/${unsubscribeToken(key, { ...who, topic }, sentAt)}`;
}

test.describe("e-mail notifications", () => {
  test("S-NOTIF-03 a user chooses reminders, overdue alerts and a digest in Settings; each change is kept", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "user");
    await page.goto("/settings");
    await expect(card(page).getByRole("heading", { name: "E-mail notifications" })).toBeVisible();
    const reminders = card(page).getByRole("switch", { name: "Due-soon reminders" });
    const days = card(page).getByRole("combobox", { name: "Days before the due date" });
    const overdue = card(page).getByRole("switch", { name: "Overdue alerts" });
    const digest = card(page).getByRole("combobox", { name: "Digest of your work" });
    await expect(reminders).toBeChecked();
    await expect(days).toHaveText("3");
    await expect(overdue).toBeChecked();
    await expect(digest).toHaveText("No digest");
    await expect(card(page)).toContainText("Security notices");

    await days.click();
    await page.getByRole("option", { name: "5", exact: true }).click();
    await expect(toast(page, "Notification preferences saved")).toBeVisible();
    await expect(days).toHaveText("5");
    await overdue.click();
    await expect(overdue).not.toBeChecked();
    await digest.click();
    await page.getByRole("option", { name: "Monday mornings" }).click();
    await expect(digest).toHaveText("Monday mornings");
    await expect
      .poll(async () => (await page.request.get("/api/account/notification-preferences")).json())
      .toEqual({ dueSoonDays: 5, overdueAlerts: false, digest: "weekly" });

    await page.reload();
    await expect(days).toHaveText("5");
    await expect(overdue).not.toBeChecked();
    await expect(digest).toHaveText("Monday mornings");
    // Reminders off hides the days; on again starts from 3.
    await reminders.click();
    await expect(reminders).not.toBeChecked();
    await expect(days).toHaveCount(0);
    await expect
      .poll(async () => (await page.request.get("/api/account/notification-preferences")).json())
      .toMatchObject({ dueSoonDays: null });
  });

  test("S-NOTIF-08 an e-mail's unsubscribe link asks first, then turns that kind of message off without a sign-in", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    const user = await ownFirm.user("user");
    await page.goto(await unsubscribeLink({ firmId: ownFirm.firmId, userId: user.id }, "overdue"));
    await expect(page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
    await expect(page.getByText(`Stop overdue alerts from ${ownFirm.name} in Tendwell?`)).toBeVisible();
    await page.getByRole("button", { name: "Unsubscribe from overdue alerts" }).click();
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
    await expect(page.getByText(`You will no longer receive overdue alerts from ${ownFirm.name}.`)).toBeVisible();

    // A link with a character changed: the page says so (the API's 404 is expected).
    browserConsole.expectFailedRequest(404, "/api/unsubscribe/");
    const broken = await unsubscribeLink({ firmId: ownFirm.firmId, userId: user.id }, "digest");
    await page.goto(`${broken.slice(0, -1)}${broken.endsWith("A") ? "B" : "A"}`);
    await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();

    await ownFirm.signIn(page, user);
    expect(await (await page.request.get("/api/account/notification-preferences")).json()).toEqual({
      dueSoonDays: 3,
      overdueAlerts: false,
      digest: "off",
    });
  });

  test("S-NOTIF-09 an unsubscribe link older than the person's last change of their notifications says it has expired", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The API's 410 for the old link is expected.
    browserConsole.expectFailedRequest(410, "/api/unsubscribe/");
    const user = await ownFirm.user("user");
    const link = await unsubscribeLink(
      { firmId: ownFirm.firmId, userId: user.id },
      "overdue",
      new Date(Date.now() - 60_000),
    );
    await ownFirm.signIn(page, user);
    const saved = await page.request.put("/api/account/notification-preferences", {
      data: { dueSoonDays: 3, overdueAlerts: true, digest: "off" },
    });
    expect(saved.status()).toBe(200);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
    await expect(page.getByText(/stops working a year after its e-mail was sent/)).toBeVisible();
    await expect(page.getByRole("button", { name: /Unsubscribe/ })).toHaveCount(0);
    expect(await (await page.request.get("/api/account/notification-preferences")).json()).toMatchObject({
      overdueAlerts: true,
    });
  });

  test("S-NOTIF-03 S-NOTIF-08 the card and the unsubscribe page: axe and screenshots at 1280 and 375 px", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const user = await ownFirm.user("user");
    const link = await unsubscribeLink({ firmId: ownFirm.firmId, userId: user.id }, "due_soon");
    await page.goto(link);
    await expect(page.getByRole("button", { name: "Unsubscribe from due-soon reminders" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "unsubscribe");

    await ownFirm.signIn(page, user);
    await page.goto("/settings");
    await expect(card(page).getByRole("switch", { name: "Overdue alerts" })).toBeChecked();
    await checkAtBothWidths(page, testInfo, "settings-notifications", {
      atWidth: () => card(page).scrollIntoViewIfNeeded(),
    });
  });
});
