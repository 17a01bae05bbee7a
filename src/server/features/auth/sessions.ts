import { and, eq, ne, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { PENDING_SIGN_IN_MINUTES } from "../../../shared/mfa";
import type { Role } from "../../../shared/roles";
import { isUuidText } from "../../../shared/validation";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inFirm, rawInFirm } from "../../platform/db/firm-scope";
import { preparedSql, preparedStatement } from "../../platform/db/prepared";
import { type SessionStage, sessions } from "../../platform/db/schema";
import { hashToken, newToken } from "../../platform/tokens";
import type { Actor } from "../../tenancy/actor";

/*
 * Sessions (decision 0005): a random 256-bit token in an HttpOnly cookie; only its SHA-256 is
 * stored, so a database leak yields no usable session. Idle and absolute timeouts; rows live in
 * PostgreSQL, so sessions survive restarts and work across instances.
 *
 * The cookie holds the session's firm before its token (`<firm id>.<token>`, decision 0033): the
 * lookup then runs in that firm's scope like the rest of the request, under row-level security.
 * The firm is no secret and proves nothing: a token found in no other firm than the one named.
 */

export const SESSION_COOKIE = "tendwell_session";
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * A live session as stored: the actor of its requests, without where each came from; its stage
 * (a pending sign-in is no session to any route but the second step's) and its last fresh proof.
 */
export type SessionInfo = Omit<Actor, "ip" | "userAgent"> & { stage: SessionStage; verifiedAt: Date; expiresAt: Date };

/** How long a sign-in may wait for its second factor or for enrolment. */
export const PENDING_SIGN_IN_MS = PENDING_SIGN_IN_MINUTES * 60_000;

/**
 * A new session: its id, and its cookie's value (its firm and its token). A pending one (`stage`
 * other than active) lasts five minutes; an active one made by a password alone carries when the
 * firm's policy will want a second factor of it (`secondFactorDueAt`), one made with a factor
 * when that was.
 */
export async function createSession(
  tx: DbExecutor,
  values: {
    userId: string;
    firmId: string;
    ip: string | null;
    userAgent: string | null;
    absoluteMs: number;
    stage?: SessionStage;
    secondFactorAt?: Date | null;
    secondFactorDueAt?: Date | null;
  },
): Promise<{ sessionId: string; cookie: string; expiresAt: Date }> {
  const token = newToken();
  const now = new Date();
  const stage = values.stage ?? "active";
  const expiresAt = new Date(now.getTime() + (stage === "active" ? values.absoluteMs : PENDING_SIGN_IN_MS));
  const sessionId = uuidv7();
  await tx.insert(sessions).values({
    id: sessionId,
    userId: values.userId,
    firmId: values.firmId,
    tokenHash: hashToken(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: values.ip,
    userAgent: values.userAgent,
    stage,
    secondFactorAt: values.secondFactorAt ?? null,
    secondFactorDueAt: values.secondFactorDueAt ?? null,
    verifiedAt: now,
  });
  return { sessionId, cookie: `${values.firmId}.${token}`, expiresAt };
}

/** A session cookie's firm and the hash of its token (as stored); nothing for a value of another shape. */
export function readSessionCookie(value: string): { firmId: string; tokenHash: string } | undefined {
  const dot = value.indexOf(".");
  if (dot < 0) return undefined;
  const firmId = value.slice(0, dot);
  const token = value.slice(dot + 1);
  if (!isUuidText(firmId) || token === "") return undefined;
  return { firmId, tokenHash: hashToken(token) };
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
  stage: SessionStage;
  second_factor_due_at: Date | null;
  verified_at: Date;
};

/** The session a token's hash names in a firm, with its user. */
const sessionByToken = preparedSql<SessionRow>(
  "session_by_token",
  `select s.id as session_id, s.user_id, s.firm_id, s.last_seen_at, s.expires_at, u.role, u.username, u.disabled_at,
          s.stage, s.second_factor_due_at, s.verified_at
     from sessions s join users u on u.id = s.user_id and u.firm_id = s.firm_id
    where s.token_hash = $1 and s.firm_id = $2`,
);

/**
 * A password-only session whose second factor has fallen due (the firm came to require one)
 * becomes a pending sign-in: waiting for the user's factor, or for enrolment when there is none,
 * for five minutes at most.
 */
const sessionToPending = preparedSql<{ stage: SessionStage; expires_at: Date }>(
  "session_to_pending",
  `update sessions s
      set stage = case when exists (
            select from user_factors f
             where f.firm_id = s.firm_id and f.user_id = s.user_id and f.confirmed_at is not null
          ) then 'second_factor' else 'enrol' end,
          expires_at = least(s.expires_at, $2::timestamptz + make_interval(mins => ${PENDING_SIGN_IN_MINUTES}))
    where s.id = $1
    returning s.stage, s.expires_at`,
);

const touchSession = preparedStatement("session_touch", (db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`${sql.placeholder("now")}` })
    .where(eq(sessions.id, sql.placeholder("sessionId"))),
);

/**
 * The live session a cookie names; expired sessions and disabled users' sessions are removed.
 * `db` acts in no firm: the session is looked for in the firm the cookie names.
 */
export async function findSession(
  db: Database,
  cookie: string,
  config: Pick<Config, "session">,
  now = new Date(),
): Promise<SessionInfo | undefined> {
  const named = readSessionCookie(cookie);
  if (!named) return undefined;
  const [row] = await sessionByToken(rawInFirm(db, named.firmId), [named.tokenHash, named.firmId]);
  if (!row) return undefined;
  const firmDb = inFirm(db, named.firmId);
  const idleFor = now.getTime() - row.last_seen_at.getTime();
  if (row.disabled_at !== null || now >= row.expires_at || idleFor >= config.session.idleMs) {
    await firmDb.delete(sessions).where(eq(sessions.id, row.session_id));
    return undefined;
  }
  let { stage, expires_at: expiresAt } = row;
  if (stage === "active" && row.second_factor_due_at !== null && row.second_factor_due_at <= now) {
    const [pending] = await sessionToPending(firmDb, [row.session_id, now]);
    if (!pending) return undefined;
    ({ stage, expires_at: expiresAt } = pending);
  } else if (idleFor >= TOUCH_INTERVAL_MS) {
    await touchSession(firmDb).execute({ now, sessionId: row.session_id });
  }
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    firmId: row.firm_id,
    role: row.role,
    username: row.username,
    stage,
    verifiedAt: row.verified_at,
    expiresAt,
  };
}

/** Ends the session a cookie names, if `tx` acts in its firm. */
export async function deleteSessionByCookie(tx: DbExecutor, cookie: string): Promise<void> {
  const named = readSessionCookie(cookie);
  if (!named) return;
  await tx.delete(sessions).where(and(eq(sessions.firmId, named.firmId), eq(sessions.tokenHash, named.tokenHash)));
}

/** Ends every session of a user, or every one but `keepSessionId`. */
export async function deleteUserSessions(
  tx: DbExecutor,
  values: { firmId: string; userId: string; keepSessionId?: string },
): Promise<void> {
  const mine = and(eq(sessions.firmId, values.firmId), eq(sessions.userId, values.userId));
  await tx.delete(sessions).where(values.keepSessionId ? and(mine, ne(sessions.id, values.keepSessionId)) : mine);
}
