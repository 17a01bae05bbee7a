import { expect, type Page } from "@playwright/test";
import type { OwnFirm } from "./fixtures";
import { checkAtBothWidths, test } from "./fixtures";

/*
 * The calendar feed in Settings (decision 0047): a user of a firm of the test's own turns it on,
 * copies its address, sees their task at it, hides client names, replaces the address and turns
 * the feed off. The feed is fetched with the page's own request context, as a calendar app would
 * fetch it (the address alone; the session's cookie changes nothing).
 */

const feedCard = (page: Page) => page.getByTestId("calendar-feed");
const feedAddress = (page: Page) => feedCard(page).getByRole("textbox", { name: "Feed address" });
const toast = (page: Page, text: string) => page.locator("[data-app-toast][data-state=open]").filter({ hasText: text });

/** A client assigned to the firm's `user`, with one open task due in a week: their names. */
async function userWithTask(ownFirm: OwnFirm) {
  const suffix = Date.now().toString(36);
  const clientName = `Juniper Orchard ${suffix}`;
  const taskName = `Quarterly filing ${suffix}`;
  const client = await ownFirm.api.post("/api/clients", { data: { name: clientName } });
  expect(client.status()).toBe(201);
  const clientId = ((await client.json()) as { id: string }).id;
  const task = await ownFirm.api.post("/api/tasks", {
    data: { name: taskName, clientId, dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString() },
  });
  expect(task.status()).toBe(201);
  const user = await ownFirm.user("user");
  const assigned = await ownFirm.api.post("/api/user-clients/assign", {
    data: { userId: user.id, clientIds: [clientId] },
  });
  expect(assigned.status()).toBe(200);
  return { user, clientName, taskName };
}

/** What a calendar app reads at `url`: the status and the text. */
async function readFeed(page: Page, url: string) {
  const response = await page.request.get(url);
  return { status: response.status(), type: response.headers()["content-type"], text: await response.text() };
}

test.describe("calendar feed", () => {
  test("S-CAL-01 S-CAL-06 S-CAL-09 create the feed, copy its address, read the task there, hide client names, regenerate and turn it off", async ({
    page,
    context,
    ownFirm,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const { user, clientName, taskName } = await userWithTask(ownFirm);
    await ownFirm.signIn(page, user);
    await page.goto("/settings");

    // Without a feed: a word on what it is, and one button.
    await expect(feedCard(page).getByRole("heading", { name: "Calendar feed" })).toBeVisible();
    await expect(feedCard(page)).toContainText("private address for your calendar app");
    await expect(feedAddress(page)).toHaveCount(0);
    await feedCard(page).getByRole("button", { name: "Create calendar feed" }).click();
    await expect(toast(page, "Calendar feed created")).toBeVisible();

    // The address, read-only, with a Copy button that copies it.
    await expect(feedAddress(page)).toHaveAttribute("readonly", "");
    const url = await feedAddress(page).inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/calendar-feeds\/[A-Za-z0-9_-]{43}\.ics$/);
    await feedCard(page).getByRole("button", { name: "Copy" }).click();
    await expect(feedCard(page).getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    const shown = await readFeed(page, url);
    expect(shown.status).toBe(200);
    expect(shown.type).toBe("text/calendar; charset=utf-8");
    expect(shown.text).toContain(`SUMMARY:${taskName} — ${clientName}\r\n`);

    // Hide client names: the switch applies at once.
    const hide = feedCard(page).getByRole("switch", { name: "Hide client names" });
    await expect(hide).not.toBeChecked();
    await hide.click();
    await expect(toast(page, "Client names hidden")).toBeVisible();
    await expect(hide).toBeChecked();
    const hidden = await readFeed(page, url);
    expect(hidden.text).toContain(`SUMMARY:${taskName}\r\n`);
    expect(hidden.text).not.toContain(clientName);
    await page.reload();
    await expect(feedCard(page).getByRole("switch", { name: "Hide client names" })).toBeChecked();

    // Regenerate, after a confirmation: a new address; the old one is gone at once.
    await feedCard(page).getByRole("button", { name: "Regenerate address" }).click();
    const regenerate = page.getByRole("alertdialog", { name: "Make a new feed address?" });
    await expect(regenerate).toContainText("stops working at once");
    await regenerate.getByRole("button", { name: "Regenerate address" }).click();
    await expect(toast(page, "New address made")).toBeVisible();
    await expect(feedAddress(page)).not.toHaveValue(url);
    const newUrl = await feedAddress(page).inputValue();
    expect((await readFeed(page, url)).status).toBe(404);
    expect((await readFeed(page, newUrl)).text).toContain(`SUMMARY:${taskName}\r\n`);

    // Cancelling turns nothing off.
    await feedCard(page).getByRole("button", { name: "Turn off feed" }).click();
    await page
      .getByRole("alertdialog", { name: "Turn off your calendar feed?" })
      .getByRole("button", { name: "Cancel" })
      .click();
    expect((await readFeed(page, newUrl)).status).toBe(200);

    // Turn off, after a confirmation: the address answers 404 and the card offers a new feed.
    await feedCard(page).getByRole("button", { name: "Turn off feed" }).click();
    const turnOff = page.getByRole("alertdialog", { name: "Turn off your calendar feed?" });
    await expect(turnOff).toContainText("stops working at once");
    await turnOff.getByRole("button", { name: "Turn off feed" }).click();
    await expect(toast(page, "Calendar feed turned off")).toBeVisible();
    await expect(feedCard(page).getByRole("button", { name: "Create calendar feed" })).toBeVisible();
    expect((await readFeed(page, newUrl)).status).toBe(404);
  });

  test("S-CAL-01 the card with a feed: axe and a screenshot at 1280 and 375 px", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { user } = await userWithTask(ownFirm);
    await ownFirm.signIn(page, user);
    const created = await page.request.post("/api/account/calendar-feed", { data: {} });
    expect(created.status()).toBe(201);
    await page.goto("/settings");
    await expect(feedAddress(page)).toHaveValue(/\/api\/calendar-feeds\//);
    await checkAtBothWidths(page, testInfo, "settings-calendar-feed", {
      atWidth: () => feedCard(page).scrollIntoViewIfNeeded(),
    });
  });
});
