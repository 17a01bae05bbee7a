import { and, asc, count, eq, gte, lt, or } from "drizzle-orm";
import type { DbExecutor } from "../../platform/db/database";
import { loginFailures } from "../../platform/db/schema";

/*
 * Failed sign-ins counted in PostgreSQL (decision 0005), so the limits hold across instances:
 * at most 5 failures per username and 50 per IP address in any 15 minutes.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
const USERNAME_FAILURE_LIMIT = 5;
const IP_FAILURE_LIMIT = 50;

type ThrottleKey = { usernameKey: string; ip: string };

/**
 * Admits one password attempt, or says how many seconds to wait. The attempt is counted as a
 * failure before the password is checked, so a burst of parallel guesses cannot all pass the
 * limit before any of them is recorded: at most the limit's number of attempts per window ever
 * reach the password check. A refused attempt is not counted. After a right password the caller
 * removes the count: all of the username's failures on sign-in (clearLoginFailures), this
 * attempt alone elsewhere (forgetAttempt).
 */
export async function admitPasswordAttempt(
  db: DbExecutor,
  key: ThrottleKey,
  now = new Date(),
): Promise<{ admitted: true; attemptId: string } | { admitted: false; retryAfterSeconds: number }> {
  const [attempt] = await db
    .insert(loginFailures)
    .values({ usernameKey: key.usernameKey, ip: key.ip, createdAt: now })
    .returning({ id: loginFailures.id });
  if (!attempt) throw new Error("the attempt was not recorded");
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const [forUsername, forIp] = await Promise.all([
    countSince(db, eq(loginFailures.usernameKey, key.usernameKey), since),
    countSince(db, eq(loginFailures.ip, key.ip), since),
  ]);
  if (forUsername <= USERNAME_FAILURE_LIMIT && forIp <= IP_FAILURE_LIMIT) {
    // Failures older than the window count for nothing; drop this key's.
    await db
      .delete(loginFailures)
      .where(
        and(
          lt(loginFailures.createdAt, since),
          or(eq(loginFailures.usernameKey, key.usernameKey), eq(loginFailures.ip, key.ip)),
        ),
      );
    return { admitted: true, attemptId: attempt.id };
  }
  await forgetAttempt(db, attempt.id);
  return { admitted: false, retryAfterSeconds: (await retryAfterSeconds(db, key, now)) ?? 1 };
}

/** Removes one admitted attempt's count: its password was right. */
export async function forgetAttempt(db: DbExecutor, attemptId: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, attemptId));
}

async function countSince(db: DbExecutor, match: ReturnType<typeof eq>, since: Date): Promise<number> {
  const [total] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(match, gte(loginFailures.createdAt, since)));
  return total?.n ?? 0;
}

/** Seconds until another attempt would be admitted, or undefined when one would be now. */
async function retryAfterSeconds(db: DbExecutor, key: ThrottleKey, now: Date): Promise<number | undefined> {
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const waits = await Promise.all([
    waitFor(db, eq(loginFailures.usernameKey, key.usernameKey), USERNAME_FAILURE_LIMIT, since, now),
    waitFor(db, eq(loginFailures.ip, key.ip), IP_FAILURE_LIMIT, since, now),
  ]);
  const longest = Math.max(...waits.filter((wait): wait is number => wait !== undefined));
  return Number.isFinite(longest) ? longest : undefined;
}

async function waitFor(
  db: DbExecutor,
  match: ReturnType<typeof eq>,
  limit: number,
  since: Date,
  now: Date,
): Promise<number | undefined> {
  const failures = await countSince(db, match, since);
  if (failures < limit) return undefined;
  // The attempt is allowed again once enough of the oldest failures have left the window.
  const [unblocking] = await db
    .select({ createdAt: loginFailures.createdAt })
    .from(loginFailures)
    .where(and(match, gte(loginFailures.createdAt, since)))
    .orderBy(asc(loginFailures.createdAt))
    .offset(failures - limit)
    .limit(1);
  const until = (unblocking?.createdAt.getTime() ?? now.getTime()) + THROTTLE_WINDOW_MS;
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

/** A successful sign-in wipes the username's failures (the IP's count stands). */
export async function clearLoginFailures(db: DbExecutor, usernameKey: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.usernameKey, usernameKey));
}
