import { expect } from "@playwright/test";
import { holdRequests, letTimePass, signInAs, test } from "./fixtures";

const guarded = [
  { ids: "S-GUARD-05", path: "/dashboard" },
  { ids: "S-GUARD-06", path: "/clients" },
  { ids: "S-GUARD-07", path: "/tasks" },
  { ids: "S-GUARD-08", path: "/reports" },
  { ids: "S-GUARD-09", path: "/users" },
  { ids: "S-GUARD-10", path: "/users/0190f3c2-1111-7000-8000-000000000000" },
  { ids: "S-GUARD-11", path: "/settings" },
  { ids: "S-GUARD-12", path: "/client/0190f3c2-1111-7000-8000-000000000000" },
];

test.describe("session guard", () => {
  for (const { ids, path } of guarded) {
    test(`${ids} S-ROLE-05 ${path} without a session redirects to /login`, async ({ page }) => {
      const sessionChecks: number[] = [];
      page.on("response", (response) => {
        if (response.url().endsWith("/api/auth/me")) sessionChecks.push(response.status());
      });
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
      // A browser without the signed-in cookie holds no session: the app knows without asking.
      expect(sessionChecks).toEqual([]);
    });
  }

  test("S-GUARD-01 S-GUARD-03 S-ERR-02 S-API-05 a session that has ended is checked once (401, not retried), its cookies go and the visitor is at /login", async ({
    page,
    request,
    browserConsole,
  }) => {
    await signInAs(page, "admin");
    // The session ends on the server while the browser still holds its cookies (it expired, say).
    const cookies = (await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
    expect((await request.post("/api/auth/logout", { headers: { cookie: cookies } })).status()).toBe(204);
    // The browser logs the check's refusal, the one request this test is about.
    browserConsole.expectFailedRequest(401, "/api/auth/me");

    const sessionChecks: number[] = [];
    const sessionCheckRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/me")) sessionCheckRequests.push(request.method());
    });
    page.on("response", (response) => {
      if (response.url().endsWith("/api/auth/me")) sessionChecks.push(response.status());
    });
    // A retry would be sent from a timer: the page's clock lets a minute pass in a moment.
    await page.clock.install();
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await letTimePass(page, 60_000);
    expect(sessionCheckRequests).toEqual(["GET"]);
    expect(sessionChecks).toEqual([401]);
    // The refusal cleared the ended session's cookies, so the next visit does not ask again. The
    // browser's device cookie outlives sessions: it names the browser, not a sign-in.
    const left = await page.context().cookies();
    expect(left.map((cookie) => cookie.name)).toEqual(["tendwell_device"]);
    await page.goto("/clients");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    expect(sessionChecks).toEqual([401]);
  });

  test('S-GUARD-02 S-STATE-26 a "Loading" screen shows while the session check is under way', async ({ page }) => {
    await signInAs(page, "admin");
    const release = await holdRequests(page, "**/api/auth/me");
    await page.goto("/dashboard");
    await expect(page.getByRole("status")).toHaveText("Loading");
    release();
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  });

  test("S-GUARD-01 S-GUARD-04 S-STATE-26 with a valid session the protected page is shown", async ({ page }) => {
    await signInAs(page, "admin");
    const sessionCheck = page.waitForResponse((response) => response.url().endsWith("/api/auth/me"));
    await page.goto("/clients");
    expect((await sessionCheck).status()).toBe(200);
    await expect(page).toHaveURL(/\/clients$/);
    await expect(page.getByRole("heading", { name: "Clients", level: 1 })).toBeVisible();
  });

  test("S-GUARD-03 S-ERR-02 an error in the session check (not only a 401) sends the visitor to /login", async ({
    page,
    browserConsole,
  }) => {
    await signInAs(page, "admin");
    await page.route("**/api/auth/me", (route) => route.fulfill({ status: 500, body: "boom" }));
    // The browser logs the failed check this test makes up.
    browserConsole.expectFailedRequest(500, "/api/auth/me");
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("S-GUARD-03 an empty answer from the session check sends the visitor to /login", async ({ page }) => {
    await signInAs(page, "admin");
    await page.route("**/api/auth/me", (route) => route.fulfill({ status: 200, body: "" }));
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  // "/" is the public landing page, rendered by the server (decision 0022). The later onboarding
  // screens send a visitor without the earlier steps' data to /signup (S-PLANS-12, S-PAY-08..09, S-SUCC-07).
  for (const { path, landsOn } of [
    { path: "/", landsOn: "/" },
    { path: "/login", landsOn: "/login" },
    { path: "/signup", landsOn: "/signup" },
    { path: "/onboarding/plans", landsOn: "/signup" },
    { path: "/onboarding/payment", landsOn: "/signup" },
    { path: "/onboarding/success", landsOn: "/signup" },
    { path: "/blog", landsOn: "/blog" },
    { path: "/blog/quarterly-client-reviews", landsOn: "/blog/quarterly-client-reviews" },
  ]) {
    test(`S-GUARD-13 ${path} needs no session and never sends a visitor to /login`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await expect(page).toHaveURL(new RegExp(`${landsOn}$`));
    });
  }

  for (const path of ["/no-such-page", "/clients/x/y"]) {
    test(`S-GUARD-14 S-ERR-29 ${path} shows "404 Page Not Found"`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    });
  }

  test("S-GUARD-15 data APIs refuse calls without a session", async ({ request }) => {
    for (const url of ["/api/clients", "/api/dashboard", "/api/tasks/overdue", "/api/auth/me"]) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(401);
      expect(await response.json()).toMatchObject({ code: "UNAUTHENTICATED" });
    }
  });

  test('S-LAND-01 a signed-in user at "/" sees the dashboard (docs/design/signed-in-app.md); a visitor at "/" gets the landing page (decision 0022)', async ({
    page,
    browser,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    const visitor = await browser.newPage();
    await visitor.goto("/");
    await expect(
      visitor.getByRole("heading", { level: 1, name: "Structure That Strengthens Retention" }),
    ).toBeVisible();
    await expect(visitor).toHaveURL(/\/$/);
    await visitor.close();
  });
});
