import { createHash } from "node:crypto";
import { and, asc, desc, eq, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import type { AuditEventInput } from "../../../shared/audit-events";
import type { AuditEvent, AuditEventsQuery, AuditVerification } from "../../../shared/reports";
import type { Database, DbExecutor } from "../../platform/db/database";
import { auditCheckpoints, auditEvents, firms, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { decodeCursor, keysetPage } from "../../platform/keyset";
import type { Actor, EventSource } from "../../tenancy/actor";
import { lockFirm } from "../../tenancy/firm-lock";

export type StoredFields = {
  firmId: string;
  seq: number;
  actorUserId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  prevHash: string | null;
};

/**
 * Appends one event to the firm's hash chain, in the caller's transaction so the event exists
 * exactly when the change does. Locking the firm's row serialises appends per firm. `source` is
 * who did it and from where: the request's actor, or the firm alone for a provider's webhook.
 */
export async function recordAudit(
  tx: DbExecutor,
  source: EventSource,
  event: AuditEventInput & { entityId: string },
): Promise<void> {
  await lockFirm(tx, source.firmId);
  const [last] = await tx
    .select({ seq: auditEvents.seq, hash: auditEvents.hash, createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(eq(auditEvents.firmId, source.firmId))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  const fields: StoredFields = {
    firmId: source.firmId,
    seq: (last?.seq ?? 0) + 1,
    actorUserId: source.userId,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId,
    before: "before" in event ? asStored(event.before) : null,
    after: "after" in event ? asStored(event.after) : null,
    ip: source.ip,
    userAgent: source.userAgent,
    // Never earlier than the event before it (an app instance whose clock lags cannot step back),
    // so time order is seq order and a date range is a range of seq (listAuditEvents).
    createdAt: new Date(Math.max(Date.now(), last?.createdAt.getTime() ?? 0)),
    prevHash: last?.hash ?? null,
  };
  const hash = hashAuditEvent(fields);
  await tx.insert(auditEvents).values({ ...fields, hash });
  // The firm's row is locked above, so the head moves in event order (docs/design/audit-trail-and-settings.md).
  await tx.update(firms).set({ auditHeadSeq: fields.seq, auditHeadHash: hash }).where(eq(firms.id, source.firmId));
}

/** How many events verification reads per round trip: memory stays flat however long the chain. */
export const VERIFY_BATCH = 1_000;

/** What a walk answers: a verdict without the checkpoint, which its caller adds. */
type Walked = AuditVerification extends infer V ? (V extends unknown ? Omit<V, "checkpoint"> : never) : never;

/**
 * Where a walk goes on from: the event at `seq`, read again and re-hashed, so the first event
 * after it is linked to a hash that holds. `hash` is what that event must hash to when known (the
 * checkpoint's); null takes its stored hash once recomputed (a slice's start, checked by the slice
 * before it).
 */
type Anchor = { seq: number; hash: string | null };

/**
 * The quick check: the firm's chain from its verified checkpoint (the whole chain when it has
 * none) to the newest event, held against the head; when intact, the checkpoint moves up to the
 * last event verified. A broken chain never moves it. Events before the checkpoint are not read
 * again: one tampered with since it was verified is found by a full re-verification
 * (verifyAuditSlice), not here. The first check of a firm walks its whole chain, as every check
 * did before checkpoints.
 */
export async function verifyAuditChain(
  db: Database,
  firmId: string,
  batchSize = VERIFY_BATCH,
): Promise<AuditVerification> {
  const checkpoint = await readCheckpoint(db, firmId);
  const { verdict, lastHash } = await walkChain(db, firmId, checkpoint, Number.POSITIVE_INFINITY, batchSize);
  if (verdict.intact && lastHash !== null && verdict.events > (checkpoint?.seq ?? 0)) {
    await moveCheckpoint(db, firmId, verdict.events, lastHash);
  }
  const now = await readCheckpoint(db, firmId);
  return { ...verdict, checkpoint: now && { seq: now.seq, verifiedAt: now.verifiedAt.toISOString() } };
}

/**
 * One slice of a full re-verification: the `limit` events after event `after` (0: from the first
 * event), whatever the checkpoint says, chained from event `after` re-hashed. The caller goes on
 * from the answer's `next`, so each request stays bounded however long the chain, and any app
 * instance can answer any slice. It never moves the checkpoint: no one request saw the whole walk.
 */
export async function verifyAuditSlice(
  db: Database,
  firmId: string,
  after: number,
  limit: number,
  batchSize = VERIFY_BATCH,
): Promise<AuditVerification> {
  if (after > 0) {
    const head = await auditHead(db, firmId);
    if (after > head.seq) {
      throw new AppError(
        "BAD_REQUEST",
        `after must be at most ${head.seq.toLocaleString("en-US")}, the newest event the app recorded`,
      );
    }
  }
  const { verdict } = await walkChain(db, firmId, after === 0 ? null : { seq: after, hash: null }, limit, batchSize);
  const checkpoint = await readCheckpoint(db, firmId);
  return {
    ...verdict,
    checkpoint: checkpoint && { seq: checkpoint.seq, verifiedAt: checkpoint.verifiedAt.toISOString() },
  };
}

/**
 * Recomputes a firm's chain from `anchor` (from its first event when null), in pages of
 * `batchSize` by seq, reading at most `limit` events past the anchor, and reports the first event
 * whose content or link does not match: an edited event names itself; a removed one names the
 * event after the gap (its seq skips and its link points at the missing hash). `events` counts
 * the events verified intact, those up to the anchor included (all of them when the chain holds).
 *
 * When the walk reaches the chain's end, the chain is held against the firm's head (recordAudit
 * keeps it in the firm's row): the newest events removed show as `missing`; a chain rewritten
 * from some event on, with hashes recomputed, shows at the head, whose hash is no longer the one
 * recorded; and an event appended past the head was not written by the app. The head is read
 * before the walk and again after it, so events appended meanwhile are neither missing nor
 * foreign. A walk stopped by `limit` answers `next`, where the following one goes on.
 */
async function walkChain(
  db: Database,
  firmId: string,
  anchor: Anchor | null,
  limit: number,
  batchSize: number,
): Promise<{ verdict: Walked; lastHash: string | null }> {
  const headBefore = await auditHead(db, firmId);
  const reach = { from: anchor?.seq ?? 1, total: headBefore.seq };
  let prevHash: string | null = null;
  let expectedSeq = anchor?.seq ?? 1;
  let walked = 0;
  let reachedEnd = false;
  let atHead: typeof auditEvents.$inferSelect | undefined;
  for (;;) {
    const anchorPending = anchor !== null && expectedSeq === anchor.seq;
    const wanted = Math.min(batchSize, limit - walked + (anchorPending ? 1 : 0));
    if (wanted === 0) break;
    const rows = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firmId), gte(auditEvents.seq, expectedSeq)))
      .orderBy(asc(auditEvents.seq))
      .limit(wanted);
    for (const row of rows) {
      const { id, hash, ...fields } = row;
      const isAnchor = anchor !== null && expectedSeq === anchor.seq;
      const linked = isAnchor ? anchor.hash === null || hash === anchor.hash : row.prevHash === prevHash;
      if (row.seq !== expectedSeq || !linked || hashAuditEvent(fields) !== hash) {
        const verdict = { intact: false, events: expectedSeq - 1, brokenAt: brokenAt(row), reason: "changed" } as const;
        return { verdict: { ...verdict, ...reach }, lastHash: null };
      }
      if (row.seq === headBefore.seq) atHead = row;
      if (!isAnchor) walked += 1;
      prevHash = hash;
      expectedSeq += 1;
    }
    if (rows.length < wanted) {
      reachedEnd = true;
      break;
    }
  }
  const events = expectedSeq - 1;
  if (atHead && atHead.hash !== headBefore.hash) {
    const verdict = {
      intact: false,
      events: headBefore.seq - 1,
      brokenAt: brokenAt(atHead),
      reason: "rewritten",
    } as const;
    return { verdict: { ...verdict, ...reach }, lastHash: null };
  }
  if (!reachedEnd) return { verdict: { intact: true, events, next: events, ...reach }, lastHash: prevHash };
  if (events < headBefore.seq) {
    const verdict = { intact: false, events, missing: { fromSeq: events + 1, toSeq: headBefore.seq } } as const;
    return { verdict: { ...verdict, ...reach }, lastHash: null };
  }
  const headAfter = await auditHead(db, firmId);
  if (events > headAfter.seq) {
    const [foreign] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firmId), eq(auditEvents.seq, headAfter.seq + 1)));
    if (foreign) {
      const verdict = { intact: false, events: headAfter.seq, brokenAt: brokenAt(foreign), reason: "added" } as const;
      return { verdict: { ...verdict, ...reach }, lastHash: null };
    }
  }
  return { verdict: { intact: true, events, next: null, ...reach }, lastHash: prevHash };
}

