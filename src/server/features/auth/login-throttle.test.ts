import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { seedFirm } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { insertUser } from "../../seed/factories";

describe("login throttling", () => {
  const ctx = useTestApp();
  const attempt = (username: string, password: string, ip: string) =>
    apiClient(ctx.app, { ip }).post("/api/auth/login", { username, password });

  it("answers the 6th failure for a username within 15 minutes with 429 and Retry-After", async () => {
    const { users } = await seedFirm(ctx.database.db, "Throttle");
    const target = users.admin;
    for (let n = 1; n <= 5; n++)
      expect((await attempt(target.username, "wrong-guess", "198.51.100.7")).status).toBe(401);
    const sixth = await attempt(target.username, "wrong-guess", "198.51.100.8");
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe("RATE_LIMITED");
    const retryAfter = Number(sixth.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Even the right password waits now, and the case of the username does not matter.
    expect((await attempt(target.username.toUpperCase(), target.password, "198.51.100.9")).status).toBe(429);

    // Another username from another address is unaffected.
    const other = await attempt(users.user.username, users.user.password, "203.0.113.50");
    expect(other.status).toBe(200);
  });

  it("forgets a username's failures after a successful sign-in", async () => {
    const { users } = await seedFirm(ctx.database.db, "Reset");
    const target = users.user;
    for (let n = 1; n <= 4; n++) await attempt(target.username, "wrong-guess", "198.51.100.20");
    expect((await attempt(target.username, target.password, "198.51.100.20")).status).toBe(200);
    for (let n = 1; n <= 4; n++)
      expect((await attempt(target.username, "wrong-guess", "198.51.100.20")).status).toBe(401);
    expect((await attempt(target.username, target.password, "198.51.100.20")).status).toBe(200);
  });

  it("answers the 51st failure from one address with 429, whatever the usernames", async () => {
    const { firm } = await seedFirm(ctx.database.db, "Spray");
    const victim = await insertUser(ctx.database.db, { firmId: firm.id, password: "a-fine-password-1" });
    const ip = "192.0.2.99";
    for (let n = 1; n <= 50; n++) expect((await attempt(`sprayed-${n}`, "guess-123", ip)).status).toBe(401);
    expect((await attempt(victim.username, victim.password, ip)).status).toBe(429);
    expect((await attempt(victim.username, victim.password, "192.0.2.100")).status).toBe(200);
  });
});
