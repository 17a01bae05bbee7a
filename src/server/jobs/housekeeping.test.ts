import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../tests/fixtures";
import { useTestApp } from "../../../tests/test-app";
import { loadConfig } from "../platform/config";
import {
  billingSetups,
  idempotencyKeys,
  loginFailures,
  mailOutbox,
  sessions,
  webauthnChallenges,
} from "../platform/db/schema";
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
      mail: 0,
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
      mail: 0,
    });
  });
  it("S-MAIL-16 removes e-mail of every firm sent, kept or failed more than 90 days ago, and never a message waiting or being sent", async () => {
    const db = ctx.database.db;
    const firms = [await seedFirm(db, "Mail Home"), await seedFirm(db, "Mail Elsewhere")];
    const now = Date.now();
    const daysAgo = (days: number) => new Date(now - days * 86_400_000);
    let sequence = 0;
    const message = (
      firm: (typeof firms)[number],
      subject: string,
      status: "pending" | "sending" | "sent" | "kept" | "failed",
      createdAt: Date,
      settledAt: Date | null,
    ) => ({
      firmId: firm.firm.id,
      userId: firm.users.user.id,
      dedupeKey: `housekeeping:${sequence++}`,
      kind: "due_soon" as const,
      toAddress: "someone@example.com",
      toName: "Someone",
      senderName: "Firm",
      subject,
      textBody: "Text",
      htmlBody: "<p>Text</p>",
      status,
      createdAt,
      settledAt,
    });
    for (const firm of firms) {
      await db.insert(mailOutbox).values([
        message(firm, "sent long ago", "sent", daysAgo(95), daysAgo(91)),
        message(firm, "failed long ago", "failed", daysAgo(92), daysAgo(90.5)),
        message(firm, "kept long ago", "kept", daysAgo(91), daysAgo(91)),
        // Written long ago, settled within the 90 days: it stays until 90 days after it settled.
        message(firm, "failed lately", "failed", daysAgo(95), daysAgo(89)),
        message(firm, "sent lately", "sent", daysAgo(1), daysAgo(1)),
        message(firm, "kept lately", "kept", daysAgo(89), daysAgo(89)),
        // Waiting or taken, however old: never removed.
        message(firm, "waiting", "pending", daysAgo(200), null),
        message(firm, "taken", "sending", daysAgo(200), null),
      ]);
    }

    expect(await purgeExpired(ctx.appDatabase.db, config)).toMatchObject({ mail: 6 });
    for (const firm of firms) {
      const left = await db
        .select({ subject: mailOutbox.subject })
        .from(mailOutbox)
        .where(eq(mailOutbox.firmId, firm.firm.id));
      expect(left.map((row) => row.subject).sort()).toEqual([
        "failed lately",
        "kept lately",
        "sent lately",
        "taken",
        "waiting",
      ]);
    }
    expect(await purgeExpired(ctx.appDatabase.db, config)).toMatchObject({ mail: 0 });
  });
});
