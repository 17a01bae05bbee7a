import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../tests/fixtures";
import { useTestApp } from "../../../tests/test-app";
import { loadConfig } from "../config";
import { loginFailures, sessions } from "../db/schema";
import { purgeExpired } from "./housekeeping";

describe("housekeeping", () => {
  const ctx = useTestApp();
  const config = loadConfig({ NODE_ENV: "test" });

  it("removes expired and idle sessions and stale failed sign-ins, and nothing else", async () => {
    const db = ctx.database.db;
    const { users } = await seedFirm(db);
    await signIn(ctx.app, users.admin);
    const now = Date.now();
    const base = { firmId: users.user.firmId, userId: users.user.id };
    await db.insert(sessions).values([
      { ...base, tokenHash: "expired", expiresAt: new Date(now - 1000) },
      { ...base, tokenHash: "idle", expiresAt: new Date(now + 3600_000), lastSeenAt: new Date(now - 3 * 3600_000) },
    ]);
    await db.insert(loginFailures).values([
      { usernameKey: "old", ip: "203.0.113.1", createdAt: new Date(now - 20 * 60_000) },
      { usernameKey: "recent", ip: "203.0.113.1", createdAt: new Date(now - 60_000) },
    ]);

    expect(await purgeExpired(db, config)).toEqual({ sessions: 2, loginFailures: 1 });
    expect((await db.select().from(sessions)).map((row) => row.userId)).toEqual([users.admin.id]);
    expect((await db.select().from(loginFailures)).map((row) => row.usernameKey)).toEqual(["recent"]);
    expect(await purgeExpired(db, config)).toEqual({ sessions: 0, loginFailures: 0 });
  });
});
