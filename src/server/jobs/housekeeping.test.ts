import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../tests/fixtures";
import { useTestApp } from "../../../tests/test-app";
import { loadConfig } from "../platform/config";
import { billingSetups, idempotencyKeys, loginFailures, sessions, webauthnChallenges } from "../platform/db/schema";
import { purgeExpired } from "./housekeeping";

describe("housekeeping", () => {
  const ctx = useTestApp();
  const config = loadConfig({ NODE_ENV: "test" });

  it("removes expired and idle sessions, stale failed sign-ins, lapsed card setups, day-old idempotency keys and unanswered passkey challenges, and nothing else, as the app role", async () => {
    const db = ctx.database.db;
    const { users } = await seedFirm(db);
    await signIn(ctx.app, users.admin);
    const now = Date.now();
    const base = { firmId: users.user.firmId, userId: users.user.id };
    const keyOf = (key: string) => ({ firmId: users.user.firmId, key, fingerprint: "f", responseStatus: 201 });
    await db.insert(sessions).values([
      { ...base, tokenHash: "expired", expiresAt: new Date(now - 1000) },
      { ...base, tokenHash: "idle", expiresAt: new Date(now + 3600_000), lastSeenAt: new Date(now - 3 * 3600_000) },
    ]);
    await db.insert(loginFailures).values([
      { usernameKey: "old", ip: "203.0.113.1", createdAt: new Date(now - 20 * 60_000) },
      { usernameKey: "recent", ip: "203.0.113.1", createdAt: new Date(now - 60_000) },
    ]);

    const setup = { email: "x@example.com", fullName: "X", plan: "starter" as const, stripeCustomerId: "cus_1" };
    await db.insert(billingSetups).values([
      { ...setup, tokenHash: "lapsed", stripeSubscriptionId: "sub_lapsed", expiresAt: new Date(now - 1000) },
      { ...setup, tokenHash: "open", stripeSubscriptionId: "sub_open", expiresAt: new Date(now + 3600_000) },
      {
        ...setup,
        tokenHash: "claimed",
        stripeSubscriptionId: "sub_claimed",
        expiresAt: new Date(now - 1000),
        claimedAt: new Date(now - 5000),
        firmId: users.user.firmId,
      },
    ]);

    await db.insert(idempotencyKeys).values([
      { ...keyOf("old"), createdAt: new Date(now - 25 * 3600_000) },
      { ...keyOf("recent"), createdAt: new Date(now - 23 * 3600_000) },
    ]);

    await db.insert(webauthnChallenges).values([
      { challenge: "lapsed", purpose: "sign_in", expiresAt: new Date(now - 1000) },
      { challenge: "open", purpose: "sign_in", expiresAt: new Date(now + 60_000) },
    ]);

    expect(await purgeExpired(ctx.appDatabase.db, config)).toEqual({
      sessions: 2,
      loginFailures: 1,
      billingSetups: 1,
      idempotencyKeys: 1,
      webauthnChallenges: 1,
    });
    expect((await db.select().from(webauthnChallenges)).map((row) => row.challenge)).toEqual(["open"]);
    expect((await db.select().from(idempotencyKeys)).map((row) => row.key)).toEqual(["recent"]);
    expect((await db.select().from(billingSetups)).map((row) => row.tokenHash).sort()).toEqual(["claimed", "open"]);
    expect((await db.select().from(sessions)).map((row) => row.userId)).toEqual([users.admin.id]);
    expect((await db.select().from(loginFailures)).map((row) => row.usernameKey)).toEqual(["recent"]);
    expect(await purgeExpired(ctx.appDatabase.db, config)).toEqual({
      sessions: 0,
      loginFailures: 0,
      billingSetups: 0,
      idempotencyKeys: 0,
      webauthnChallenges: 0,
    });
  });
});
