import { and, eq, ne, sql } from "drizzle-orm";
import type { Role } from "../../../shared/roles";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inAnyScope, withFirm } from "../../platform/db/firm-scope";
import { preparedSql, preparedStatement } from "../../platform/db/prepared";
import { sessions } from "../../platform/db/schema";
import { hashToken, newToken } from "../../platform/tokens";
import type { Actor } from "../../tenancy/actor";

/*
 * Sessions (decision 0005): a random 256-bit token in an HttpOnly cookie; only its SHA-256 is
 * stored, so a database leak yields no usable session. Idle and absolute timeouts; rows live in
 * PostgreSQL, so sessions survive restarts and work across instances.
 */

export const SESSION_COOKIE = "tendwell_session";
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/** A live session as stored: the actor of its requests, without where each came from. */
export type SessionInfo = Omit<Actor, "ip" | "userAgent">;

export async function createSession(
  tx: DbExecutor,
  values: { userId: string; firmId: string; ip: string | null; userAgent: string | null; absoluteMs: number },
): Promise<string> {
  const token = newToken();
  const now = new Date();
  await tx.insert(sessions).values({
    userId: values.userId,
    firmId: values.firmId,
    tokenHash: hashToken(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + values.absoluteMs),
    ip: values.ip,
    userAgent: values.userAgent,
  });
  return token;
}

type SessionRow = {
  session_id: string;
  user_id: string;
  firm_id: string;
  last_seen_at: Date;
  expires_at: Date;
  role: Role;
  username: string;
  disabled_at: Date | null;
};

/**
 * The session a token's hash names, with its user, found before anyone knows the firm: through
 * a function that reads it as the tables' owner, so row-level security need not be lifted for it
 * (migration 0011). It reads no other tenant row, so any pooled connection may run it.
 */
const sessionByTokenHash = preparedSql<SessionRow>("session_by_token_hash", "select * from session_by_token_hash($1)");

const touchSession = preparedStatement("session_touch", (db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`${sql.placeholder("now")}` })
    .where(eq(sessions.id, sql.placeholder("sessionId"))),
);

/** The live session a token belongs to; expired sessions and disabled users' sessions are removed. */
export async function findSession(
  db: Database,
  token: string,
  config: Pick<Config, "session">,
  now = new Date(),
): Promise<SessionInfo | undefined> {
  const [row] = await inAnyScope(() => sessionByTokenHash(db, [hashToken(token)]));
  if (!row) return undefined;
  const idleFor = now.getTime() - row.last_seen_at.getTime();
  if (row.disabled_at !== null || now >= row.expires_at || idleFor >= config.session.idleMs) {
    await withFirm(row.firm_id, () => db.delete(sessions).where(eq(sessions.id, row.session_id)));
    return undefined;
  }
  if (idleFor >= TOUCH_INTERVAL_MS) {
    await withFirm(row.firm_id, () => touchSession(db).execute({ now, sessionId: row.session_id }));
  }
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    firmId: row.firm_id,
    role: row.role,
    username: row.username,
  };
}

export async function deleteSessionByToken(tx: DbExecutor, token: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Ends every session of a user, or every one but `keepSessionId`. */
export async function deleteUserSessions(
  tx: DbExecutor,
  values: { firmId: string; userId: string; keepSessionId?: string },
): Promise<void> {
  const mine = and(eq(sessions.firmId, values.firmId), eq(sessions.userId, values.userId));
  await tx.delete(sessions).where(values.keepSessionId ? and(mine, ne(sessions.id, values.keepSessionId)) : mine);
}
