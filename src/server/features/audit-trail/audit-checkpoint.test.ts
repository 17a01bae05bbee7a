import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../../../tests/api-client";
import { auditEventAt } from "../../../../tests/audit-events";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { sqlFailure } from "../../../../tests/sql-failure";
import { useTestApp } from "../../../../tests/test-app";
import type { AuditVerification } from "../../../shared/reports";
import { inFirm } from "../../platform/db/firm-scope";
import { auditCheckpoints } from "../../platform/db/schema";

/*
 * The verified checkpoint per firm (decision 0037) over HTTP, against a real PostgreSQL: the quick
 * check reads only the events after it and moves it forward; the full re-verification walks from
 * the first event in bounded slices. Tampering is done as the tables' owner with the append-only
 * trigger disabled, as someone with database rights could; the app role's own refusals are
 * PostgreSQL's.
 */
describe("the audit checkpoint", () => {
  const ctx = useTestApp();

  /** A firm whose chain holds `signIns` sign-ins, and its super admin's session (whose sign-in is the last event). */
  async function firmWithEvents(name: string, signIns: number) {
    const seeded = await seedFirm(ctx.database.db, name);
    for (let n = 1; n < signIns; n++) await signIn(ctx.app, n % 2 === 0 ? seeded.users.user : seeded.users.admin);
    const superAdmin = await signIn(ctx.app, seeded.users.super_admin);
    return { ...seeded, superAdmin };
  }

  const verify = async (client: ApiClient, query = "") => {
    const response = await client.get(`/api/audit-events/verify${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body as AuditVerification;
  };

  /** Every slice of a full re-verification, `limit` events each, as the screen runs it. */
  async function fullReverification(client: ApiClient, limit: number) {
    const slices: AuditVerification[] = [];
    let after = 0;
    for (let guard = 0; guard < 100; guard++) {
      const slice = await verify(client, `?full=true&after=${after}&limit=${limit}`);
      slices.push(slice);
      if (!slice.intact || slice.next === null) return slices;
      after = slice.next;
    }
    throw new Error("the full re-verification never ended");
  }

  async function checkpointOf(firmId: string) {
    const [row] = await ctx.database.db.select().from(auditCheckpoints).where(eq(auditCheckpoints.firmId, firmId));
    return row;
  }

  /** Edits one event as the table's owner, with the append-only trigger out of the way. */
  async function tamper(firmId: string, seq: number) {
    const client = await ctx.database.pool.connect();
    try {
      await client.query("begin");
      await client.query("alter table audit_events disable trigger audit_events_append_only");
      await client.query("update audit_events set ip = '203.0.113.66' where firm_id = $1 and seq = $2", [firmId, seq]);
      await client.query("alter table audit_events enable trigger audit_events_append_only");
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw error;
    } finally {
      client.release();
    }
  }

  it("S-SCALE-06 the first quick check walks the whole chain, then writes the firm's checkpoint at its newest event", async () => {
    const { firm, superAdmin } = await firmWithEvents("Checkpoint First", 5);
    expect(await checkpointOf(firm.id)).toBeUndefined();
    const before = Date.now();
    const first = await verify(superAdmin);
    expect(first).toMatchObject({ intact: true, events: 5, from: 1, total: 5, next: null, checkpoint: { seq: 5 } });
    const stored = await checkpointOf(firm.id);
    expect(stored).toMatchObject({ seq: 5, hash: (await auditEventAt(ctx.database.db, firm.id, 5)).hash });
    expect(stored?.verifiedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(first.checkpoint?.verifiedAt).toBe(stored?.verifiedAt.toISOString());
  });

  it("S-SCALE-06 a later quick check reads only the events after the checkpoint, and moves it up to the newest", async () => {
    const { firm, users, superAdmin } = await firmWithEvents("Checkpoint Second", 5);
    await verify(superAdmin);
    for (let n = 0; n < 3; n++) await signIn(ctx.app, users.admin);
    // It starts at the checkpoint (event 5, re-hashed as the link) and reads 5 to 8, not 1 to 8.
    expect(await verify(superAdmin)).toMatchObject({
      intact: true,
      events: 8,
      from: 5,
      total: 8,
      checkpoint: { seq: 8 },
    });
    expect(await checkpointOf(firm.id)).toMatchObject({
      seq: 8,
      hash: (await auditEventAt(ctx.database.db, firm.id, 8)).hash,
    });
    // Nothing new: it reads the checkpoint's event alone, and the checkpoint stays as it was.
    const unchanged = await checkpointOf(firm.id);
    expect(await verify(superAdmin)).toMatchObject({ intact: true, events: 8, from: 8, total: 8 });
    expect(await checkpointOf(firm.id)).toEqual(unchanged);
  });

  it("S-SCALE-06 an event tampered with after the checkpoint is found by the quick check, which then leaves the checkpoint where it was", async () => {
    const { firm, users, superAdmin } = await firmWithEvents("Checkpoint After", 4);
    await verify(superAdmin);
    for (let n = 0; n < 3; n++) await signIn(ctx.app, users.user);
    await tamper(firm.id, 6);
    const target = await auditEventAt(ctx.database.db, firm.id, 6);
    expect(await verify(superAdmin)).toEqual({
      intact: false,
      events: 5,
      brokenAt: { id: target.id, seq: 6, action: "session.signed_in", createdAt: target.createdAt.toISOString() },
      reason: "changed",
      from: 4,
      total: 7,
      checkpoint: { seq: 4, verifiedAt: expect.any(String) },
    });
    expect(await checkpointOf(firm.id)).toMatchObject({ seq: 4 });
    // The checkpoint's own event is read again each time, so an edit of it shows too.
    const other = await firmWithEvents("Checkpoint At", 3);
    await verify(other.superAdmin);
    await tamper(other.firm.id, 3);
    expect(await verify(other.superAdmin)).toMatchObject({ intact: false, events: 2, brokenAt: { seq: 3 } });
  });

  it("S-SCALE-07 an event tampered with before the checkpoint is missed by the quick check and found by the full re-verification", async () => {
    const { firm, superAdmin } = await firmWithEvents("Checkpoint Before", 5);
    await verify(superAdmin);
    await tamper(firm.id, 2);
    // The quick check starts at event 5: what came before is vouched for by the checkpoint.
    expect(await verify(superAdmin)).toMatchObject({ intact: true, events: 5, from: 5 });
    const slices = await fullReverification(superAdmin, 1);
    const target = await auditEventAt(ctx.database.db, firm.id, 2);
    expect(slices.map((slice) => slice.intact)).toEqual([true, false]);
    expect(slices.at(-1)).toEqual({
      intact: false,
      events: 1,
      brokenAt: { id: target.id, seq: 2, action: "session.signed_in", createdAt: target.createdAt.toISOString() },
      reason: "changed",
      from: 1,
      total: 5,
      checkpoint: { seq: 5, verifiedAt: expect.any(String) },
    });
    // A broken chain never moves the checkpoint, and it cannot go back: it stays at 5.
    expect(await checkpointOf(firm.id)).toMatchObject({ seq: 5 });
  });

  it("S-SCALE-07 the full re-verification goes from the first event in bounded slices, saying how far it got of how many", async () => {
    const { firm, superAdmin } = await firmWithEvents("Checkpoint Slices", 5);
    const slices = await fullReverification(superAdmin, 2);
    expect(slices.map(({ intact, events, from, total }) => ({ intact, events, from, total }))).toEqual([
      { intact: true, events: 2, from: 1, total: 5 },
      { intact: true, events: 4, from: 2, total: 5 },
      { intact: true, events: 5, from: 4, total: 5 },
    ]);
    expect(slices.map((slice) => slice.intact && slice.next)).toEqual([2, 4, null]);
    // Reading only, it writes no checkpoint (no one request saw the whole walk).
    expect(await checkpointOf(firm.id)).toBeUndefined();
    // A slice at the newest event finds nothing after it: done.
    expect(await verify(superAdmin, "?full=true&after=5")).toMatchObject({ intact: true, events: 5, next: null });
    // With the default limit, one slice covers a short chain whatever the checkpoint says.
    await verify(superAdmin);
    expect(await verify(superAdmin, "?full=true")).toMatchObject({ intact: true, events: 5, from: 1, next: null });
  });

  it("S-SCALE-06 never moves backward: as the app role, setting it back, onto another hash, or deleting it is refused", async () => {
    const { firm, superAdmin } = await firmWithEvents("Checkpoint Forward", 4);
    await verify(superAdmin);
    const db = inFirm(ctx.appDatabase.db, firm.id);
    const refused = "42501";
    expect(await sqlFailure(() => db.update(auditCheckpoints).set({ seq: 1 }))).toBe(refused);
    expect(await sqlFailure(() => db.update(auditCheckpoints).set({ hash: "0".repeat(64) }))).toBe(refused);
    expect(await sqlFailure(() => db.delete(auditCheckpoints))).toBe(refused);
    expect(await sqlFailure(() => db.execute(sql`truncate audit_checkpoints`))).toBe(refused);
    // A second row for the firm cannot stand beside it either (its key is the firm).
    expect(
      await sqlFailure(() =>
        db.insert(auditCheckpoints).values({ firmId: firm.id, seq: 1, hash: "x", verifiedAt: new Date() }),
      ),
    ).toBe("23505");
    expect(await checkpointOf(firm.id)).toMatchObject({ seq: 4 });
  });

  it("S-SCALE-06 checks running at the same moment as appends all answer intact, and the checkpoint ends at the furthest one", async () => {
    const { firm, users, superAdmin } = await firmWithEvents("Checkpoint Race", 3);
    const work = await Promise.all([
      ...Array.from({ length: 4 }, () => verify(superAdmin)),
      ...Array.from({ length: 4 }, () => signIn(ctx.app, users.admin)),
    ]);
    const checks = work.slice(0, 4) as AuditVerification[];
    for (const check of checks) expect(check).toMatchObject({ intact: true });
    const furthest = Math.max(...checks.map((check) => check.events));
    expect((await checkpointOf(firm.id))?.seq).toBe(furthest);
    expect(await verify(superAdmin)).toMatchObject({ intact: true, events: 7, checkpoint: { seq: 7 } });
  });

  it("S-SCALE-06 one firm's checks never read or move another firm's checkpoint", async () => {
    const a = await firmWithEvents("Checkpoint Firm A", 4);
    const b = await firmWithEvents("Checkpoint Firm B", 2);
    await verify(a.superAdmin);
    const aCheckpoint = await checkpointOf(a.firm.id);
    expect(await checkpointOf(b.firm.id)).toBeUndefined();
    // B's first check walks B's own chain from its first event, not from A's checkpoint.
    expect(await verify(b.superAdmin)).toMatchObject({ intact: true, events: 2, from: 1, checkpoint: { seq: 2 } });
    expect(await checkpointOf(a.firm.id)).toEqual(aCheckpoint);
    // As the app role acting for B, A's checkpoint is neither seen nor reachable.
    const asB = inFirm(ctx.appDatabase.db, b.firm.id);
    expect((await asB.select().from(auditCheckpoints)).map((row) => row.firmId)).toEqual([b.firm.id]);
    await asB.update(auditCheckpoints).set({ seq: 100 }).where(eq(auditCheckpoints.firmId, a.firm.id));
    expect(await checkpointOf(a.firm.id)).toEqual(aCheckpoint);
    expect(
      await sqlFailure(() =>
        asB.insert(auditCheckpoints).values({ firmId: crypto.randomUUID(), seq: 1, hash: "x", verifiedAt: new Date() }),
      ),
    ).toBe("42501");
  });

  it("S-SCALE-07 refuses bad query values with a 400 that says what is wrong", async () => {
    const { superAdmin } = await firmWithEvents("Checkpoint Queries", 2);
    for (const [query, message] of [
      ["full=yes", "full must be true or false"],
      ["full=true&after=-1", "after must be a whole number from 0 to 9,007,199,254,740,991"],
      ["full=true&after=abc", "after must be a whole number from 0 to 9,007,199,254,740,991"],
      ["full=true&after=1.5", "after must be a whole number from 0 to 9,007,199,254,740,991"],
      ["full=true&limit=0", "limit must be a whole number from 1 to 10,000"],
      ["full=true&limit=10001", "limit must be a whole number from 1 to 10,000"],
      ["after=1", "after and limit are for a full re-verification (full=true)"],
      ["full=false&limit=5", "after and limit are for a full re-verification (full=true)"],
    ] as const) {
      const response = await superAdmin.get(`/api/audit-events/verify?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ code: "VALIDATION_FAILED", message });
    }
    const unknown = await superAdmin.get("/api/audit-events/verify?from=1");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "VALIDATION_FAILED", message: expect.any(String) });
    const past = await superAdmin.get("/api/audit-events/verify?full=true&after=3");
    expect(past.status).toBe(400);
    expect(past.body).toEqual({
      message: "after must be at most 2, the newest event the app recorded",
      code: "BAD_REQUEST",
    });
  });
});
