import { createHash } from "node:crypto";
import { asc, desc, eq } from "drizzle-orm";
import type { AuditEventInput } from "../../shared/audit-events";
import { type Database, type DbExecutor, lockFirm } from "../db/database";
import { auditEvents } from "../db/schema";

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
    before: "before" in event ? event.before : null,
    after: "after" in event ? event.after : null,
    ip: context.ip,
    userAgent: context.userAgent,
    createdAt: new Date(),
    prevHash: last?.hash ?? null,
  };
  await tx.insert(auditEvents).values({ ...fields, hash: hashEvent(fields) });
}

/** Recomputes a firm's chain; reports the first event whose content or link does not match. */
export async function verifyAuditChain(
  db: Database,
  firmId: string,
): Promise<{ ok: true; events: number } | { ok: false; brokenAtSeq: number }> {
  const rows = await db.select().from(auditEvents).where(eq(auditEvents.firmId, firmId)).orderBy(asc(auditEvents.seq));
  let prevHash: string | null = null;
  for (const [index, row] of rows.entries()) {
    const { id: _id, hash, ...fields } = row;
    if (row.seq !== index + 1 || row.prevHash !== prevHash || hashEvent(fields) !== hash) {
      return { ok: false, brokenAtSeq: row.seq };
    }
    prevHash = hash;
  }
  return { ok: true, events: rows.length };
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