async function readCheckpoint(
  db: Database,
  firmId: string,
): Promise<{ seq: number; hash: string; verifiedAt: Date } | null> {
  const [checkpoint] = await db
    .select({ seq: auditCheckpoints.seq, hash: auditCheckpoints.hash, verifiedAt: auditCheckpoints.verifiedAt })
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.firmId, firmId));
  return checkpoint ?? null;
}

/**
 * Sets the firm's checkpoint to event `seq` with `hash`, unless another check has already taken it
 * as far or further: two checks running at once each write what they verified, and the one that
 * got less far changes nothing (instead of hitting the forward-only trigger). `verified_at` is
 * this walk's end, so it says when the events up to `seq` were last seen intact.
 */
async function moveCheckpoint(db: Database, firmId: string, seq: number, hash: string): Promise<void> {
  await db
    .insert(auditCheckpoints)
    .values({ firmId, seq, hash, verifiedAt: new Date() })
    .onConflictDoUpdate({
      target: auditCheckpoints.firmId,
      set: { seq, hash, verifiedAt: sql`excluded.verified_at` },
      setWhere: lt(auditCheckpoints.seq, seq),
    });
}

async function auditHead(db: Database, firmId: string): Promise<{ seq: number; hash: string | null }> {
  const [firm] = await db
    .select({ seq: firms.auditHeadSeq, hash: firms.auditHeadHash })
    .from(firms)
    .where(eq(firms.id, firmId));
  return firm ?? { seq: 0, hash: null };
}

