import { expect, type Page } from "@playwright/test";
import type { BlogPostSummary } from "../src/shared/blog";
import { apiGet, checkAtBothWidths, test, viewports } from "./fixtures";

// Shipped articles (content/blog): one with ten keywords, one with five.
const tenKeywords = "recurring-compliance-calendar-for-accounting-firms";
const fiveKeywords = "quarterly-client-reviews";

/** The server's HTML has been hydrated (entry-client.tsx marks <body> when every root has). */
async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.body.dataset.hydrated === "true");
}

const card = (page: Page, title: string) => page.getByTestId("blog-card").filter({ hasText: title });

test.describe("the blog list", () => {
  test("S-BLIST-01 S-BLIST-14 /blog is public and its cards are GET /api/blog's posts, in its order", async ({
    page,
  }) => {
    const response = await page.goto("/blog");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/blog$/);
    await waitForHydration(page);
    const posts = await apiGet<BlogPostSummary[]>(page, "/api/blog");
    expect(posts.length).toBeGreaterThanOrEqual(6);
    await expect(page.getByTestId("blog-card").getByRole("heading", { level: 2 })).toHaveText(
      posts.map((post) => post.title),
    );
  });

  test("S-BLIST-04 S-BLIST-05 S-BLIST-06 S-BLIST-07 a card shows its image, date, title and intro", async ({
    page,
  }) => {
    const posts = await apiGet<BlogPostSummary[]>(page, "/api/blog");
    const post = posts.find((candidate) => candidate.slug === fiveKeywords);
    if (!post) throw new Error(`no post ${fiveKeywords}`);
    await page.goto("/blog");
    const one = card(page, post.title);
    const image = one.locator("img");
    await expect(image).toHaveAttribute("src", `/blog-images/${post.featuredImage}`);
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await expect(one.locator("time")).toHaveText("November 16, 2026");
    await expect(one.locator("time")).toHaveAttribute("datetime", post.publishedAt);
    await expect(one.getByRole("heading", { name: post.title })).toBeVisible();
    await expect(one.getByText(post.introSummary)).toBeVisible();
  });

  test("S-BLIST-13 an image name with no bundled file still shows an image (the default)", async ({ page }) => {
    // The shipped posts all have their files (the loader checks it); a row naming a missing file
    // is exercised on the server in blog-pages.test.ts. Here: the browser draws what that URL serves.
    await page.goto("/blog");
    const size = await page.evaluate(async () => {
      const image = new Image();
      image.src = "/blog-images/software-image2.png";
      await image.decode();
      return { width: image.naturalWidth, height: image.naturalHeight };
    });
    expect(size).toEqual({ width: 1200, height: 630 });
  });

  test('S-BLIST-08 S-CONST-32 cards show up to 3 keywords and "+N more" for the rest', async ({ page }) => {
    await page.goto("/blog");
    const five = card(page, "Quarterly reviews that keep clients").getByRole("list", { name: "Keywords" });
    await expect(five.getByRole("listitem")).toHaveText([
      "quarterly business review",
      "client review meeting",
      "client retention",
      "+2 more",
    ]);
    const ten = card(page, "Building a recurring compliance calendar").getByRole("list", { name: "Keywords" });
    await expect(ten.getByRole("listitem")).toHaveText([
      "compliance calendar",
      "accounting firm workflow",
      "recurring tasks",
      "+7 more",
    ]);
  });

  test('S-BLIST-09 "Read Article" opens /blog/{slug}', async ({ page }) => {
    await page.goto("/blog");
    await card(page, "Quarterly reviews that keep clients").getByRole("link", { name: "Read Article" }).click();
    await expect(page).toHaveURL(new RegExp(`/blog/${fiveKeywords}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Quarterly reviews that keep clients" })).toBeVisible();
  });

  test('S-BLIST-10 the "Start Free Trial" banner links to /signup', async ({ page }) => {
    await page.goto("/blog");
    await page.getByRole("link", { name: "Start Free Trial", exact: true }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('S-BLIST-02 the header links "Our Blog", "Sign In" (/login) and "Get Started" (/signup)', async ({ page }) => {
    await page.setViewportSize(viewports.desktop);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [name, url] of [
      ["Our Blog", /\/blog$/],
      ["Sign In", /\/login$/],
      ["Get Started", /\/signup$/],
    ] as const) {
      await page.goto(`/blog/${fiveKeywords}`);
      await nav.getByRole("link", { name }).click();
      await expect(page).toHaveURL(url);
    }
  });

  test("S-BLIST-03 at 375 px the nav sits in a slide-out menu that opens and closes", async ({ page }) => {
    await page.setViewportSize(viewports.mobile);
    await page.goto("/blog");
    await waitForHydration(page);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    for (const name of ["Our Blog", "Sign In", "Get Started"]) {
      await expect(menu.getByRole("link", { name })).toBeVisible();
    }
    await menu.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("link", { name: "Get Started" }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test.describe("a blog post", () => {
  test("S-BPOST-01 S-BPOST-02 S-BPOST-03 S-BPOST-04 S-BPOST-05 a post is public, with its title, description, social tags and JSON-LD", async ({
    page,
  }) => {
    const response = await page.goto(`/blog/${tenKeywords}`);
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await expect(page).toHaveTitle(
      "Building a recurring compliance calendar your accounting firm can trust | Tendwell Blog",
    );
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      "How accounting firms can turn client obligations into a recurring compliance calendar with clear owners, due dates and early warnings.",
    );
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
      "content",
      /^Building a recurring compliance calendar/,
    );
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      "content",
      /^http:\/\/127\.0\.0\.1:\d+\/blog-images\/compliance-calendar\.png$/,
    );
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    const posting = jsonLd.map((text) => JSON.parse(text)).find((data) => data["@type"] === "BlogPosting");
    expect(posting.headline).toBe("Building a recurring compliance calendar your accounting firm can trust");
    expect(posting.datePublished).toBe("2026-10-05T09:00:00.000Z");
  });

  test("S-BPOST-06 S-BPOST-07 S-BPOST-08 S-BPOST-09 the post shows its image, date, title and intro", async ({
    page,
  }) => {
    await page.goto(`/blog/${fiveKeywords}`);
    const article = page.getByRole("article");
    const image = article.locator("img");
    await expect(image).toHaveAttribute("src", "/blog-images/quarterly-reviews.svg");
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await expect(article.locator("time")).toHaveText("November 16, 2026");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quarterly reviews that keep clients");
    await expect(article.getByText(/^A short, well-prepared review every quarter/)).toBeVisible();
  });

  test("S-BPOST-10 S-CONST-33 a post with ten keywords shows eight", async ({ page }) => {
    await page.goto(`/blog/${tenKeywords}`);
    await expect(page.getByRole("list", { name: "Keywords" }).getByRole("listitem")).toHaveText([
      "compliance calendar",
      "accounting firm workflow",
      "recurring tasks",
      "tax deadlines",
      "practice management",
      "bookkeeping",
      "payroll deadlines",
      "sales tax filings",
    ]);
  });

  test("S-BPOST-12 S-BPOST-13 S-BPOST-14 S-BPOST-15 the body's headings, lists and paragraphs", async ({ page }) => {
    await page.goto(`/blog/${tenKeywords}`);
    const body = page.getByTestId("blog-body");
    await expect(body.getByRole("heading", { level: 2 }).first()).toBeVisible();
    // "- " lines: bullets; "1. " lines: a numbered list; none of the markers shows as text.
    await expect(body.locator("ul > li").first()).toHaveText(/^Monthly: bank and card reconciliations/);
    await expect(
      body.locator("ol > li").filter({ hasText: /^Assign the templates to one group of clients/ }),
    ).toHaveCount(1);
    await expect(body.locator("p").first()).toHaveText(/^Every accounting firm runs on dates\./);
    for (const text of await body.locator("h2, li, p").allTextContents()) {
      expect(text).not.toMatch(/^(### |- |\d+\. )/);
    }
  });

  test("S-BPOST-11 Share calls the native share facility when the browser has one", async ({ page }) => {
    await page.addInitScript(() => {
      const calls: ShareData[] = [];
      (window as unknown as { shareCalls: ShareData[] }).shareCalls = calls;
      Object.defineProperty(navigator, "share", {
        configurable: true,
        value: async (data: ShareData) => {
          calls.push(data);
        },
      });
    });
    await page.goto(`/blog/${fiveKeywords}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Share" }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shareCalls: ShareData[] }).shareCalls))
      .toEqual([
        {
          title: "Quarterly reviews that keep clients",
          text: expect.stringMatching(/^A short, well-prepared review/),
          url: page.url(),
        },
      ]);
  });

  test("S-BPOST-11 without native sharing, Share copies the page's URL and says so", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.addInitScript(() => {
      // Headless Chromium on Linux has no share sheet; make sure of it.
      delete (Navigator.prototype as Partial<Navigator>).share;
    });
    await page.goto(`/blog/${fiveKeywords}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Share" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  });

  test('S-BPOST-16 S-ERR-28 an unknown slug shows "Blog Post Not Found" with a 404 status', async ({
    page,
    browserConsole,
  }) => {
    // The page's own 404 status, which Chromium logs as a failed resource.
    browserConsole.expectFailedRequest(404, "/blog/no-such-post");
    const response = await page.goto("/blog/no-such-post");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Blog Post Not Found" })).toBeVisible();
    await expect(page.getByText("The blog post you're looking for doesn't exist.")).toBeVisible();
  });
});

test.describe("the blog at 1280 and 375 px", () => {
  test("S-BLIST-01 S-BPOST-01 axe finds no violations and nothing scrolls sideways at 1280 and 375 px", async ({
    page,
    browserConsole,
  }, testInfo) => {
    // The not-found page's own 404 status, which Chromium logs as a failed resource.
    browserConsole.expectFailedRequest(404, "/blog/no-such-post");
    for (const [name, url] of [
      ["blog", "/blog"],
      ["post", `/blog/${tenKeywords}`],
      ["not-found", "/blog/no-such-post"],
    ] as const) {
      await page.goto(url);
      await waitForHydration(page);
      // Lazy card images load as they scroll into view; the screenshot shows them all, at each width
      // the images it picks.
      await page.evaluate(() => {
        for (const image of document.querySelectorAll("img")) image.loading = "eager";
      });
      await checkAtBothWidths(page, testInfo, name, {
        atWidth: () => page.waitForFunction(() => [...document.images].every((image) => image.complete)),
      });
    }
  });
});
