import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { useTestApp } from "../../../../tests/test-app";

const registration = {
  fullName: "Dana Whitfield",
  email: "dana@whitfield-cpa.example.com",
  username: "dana.whitfield",
  password: "ledger-and-quill-42",
  subscriptionPlan: "starter",
};

describe("register, me, logout, login: the round trip a browser makes", () => {
  const ctx = useTestApp();

  it("S-API-04 S-API-08 registers a firm on a 14-day trial with its first user as super_admin, signed in; /me answers them, or 401 without a session", async () => {
    const browser = apiClient(ctx.app);
    const anonymous = await browser.get("/api/auth/me");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "Please sign in to continue", code: "UNAUTHENTICATED" });
    const registered = await browser.post("/api/auth/register", registration);
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      username: "dana.whitfield",
      fullName: "Dana Whitfield",
      email: "dana@whitfield-cpa.example.com",
      role: "super_admin",
      firm: { name: "Dana Whitfield", plan: "starter", subscriptionStatus: "trialing" },
    });
    const trialDays = (Date.parse(registered.body.firm.trialEndsAt) - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(13.9);
    expect(trialDays).toBeLessThanOrEqual(14);
    expect(registered.text).not.toMatch(/argon2|passwordHash|tokenHash/);
    expect(browser.sessionToken()).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);

    const me = await browser.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.headers["content-type"]).toMatch(/^application\/json/);
    expect(me.body).toEqual(registered.body);
    expect(me.body).toMatchObject({ fullName: "Dana Whitfield", role: "super_admin" });

    expect((await browser.post("/api/auth/logout")).status).toBe(204);
    expect(browser.sessionToken()).toBeUndefined();
    expect((await browser.get("/api/auth/me")).status).toBe(401);

    const login = await browser.post("/api/auth/login", {
      username: "Dana.Whitfield",
      password: registration.password,
    });
    expect(login.status).toBe(200);
    expect(login.body.id).toBe(registered.body.id);
    expect((await browser.get("/api/auth/me")).body.username).toBe("dana.whitfield");
  });
});

describe("sign-in answers", () => {
  const ctx = useTestApp();

  it("asks for both fields when one is missing", async () => {
    for (const body of [{ username: "dana" }, { password: "secret" }, { username: "", password: "" }]) {
      const response = await apiClient(ctx.app).post("/api/auth/login", body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("Please enter both username and password");
    }
  });

  it("S-API-03 login answers the user in JSON and sets the session; an unknown user and a wrong password get the same 401 JSON message and no session", async () => {
    await apiClient(ctx.app).post("/api/auth/register", registration);
    const unknownBrowser = apiClient(ctx.app);
    const unknown = await unknownBrowser.post("/api/auth/login", { username: "nobody", password: "whatever-1" });
    const wrongBrowser = apiClient(ctx.app);
    const wrong = await wrongBrowser.post("/api/auth/login", {
      username: "dana.whitfield",
      password: "wrong-pass",
    });
    for (const response of [unknown, wrong]) {
      expect(response.status).toBe(401);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.headers["set-cookie"]).toBeUndefined();
      expect(response.body).toEqual({ message: "Invalid username or password", code: "INVALID_CREDENTIALS" });
    }
    expect(unknownBrowser.sessionToken()).toBeUndefined();
    expect(wrongBrowser.sessionToken()).toBeUndefined();
    expect((await wrongBrowser.get("/api/auth/me")).status).toBe(401);

    const browser = apiClient(ctx.app);
    const success = await browser.post("/api/auth/login", {
      username: registration.username,
      password: registration.password,
    });
    expect(success.status).toBe(200);
    expect(success.headers["content-type"]).toMatch(/^application\/json/);
    expect(success.body).toMatchObject({
      username: registration.username,
      fullName: registration.fullName,
      role: "super_admin",
    });
    expect(browser.sessionToken()).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect((await browser.get("/api/auth/me")).body.id).toBe(success.body.id);
  });
});

describe("changing the password", () => {
  const ctx = useTestApp();

  it("needs the current password, ends the user's other sessions and keeps this one", async () => {
    const browser = apiClient(ctx.app);
    await browser.post("/api/auth/register", registration);
    const laptop = apiClient(ctx.app);
    await laptop.post("/api/auth/login", { username: registration.username, password: registration.password });

    const wrong = await browser.post("/api/auth/change-password", {
      currentPassword: "not-it-at-all",
      newPassword: "a-new-ledger-77",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("Current password is incorrect");
    const common = await browser.post("/api/auth/change-password", {
      currentPassword: registration.password,
      newPassword: "trustno1",
    });
    expect(common.status).toBe(400);

    const changed = await browser.post("/api/auth/change-password", {
      currentPassword: registration.password,
      newPassword: "a-new-ledger-77",
    });
    expect(changed.status).toBe(204);
    expect((await browser.get("/api/auth/me")).status).toBe(200);
    expect((await laptop.get("/api/auth/me")).status).toBe(401);

    const oldPassword = await apiClient(ctx.app).post("/api/auth/login", {
      username: registration.username,
      password: registration.password,
    });
    expect(oldPassword.status).toBe(401);
    const newPassword = await apiClient(ctx.app).post("/api/auth/login", {
      username: registration.username,
      password: "a-new-ledger-77",
    });
    expect(newPassword.status).toBe(200);
  });
});
