import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";

describe("cross-site request forgery defence", () => {
  const ctx = useTestApp();
  const userCount = async () =>
    (await ctx.database.pool.query<{ n: number }>("select count(*)::int n from users")).rows[0]?.n;
  const newUser = () => ({ username: `forged.${Date.now()}`, password: "forged-pass-1", fullName: "Forged User" });

  it("refuses a state-changing request from a foreign Origin, and changes nothing", async () => {
    const { users } = await seedFirm(ctx.database.db);
    const browser = await signIn(ctx.app, users.super_admin);
    const before = await userCount();
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "http://localhost:8080" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "https://sub.localhost" },
    ];
    for (const headers of foreign) {
      const response = await browser.request("POST", "/api/users", newUser(), headers);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: "Cross-site requests are not allowed", code: "CROSS_SITE_REQUEST" });
    }
    expect(await userCount()).toBe(before);
    // The same request from our own origin goes through.
    expect((await browser.post("/api/users", newUser())).status).toBe(201);
  });

  it("refuses a body that is not JSON, as a cross-site form would send it", async () => {
    const { users } = await seedFirm(ctx.database.db);
    const browser = await signIn(ctx.app, users.super_admin);
    const before = await userCount();
    const form = "username=forged.form&password=forged-pass-1&fullName=Forged+User";
    for (const contentType of ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]) {
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/users",
        payload: form,
        headers: { "content-type": contentType, cookie: `tendwell_session=${browser.sessionToken()}` },
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    expect(await userCount()).toBe(before);
  });

  it("refuses a cross-site sign-in, so nobody can be signed into an attacker's account", async () => {
    const { users } = await seedFirm(ctx.database.db);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: users.user.username, password: users.user.password },
      headers: { origin: "https://evil.example" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.cookies).toEqual([]);
  });

  it("lets reads through from anywhere: they change nothing", async () => {
    const response = await ctx.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(response.statusCode).toBe(200);
  });
});
