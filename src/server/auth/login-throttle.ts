import { and, asc, count, eq, gte, lt, or } from "drizzle-orm";
import type { DbExecutor } from "../db/database";
import { loginFailures } from "../db/schema";

/*
 * Failed sign-ins counted in PostgreSQL (design section 5), so the limits hold across instances:
 * at most 5 failures per username and 50 per IP address in any 15 minutes.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const USERNAME_FAILURE_LIMIT = 5;
export const IP_FAILURE_LIMIT = 50;

export type ThrottleKey = { usernameKey: string; ip: string };

/** Seconds until another attempt is allowed, or undefined when one is allowed now. */
export async function retryAfterSeconds(
  db: DbExecutor,
  key: ThrottleKey,
  now = new Date(),
): Promise<number | undefined> {
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
  const [total] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(match, gte(loginFailures.createdAt, since)));
  const failures = total?.n ?? 0;
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

export async function recordLoginFailure(db: DbExecutor, key: ThrottleKey, now = new Date()): Promise<void> {
  await db.insert(loginFailures).values({ usernameKey: key.usernameKey, ip: key.ip, createdAt: now });
  // Failures older than the window count for nothing; drop this key's.
  const before = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  await db
    .delete(loginFailures)
    .where(
      and(
        lt(loginFailures.createdAt, before),
        or(eq(loginFailures.usernameKey, key.usernameKey), eq(loginFailures.ip, key.ip)),
      ),
    );
}

/** A successful sign-in wipes the username's failures (the IP's count stands). */
export async function clearLoginFailures(db: DbExecutor, usernameKey: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.usernameKey, usernameKey));
}
