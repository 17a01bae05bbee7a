import { expect } from "@playwright/test";
import { apiGet, checkAtBothWidths, demoPassword, holdRequests, signInAs, test } from "./fixtures";

// Wrong passwords are sent only for usernames no other test signs in with (5 failures lock a name).
const unknownUser = "nobody.e2e-login";

test.describe("login", () => {
  test('S-LOGIN-01 S-LOGIN-02 S-LOGIN-03 /login is public with "Welcome Back", a username, a masked password and "Sign In"', async ({
    page,
  }) => {
    await page.goto("/login");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveAttribute("type", "text");
    await expect(page.getByLabel("Password")).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  });

  test("S-LOGIN-05 S-VAL-08 either field empty shows the one message and sends no request", async ({ page }) => {
    const logins: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/login")) logins.push(request.method());
    });
    await page.goto("/login");
    const message = page.getByRole("alert");
    const submit = page.getByRole("button", { name: "Sign In" });

    await submit.click();
    await expect(message).toHaveText("Please enter both username and password");

    await page.getByLabel("Username").fill("marcus.chen");
    await submit.click();
    await expect(message).toHaveText("Please enter both username and password");

    await page.getByLabel("Username").fill("");
    await page.getByLabel("Password").fill("secret");
    await submit.click();
    await expect(message).toHaveText("Please enter both username and password");
    expect(logins).toEqual([]);
  });

  test('S-LOGIN-04 S-STATE-05 while pending the button reads "Signing in..." and the controls are disabled', async ({
    page,
  }) => {
    await page.goto("/login");
    const release = await holdRequests(page, "**/api/auth/login");
    await page.getByLabel("Username").fill("marcus.chen");
    await page.getByLabel("Password").fill(demoPassword);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("button", { name: "Signing in..." })).toBeDisabled();
    await expect(page.getByLabel("Username")).toBeDisabled();
    await expect(page.getByLabel("Password")).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("S-LOGIN-06 S-API-01 S-API-03 valid credentials post JSON, refresh the current user and land on /dashboard", async ({
    page,
  }) => {
    const calls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/")) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.goto("/login");
    await page.getByLabel("Username").fill("marcus.chen");
    await page.getByLabel("Password").fill(demoPassword);
    const [login] = await Promise.all([
      page.waitForRequest((request) => request.url().endsWith("/api/auth/login")),
      page.getByRole("button", { name: "Sign In" }).click(),
    ]);
    expect(login.method()).toBe("POST");
    expect(login.headers()["content-type"]).toBe("application/json");
    expect(login.postDataJSON()).toEqual({ username: "marcus.chen", password: demoPassword });
    const response = await login.response();
    expect(response?.status()).toBe(200);
    expect(await response?.json()).toMatchObject({ fullName: "Marcus Chen", role: "admin" });

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    // The current user is read again after the sign-in, before the dashboard shows.
    expect(calls.slice(calls.indexOf("POST /api/auth/login"))).toContain("GET /api/auth/me");
  });

  test("S-LOGIN-07 S-ERR-03 S-API-03 wrong credentials show the server's message", async ({ page, browserConsole }) => {
    // The refused sign-in this test makes, which the browser logs.
    browserConsole.expectFailedRequest(401, "/api/auth/login");
    await page.goto("/login");
    await page.getByLabel("Username").fill(unknownUser);
    await page.getByLabel("Password").fill("not-the-password");
    const responsePromise = page.waitForResponse((response) => response.url().endsWith("/api/auth/login"));
    await page.getByRole("button", { name: "Sign In" }).click();
    const response = await responsePromise;
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(response.status()).toBeLessThan(500);
    const body = (await response.json()) as { message: string };
    expect(body.message).toBeTruthy();
    await expect(page.getByRole("alert")).toHaveText(body.message);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('S-LOGIN-07 S-ERR-03 a failure without a message shows "Login failed. Please try again."', async ({
    page,
    browserConsole,
  }) => {
    await page.route("**/api/auth/login", (route) => route.fulfill({ status: 502, body: "" }));
    // The failed sign-in this test makes up, which the browser logs.
    browserConsole.expectFailedRequest(502, "/api/auth/login");
    await page.goto("/login");
    await page.getByLabel("Username").fill(unknownUser);
    await page.getByLabel("Password").fill("anything");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toHaveText("Login failed. Please try again.");
  });

  test("S-LOGIN-08 S-API-02 a successful sign-in sets an HttpOnly, SameSite=Lax session cookie", async ({ page }) => {
    const response = await page.request.post("/api/auth/login", {
      data: { username: "marcus.chen", password: demoPassword },
    });
    expect(response.status()).toBe(200);
    const cookie = response.headers()["set-cookie"] ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  test("S-LOGIN-09 usernames are compared case-insensitively", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Username").fill("Marcus.CHEN");
    await page.getByLabel("Password").fill(demoPassword);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect((await apiGet<{ username: string }>(page, "/api/auth/me")).username).toBe("marcus.chen");
  });

  test("a signed-in user who opens /login goes to /dashboard", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("S-EDGE-15 a visitor's /login asks nothing about a session, and its console stays clean", async ({ page }) => {
    const sessionChecks: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/me")) sessionChecks.push(request.method());
    });
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // Without the signed-in cookie the app knows there is no session: a check would only earn a
    // 401, which the browser logs (the automatic console check fails the test on it).
    expect(sessionChecks).toEqual([]);
  });

  test("S-EDGE-13 /login, with its message, has no accessibility violations and fits at 1280 and 375 px, and leads a visitor without an account to the sign-up", async ({
    page,
  }, testInfo) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    const signUp = page.getByRole("link", { name: "Start your 14-day free trial" });
    await checkAtBothWidths(page, testInfo, "login", {
      atWidth: async () => {
        await expect(page.getByText("New to Tendwell?")).toBeVisible();
        await expect(signUp).toBeVisible();
      },
    });
    await expect(signUp).toHaveAttribute("href", "/signup");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "login-message");
    await signUp.click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
  });
});
