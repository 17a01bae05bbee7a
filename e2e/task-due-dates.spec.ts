import { expect, type Page } from "@playwright/test";
import { saveShot } from "./client-detail-helpers";
import { checkAtBothWidths, OwnFirm, test } from "./fixtures";
import { corporateClient } from "./statutory-support";

/*
 * A task that follows a statutory rule shows its dates, why they are what they are and their
 * changes in its details, and records an extension (decision 0053). Each test registers a firm of
 * its own and a corporation whose year's task is made at once (statutory-support.ts).
 */

async function corporateReturn(page: Page): Promise<string> {
  await OwnFirm.register(page.request, "professional");
  return (await corporateClient(page.request, "NY")).name;
}

async function openDetails(page: Page, name: string) {
  await page.goto("/tasks");
  await page
    .getByRole("list", { name: "Tasks" })
    .getByRole("article")
    .filter({ hasText: name })
    .getByRole("button", { name: /View Details/ })
    .click();
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe("a task's statutory due date", () => {
  test("S-DUE-24 the details show the rule, period, dates, reasons and changes; recording an extension moves the due date and keeps the original", async ({
    page,
  }, testInfo) => {
    const name = await corporateReturn(page);
    const dialog = await openDetails(page, name);
    const section = dialog.getByRole("region", { name: "Statutory due date" });
    await expect(section.getByText("Form 1120: U.S. corporation income tax return")).toBeVisible();
    await expect(section.locator("dt")).toHaveText(["Statutory date", "Due date"]);
    await section.getByText("Why this date").click();
    await expect(section.getByRole("listitem").filter({ hasText: /^due (Mon|Tue|Wed|Thu|Fri) / })).toHaveCount(1);
    await section.getByText("Date changes (2)").click();
    await expect(section.getByRole("list", { name: "Date changes" }).getByRole("listitem")).toHaveText([
      /^Statutory date: [A-Z][a-z]{2} \d{1,2}, \d{4} \(set by the rule\)/,
      /^Due date: [A-Z][a-z]{2} \d{1,2}, \d{4} \(set by the rule\)/,
    ]);
    await saveShot(page, testInfo, "task-due-dates-1280", { fullPage: false });

    await section.getByRole("button", { name: "Record extension filed (Form 7004)" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Record the extension?" });
    await expect(confirm).toContainText("Record that Form 7004 was filed for this task.");
    const answered = page.waitForResponse(
      (response) => response.url().endsWith("/extension") && response.request().method() === "POST",
    );
    await confirm.getByRole("button", { name: "Record extension" }).click();
    expect((await answered).status()).toBe(200);
    await expect(page.getByText("Extension recorded")).toBeVisible();
    await expect(section.locator("dt")).toHaveText(["Statutory date", "Original due date", "Extended due date"]);
    await expect(section.getByText("Date changes (3)")).toBeVisible();
    await expect(section.getByRole("button", { name: /Record extension filed/ })).toHaveCount(0);
  });

  test("S-DUE-24 the statutory due date in a task's details: axe, a screenshot and no sideways scroll at 1280 and 375 px", async ({
    page,
  }, testInfo) => {
    const name = await corporateReturn(page);
    const dialog = await openDetails(page, name);
    const section = dialog.getByRole("region", { name: "Statutory due date" });
    await section.getByText("Why this date").click();
    await section.getByText("Date changes (2)").click();
    await checkAtBothWidths(page, testInfo, "task-due-dates", {
      screenshot: (shot) => saveShot(page, testInfo, shot, { fullPage: false }),
    });
  });
});
