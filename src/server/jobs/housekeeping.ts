import { and, isNull, lt, type SQL, sql } from "drizzle-orm";
import { addDays } from "../../shared/dates";
import { MAIL_RETENTION_DAYS } from "../../shared/mail-outbox";
import { THROTTLE_WINDOW_MS } from "../features/auth/login-throttle";
import type { Config } from "../platform/config";
import type { Database } from "../platform/db/database";
import { billingSetups, loginFailures, webauthnChallenges } from "../platform/db/schema";
import { expiredBefore } from "../tenancy/idempotency";

/**
 * Deletes what can no longer matter: sessions past their idle or absolute limit (a session is
 * otherwise only removed when its cookie is presented again) and failed sign-ins older than the
 * throttling window, card setups that expired unclaimed (a claimed one stays, linked to its
 * firm), idempotency keys past their 24 hours, and e-mail settled (sent, kept or failed) more
 * than 90 days ago; a message still waiting or being sent stays, however old. Safe to run from
 * every instance at once. Sessions, idempotency keys and mail belong to firms: the database's
 * purge functions (migrations 0014, 0029) delete those of every firm, so the app role itself never
 * acts across firms.
 */
export async function purgeExpired(
  db: Database,
  config: Pick<Config, "session">,
  now = new Date(),
): Promise<{
  sessions: number;
  loginFailures: number;
  billingSetups: number;
  idempotencyKeys: number;
  webauthnChallenges: number;
  mail: number;
}> {
  const idleSince = new Date(now.getTime() - config.session.idleMs);
  const deadSessions = await purged(db, sql`select purge_expired_sessions(${now}, ${idleSince}) as purged`);
  const oldFailures = await db
    .delete(loginFailures)
    .where(lt(loginFailures.createdAt, new Date(now.getTime() - THROTTLE_WINDOW_MS)))
    .returning({ id: loginFailures.id });
  const lapsedSetups = await db
    .delete(billingSetups)
    .where(and(isNull(billingSetups.claimedAt), lt(billingSetups.expiresAt, now)))
    .returning({ id: billingSetups.id });
  const oldKeys = await purged(db, sql`select purge_expired_idempotency_keys(${expiredBefore(now)}) as purged`);
  // Passkey ceremonies' challenges nobody answered (an answered one is deleted then).
  const unanswered = await db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, now))
    .returning({ id: webauthnChallenges.id });
  const settledMail = await purged(db, sql`select purge_settled_mail(${addDays(now, -MAIL_RETENTION_DAYS)}) as purged`);
  return {
    sessions: deadSessions,
    loginFailures: oldFailures.length,
    billingSetups: lapsedSetups.length,
    idempotencyKeys: oldKeys,
    webauthnChallenges: unanswered.length,
    mail: settledMail,
  };
}

/** What a purge function answers: how many rows it deleted. */
async function purged(db: Database, statement: SQL): Promise<number> {
  const { rows } = await db.execute<{ purged: number }>(statement);
  return rows[0]?.purged ?? 0;
}
