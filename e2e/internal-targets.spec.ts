import { expect, type Page } from "@playwright/test";
import type { Firm } from "../src/shared/firm";
import { saveShot } from "./client-detail-helpers";
import { apiGet, expectNoAxeViolations, expectNoHorizontalScroll, test, viewports } from "./fixtures";

/*
 * The firm's internal target for statutory work and its own closed days (S-DUE-35, decision 0053):
 * a super admin sets them on the Settings page's "Statutory deadlines" card, and the dashboard then
 * says overdue counts follow the target. The test has a firm of its own (the demo firm's overdue
 * counts are read by other specs), and leaves it as it found it: no target, no closed days.
 */

const note = "Statutory work counts as overdue from your firm's internal target: 10 business days before its due date.";

const deadlinesForm = (page: Page) => page.getByRole("form", { name: "Statutory deadlines" });

/** The body of the next PATCH /api/firm, once the server has answered it (so a read after it sees the change). */
function nextFirmPatch(page: Page) {
  return page
    .waitForResponse(
      (response) => response.request().method() === "PATCH" && new URL(response.url()).pathname === "/api/firm",
    )
    .then((response) => response.request().postDataJSON() as unknown);
}

test.describe("internal targets", () => {
  test("S-DUE-35 a super admin sets an internal target of 10 business days and a closed day; both are kept, the dashboard says overdue follows the target, an admin sees no card, and clearing the target removes the note", async ({
    page,
    ownFirm,
  }, testInfo) => {
    // Two screen sizes, several saves, reloads and an axe run on a machine two workers share.
    test.slow();
    const year = new Date().getUTCFullYear() + 1;
    const closedOn = `${year}-08-14`;
    await ownFirm.signIn(page, "super_admin");
    await page.goto("/settings");
    const form = deadlinesForm(page);
    await expect(form.getByText("No closed days.")).toBeVisible();
    await expect(form.getByLabel("Internal target")).toHaveValue("");

    // A row without a name is refused here, under the row, before anything is sent.
    await form.getByLabel("Internal target").fill("10");
    await form.getByRole("button", { name: "Add closed day" }).click();
    await expect(form.getByLabel("Closed day 1 date")).toBeFocused();
    await form.getByLabel("Closed day 1 date").fill(closedOn);
    await form.getByRole("button", { name: "Save deadlines" }).click();
    await expect(form.getByText("Name the closed day")).toBeVisible();
    await expect(form.getByLabel("Closed day 1 name")).toHaveAttribute("aria-invalid", "true");

    await form.getByLabel("Closed day 1 name").fill("Firm retreat");
    const saved = nextFirmPatch(page);
    await form.getByRole("button", { name: "Save deadlines" }).click();
    await expect(page.getByText("Deadline settings saved")).toBeVisible();
    expect(await saved).toEqual({ internalTargetDays: 10, closedDays: [{ date: closedOn, name: "Firm retreat" }] });
    expect(await apiGet<Firm>(page, "/api/firm")).toMatchObject({
      internalTargetDays: 10,
      closedDays: [{ date: closedOn, name: "Firm retreat" }],
    });

    // Kept: a reload shows them, at both screen sizes.
    await page.reload();
    await expect(form.getByLabel("Internal target")).toHaveValue("10");
    await expect(form.getByLabel("Closed day 1 date")).toHaveValue(closedOn);
    await expect(form.getByLabel("Closed day 1 name")).toHaveValue("Firm retreat");
    await expect(form.getByRole("button", { name: "Remove Firm retreat" })).toBeVisible();
    await expectNoAxeViolations(page);
    for (const viewport of [viewports.desktop, viewports.mobile]) {
      await page.setViewportSize(viewport);
      await form.getByRole("button", { name: "Add closed day" }).click();
      // The new row's name is left empty: its message shows under it in the screenshot.
      await form.getByLabel("Closed day 2 date").fill(closedOn);
      await form.getByRole("button", { name: "Save deadlines" }).click();
      await expect(form.getByText("Name the closed day")).toBeVisible();
      await expect(form.getByText("This date is already listed")).toBeVisible();
      await page.getByTestId("deadlines-card").scrollIntoViewIfNeeded();
      await expectNoHorizontalScroll(page);
      await saveShot(page, testInfo, `internal-targets-card-${viewport.width}`, { fullPage: false });
      // A row without a name is named by its date.
      await form.getByRole("button", { name: `Remove Aug 14, ${year}` }).click();
      await expect(form.getByTestId("closed-day")).toHaveCount(1);
    }
    await page.setViewportSize(viewports.desktop);

    // The dashboard says overdue counts follow the target.
    await page.goto("/dashboard");
    await expect(page.getByTestId("internal-target-note")).toHaveText(note);

    // An admin manages no firm settings: no card.
    await ownFirm.signIn(page, "admin");
    await page.goto("/settings");
    await expect(page.getByRole("form", { name: "Change password" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Statutory deadlines" })).toHaveCount(0);
    await expect(deadlinesForm(page)).toHaveCount(0);

    // Back as it was: no target (only the target is sent), then no closed day (only the list).
    await ownFirm.signIn(page, "super_admin");
    await page.goto("/settings");
    await expect(form.getByLabel("Internal target")).toHaveValue("10");
    await form.getByLabel("Internal target").fill("");
    let sent = nextFirmPatch(page);
    await form.getByRole("button", { name: "Save deadlines" }).click();
    await expect(page.getByText("Deadline settings saved")).toBeVisible();
    expect(await sent).toEqual({ internalTargetDays: null });

    await form.getByRole("button", { name: "Remove Firm retreat" }).click();
    await expect(form.getByText("No closed days.")).toBeVisible();
    sent = nextFirmPatch(page);
    await form.getByRole("button", { name: "Save deadlines" }).click();
    expect(await sent).toEqual({ closedDays: [] });
    await expect(form.getByText("No closed days.")).toBeVisible();
    expect(await apiGet<Firm>(page, "/api/firm")).toMatchObject({ internalTargetDays: null, closedDays: [] });

    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Overdue Tasks" })).toBeVisible();
    await expect(page.getByTestId("internal-target-note")).toHaveCount(0);
  });
});
