import type { FastifyReply } from "fastify";
import { NEXT_CURSOR_HEADER } from "../../shared/paging";
import { AppError } from "./errors";

/*
 * Keyset paging, as every long list does it: the service reads `limit + 1` rows after the
 * cursor's key in the list's order; the extra row only says that more follow. A cursor is the
 * last row's sort key as a JSON array in base64url, opaque to callers; each list reads its own
 * key back and refuses what it did not give out.
 */

export const encodeCursor = (key: readonly unknown[]): string => Buffer.from(JSON.stringify(key)).toString("base64url");

/** The key a cursor carries, checked by `read` (undefined when it is not one of this list's keys). */
export function decodeCursor<Key>(cursor: string, read: (key: unknown[]) => Key | undefined): Key {
  let key: Key | undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed)) key = read(parsed);
  } catch {
    // not base64url JSON: refused below
  }
  if (key === undefined) throw new AppError("BAD_REQUEST", "The cursor is not one this list gave out");
  return key;
}

/** A page from rows read with `limit + 1` (no limit: every row, no next page). */
export function keysetPage<Row>(
  rows: Row[],
  limit: number | undefined,
  keyOf: (last: Row) => readonly unknown[],
): { rows: Row[]; nextCursor: string | null } {
  const more = limit !== undefined && rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { rows: page, nextCursor: more && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/** Tells the caller where the next page starts, when there is one. */
export function sendNextCursor(reply: FastifyReply, nextCursor: string | null): void {
  if (nextCursor !== null) reply.header(NEXT_CURSOR_HEADER, nextCursor);
}
