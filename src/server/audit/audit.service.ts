import { createHash } from "node:crypto";
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { AuditEventInput } from "../../shared/audit-events";
import type { AuditEvent, AuditEventsQuery, AuditVerification } from "../../shared/reports";
import type { SessionInfo } from "../auth/sessions";
import { type Database, type DbExecutor, lockFirm } from "../db/database";
import { auditEvents, firms, users } from "../db/schema";
import { AppError } from "../errors";

/** Who did it and from where: taken from the request by the routes. */
export type AuditContext = {
  firmId: string;
  actorUserId: string | null;
  ip: string | null;
  userAgent: string | null;
};

type StoredFields = {
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
 * exactly when the change does. Locking the firm's row serialises appends per firm.
 */
export async function recordAudit(
  tx: DbExecutor,
  context: AuditContext,
  event: AuditEventInput & { entityId: string },
): Promise<void> {
  await lockFirm(tx, context.firmId);
  const [last] = await tx
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .where(eq(auditEvents.firmId, context.firmId))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  const fields: StoredFields = {
    firmId: context.firmId,
    seq: (last?.seq ?? 0) + 1,
    actorUserId: context.actorUserId,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId,
    before: "before" in event ? asStored(event.before) : null,
    after: "after" in event ? asStored(event.after) : null,
    ip: context.ip,
    userAgent: context.userAgent,
    createdAt: new Date(),
    prevHash: last?.hash ?? null,
  };
  await tx.insert(auditEvents).values({ ...fields, hash: hashEvent(fields) });
}

/** How many events verification reads per round trip: memory stays flat however long the chain. */
export const VERIFY_BATCH = 1_000;

/**
 * Recomputes a firm's chain from its first event, in pages of `batchSize` by seq, and reports the
 * first event whose content or link does not match: an edited event names itself; a removed one
 * names the event after the gap (its seq skips and its link points at the missing hash).
 * `events` counts the events verified intact (all of them when the chain holds).
 */
export async function verifyAuditChain(
  db: Database,
  firmId: string,
  batchSize = VERIFY_BATCH,
): Promise<AuditVerification> {
  let prevHash: string | null = null;
  let expectedSeq = 1;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firmId), gt(auditEvents.seq, expectedSeq - 1)))
      .orderBy(asc(auditEvents.seq))
      .limit(batchSize);
    for (const row of rows) {
      const { id, hash, ...fields } = row;
      if (row.seq !== expectedSeq || row.prevHash !== prevHash || hashEvent(fields) !== hash) {
        return {
          intact: false,
          events: expectedSeq - 1,
          brokenAt: { id, seq: row.seq, action: row.action, createdAt: row.createdAt.toISOString() },
        };
      }
      prevHash = hash;
      expectedSeq += 1;
    }
    if (rows.length < batchSize) return { intact: true, events: expectedSeq - 1 };
  }
}

/**
 * A value as jsonb will give it back: keys holding undefined dropped, dates as ISO strings. The
 * hash is taken over this, so verification (which reads the stored jsonb) recomputes the same
 * text; hashing the raw object made every event with an omitted optional field look tampered.
 */
function asStored(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

function hashEvent(fields: StoredFields): string {
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
 * ending in seq (migration 0005), so a page is a short backward index walk from the cursor.
 * `from` and `to` are calendar dates in the firm's time zone, both included. A rare read for two
 * roles, so an ordinary query (decision 0008): PostgreSQL plans each combination of filters.
 */
export async function listAuditEvents(options: {
  db: Database;
  actor: SessionInfo;
  query: AuditEventsQuery;
}): Promise<{ events: AuditEvent[]; nextCursor: string | null }> {
  const { db, actor, query } = options;
  const before = query.cursor === undefined ? null : decodeAuditCursor(query.cursor);
  // The firm's midnight of a date, as an instant: the time zone is read in the same statement.
  const firmZone = sql`(select ${firms.timeZone} from ${firms} where ${firms.id} = ${actor.firmId})`;
  // `to` ends at the next day's local midnight (a date plus one, not an instant plus 24 hours: a
  // day in the firm's zone lasts 23 or 25 hours when the clocks change).
  const localMidnight = (date: string, plusDays = 0) =>
    sql`((${date}::date + ${plusDays}::int)::timestamp at time zone ${firmZone})`;
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
        query.from === undefined ? undefined : sql`${auditEvents.createdAt} >= ${localMidnight(query.from)}`,
        query.to === undefined ? undefined : sql`${auditEvents.createdAt} < ${localMidnight(query.to, 1)}`,
        before === null ? undefined : lt(auditEvents.seq, before),
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(query.limit + 1);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return {
    events: page.map((row) => ({
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
    nextCursor: more && last ? encodeAuditCursor(last.seq) : null,
  };
}

/** Cursors are the last event's seq, opaque to callers: `["a", seq]` as base64url JSON. */
function encodeAuditCursor(seq: number): string {
  return Buffer.from(JSON.stringify(["a", seq])).toString("base64url");
}

function decodeAuditCursor(cursor: string): number {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(key) && key.length === 2 && key[0] === "a") {
      const seq: unknown = key[1];
      if (typeof seq === "number" && Number.isSafeInteger(seq) && seq > 1) return seq;
    }
  } catch {
    // fall through to the refusal
  }
  throw new AppError("BAD_REQUEST", "The cursor is not one this list gave out");
}
