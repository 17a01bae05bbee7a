import { expect, type Page } from "@playwright/test";
import { checkAtBothWidths, OwnFirm, test } from "./fixtures";

/*
 * Outgoing mail (decision 0049) at /settings/outbox: a firm's super admin reads what the outbox
 * holds. The e2e server runs without SMTP_URL, so every message is kept, never sent. Each firm
 * is registered from the test's own browser, whose sign-in is then no new device's.
 */

const messages = (page: Page) => page.getByTestId("outbox-message");
const subject = "Your Tendwell password was changed";

test.describe("outgoing mail", () => {
  test("S-MAIL-15 a super admin finds the notice of their password change in Settings > Outgoing mail and reads it, at 1280 and 375 px", async ({
    page,
  }, testInfo) => {
    // Registered from this browser, so its sign-in is from a known one.
    const { owner } = await OwnFirm.register(page.request, "professional");
    // A changed password writes a security notice to the outbox in the change's own transaction.
    const changed = await page.request.post("/api/auth/change-password", {
      data: { currentPassword: owner.password, newPassword: "a much longer passphrase 42" },
    });
    expect(changed.status()).toBe(204);

    await page.goto("/settings");
    await page.getByRole("link", { name: "Open outgoing mail" }).click();
    await expect(page).toHaveURL(/\/settings\/outbox$/);
    await expect(page.getByRole("heading", { name: "Outgoing Mail", level: 1 })).toBeVisible();
    await expect(page.getByTestId("mail-delivery")).toHaveText(
      "Mail is not sent: SMTP_URL is not set; messages are kept here and in the log",
    );
    await expect(messages(page)).toHaveCount(1);
    const message = messages(page).first();
    await expect(message).toContainText(owner.fullName);
    await expect(message).toContainText(subject);
    await expect(message).toContainText("Security notice");
    // Waiting until the minute's delivery run keeps it (no SMTP_URL), then Kept.
    await expect(message).toContainText(/Waiting|Sending|Kept/);
    await expect(message.locator("time")).toHaveText(/\d{4}/);

    const toggle = message.getByRole("button", { name: subject });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const body = page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`);
    await expect(body).toContainText("password");
    await expect(body).toContainText("try");
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    await expect(page.getByText("1 message — the oldest kept")).toBeVisible();

    await checkAtBothWidths(page, testInfo, "outgoing-mail");
    await toggle.click();
    await expect(body).toHaveCount(0);
  });

  test("S-MAIL-15 a firm that has sent no mail reads No e-mail yet", async ({ page }) => {
    await OwnFirm.register(page.request, "professional");
    await page.goto("/settings/outbox");
    await expect(page.getByRole("heading", { name: "No e-mail yet" })).toBeVisible();
    await expect(page.getByTestId("mail-delivery")).toContainText("Mail is not sent");
  });

  test("S-MAIL-15 admins and users see no link in Settings and are told Not allowed at /settings/outbox", async ({
    page,
    ownFirm,
  }) => {
    for (const role of ["admin", "user"] as const) {
      await page.context().clearCookies();
      await ownFirm.signIn(page, role);
      await page.goto("/settings");
      await expect(page.getByRole("heading", { name: "Your account and firm" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Open outgoing mail" })).toHaveCount(0);
      await page.goto("/settings/outbox");
      await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
      await expect(page.getByText("Only super admins can view the firm's outgoing e-mail.")).toBeVisible();
      await expect(messages(page)).toHaveCount(0);
    }
  });
});
