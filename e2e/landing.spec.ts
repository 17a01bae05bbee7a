import { expect, type Page } from "@playwright/test";
import { checkAtBothWidths, expectNoAxeViolations, test, viewports, waitForAnimations } from "./fixtures";

/** Opens the landing page and waits until React has hydrated it (its handlers are live). */
async function openLanding(page: Page) {
  await page.goto("/");
  await expect(page.locator("body[data-hydrated=true]")).toBeAttached();
}

const slides = (page: Page) => page.getByTestId("carousel-slide");
/** Clicks a neighbour slide on the part of it that shows beside the front one, as a visitor would. */
async function clickNeighbour(page: Page, title: string) {
  const button = page.getByRole("button", { name: `Show ${title}` });
  // The slides glide for 500 ms after a change (a CSS transition, in real time, which the page's
  // clock does not hold): measure where this one settles.
  await waitForAnimations(page);
  const box = await button.boundingBox();
  if (!box) throw new Error(`no slide ${title}`);
  const position = await button.evaluate((element) => element.parentElement?.getAttribute("data-position"));
  const x = position === "previous" ? box.x + 12 : box.x + box.width - 12;
  await page.mouse.click(x, box.y + box.height / 2);
}

const frontSlide = (page: Page) => page.locator('[data-testid=carousel-slide][data-position="front"]');

