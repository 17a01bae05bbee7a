import { and, eq } from "drizzle-orm";
import type { Database } from "../src/server/platform/db/database";
import { auditEvents } from "../src/server/platform/db/schema";

/** The firm's audit event number `seq`, as stored (for tests that check or tamper with the chain). */
export async function auditEventAt(db: Database, firmId: string, seq: number) {
  const [row] = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.firmId, firmId), eq(auditEvents.seq, seq)));
  if (!row) throw new Error(`no event ${seq}`);
  return row;
}
