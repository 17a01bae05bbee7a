import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";
import type { Role } from "../src/shared/roles";
import { largeFirm } from "./large-firm";

/** The demo firm the e2e server seeds (src/server/seed/demo-seed.ts). */
export const demoPassword = "tendwell-demo";
export const demoUsers: Record<Role, { username: string; fullName: string }> = {
  super_admin: { username: "olivia.hart", fullName: "Olivia Hart" },
  admin: { username: "marcus.chen", fullName: "Marcus Chen" },
  user: { username: "priya.nair", fullName: "Priya Nair" },
};

/** Signs the page's browser context in over the API, as a user of the demo firm with this role. */
export async function signInAs(page: Page, role: Role): Promise<void> {
  const response = await page.request.post("/api/auth/login", {
    data: { username: demoUsers[role].username, password: demoPassword },
  });
  expect(response.status(), `sign in as ${role}`).toBe(200);
}

/** Signs the page's browser context in to the large firm (10,000 clients, 100,000 tasks). */
export async function signInToLargeFirm(page: Page, role: "super_admin" | "user"): Promise<void> {
  const login = role === "super_admin" ? largeFirm.logins.superAdmin : largeFirm.logins.user;
  const response = await page.request.post("/api/auth/login", { data: login });
  expect(response.status(), `sign in to the large firm as ${role}`).toBe(200);
}

/** GET an API path with the page's session and return its JSON. */
export async function apiGet<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

/**
 * No accessibility violations axe can find on the page as it is now. With `popupOpen`, the
 * "region" rule is left out: a menu or popover is portaled to the end of <body>, outside the
 * landmarks, by design (Radix), and it is reached from its trigger, not by landmark.
 */
export async function expectNoAxeViolations(page: Page, options: { popupOpen?: boolean } = {}): Promise<void> {
  const builder = new AxeBuilder({ page });
  if (options.popupOpen) builder.disableRules(["region"]);
  const results = await builder.analyze();
  const found = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(found).toEqual([]);
}

/** The page fits the viewport's width: nothing scrolls sideways (issue 8, at 375 px). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Keeps a screenshot of the page with the test's results (issue 8: every screen at 1280 and 375 px). */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

/**
 * Holds every request to `url` until `release()` is called, so a pending state can be observed.
 * Returns the release function.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

export const viewports = {
  desktop: { width: 1280, height: 860 },
  mobile: { width: 375, height: 812 },
} as const;
