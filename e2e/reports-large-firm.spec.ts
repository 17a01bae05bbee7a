import { expect } from "@playwright/test";
import type { UserReport } from "../src/shared/reports";
import { apiGet, signInToLargeFirm, test } from "./fixtures";
import { me, statValue } from "./reports-support";

test.describe("the user audit of a large firm (10,000 clients)", { tag: "@large-firm" }, () => {
  test("S-SCALE-13 the super admin's year lists the top 20 clients and says of how many served", async ({ page }) => {
    await signInToLargeFirm(page, "super_admin");
    const user = await me(page);
    // The seed's super admin signed off every completed task, on every client.
    const report = await apiGet<UserReport>(page, `/api/reports/users/${user.id}?days=365`);
    expect(report.byClient).toHaveLength(20);
    expect(report.clientsServed).toBeGreaterThan(20);
    const served = report.clientsServed.toLocaleString("en-US");

    await page.goto(`/reports?tab=user&user=${user.id}&days=365`);
    await expect(statValue(page, "Clients Served")).toHaveText(served);
    const breakdown = page.getByTestId("performance-breakdown");
    await expect(breakdown.getByTestId("clients-listed")).toHaveText(`Top 20 of ${served} clients served`);
    await expect(breakdown.getByTestId("client-row")).toHaveCount(8);
    await breakdown.getByRole("button", { name: "Show the top 20 clients" }).click();
    await expect(breakdown.getByTestId("client-row")).toHaveCount(20);
    // Most completions first (the screen orders ties by name in the browser's own collation).
    await expect(breakdown.getByTestId("client-row").first()).toContainText(
      (report.byClient[0]?.completed ?? 0).toLocaleString("en-US"),
    );
  });
});
