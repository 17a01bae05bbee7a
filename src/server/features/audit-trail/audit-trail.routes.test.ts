import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiClient, apiClient } from "../../../../tests/api-client";
import { auditEventAt } from "../../../../tests/audit-events";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import type { AuditEvent } from "../../../shared/reports";
import { auditEvents, firms } from "../../platform/db/schema";
import type { EventSource } from "../../tenancy/actor";
import { hashAuditEvent, recordAudit, verifyAuditChain } from "./audit-trail.service";

/*
 * GET /api/audit-events and GET /api/audit-events/verify over HTTP, against a real PostgreSQL.
 * Events at chosen instants are appended through recordAudit itself (with the clock set), so the
 * chain they form is a real, intact one.
 */
describe("the audit trail API", () => {
  const ctx = useTestApp();

  afterEach(() => {
    vi.useRealTimers();
  });

  /** Appends one event as `actorUserId` (null: the system) at the instant `at`. */
  async function recordAt(
    firmId: string,
    at: string,
    event: { entityType: "client" | "task"; entityId: string },
    actorUserId: string | null,
  ) {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date(at) });
    try {
      const context: EventSource = { firmId, userId: actorUserId, ip: "198.51.100.4", userAgent: "Recorder/1.0" };
      await ctx.database.db.transaction((tx) =>
        event.entityType === "client"
          ? recordAudit(tx, context, {
              action: "client.updated",
              entityType: "client",
              entityId: event.entityId,
              before: { name: "Old" },
              after: { name: "New" },
            })
          : recordAudit(tx, context, {
              action: "task.created",
              entityType: "task",
              entityId: event.entityId,
              after: {},
            }),
      );
    } finally {
      vi.useRealTimers();
    }
  }

  /** Every page of the list for `query`, following x-next-cursor. */
  async function allPages(client: ApiClient, query: string) {
    const pages: AuditEvent[][] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const response = await client.get(
        `/api/audit-events?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(response.status).toBe(200);
      pages.push(response.body);
      cursor = response.headers["x-next-cursor"] as string | undefined;
      if (!cursor) return pages;
    }
    throw new Error("the pages never ended");
  }

  describe("the list", () => {
    let home: SeededFirm;
    let admin: ApiClient;
    const [clientA, clientB, taskA] = [
      "0196a000-0000-7000-8000-00000000000a",
      "0196a000-0000-7000-8000-00000000000b",
      "0196a000-0000-7000-8000-0000000000c1",
    ];

    beforeAll(async () => {
      home = await seedFirm(ctx.database.db, "Trail Home");
      // New York: midnight of 10 January 2026 is 05:00 UTC.
      await ctx.database.db.update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, home.firm.id));
      const { super_admin, admin: adminUser } = home.users;
      await recordAt(
        home.firm.id,
        "2026-01-10T04:59:59.999Z",
        { entityType: "client", entityId: clientA },
        super_admin.id,
      );
      await recordAt(
        home.firm.id,
        "2026-01-10T05:00:00.000Z",
        { entityType: "client", entityId: clientB },
        adminUser.id,
      );
      await recordAt(home.firm.id, "2026-01-11T04:59:59.999Z", { entityType: "task", entityId: taskA }, null);
      await recordAt(
        home.firm.id,
        "2026-01-11T05:00:00.000Z",
        { entityType: "client", entityId: clientA },
        adminUser.id,
      );
      admin = await signIn(ctx.app, home.users.admin);
    });

    it("answers the firm's events newest first, with who (or the system), what, when and from where", async () => {
      const response = await admin.get("/api/audit-events");
      expect(response.status).toBe(200);
      expect(response.headers["x-next-cursor"]).toBeUndefined();
      const events = response.body as AuditEvent[];
      expect(events.map((event) => event.seq)).toEqual([5, 4, 3, 2, 1]);
      expect(events[0]).toMatchObject({
        action: "session.signed_in",
        entityType: "user",
        entityId: home.users.admin.id,
      });
      expect(events[1]).toEqual({
        id: expect.any(String),
        seq: 4,
        action: "client.updated",
        entityType: "client",
        entityId: clientA,
        actor: { id: home.users.admin.id, username: home.users.admin.username, fullName: home.users.admin.fullName },
        ip: "198.51.100.4",
        userAgent: "Recorder/1.0",
        createdAt: "2026-01-11T05:00:00.000Z",
        before: { name: "Old" },
        after: { name: "New" },
      });
      expect(events[2]).toMatchObject({ action: "task.created", actor: null, createdAt: "2026-01-11T04:59:59.999Z" });
    });

    it("filters by entity type, by entity id and by the acting user, each alone and together", async () => {
      const seqs = async (query: string) =>
        ((await admin.get(`/api/audit-events?${query}`)).body as AuditEvent[]).map((event) => event.seq);
      expect(await seqs("entity=client")).toEqual([4, 2, 1]);
      expect(await seqs("entity=task")).toEqual([3]);
      expect(await seqs("entity=user")).toEqual([5]);
      expect(await seqs("entity=template")).toEqual([]);
      expect(await seqs(`entityId=${clientA}`)).toEqual([4, 1]);
      expect(await seqs(`entityId=${clientB}`)).toEqual([2]);
      expect(await seqs(`entity=task&entityId=${clientA}`)).toEqual([]);
      expect(await seqs(`userId=${home.users.admin.id}`)).toEqual([5, 4, 2]);
      expect(await seqs(`userId=${home.users.super_admin.id}`)).toEqual([1]);
      expect(await seqs(`userId=${home.users.user.id}`)).toEqual([]);
      expect(await seqs(`userId=${home.users.admin.id}&entity=client&entityId=${clientA}`)).toEqual([4]);
    });

    it("reads from and to as whole calendar days in the firm's time zone, both included", async () => {
      const seqs = async (query: string) =>
        ((await admin.get(`/api/audit-events?${query}`)).body as AuditEvent[]).map((event) => event.seq);
      // 10 January in New York runs from 05:00 UTC on the 10th to just before 05:00 UTC on the 11th.
      expect(await seqs("from=2026-01-10&to=2026-01-10")).toEqual([3, 2]);
      expect(await seqs("from=2026-01-09&to=2026-01-09")).toEqual([1]);
      expect(await seqs("from=2026-01-11&to=2026-01-11")).toEqual([4]);
      expect(await seqs("from=2026-01-10&entity=client")).toEqual([4, 2]);
      expect(await seqs("to=2026-01-10")).toEqual([3, 2, 1]);
      expect(await seqs("from=2026-01-12&to=2026-01-12")).toEqual([]);
    });

    it("moves the day's edges when the firm changes its time zone", async () => {
      await ctx.database.db.update(firms).set({ timeZone: "UTC" }).where(eq(firms.id, home.firm.id));
      try {
        const response = await admin.get("/api/audit-events?from=2026-01-10&to=2026-01-10");
        expect((response.body as AuditEvent[]).map((event) => event.seq)).toEqual([2, 1]);
      } finally {
        await ctx.database.db.update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, home.firm.id));
      }
    });

    it("keeps a day whole when the firm's clocks change: 8 March 2026 lasts 23 hours in New York", async () => {
      const { firm, users } = await seedFirm(ctx.database.db, "Trail DST");
      await ctx.database.db.update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, firm.id));
      const client = "0196a000-0000-7000-8000-0000000000d5";
      // 00:30 EST on the 8th, 23:30 EDT on the 8th, 00:30 EDT on the 9th.
      for (const at of ["2026-03-08T05:30:00.000Z", "2026-03-09T03:30:00.000Z", "2026-03-09T04:30:00.000Z"]) {
        await recordAt(firm.id, at, { entityType: "client", entityId: client }, users.admin.id);
      }
      const reader = await signIn(ctx.app, users.admin);
      const day = async (date: string) =>
        ((await reader.get(`/api/audit-events?from=${date}&to=${date}`)).body as AuditEvent[]).map(
          (event) => event.seq,
        );
      expect(await day("2026-03-08")).toEqual([2, 1]);
      expect(await day("2026-03-09")).toEqual([3]);
    });

    it("never lets time step back along the chain, so a day is a range of seq: a lagging clock takes the last event's time", async () => {
      const { firm, users } = await seedFirm(ctx.database.db, "Trail Skew");
      const entity = { entityType: "client", entityId: "0196a000-0000-7000-8000-0000000000e1" } as const;
      await recordAt(firm.id, "2026-05-02T12:00:00.000Z", entity, users.admin.id);
      // An app instance whose clock is a day behind appends next.
      await recordAt(firm.id, "2026-05-01T12:00:00.000Z", entity, users.admin.id);
      const rows = await ctx.database.db
        .select({ seq: auditEvents.seq, createdAt: auditEvents.createdAt })
        .from(auditEvents)
        .where(eq(auditEvents.firmId, firm.id))
        .orderBy(auditEvents.seq);
      expect(rows.map((row) => row.createdAt.toISOString())).toEqual([
        "2026-05-02T12:00:00.000Z",
        "2026-05-02T12:00:00.000Z",
      ]);
      const reader = await signIn(ctx.app, users.admin);
      const seqs = async (query: string) =>
        ((await reader.get(`/api/audit-events?${query}`)).body as AuditEvent[]).map((event) => event.seq);
      expect(await seqs("from=2026-05-01&to=2026-05-01")).toEqual([]);
      expect(await seqs("from=2026-05-02&to=2026-05-02")).toEqual([2, 1]);
      expect(await seqs("from=2026-05-02&to=2026-05-02&limit=1")).toEqual([2]);
      expect(await verifyAuditChain(ctx.database.db, firm.id)).toMatchObject({ intact: true });
    });

    it("S-FUZZ-06 refuses a date outside the years 1900 to 2200 with 400 (PostgreSQL has no year 0), never a 500", async () => {
      for (const [query, message] of [
        ["from=0000-01-01", "from must be a day of the years 1900 to 2200"],
        ["to=0000-02-29", "to must be a day of the years 1900 to 2200"],
        ["from=1899-12-31&to=1900-01-01", "from must be a day of the years 1900 to 2200"],
        ["to=2201-01-01", "to must be a day of the years 1900 to 2200"],
        ["from=2026-02-30", "from must be a date (YYYY-MM-DD)"],
      ] as const) {
        const response = await admin.get(`/api/audit-events?${query}`);
        expect(response.status, query).toBe(400);
        expect(response.body, query).toMatchObject({ code: "VALIDATION_FAILED", message });
      }
      expect((await admin.get("/api/audit-events?from=1900-01-01&to=2200-12-31")).status).toBe(200);
    });

    it("refuses a range that ends before it starts, and a cursor it never gave out", async () => {
      const reversed = await admin.get("/api/audit-events?from=2026-01-11&to=2026-01-10");
      expect(reversed.status).toBe(400);
      expect(reversed.body).toMatchObject({ code: "VALIDATION_FAILED", message: "from must be on or before to" });
      for (const cursor of [
        "nope",
        Buffer.from('["a",0]').toString("base64url"),
        Buffer.from("[5]").toString("base64url"),
      ]) {
        const forged = await admin.get(`/api/audit-events?cursor=${cursor}`);
        expect(forged.status).toBe(400);
        expect(forged.body).toEqual({ message: "The cursor is not one this list gave out", code: "BAD_REQUEST" });
      }
    });
  });

  it("pages through a long trail without a duplicate or a gap, filtered or not", async () => {
    const { firm, users } = await seedFirm(ctx.database.db, "Trail Pages");
    const admin = await signIn(ctx.app, users.admin);
    const context = { firmId: firm.id, userId: users.admin.id, ip: null, userAgent: null };
    await ctx.database.db.transaction(async (tx) => {
      for (let n = 0; n < 22; n++) {
        await recordAudit(tx, n % 2 === 0 ? context : { ...context, userId: users.user.id }, {
          action: "task.created",
          entityType: "task",
          entityId: "0196a000-0000-7000-8000-000000000099",
          after: { n },
        });
      }
    });
    const pages = await allPages(admin, "limit=5");
    expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
    expect(pages.flat().map((event) => event.seq)).toEqual(Array.from({ length: 23 }, (_, n) => 23 - n));

    const adminPages = await allPages(admin, `limit=4&userId=${users.admin.id}`);
    // The sign-in (seq 1) and the 11 events with an even n (seqs 2, 4, … 22).
    expect(adminPages.map((page) => page.length)).toEqual([4, 4, 4]);
    expect(adminPages.flat().map((event) => event.seq)).toEqual([22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 1]);

    // A page that holds exactly the rest says no more follow.
    const exact = await admin.get("/api/audit-events?limit=23");
    expect(exact.body).toHaveLength(23);
    expect(exact.headers["x-next-cursor"]).toBeUndefined();
  });

  it("shows a firm only its own events, even when asked for another firm's ids", async () => {
    const a = await seedFirm(ctx.database.db, "Trail A");
    const b = await seedFirm(ctx.database.db, "Trail B");
    const aAdmin = await signIn(ctx.app, a.users.admin);
    const bAdmin = await signIn(ctx.app, b.users.super_admin);
    const bSeen = (await bAdmin.get("/api/audit-events")).body as AuditEvent[];
    expect(bSeen.map((event) => event.entityId)).toEqual([b.users.super_admin.id]);
    expect((await bAdmin.get(`/api/audit-events?entityId=${a.users.admin.id}`)).body).toEqual([]);
    expect((await bAdmin.get(`/api/audit-events?userId=${a.users.admin.id}`)).body).toEqual([]);
    expect((await aAdmin.get("/api/audit-events")).body.map((event: AuditEvent) => event.entityId)).toEqual([
      a.users.admin.id,
    ]);
    expect((await bAdmin.get("/api/audit-events/verify")).body).toMatchObject({ intact: true, events: 1 });
  });

  it("is for super admins and admins; a user is refused with a clear message", async () => {
    const { users } = await seedFirm(ctx.database.db, "Trail Roles");
    for (const role of ["super_admin", "admin"] as const) {
      const client = await signIn(ctx.app, users[role]);
      expect((await client.get("/api/audit-events")).status).toBe(200);
      expect((await client.get("/api/audit-events/verify")).status).toBe(200);
    }
    const user = await signIn(ctx.app, users.user);
    for (const path of ["/api/audit-events", "/api/audit-events/verify"]) {
      expect((await user.get(path)).body).toEqual({
        message: "Your role (user) does not allow you to view the firm's audit trail",
        code: "FORBIDDEN",
      });
      expect((await user.get(path)).status).toBe(403);
      expect((await apiClient(ctx.app).get(path)).status).toBe(401);
    }
  });

  it("verifies events whose recorded fields were left out (jsonb drops them; the hash must agree)", async () => {
    const { users } = await seedFirm(ctx.database.db, "Trail Optional");
    const admin = await signIn(ctx.app, users.admin);
    // Only a name: industry, address, phone and email are undefined in the recorded `after`.
    expect((await admin.post("/api/clients", { name: "Sparse Client" })).status).toBe(201);
    expect((await admin.get("/api/audit-events/verify")).body).toMatchObject({ intact: true, events: 2 });
  });

  describe("tampering", () => {
    /** A firm with five events (five sign-ins) and no checkpoint yet, and its super admin's session. */
    async function firmWithFiveEvents(name: string) {
      const seeded = await seedFirm(ctx.database.db, name);
      await signIn(ctx.app, seeded.users.admin);
      await signIn(ctx.app, seeded.users.user);
      await signIn(ctx.app, seeded.users.admin);
      await signIn(ctx.app, seeded.users.user);
      const superAdmin = await signIn(ctx.app, seeded.users.super_admin);
      // A full re-verification, which leaves no checkpoint: the checks below walk from the first event.
      expect((await superAdmin.get("/api/audit-events/verify?full=true")).body).toMatchObject({
        intact: true,
        events: 5,
        checkpoint: null,
      });
      return { ...seeded, superAdmin };
    }

    /** Runs SQL as the database owner with the append-only trigger out of the way, as an attacker with rights could. */
    async function asOwnerBypassingTrigger(statement: string, values: unknown[]) {
      const client = await ctx.database.pool.connect();
      try {
        await client.query("begin");
        await client.query("alter table audit_events disable trigger audit_events_append_only");
        await client.query(statement, values);
        await client.query("alter table audit_events enable trigger audit_events_append_only");
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    }

    it("names the event whose `after` was edited", async () => {
      const { firm, superAdmin } = await firmWithFiveEvents("Tamper After");
      const target = await auditEventAt(ctx.database.db, firm.id, 3);
      await asOwnerBypassingTrigger(`update audit_events set after = '{"fullName":"Someone Else"}' where id = $1`, [
        target.id,
      ]);
      expect((await superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 2,
        brokenAt: { id: target.id, seq: 3, action: "session.signed_in", createdAt: target.createdAt.toISOString() },
        reason: "changed",
      });
    });

    it("names the event whose action was edited, with the action it now claims", async () => {
      const { firm, superAdmin } = await firmWithFiveEvents("Tamper Action");
      const target = await auditEventAt(ctx.database.db, firm.id, 4);
      await asOwnerBypassingTrigger("update audit_events set action = 'session.signed_out' where id = $1", [target.id]);
      expect((await superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 3,
        brokenAt: { id: target.id, seq: 4, action: "session.signed_out", createdAt: target.createdAt.toISOString() },
        reason: "changed",
      });
    });

    it("names the event after a deleted one", async () => {
      const { firm, superAdmin } = await firmWithFiveEvents("Tamper Delete");
      const deleted = await auditEventAt(ctx.database.db, firm.id, 2);
      const next = await auditEventAt(ctx.database.db, firm.id, 3);
      await asOwnerBypassingTrigger("delete from audit_events where id = $1", [deleted.id]);
      expect((await superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 1,
        brokenAt: { id: next.id, seq: 3, action: "session.signed_in", createdAt: next.createdAt.toISOString() },
        reason: "changed",
      });
    });

    it("names the first event when the chain's start was deleted, and a rewritten hash does not hide an edit", async () => {
      const { firm, superAdmin } = await firmWithFiveEvents("Tamper Start");
      const first = await auditEventAt(ctx.database.db, firm.id, 1);
      const second = await auditEventAt(ctx.database.db, firm.id, 2);
      await asOwnerBypassingTrigger("delete from audit_events where id = $1", [first.id]);
      expect((await superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 0,
        brokenAt: { id: second.id, seq: 2 },
      });
    });

    it("names the newest events as missing when they were removed, which the chain alone cannot show", async () => {
      const { firm, superAdmin } = await firmWithFiveEvents("Tamper Head");
      await asOwnerBypassingTrigger("delete from audit_events where firm_id = $1 and seq >= 4", [firm.id]);
      expect((await superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 3,
        missing: { fromSeq: 4, toSeq: 5 },
      });
    });

    it("catches a chain rewritten with recomputed hashes at its head, and an event the app did not write", async () => {
      const { firm, superAdmin } = await firmWithFiveEvents("Tamper Rewrite");
      // The newest event replaced by another with a valid link and hash: the chain holds, the head does not.
      const newest = await auditEventAt(ctx.database.db, firm.id, 5);
      const { id: _id, hash: _hash, ...fields } = newest;
      const forged = { ...fields, ip: "203.0.113.99" };
      await asOwnerBypassingTrigger("update audit_events set ip = $2, hash = $3 where id = $1", [
        newest.id,
        forged.ip,
        hashAuditEvent(forged),
      ]);
      expect((await superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 4,
        brokenAt: { id: newest.id, seq: 5, action: newest.action, createdAt: newest.createdAt.toISOString() },
        reason: "rewritten",
      });

      // In another firm, an event appended past the head with a valid link and hash.
      const other = await firmWithFiveEvents("Tamper Append");
      const last = await auditEventAt(ctx.database.db, other.firm.id, 5);
      const appended = { ...last, seq: 6, prevHash: last.hash, action: "user.created", createdAt: new Date() };
      const { id: _lastId, hash: _lastHash, ...appendedFields } = appended;
      const [inserted] = await ctx.database.db
        .insert(auditEvents)
        .values({ ...appendedFields, hash: hashAuditEvent(appendedFields) })
        .returning();
      expect((await other.superAdmin.get("/api/audit-events/verify")).body).toMatchObject({
        intact: false,
        events: 5,
        brokenAt: { id: inserted?.id, seq: 6, action: "user.created", createdAt: appended.createdAt.toISOString() },
        reason: "added",
      });
    });

    it("keeps the head in step with the chain, and refuses to set it back, even through the app's connection", async () => {
      const { firm } = await firmWithFiveEvents("Head Forward");
      const newest = await auditEventAt(ctx.database.db, firm.id, 5);
      const [row] = await ctx.database.db
        .select({ seq: firms.auditHeadSeq, hash: firms.auditHeadHash })
        .from(firms)
        .where(eq(firms.id, firm.id));
      expect(row).toEqual({ seq: 5, hash: newest.hash });
      const refused = await ctx.database.db
        .update(firms)
        .set({ auditHeadSeq: 3 })
        .where(eq(firms.id, firm.id))
        .then(
          () => "allowed",
          (error: Error) => String(error.cause),
        );
      expect(refused).toMatch(/firms.audit_head only moves forward/);
      const sameSeq = await ctx.database.db
        .update(firms)
        .set({ auditHeadHash: "0".repeat(64) })
        .where(eq(firms.id, firm.id))
        .then(
          () => "allowed",
          (error: Error) => String(error.cause),
        );
      expect(sameSeq).toMatch(/firms.audit_head only moves forward/);
      // Other changes of the firm's row are not touched by the rule.
      await ctx.database.db.update(firms).set({ name: "Head Forward LLP" }).where(eq(firms.id, firm.id));
      expect(await verifyAuditChain(ctx.database.db, firm.id)).toMatchObject({ intact: true, events: 5 });
    });

    it("finds a break in any batch, the walk reading the chain a page at a time", async () => {
      const { firm } = await firmWithFiveEvents("Tamper Batches");
      // Pages of two read 1-2, 3-4 and 5; pages of one read each event alone.
      expect(await verifyAuditChain(ctx.database.db, firm.id, 2)).toMatchObject({ intact: true, events: 5 });
      expect(await verifyAuditChain(ctx.database.db, firm.id, 1)).toMatchObject({ intact: true, events: 5 });
      const target = await auditEventAt(ctx.database.db, firm.id, 5);
      await asOwnerBypassingTrigger("update audit_events set ip = '203.0.113.9' where id = $1", [target.id]);
      for (const batch of [1, 2, 3, 4, 1000]) {
        expect(await verifyAuditChain(ctx.database.db, firm.id, batch)).toMatchObject({
          intact: false,
          events: 4,
          brokenAt: { seq: 5 },
        });
      }
    });

    it("refuses an UPDATE or a DELETE through the application's own database connection", async () => {
      const { firm } = await firmWithFiveEvents("Tamper App");
      const { db } = ctx.database;
      // drizzle wraps PostgreSQL's error; the trigger's refusal is its cause.
      const refusal = (query: Promise<unknown>) =>
        query.then(
          () => "allowed",
          (error: Error) => String(error.cause),
        );
      expect(
        await refusal(
          db.update(auditEvents).set({ action: "session.signed_out" }).where(eq(auditEvents.firmId, firm.id)),
        ),
      ).toMatch(/audit_events is append-only: UPDATE refused/);
      expect(await refusal(db.delete(auditEvents).where(eq(auditEvents.firmId, firm.id)))).toMatch(
        /audit_events is append-only: DELETE refused/,
      );
      expect(await verifyAuditChain(db, firm.id)).toMatchObject({ intact: true, events: 5 });
    });
  });
});