test.describe("landing page, desktop", () => {
  test.use({ viewport: viewports.desktop });

  test("S-LAND-01 S-LAND-02 / is public: a fresh visitor gets the landing page with the brand and tagline", async ({
    page,
  }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("site-logo")).toHaveText("Tendwell");
    await expect(page.getByRole("heading", { level: 1, name: "Structure That Strengthens Retention" })).toBeVisible();
  });

  // The console itself is checked by the fixtures' automatic browserConsole, as in every test.
  test("loads and hydrates without console errors or hydration warnings", async ({ page }) => {
    await openLanding(page);
    await page.waitForLoadState("load");
  });

  test("S-LAND-37 S-LAND-38 S-LAND-39 S-LAND-40 S-LAND-41 S-LAND-42 the head: title, meta tags, social cards and JSON-LD", async ({
    page,
  }) => {
    await openLanding(page);
    await expect(page).toHaveTitle(/^Tendwell: Structure That Strengthens Retention/);
    for (const selector of [
      'meta[name="description"]',
      'meta[name="keywords"]',
      'meta[name="robots"]',
      'meta[property="og:title"]',
      'meta[property="og:description"]',
      'meta[property="og:image"]',
      'meta[name="twitter:card"]',
    ]) {
      expect(await page.locator(selector).getAttribute("content"), selector).toBeTruthy();
    }
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "");
    expect(jsonLd["@type"]).toBe("SoftwareApplication");
    expect(jsonLd.offers.price).toBe("0");
    expect(jsonLd.offers.description).toContain("14-day free trial");
  });

  test("S-LAND-23 S-LAND-24 S-LAND-25 S-LAND-33 the sections come in the required order, the footer last", async ({
    page,
  }) => {
    await openLanding(page);
    const order = await page
      .locator("[data-section]")
      .evaluateAll((elements) => elements.map((element) => element.getAttribute("data-section")));
    expect(order).toEqual([
      "hero",
      "no-demo-banner",
      "comparison",
      "features",
      "industries",
      "showcases",
      "benefits",
      "testimonials",
      "pricing",
      "no-demo",
      "closing-cta",
      "footer",
    ]);
    // The hero is the first thing after the header, and the carousel is inside it.
    await expect(page.locator("main > :first-child")).toHaveAttribute("data-section", "hero");
    await expect(page.locator('[data-section="hero"]').getByTestId("carousel")).toBeVisible();
    await expect(page.locator('[data-section="comparison"]')).toContainText("Traditional CRMs");
  });

  test("S-LAND-26 S-LAND-27 S-LAND-28 S-LAND-29 S-LAND-30 six features, six industries, four showcases in order, six benefits, three rated testimonials", async ({
    page,
  }) => {
    await openLanding(page);
    await expect(page.getByTestId("feature-card")).toHaveCount(6);
    await expect(page.getByTestId("industry-card")).toHaveCount(6);
    const industries = await page.getByTestId("industry-card").locator("h3").allTextContents();
    for (const firm of ["Accounting", "Law", "Consulting", "Marketing", "Real estate", "Other client-focused"]) {
      expect(
        industries.some((title) => title.includes(firm)),
        firm,
      ).toBe(true);
    }
    const showcases = await page.getByTestId("showcase").locator("h3").allTextContents();
    expect(showcases).toHaveLength(4);
    expect(showcases[0]).toMatch(/dashboard/i);
    expect(showcases[1]).toMatch(/client management/i);
    expect(showcases[2]).toMatch(/task tracking/i);
    expect(showcases[3]).toMatch(/digital signatures/i);
    await expect(page.getByTestId("benefit-card")).toHaveCount(6);
    const testimonials = page.getByTestId("testimonial");
    await expect(testimonials).toHaveCount(3);
    for (const testimonial of await testimonials.all()) {
      await expect(testimonial.getByRole("img", { name: "Rated 5 out of 5 stars" })).toBeVisible();
      await expect(testimonial.locator("svg.lucide-star")).toHaveCount(5);
    }
  });

  test("S-LAND-19 S-LAND-20 S-LAND-21 S-LAND-22 S-CONST-01 the copy: 14-day trial, no demo, analytics, access, audit reports, 50+ templates", async ({
    page,
  }) => {
    await openLanding(page);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("14-day free trial with full features");
    expect(text).toContain("No demo or sales call needed");
    expect(text).toMatch(/retention analytics/i);
    expect(text).toMatch(/role-based access/i);
    expect(text).toMatch(/audit reports/i);
    expect(text).toContain("50+ task templates");
  });

  test("S-LAND-31 S-LAND-32 S-CONST-04 S-CONST-05 S-CONST-06 S-CONST-07 S-CONST-08 S-CONST-09 S-CONST-10 S-CONST-11 S-CONST-12 S-CONST-13 S-CONST-14 S-CONST-15 S-CONST-16 S-CONST-17 pricing", async ({
    page,
  }) => {
    await openLanding(page);
    const pricing = page.locator('[data-section="pricing"]');
    const cards = pricing.getByTestId("plan-card");
    await expect(cards.locator("h3")).toHaveText(["Starter", "Professional", "Enterprise"]);
    const starter = cards.nth(0);
    const professional = cards.nth(1);
    const enterprise = cards.nth(2);
    await expect(starter).toContainText("$149/month");
    await expect(starter).toContainText("Up to 100 clients");
    await expect(starter).toContainText("$1.49 per client");
    await expect(starter).toContainText("Up to 20 custom task templates");
    await expect(starter).toContainText("Email support");
    await expect(professional).toContainText("$249/month");
    await expect(professional).toContainText("Up to 250 clients");
    await expect(professional).toContainText("about $1.00 per client");
    await expect(professional).toContainText("Up to 50 custom task templates");
    await expect(professional).toContainText("Most Popular");
    await expect(professional).toContainText("Priority email support");
    await expect(enterprise).toContainText("$319/month");
    await expect(enterprise).toContainText("Unlimited clients");
    await expect(enterprise).toContainText("Unlimited custom task templates");
    await expect(enterprise).toContainText("Priority phone support");
    await expect(enterprise).toContainText("Custom integrations");
    await expect(enterprise).toContainText("Dedicated account manager");
    await expect(starter).not.toContainText("Most Popular");
    await expect(enterprise).not.toContainText("Most Popular");
    for (const card of await cards.all()) {
      await expect(card).toContainText("Unlimited users");
      await expect(card).toContainText("Full features");
      await expect(card).toContainText("Role-based access");
    }
    await expect(pricing).toContainText("Billed monthly");
    await expect(pricing).toContainText("Cancel anytime");
    await expect(pricing).toContainText("No setup fees or contracts");
    await expect(pricing).toContainText("14-day free trial with full features");
    // S-LAND-32: "No Demo Required" comes after pricing.
    await expect(
      page.locator('[data-section="no-demo"]').getByRole("heading", { name: "No Demo Required" }),
    ).toBeVisible();
  });

  test("S-LAND-03 the header stays at the top while the page scrolls, at 1280 and 375 px", async ({ page }) => {
    await openLanding(page);
    const header = page.getByTestId("site-header");
    for (const viewport of [viewports.desktop, viewports.mobile]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator("footer").scrollIntoViewIfNeeded();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
      await expect(header).toBeInViewport();
      expect((await header.boundingBox())?.y, `at ${viewport.width} px`).toBe(0);
    }
  });

  test("S-LAND-08 clicking the logo scrolls to the top", async ({ page }) => {
    await openLanding(page);
    await page.locator('[data-section="pricing"]').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.getByTestId("site-logo").click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page).toHaveURL(/\/$/);
  });

  test("S-LAND-04 header link Our Blog goes to /blog", async ({ page }) => {
    await openLanding(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Our Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test("S-LAND-05 header link Sign In goes to /login", async ({ page }) => {
    await openLanding(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("S-LAND-06 header link Get Started goes to /signup", async ({ page }) => {
    await openLanding(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Get Started" }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("S-LAND-09 the desktop hero button goes to /login", async ({ page }) => {
    await openLanding(page);
    await expect(page.getByTestId("hero-cta-mobile")).toBeHidden();
    await page.getByTestId("hero-cta-desktop").click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("S-LAND-11 the no-demo section's call to action goes to /signup", async ({ page }) => {
    await openLanding(page);
    await page.getByTestId("no-demo-cta").click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("S-LAND-13 only the desktop hero button and the header's Sign In go to /login; every other call to action to /signup", async ({
    page,
  }) => {
    await openLanding(page);
    const toLogin = await page
      .locator('a[href="/login"]')
      .evaluateAll((links) =>
        links.map(
          (link) =>
            link.getAttribute("data-testid") ??
            `${link.closest("nav, dialog")?.getAttribute("aria-label")}: ${link.textContent}`,
        ),
      );
    expect(toLogin.sort()).toEqual(["Main: Sign In", "Mobile: Sign In", "hero-cta-desktop"]);
    // Every call to action on the page (links styled as buttons, the trial line) goes to /signup.
    const actions = await page
      .locator(
        "main a.rounded-md.font-semibold, main [data-testid=mobile-trial-line], header a.rounded-md.font-semibold",
      )
      .evaluateAll((links) =>
        links.map((link) => [link.getAttribute("data-testid") ?? link.textContent, link.getAttribute("href")]),
      );
    expect(actions.length).toBeGreaterThanOrEqual(10);
    for (const [name, href] of actions) {
      if (name === "hero-cta-desktop") expect(href).toBe("/login");
      else if (name === "See the product") expect(href).toBe("/#showcases");
      else expect(href, String(name)).toBe("/signup");
    }
    // The pricing cards' buttons.
    for (const card of await page.getByTestId("plan-card").all()) {
      await expect(card.getByRole("link", { name: /Start your free trial/ })).toHaveAttribute("href", "/signup");
    }
  });

  test("S-LAND-34 S-LAND-35 S-LAND-36 the footer: contact e-mail, link groups and the legal links that point nowhere", async ({
    page,
  }) => {
    await openLanding(page);
    const footer = page.locator("footer");
    await expect(footer.getByTestId("footer-contact")).toHaveAttribute("href", "mailto:hello@tendwell.app");
    for (const group of ["Product", "Company", "Support"]) {
      await expect(footer.getByRole("navigation", { name: group }).getByRole("link").first()).toBeVisible();
    }
    await expect(footer.getByTestId("legal-link")).toHaveText(["Privacy Policy", "Terms of Service", "Cookie Policy"]);
    for (const legal of await footer.getByTestId("legal-link").all()) {
      await expect(legal).not.toHaveAttribute("href", /.*/);
      expect(await legal.evaluate((element) => element.closest("a"))).toBeNull();
    }
  });

  test("S-LAND-14 S-LAND-16 S-STATE-24 four screenshots; the front slide shows its two neighbours, the fourth is hidden, at 1280 and 375 px", async ({
    page,
  }) => {
    await openLanding(page);
    await expect(slides(page)).toHaveCount(4);
    expect(await slides(page).evaluateAll((all) => all.map((slide) => slide.getAttribute("data-slide")))).toEqual([
      "client-management",
      "dashboard",
      "tasks",
      "relationship-hub",
    ]);
    const alts = await slides(page)
      .locator("img")
      .evaluateAll((images) => images.map((image) => image.getAttribute("alt")));
    expect(alts.join(" | ")).toMatch(/client management.*dashboard.*task.*relationship hub/i);
    await expect(frontSlide(page)).toHaveAttribute("data-slide", "client-management");
    await expect(slides(page).nth(0)).toBeVisible();
    await expect(slides(page).nth(1)).toBeVisible();
    await expect(slides(page).nth(3)).toBeVisible();
    await expect(slides(page).nth(2)).toBeHidden();
    // The front image loads first and eagerly; the rest lazily; every image has its size.
    const front = slides(page).nth(0).locator("img");
    await expect(front).toHaveAttribute("loading", "eager");
    await expect(front).toHaveAttribute("fetchpriority", "high");
    await expect(front).toHaveAttribute("srcset", /-640\.webp 640w, .*-1280\.webp 1280w/);
    for (const image of await page.locator("main img").all()) {
      await expect(image).toHaveAttribute("width", "1280");
      await expect(image).toHaveAttribute("height", "800");
    }
    expect(await page.locator('main img[loading="lazy"]').count()).toBe((await page.locator("main img").count()) - 1);

    // At 375 px the carousel still shows the front slide and its neighbours, the fourth hidden.
    await page.setViewportSize(viewports.mobile);
    await expect(frontSlide(page)).toBeVisible();
    await expect(page.locator('[data-position="next"]')).toBeVisible();
    await expect(page.locator('[data-position="previous"]')).toBeVisible();
    await expect(page.locator('[data-position="hidden"]')).toBeHidden();
  });

  test("S-LAND-15 S-CONST-41 S-STATE-24 the carousel advances every 8000 ms, not sooner, and wraps from the fourth to the first", async ({
    page,
  }) => {
    await page.clock.install({ time: new Date("2026-03-02T09:00:00Z") });
    await page.clock.pauseAt(new Date("2026-03-02T10:00:00Z"));
    await openLanding(page);
    await expect(frontSlide(page)).toHaveAttribute("data-slide", "client-management");
    const expected = ["dashboard", "tasks", "relationship-hub", "client-management", "dashboard"];
    for (const name of expected) {
      await page.clock.runFor(7_999);
      await expect(frontSlide(page)).not.toHaveAttribute("data-slide", name);
      await page.clock.runFor(1);
      await expect(frontSlide(page)).toHaveAttribute("data-slide", name);
      // Always the front and its two neighbours visible, the fourth hidden.
      await expect(page.locator('[data-testid=carousel-slide][data-position="hidden"]')).toHaveCount(1);
      await expect(page.locator('[data-testid=carousel-slide][data-position="hidden"]')).toBeHidden();
    }
  });

  test("S-LAND-17 clicking a neighbour brings it to the front", async ({ page }) => {
    await page.clock.install({ time: new Date("2026-03-02T09:00:00Z") });
    await page.clock.pauseAt(new Date("2026-03-02T10:00:00Z"));
    await openLanding(page);
    await clickNeighbour(page, "Relationship hub");
    await expect(frontSlide(page)).toHaveAttribute("data-slide", "relationship-hub");
    await expect(page.locator('[data-slide="dashboard"]')).toBeHidden();
    await clickNeighbour(page, "Client management");
    await expect(frontSlide(page)).toHaveAttribute("data-slide", "client-management");
    // The wait restarts after a click: a full 8 s again.
    await page.clock.runFor(7_999);
    await expect(frontSlide(page)).toHaveAttribute("data-slide", "client-management");
    await page.clock.runFor(1);
    await expect(frontSlide(page)).toHaveAttribute("data-slide", "dashboard");
  });

  test("S-LAND-18 Click to enlarge opens the full-size screenshot in a dialog that Escape and Close close", async ({
    page,
  }) => {
    // Real time here (axe needs running timers): pause the slideshow so the front slide stays put.
    await openLanding(page);
    await page.getByRole("button", { name: "Pause slideshow" }).click();
    await expect(frontSlide(page)).toContainText("Click to enlarge");
    const front = (await frontSlide(page).getAttribute("data-slide")) ?? "";
    const title = front === "client-management" ? "Client management" : front === "dashboard" ? "Dashboard" : "";
    expect(title, "the slideshow was paused on one of the first two slides").not.toBe("");
    const dialog = page.getByRole("dialog", { name: `${title} screenshot` });
    await page.getByRole("button", { name: `Click to enlarge: ${title}` }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.locator("img")).toHaveAttribute("src", `/screenshots/${front}-1280.webp`);
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: `Click to enlarge: ${title}` }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  });

  test("axe finds no violations, and nothing scrolls sideways, at 1280 and 375 px", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await openLanding(page);
    // Paused, the slides stay where they are: each check waits for the glide under way to end.
    await page.getByRole("button", { name: "Pause slideshow" }).click();
    await checkAtBothWidths(page, testInfo, "landing");
  });
});

test.describe("landing page, 375 px", () => {
  test.use({ viewport: viewports.mobile });

  test("S-LAND-07 the header links sit in a slide-in side menu that opens and closes", async ({ page }) => {
    await openLanding(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeHidden();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link")).toHaveText(["Our Blog", "Sign In", "Get Started"]);
    await expect(menu.getByRole("link", { name: "Our Blog" })).toHaveAttribute("href", "/blog");
    await expect(menu.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    await expect(menu.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/signup");
    await expectNoAxeViolations(page);
    await menu.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("link", { name: "Get Started" }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("S-LAND-10 the mobile hero button goes to /signup", async ({ page }) => {
    await openLanding(page);
    await expect(page.getByTestId("hero-cta-desktop")).toBeHidden();
    await page.getByTestId("hero-cta-mobile").click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("S-LAND-12 the mobile trial line goes to /signup", async ({ page }) => {
    await openLanding(page);
    await expect(page.getByTestId("mobile-trial-line")).toContainText("14-day free trial");
    await page.getByTestId("mobile-trial-line").click();
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test.describe("landing page for a signed-in user", () => {
  test("S-LAND-01 with a session, / is the app's Dashboard, not the landing page", async ({ page }) => {
    const response = await page.request.post("/api/auth/login", {
      data: { username: "marcus.chen", password: "tendwell-demo" },
    });
    expect(response.status()).toBe(200);
    await page.goto("/");
    await expect(page.locator("[data-island]")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  });
});
