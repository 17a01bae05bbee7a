import { and, desc, eq, sql } from "drizzle-orm";
import {
  MAIL_OUTBOX_PAGE_SIZE,
  type MailOutboxPage,
  type MailOutboxQuery,
  type OutboxMessage,
} from "../../../shared/mail-outbox";
import { isUuidText } from "../../../shared/validation";
import type { Database } from "../../platform/db/database";
import { mailOutbox } from "../../platform/db/schema";
import { decodeCursor, keysetPage } from "../../platform/keyset";
import type { Actor } from "../../tenancy/actor";

/*
 * The firm's outbox as its super admins read it (decision 0049): every message the app wrote for
 * the firm's users, newest first, with where it stands. Reading only: a message is never changed
 * or sent again from here.
 */

/** created_at to the microsecond, as the cursor carries it (a JavaScript Date keeps milliseconds only). */
const createdAtKey = sql<string>`to_char(${mailOutbox.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** GET /api/mail-outbox: a page of the firm's messages, newest first, of one status or all. */
export async function listOutboxMessages(options: {
  db: Database;
  actor: Actor;
  query: MailOutboxQuery;
  delivery: MailOutboxPage["delivery"];
}): Promise<MailOutboxPage & { nextCursor: string | null }> {
  const { db, actor, query } = options;
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, readMessageKey);
  const rows = await db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      toName: mailOutbox.toName,
      toAddress: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      createdAtKey,
      settledAt: mailOutbox.settledAt,
      textBody: mailOutbox.textBody,
    })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.firmId, actor.firmId),
        query.status === undefined ? undefined : eq(mailOutbox.status, query.status),
        after === null
          ? undefined
          : sql`(${mailOutbox.createdAt}, ${mailOutbox.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
      ),
    )
    // The (firm_id, created_at, id) index, walked backwards from the cursor (migration 0029).
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(MAIL_OUTBOX_PAGE_SIZE + 1);
  const page = keysetPage(rows, MAIL_OUTBOX_PAGE_SIZE, (last) => ["m", last.createdAtKey, last.id]);
  return {
    delivery: options.delivery,
    messages: page.rows.map(
      (row): OutboxMessage => ({
        id: row.id,
        kind: row.kind,
        to: { name: row.toName, address: row.toAddress },
        subject: row.subject,
        status: row.status,
        attempts: row.attempts,
        nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
        lastError: row.lastError,
        createdAt: row.createdAt.toISOString(),
        settledAt: row.settledAt?.toISOString() ?? null,
        text: row.textBody,
      }),
    ),
    nextCursor: page.nextCursor,
  };
}

/** A key as createdAtKey writes it, and a real instant (not 30 February): anything else could make the cast fail. */
const instantText = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const isInstantText = (value: unknown): value is string => {
  if (typeof value !== "string" || !instantText.test(value)) return false;
  const instant = new Date(value);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 23) === value.slice(0, 23);
};

/** The list's key: `["m", created_at, id]`, of the last message of the page before. */
function readMessageKey(key: unknown[]): { createdAt: string; id: string } | undefined {
  if (key.length !== 3 || key[0] !== "m") return undefined;
  const [, createdAt, id] = key;
  return isInstantText(createdAt) && typeof id === "string" && isUuidText(id) ? { createdAt, id } : undefined;
}
