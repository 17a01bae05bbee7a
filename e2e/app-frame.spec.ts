import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

test.describe("app frame", () => {
  test("an unknown path shows the 404 page", async ({ page }) => {
    await page.goto("/this/page/does-not-exist");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("the 404 page has no accessibility violations", async ({ page }) => {
    await page.goto("/nowhere");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });

  for (const path of ["/dashboard", "/clients", "/tasks", "/reports", "/users", "/settings", "/client/123"]) {
    test(`the session guard sends a visitor without a session from ${path} to /login`, async ({ page }) => {
      const sessionChecks: number[] = [];
      page.on("response", (response) => {
        if (response.url().endsWith("/api/auth/me")) sessionChecks.push(response.status());
      });
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      expect(sessionChecks.length).toBeGreaterThan(0);
      expect(sessionChecks.every((status) => status >= 400)).toBe(true);
    });
  }

  test("the guard shows the Loading screen while the session check is under way", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/auth/me", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/dashboard");
    await expect(page.getByRole("status")).toHaveText("Loading");
    release();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the session guard lets a signed-in visitor stay on the page", async ({ page }) => {
    const login = await page.request.post("/api/auth/login", {
      data: { username: "marcus.chen", password: "tendwell-demo" },
    });
    expect(login.status()).toBe(200);
    const sessionCheck = page.waitForResponse((response) => response.url().endsWith("/api/auth/me"));
    await page.goto("/clients");
    expect((await sessionCheck).status()).toBe(200);
    await expect(page.getByRole("status")).toHaveCount(0);
    await expect(page).toHaveURL(/\/clients$/);
  });
});
