import { expect, type Page } from "@playwright/test";
import type { AuditVerification } from "../src/shared/reports";
import type { UserSummary } from "../src/shared/users";
import { createClient, signInToNewFirm, uniqueName } from "./clients-support";
import { apiGet, checkAtBothWidths, expectNoAxeViolations, signInAs, test } from "./fixtures";

/*
 * The firm's audit trail (issue 9, decision 0005) at /settings/audit-trail: super admins and
 * admins see who did what, when and from where, and whether the hash chain is intact.
 */

const events = (page: Page) => page.getByTestId("audit-event");
const banner = (page: Page) => page.getByTestId("audit-verification");

test.describe("audit trail", () => {
  test("S-ROLE-06 an event just caused is listed with who, what, when and from where, and the chain reads Intact", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const name = uniqueName("Audited Client");
    await createClient(page, { name });
    const verification = await apiGet<AuditVerification>(page, "/api/audit-events/verify");
    expect(verification.intact).toBe(true);

    // Reached from Settings, as a person would.
    await page.goto("/settings");
    await page.getByRole("link", { name: "Open the audit trail" }).click();
    await expect(page).toHaveURL(/\/settings\/audit-trail$/);
    await expect(page.getByRole("heading", { name: "Audit Trail", level: 1 })).toBeVisible();
    await expect(banner(page)).toContainText("Intact");
    await expect(banner(page)).toContainText(`All ${verification.events} events verified`);

    const newest = events(page).first();
    await expect(newest).toContainText("Dana Whitfield");
    await expect(newest).toContainText("Created client");
    await expect(newest).toContainText(name);
    await expect(newest).toContainText("127.0.0.1");
    await expect(newest).toContainText(/Chrome on Linux|Headless Chrome on Linux/);
    await expect(newest.locator("time")).toHaveText(/\d{4}/);
    await expect(events(page)).toHaveCount(verification.events);
  });

  test("S-ROLE-06 filters by entity type, user and date range, and pages with Load more", async ({ page }) => {
    await signInToNewFirm(page);
    // 55 client events after the registration: more than one page of 50.
    for (let n = 0; n < 55; n++) await createClient(page, { name: uniqueName(`Paged ${n}`) });
    const clerk = await page.request.post("/api/users", {
      data: { username: uniqueName("clerk").replace(" ", "-"), password: "clerk-e2e-pass", fullName: "Casey Clerk" },
    });
    expect(clerk.status()).toBe(201);
    await page.goto("/settings/audit-trail");
    await expect(events(page)).toHaveCount(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(events(page)).toHaveCount(57);
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    await expect(events(page).last()).toContainText("Created the firm's account");

    await page.getByRole("combobox", { name: "Entity type" }).click();
    await page.getByRole("option", { name: "User", exact: true }).click();
    await expect(events(page)).toHaveCount(1);
    await expect(events(page).first()).toContainText("Created user");
    await expect(events(page).first()).toContainText("Casey Clerk");

    await page.getByRole("button", { name: "Clear filters" }).first().click();
    const users = await apiGet<UserSummary[]>(page, "/api/users");
    const casey = users.find((user) => user.fullName === "Casey Clerk");
    expect(casey).toBeDefined();
    await page.getByRole("combobox", { name: "User", exact: true }).click();
    await page.getByRole("option", { name: "Casey Clerk" }).click();
    await expect(page.getByText("No events match these filters")).toBeVisible();

    await page.getByRole("combobox", { name: "User", exact: true }).click();
    await page.getByRole("option", { name: "Dana Whitfield" }).click();
    await expect(events(page)).toHaveCount(50);
    await page.getByLabel("From", { exact: true }).fill("2000-01-01");
    await page.getByLabel("To", { exact: true }).fill("2000-01-31");
    await expect(page.getByText("No events match these filters")).toBeVisible();
    await page.getByLabel("To", { exact: true }).fill("2100-01-01");
    await expect(events(page)).toHaveCount(50);
  });

  test("S-ROLE-06 an admin may open it; a user sees a clear not-allowed state, not an error", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/settings/audit-trail");
    await expect(banner(page)).toContainText("Intact");
    await expect(events(page).first()).toBeVisible();

    await page.context().clearCookies();
    await signInAs(page, "user");
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/audit-events")) requests.push(request.url());
    });
    await page.goto("/settings/audit-trail");
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await expect(page.getByText("Only super admins and admins can view the firm's audit trail.")).toBeVisible();
    await expectNoAxeViolations(page);
    expect(requests).toEqual([]);
    expect((await page.request.get("/api/audit-events")).status()).toBe(403);
  });

  test("S-SCALE-07 verifies the whole trail from the first event, slice by slice, with a progress bar and its result", async ({
    page,
  }) => {
    // Its slices are held back on purpose, and axe runs twice: more than the default 30 s on a busy machine.
    test.slow();
    await signInToNewFirm(page);
    for (let n = 0; n < 3; n++) await createClient(page, { name: uniqueName(`Whole Trail ${n}`) });
    // The quick check leaves a checkpoint at the newest event; the full one reads from the first regardless.
    const quick = await apiGet<AuditVerification>(page, "/api/audit-events/verify");
    expect(quick).toMatchObject({ intact: true, checkpoint: { seq: quick.events } });

    // Slices of one event, each held back a moment so the bar is seen moving; the real server answers every one.
    const afters: number[] = [];
    await page.route("**/api/audit-events/verify?full=true*", async (route) => {
      const url = new URL(route.request().url());
      afters.push(Number(url.searchParams.get("after")));
      url.searchParams.set("limit", "1");
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Stop aborts the request in flight: its route may be gone by the time it is continued.
      await route.continue({ url: url.toString() }).catch(() => undefined);
    });
    await page.goto("/settings/audit-trail");
    await expect(banner(page)).toContainText(`All ${quick.events} events verified`);
    const panel = page.getByTestId("audit-full-verification");
    await expect(panel.getByRole("heading", { name: "Verify the whole trail" })).toBeVisible();

    // From the keyboard: the button turns into Stop while it runs, so focus stays on it.
    await panel.getByRole("button", { name: "Verify the whole trail" }).focus();
    await page.keyboard.press("Enter");
    const bar = panel.getByRole("progressbar", { name: "Full re-verification" });
    await expect(bar).toBeVisible();
    await expect(panel.getByText(new RegExp(`^Verified [1-9]\\d* of ${quick.events} events$`))).toBeVisible();
    await expect(panel.getByRole("button", { name: "Stop" })).toBeFocused();
    await expectNoAxeViolations(page);

    const result = page.getByTestId("audit-full-verification-result");
    await expect(result).toContainText("Whole trail: Intact");
    await expect(result).toContainText(`All ${quick.events} events verified`);
    await expect(bar).toHaveCount(0);
    // Every slice went on from where the one before stopped, from the first event to the newest.
    expect(afters).toEqual(Array.from({ length: quick.events + 1 }, (_, n) => n));
    await expect(panel.getByRole("button", { name: "Verify again" })).toBeFocused();
    await expectNoAxeViolations(page);

    // Stop ends it where it is, and says so.
    await page.keyboard.press("Enter");
    await expect(panel.getByText(/^Verified [1-9]\d* of/)).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(panel.getByText(/— stopped\.$/)).toBeVisible();
    await expect(panel.getByRole("button", { name: "Verify again" })).toBeFocused();
  });

  test("S-ROLE-06 axe and a screenshot at 1280 and 375 px", async ({ page }, testInfo) => {
    await signInAs(page, "super_admin");
    await page.goto("/settings/audit-trail");
    await expect(banner(page)).toContainText("Intact");
    await expect(events(page).first()).toBeVisible();
    await checkAtBothWidths(page, testInfo, "audit-trail");
  });
});
