import { and, isNull, lt, or } from "drizzle-orm";
import type { Logger } from "pino";
import { THROTTLE_WINDOW_MS } from "../features/auth/login-throttle";
import type { Config } from "../platform/config";
import type { Database } from "../platform/db/database";
import { acrossFirms } from "../platform/db/firm-scope";
import { billingSetups, idempotencyKeys, loginFailures, sessions } from "../platform/db/schema";
import { expiredBefore } from "../tenancy/idempotency";

/**
 * Deletes what can no longer matter: sessions past their idle or absolute limit (a session is
 * otherwise only removed when its cookie is presented again) and failed sign-ins older than the
 * throttling window, card setups that expired unclaimed (a claimed one stays, linked to its
 * firm), and idempotency keys past their 24 hours. Safe to run from every instance at once.
 */
export async function purgeExpired(
  db: Database,
  config: Pick<Config, "session">,
  now = new Date(),
): Promise<{ sessions: number; loginFailures: number; billingSetups: number; idempotencyKeys: number }> {
  const deadSessions = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - config.session.idleMs))))
    .returning({ id: sessions.id });
  const oldFailures = await db
    .delete(loginFailures)
    .where(lt(loginFailures.createdAt, new Date(now.getTime() - THROTTLE_WINDOW_MS)))
    .returning({ id: loginFailures.id });
  const lapsedSetups = await db
    .delete(billingSetups)
    .where(and(isNull(billingSetups.claimedAt), lt(billingSetups.expiresAt, now)))
    .returning({ id: billingSetups.id });
  const oldKeys = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, expiredBefore(now)))
    .returning({ key: idempotencyKeys.key });
  return {
    sessions: deadSessions.length,
    loginFailures: oldFailures.length,
    billingSetups: lapsedSetups.length,
    idempotencyKeys: oldKeys.length,
  };
}

/** Runs purgeExpired now and then every `intervalMs`; the returned function stops it. */
export function startHousekeeping(options: {
  db: Database;
  config: Config;
  log: Logger;
  intervalMs?: number;
}): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    // Expired rows of every firm, so it acts across firms (row-level security, platform/db/firm-scope.ts).
    running = purgeExpired(acrossFirms(options.db), options.config)
      .then((purged) => options.log.debug(purged, "housekeeping: purged expired rows"))
      .catch((error: unknown) => options.log.warn({ err: error }, "housekeeping failed; retrying next round"));
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? 15 * 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
