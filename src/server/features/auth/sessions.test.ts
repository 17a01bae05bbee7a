import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { buildApp } from "../../app";
import { loadConfig } from "../../platform/config";
import { sessions } from "../../platform/db/schema";
import { newSealingKey } from "../../platform/sealed-secrets";
import { readSessionCookie } from "./sessions";

/** The hash stored for the token a session cookie holds. */
const tokenHashOf = (cookie: string) => readSessionCookie(cookie)?.tokenHash ?? "";

describe("sessions", () => {
  const ctx = useTestApp();

  it("S-API-02 stores only the token's hash, marks the cookie HttpOnly and SameSite=Lax, not Secure over plain HTTP", async () => {
    const { users } = await seedFirm(ctx.database.db, "Cookies");
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: users.admin.username, password: users.admin.password },
    });
    const cookie = response.cookies.find((entry) => entry.name === "tendwell_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 12 * 3600 });
    expect(cookie?.secure).toBeFalsy();
    // Its companion tells the app's script that there may be a session, and holds nothing secret.
    const companion = response.cookies.find((entry) => entry.name === "tendwell_signed_in");
    expect(companion).toMatchObject({ value: "1", sameSite: "Lax", path: "/", maxAge: 12 * 3600 });
    expect(companion?.httpOnly).toBeFalsy();
    const token = cookie?.value ?? "";
    const stored = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, tokenHashOf(token)));
    expect(stored).toHaveLength(1);
    const { rows } = await ctx.database.pool.query("select count(*)::int n from sessions where token_hash = $1", [
      token,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it("S-PRIV-04 finds a session only in the firm its cookie names: another firm's id, a malformed value or a bare token get 401, never a 500", async () => {
    const own = await seedFirm(ctx.database.db, "Cookie firm");
    const other = await seedFirm(ctx.database.db, "Other cookie firm");
    const browser = await signIn(ctx.app, own.users.admin);
    const value = browser.sessionToken() ?? "";
    expect(value.startsWith(`${own.firm.id}.`)).toBe(true);
    const token = value.slice(value.indexOf(".") + 1);
    const forged = [
      `${other.firm.id}.${token}`,
      token,
      `.${token}`,
      `${own.firm.id}.`,
      `not-a-uuid.${token}`,
      `${own.firm.id.toUpperCase()}x.${token}`,
      `${own.firm.id}.${token}.${token}`,
    ];
    for (const cookie of forged) {
      const visitor = apiClient(ctx.app);
      visitor.setSessionToken(cookie);
      const response = await visitor.get("/api/auth/me");
      expect(response.status, cookie).toBe(401);
      expect(response.body).toEqual({ message: "Please sign in to continue", code: "UNAUTHENTICATED" });
    }
    expect((await browser.get("/api/auth/me")).status).toBe(200);
  });

  it("starts a new session on every sign-in and ends the one the browser held", async () => {
    const { users } = await seedFirm(ctx.database.db, "Rotation");
    const browser = await signIn(ctx.app, users.user);
    const first = browser.sessionToken() ?? "";
    await browser.post("/api/auth/login", { username: users.user.username, password: users.user.password });
    const second = browser.sessionToken() ?? "";
    expect(second).not.toBe(first);
    const replay = apiClient(ctx.app);
    replay.setSessionToken(first);
    expect((await replay.get("/api/auth/me")).status).toBe(401);
    expect((await browser.get("/api/auth/me")).status).toBe(200);
  });

  it("S-API-06 ends the session on the server at sign-out: the cookie is cleared and the old one no longer works", async () => {
    const { users } = await seedFirm(ctx.database.db, "Logout");
    const browser = await signIn(ctx.app, users.admin);
    const token = browser.sessionToken() ?? "";
    expect((await browser.get("/api/auth/me")).status).toBe(200);
    const logout = await browser.post("/api/auth/logout");
    expect(logout.status).toBe(204);
    expect(logout.headers["set-cookie"]).toEqual([
      expect.stringMatching(/^tendwell_session=;/),
      expect.stringMatching(/^tendwell_signed_in=;/),
    ]);
    expect(browser.sessionToken()).toBeUndefined();
    expect(
      await ctx.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, tokenHashOf(token))),
    ).toEqual([]);
    const stolen = apiClient(ctx.app);
    stolen.setSessionToken(token);
    const response = await stolen.get("/api/auth/me");
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: "Please sign in to continue", code: "UNAUTHENTICATED" });
  });

  it("clears the cookies of a session that has ended when a request is refused for it, and sets none on a plain refusal", async () => {
    const { users } = await seedFirm(ctx.database.db, "Ended");
    const browser = await signIn(ctx.app, users.admin);
    const elsewhere = apiClient(ctx.app);
    elsewhere.setSessionToken(browser.sessionToken() ?? "");
    expect((await elsewhere.post("/api/auth/logout")).status).toBe(204);

    const refused = await browser.get("/api/auth/me");
    expect(refused.status).toBe(401);
    expect(refused.headers["set-cookie"]).toEqual([
      expect.stringMatching(/^tendwell_session=;/),
      expect.stringMatching(/^tendwell_signed_in=;/),
    ]);
    expect(browser.sessionToken()).toBeUndefined();
    const anonymous = await apiClient(ctx.app).get("/api/auth/me");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses and removes a session idle for two hours", async () => {
    const { users } = await seedFirm(ctx.database.db, "Idle");
    const browser = await signIn(ctx.app, users.admin);
    const tokenHash = tokenHashOf(browser.sessionToken() ?? "");
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 2 * 3600_000 - 1000) })
      .where(eq(sessions.tokenHash, tokenHash));
    expect((await browser.get("/api/auth/me")).status).toBe(401);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash))).toEqual([]);
  });

  it("keeps an active session alive past the idle timeout by recording activity", async () => {
    const { users } = await seedFirm(ctx.database.db, "Active");
    const browser = await signIn(ctx.app, users.admin);
    const tokenHash = tokenHashOf(browser.sessionToken() ?? "");
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 90 * 60_000) })
      .where(eq(sessions.tokenHash, tokenHash));
    expect((await browser.get("/api/auth/me")).status).toBe(200);
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    expect(Date.now() - (row?.lastSeenAt.getTime() ?? 0)).toBeLessThan(60_000);
  });

  it("refuses a session past its absolute lifetime, however active", async () => {
    const { users } = await seedFirm(ctx.database.db, "Absolute");
    const browser = await signIn(ctx.app, users.admin);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, tokenHashOf(browser.sessionToken() ?? "")));
    expect((await browser.get("/api/auth/me")).status).toBe(401);
  });

  it("survives an app restart: a new app process on the same database accepts the cookie", async () => {
    const { users } = await seedFirm(ctx.database.db, "Restart");
    const browser = await signIn(ctx.app, users.super_admin);
    const restarted = await buildApp({
      config: loadConfig({
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATABASE_URL: "postgres://unused/x",
      }),
      database: ctx.database,
    });
    try {
      const client = apiClient(restarted);
      client.setSessionToken(browser.sessionToken() ?? "");
      const me = await client.get("/api/auth/me");
      expect(me.status).toBe(200);
      expect(me.body.username).toBe(users.super_admin.username);
    } finally {
      await restarted.close();
    }
  });

  it("ends a user's sessions when they are disabled, and refuses their sign-in until enabled", async () => {
    const { users } = await seedFirm(ctx.database.db, "Disable");
    const owner = await signIn(ctx.app, users.super_admin);
    const staff = await signIn(ctx.app, users.user);
    const disabled = await owner.patch(`/api/users/${users.user.id}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body.disabled).toBe(true);
    expect((await staff.get("/api/auth/me")).status).toBe(401);

    const refused = await apiClient(ctx.app).post("/api/auth/login", {
      username: users.user.username,
      password: users.user.password,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ACCOUNT_DISABLED");

    expect((await owner.patch(`/api/users/${users.user.id}`, { disabled: false })).body.disabled).toBe(false);
    await signIn(ctx.app, users.user);
  });
});

describe("sessions behind an HTTPS proxy", () => {
  const ctx = useTestApp({ env: { TRUST_PROXY: "true" } });

  it("S-API-02 S-MAIL-11 marks the session cookie, its companion and the device cookie Secure when the request came over HTTPS, and not when it came over HTTP", async () => {
    const { users } = await seedFirm(ctx.database.db, "Proxied");
    const signInOver = async (proto: string, cookie = "tendwell_session") => {
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: { "x-forwarded-proto": proto },
        payload: { username: users.admin.username, password: users.admin.password },
      });
      expect(response.statusCode).toBe(200);
      return response.cookies.find((entry) => entry.name === cookie);
    };
    expect(await signInOver("https")).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
    expect((await signInOver("http"))?.secure).toBeFalsy();
    expect((await signInOver("https", "tendwell_signed_in"))?.secure).toBe(true);
    expect(await signInOver("https", "tendwell_device")).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
    });
    expect((await signInOver("http", "tendwell_device"))?.secure).toBeFalsy();
  });
});