const brokenAt = (row: typeof auditEvents.$inferSelect) => ({
  id: row.id,
  seq: row.seq,
  action: row.action,
  createdAt: row.createdAt.toISOString(),
});

/**
 * A value as jsonb will give it back: keys holding undefined dropped, dates as ISO strings. The
 * hash is taken over this, so verification (which reads the stored jsonb) recomputes the same
 * text; hashing the raw object made every event with an omitted optional field look tampered.
 */
function asStored(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** An event's hash: SHA-256 of its stored fields (the link to the previous hash among them) as canonical JSON. */
export function hashAuditEvent(fields: StoredFields): string {
  return createHash("sha256")
    .update(canonicalJson({ ...fields, createdAt: fields.createdAt.toISOString() }))
    .digest("hex");
}

/** JSON with object keys sorted at every depth, so jsonb's reordering cannot change a hash. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * A page of the firm's audit trail, newest first by seq. Each filter has a firm-leading index
 * ending in seq (migration 0006), so a page is a short backward index walk from the cursor.
 * `from` and `to` are calendar dates in the firm's time zone, both included; as createdAt never
 * decreases along seq (recordAudit), they become a range of seq, found with two probes of the
 * (firm_id, created_at, seq) index, and a long range costs no more than a short one. A rare read
 * for two roles, so ordinary queries (decision 0008): PostgreSQL plans each combination.
 */
export async function listAuditEvents(options: {
  db: Database;
  actor: Actor;
  query: AuditEventsQuery;
}): Promise<{ events: AuditEvent[]; nextCursor: string | null }> {
  const { db, actor, query } = options;
  const before = query.cursor === undefined ? null : decodeCursor(query.cursor, readEventKey);
  const range = await seqRangeOfDays(db, actor.firmId, query.from, query.to);
  if (range === "empty") return { events: [], nextCursor: null };
  const rows = await db
    .select({
      id: auditEvents.id,
      seq: auditEvents.seq,
      action: auditEvents.action,
      entityType: auditEvents.entityType,
      entityId: auditEvents.entityId,
      actorId: auditEvents.actorUserId,
      actorUsername: users.username,
      actorFullName: users.fullName,
      ip: auditEvents.ip,
      userAgent: auditEvents.userAgent,
      createdAt: auditEvents.createdAt,
      before: auditEvents.before,
      after: auditEvents.after,
    })
    .from(auditEvents)
    .leftJoin(users, and(eq(users.firmId, auditEvents.firmId), eq(users.id, auditEvents.actorUserId)))
    .where(
      and(
        eq(auditEvents.firmId, actor.firmId),
        query.entity === undefined ? undefined : eq(auditEvents.entityType, query.entity),
        query.entityId === undefined ? undefined : eq(auditEvents.entityId, query.entityId),
        query.userId === undefined ? undefined : eq(auditEvents.actorUserId, query.userId),
        range.first === null ? undefined : gte(auditEvents.seq, range.first),
        range.last === null ? undefined : lte(auditEvents.seq, range.last),
        before === null ? undefined : lt(auditEvents.seq, before),
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(query.limit + 1);
  const page = keysetPage(rows, query.limit, (last) => ["a", last.seq]);
  return {
    events: page.rows.map((row) => ({
      id: row.id,
      seq: row.seq,
      action: row.action,
      entityType: row.entityType as AuditEvent["entityType"],
      entityId: row.entityId,
      actor:
        row.actorId !== null && row.actorUsername !== null && row.actorFullName !== null
          ? { id: row.actorId, username: row.actorUsername, fullName: row.actorFullName }
          : null,
      ip: row.ip,
      userAgent: row.userAgent,
      createdAt: row.createdAt.toISOString(),
      before: row.before,
      after: row.after,
    })),
    nextCursor: page.nextCursor,
  };
}

/**
 * The seq of the first event on or after `from`'s local midnight and of the last one before the
 * local midnight after `to`, in the firm's time zone (read in the same statement). The day after
 * `to` is a date plus one, not an instant plus 24 hours: a day lasts 23 or 25 hours when the
 * clocks change. "empty" when no event falls in the range.
 */
async function seqRangeOfDays(
  db: Database,
  firmId: string,
  from: string | undefined,
  to: string | undefined,
): Promise<{ first: number | null; last: number | null } | "empty"> {
  if (from === undefined && to === undefined) return { first: null, last: null };
  const zone = sql`(select ${firms.timeZone} from ${firms} where ${firms.id} = ${firmId})`;
  const midnight = (date: string, plusDays: number) =>
    sql`((${date}::date + ${plusDays}::int)::timestamp at time zone ${zone})`;
  const probe = (condition: SQL, direction: "asc" | "desc") =>
    sql`(select ${auditEvents.seq} from ${auditEvents} where ${auditEvents.firmId} = ${firmId} and ${condition}
      order by ${auditEvents.createdAt} ${sql.raw(direction)}, ${auditEvents.seq} ${sql.raw(direction)} limit 1)`;
  const [row] = await db
    .select({
      first:
        from === undefined
          ? sql<null>`null`
          : sql<string | null>`${probe(sql`${auditEvents.createdAt} >= ${midnight(from, 0)}`, "asc")}`,
      last:
        to === undefined
          ? sql<null>`null`
          : sql<string | null>`${probe(sql`${auditEvents.createdAt} < ${midnight(to, 1)}`, "desc")}`,
    })
    .from(sql`(select 1) as one`);
  const first = row?.first == null ? null : Number(row.first);
  const last = row?.last == null ? null : Number(row.last);
  if ((from !== undefined && first === null) || (to !== undefined && last === null)) return "empty";
  if (first !== null && last !== null && first > last) return "empty";
  return { first, last };
}

/** The list's key: `["a", seq]`, the last event's seq (an event before it comes next). */
const readEventKey = (key: unknown[]) =>
  key.length === 2 && key[0] === "a" && typeof key[1] === "number" && Number.isSafeInteger(key[1]) && key[1] > 1
    ? key[1]
    : undefined;
