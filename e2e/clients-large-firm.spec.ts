import { expect, type Page } from "@playwright/test";
import type { ClientSummary } from "../src/shared/clients";
import { clientCard, clientCards, pageSearch } from "./clients-support";
import { apiGet, signInToLargeFirm, test } from "./fixtures";

/** Issue 8: the page of a large firm keeps its DOM under this many elements. */
const domBudget = 1500;
const domSize = (page: Page) => page.evaluate(() => document.querySelectorAll("*").length);

test.describe("clients of a large firm (10,000 clients)", { tag: "@large-firm" }, () => {
  test("the grid draws only what is near the screen, pages through the API as it scrolls, and the search finds any client", async ({
    page,
  }) => {
    // Scrolling through several pages of a 10,000-client firm on a machine two workers share.
    test.slow();
    await signInToLargeFirm(page, "super_admin");
    const pageRequests: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/clients\?/.test(request.url())) pageRequests.push(request.url());
    });

    await page.goto("/clients");
    await expect(clientCards(page).first()).toBeVisible();
    expect(await domSize(page)).toBeLessThan(domBudget);
    // The list is asked for a page at a time, never the whole firm.
    expect(pageRequests.length).toBeGreaterThan(0);
    for (const url of pageRequests) expect(new URL(url).searchParams.get("limit")).not.toBeNull();

    // Scrolling to the end of what is loaded fetches the next page by its cursor, again and again.
    // Each try scrolls to the end as it is then: a page still on its way when the previous scroll
    // ended moves the end further down when it arrives.
    const cursorRequests = () => pageRequests.filter((url) => new URL(url).searchParams.has("cursor"));
    for (let round = 1; round <= 3; round++) {
      await expect
        .poll(
          async () => {
            await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            return cursorRequests().length;
          },
          { timeout: 30_000 },
        )
        .toBeGreaterThanOrEqual(round);
      await expect.poll(() => domSize(page)).toBeLessThan(domBudget);
    }
    const cursors = cursorRequests();
    expect(cursors.length).toBeGreaterThanOrEqual(3);
    expect(await domSize(page)).toBeLessThan(domBudget);
    expect(await clientCards(page).count()).toBeLessThan(60);

    // A client far beyond the loaded pages: the API's search finds it.
    const all = await apiGet<ClientSummary[]>(page, "/api/clients?limit=1&q=9876");
    const wanted = all[0];
    if (!wanted) throw new Error("the large firm has a client numbered 9876");
    await page.evaluate(() => window.scrollTo(0, 0));
    const searched = page.waitForResponse((response) => new URL(response.url()).searchParams.get("q") === wanted.name);
    await pageSearch(page).fill(wanted.name);
    await searched;
    await expect(clientCard(page, wanted.name)).toBeVisible();
    await expect(clientCards(page)).toHaveCount(1);
    expect(await domSize(page)).toBeLessThan(domBudget);
  });
});
