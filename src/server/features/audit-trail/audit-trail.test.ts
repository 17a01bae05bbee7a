import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditVerifySliceMax } from "../../../shared/reports";
import { auditEvents } from "../../platform/db/schema";
import { verifyAuditChain, verifyAuditSlice } from "./audit-trail.service";

describe("the audit trail", () => {
  const ctx = useTestApp();

  it("records every mutation with who, what, when, IP and user agent, in one verifiable chain", async () => {
    const browser = apiClient(ctx.app, { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (Audit test)" });
    const registered = await browser.post("/api/auth/register", {
      fullName: "Ada Auditor",
      email: "ada@auditors.example.com",
      username: "ada.auditor",
      password: "chain-of-custody-1",
      subscriptionPlan: "enterprise",
    });
    const firmId = registered.body.firm.id as string;
    const created = await browser.post("/api/users", {
      username: "bo.clerk",
      password: "clerk-pass-1234",
      fullName: "Bo Clerk",
      role: "user",
    });
    await browser.patch(`/api/users/${created.body.id}`, { fullName: "Bo Senior Clerk" });
    const client = await browser.post("/api/clients", { name: "Chain Client" });
    await browser.post("/api/user-clients/assign", { userId: created.body.id, clientIds: [client.body.id] });
    await browser.post("/api/auth/change-password", {
      currentPassword: "chain-of-custody-1",
      newPassword: "chain-of-custody-2",
    });
    await browser.post("/api/auth/logout");
    await browser.post("/api/auth/login", { username: "ada.auditor", password: "chain-of-custody-2" });

    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.firmId, firmId))
      .orderBy(auditEvents.seq);
    expect(events.map((event) => event.action)).toEqual([
      "account.registered",
      "user.created",
      "user.updated",
      "client.created",
      "user.clients_assigned",
      "user.password_changed",
      "session.signed_out",
      "session.signed_in",
    ]);
    for (const event of events) {
      expect(event.actorUserId).toBe(registered.body.id);
      expect(event.ip).toBe("203.0.113.7");
      expect(event.userAgent).toBe("Mozilla/5.0 (Audit test)");
    }
    expect(events[2]?.before).toEqual({ fullName: "Bo Clerk", role: "user", disabled: false });
    expect(events[2]?.after).toEqual({ fullName: "Bo Senior Clerk", role: "user", disabled: false });
    expect(JSON.stringify(events)).not.toMatch(/chain-of-custody|clerk-pass|argon2/);
    expect(await verifyAuditChain(ctx.database.db, firmId)).toMatchObject({ intact: true, events: 8 });
  });

  it("keeps one chain per firm, so firms never see or break each other's", async () => {
    const a = await seedFirm(ctx.database.db, "Chain A");
    const b = await seedFirm(ctx.database.db, "Chain B");
    await signIn(ctx.app, a.users.admin);
    await signIn(ctx.app, b.users.admin);
    await signIn(ctx.app, a.users.user);
    const seqs = async (firmId: string) =>
      (await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.firmId, firmId))).map(
        (event) => event.seq,
      );
    expect(await seqs(a.firm.id)).toEqual([1, 2]);
    expect(await seqs(b.firm.id)).toEqual([1]);
  });

  it("detects an edited event even when someone with database rights bypasses the append-only rule", async () => {
    const { firm, users } = await seedFirm(ctx.database.db, "Tamper");
    await signIn(ctx.app, users.admin);
    await signIn(ctx.app, users.user);
    await signIn(ctx.app, users.super_admin);
    expect(await verifyAuditChain(ctx.database.db, firm.id)).toMatchObject({ intact: true, events: 3 });

    const client = await ctx.database.pool.connect();
    try {
      await client.query("alter table audit_events disable trigger audit_events_append_only");
      await client.query("update audit_events set ip = '203.0.113.66' where firm_id = $1 and seq = 2", [firm.id]);
      await client.query("alter table audit_events enable trigger audit_events_append_only");
    } finally {
      client.release();
    }
    // Behind the checkpoint the first check left at event 3: the full re-verification finds it.
    expect(await verifyAuditSlice(ctx.database.db, firm.id, 0, auditVerifySliceMax)).toMatchObject({
      intact: false,
      brokenAt: { seq: 2 },
    });
  });

  it("keeps one unbroken chain when a firm's people sign in and add users at the same moment", async () => {
    const { firm, users } = await seedFirm(ctx.database.db, "Rush Hour");
    const admin = await signIn(ctx.app, users.admin);
    // Each of these inserts a row that references the firm, then appends to the firm's chain.
    const signIns = Array.from({ length: 6 }, (_, n) =>
      apiClient(ctx.app).post("/api/auth/login", {
        username: (n % 2 === 0 ? users.user : users.super_admin).username,
        password: (n % 2 === 0 ? users.user : users.super_admin).password,
      }),
    );
    const additions = Array.from({ length: 4 }, (_, n) =>
      admin.post("/api/users", { username: `rush.${n}`, password: "rush-hour-pass-1", fullName: `Rush ${n}` }),
    );
    // Verifications running meanwhile see events appended during their walk: neither missing nor foreign.
    const checks = Array.from({ length: 3 }, () => verifyAuditChain(ctx.database.db, firm.id, 1));
    const statuses = (await Promise.all([...signIns, ...additions])).map((response) => response.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 201, 201, 201, 201]);
    for (const check of await Promise.all(checks)) expect(check).toMatchObject({ intact: true });
    expect(await verifyAuditChain(ctx.database.db, firm.id)).toMatchObject({ intact: true, events: 11 });
  });
});
