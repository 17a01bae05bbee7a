import { and, eq, ne } from "drizzle-orm";
import type { SecondFactorMethod } from "../../../shared/mfa";
import type { CurrentUser } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { recoveryCodes, sessions, userFactors } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { type SealingKey, unseal } from "../../platform/sealed-secrets";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import type { PendingSignInSession } from "../auth/access-control";
import { currentUserOf } from "../auth/auth.service";
import { recordSignInDevice } from "../auth/known-devices";
import { admitPasswordAttempt, clearLoginFailures } from "../auth/login-throttle";
import type { ConfirmedFactor, Who } from "../auth/second-factor-state";
import { createSession } from "../auth/sessions";
import { newRecoveryCodes } from "./recovery-codes";
import { totpSealOwner } from "./totp";

/*
 * What the multi-factor operations (and passkeys.ts) share: a user's factors and recovery codes,
 * the throttle on checking a code, and the session a passed second factor opens.
 */

export type Origin = Pick<Actor, "ip" | "userAgent">;

/** A refused code, said for what was typed: an authenticator's (whose clock may drift) or a recovery code. */
export const wrongCode = (method: "totp" | "recovery_code" = "totp") =>
  fieldError(
    "code",
    method === "recovery_code"
      ? "That recovery code is not right, or it has been used. Check it against the codes you saved."
      : "That code is not right. Check that your phone sets its time automatically, or wait for a new code.",
  );

export const mine = (who: Who) => and(eq(userFactors.firmId, who.firmId), eq(userFactors.userId, who.userId));
export const myCodes = (who: Who) => and(eq(recoveryCodes.firmId, who.firmId), eq(recoveryCodes.userId, who.userId));

/** A secret sealed under another key (the key was replaced or lost) opens to nothing: no code matches it. */
export function unsealSecret(key: SealingKey, sealed: string, factorId: string): string {
  try {
    return unseal(key, sealed, totpSealOwner(factorId));
  } catch {
    return "";
  }
}

/**
 * Turns a pending sign-in into a session: the pending row goes and a session with a new token
 * comes (no token outlives a change of privilege), recorded as the sign-in with its second factor.
 */
export async function completeSignIn(
  db: Database,
  options: {
    config: Config;
    pending: PendingSignInSession;
    origin: Origin;
    device: string;
    method: SecondFactorMethod;
    now: Date;
  },
  inside?: (tx: DbExecutor) => Promise<void>,
): Promise<{ cookie: string; user: CurrentUser }> {
  const { pending } = options;
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .delete(sessions)
      .where(and(eq(sessions.firmId, pending.firmId), eq(sessions.id, pending.sessionId), ne(sessions.stage, "active")))
      .returning({ id: sessions.id });
    if (!ended) throw new AppError("UNAUTHENTICATED", "Your sign-in has expired or was completed. Sign in again.");
    await inside?.(tx);
    return openSession(tx, { ...options, who: pendingWho(pending) });
  });
}

/**
 * A session that passed a second factor now, recorded as a sign-in with it and with its browser
 * (`device`, known-devices.ts); its cookie and user.
 */
export async function openSession(
  tx: DbExecutor,
  options: { config: Config; who: Who; origin: Origin; device: string; method: SecondFactorMethod; now: Date },
): Promise<{ cookie: string; user: CurrentUser }> {
  const { who, origin } = options;
  const { sessionId, cookie } = await createSession(tx, {
    ...who,
    ...origin,
    absoluteMs: options.config.session.absoluteMs,
    secondFactorAt: options.now,
  });
  await recordAudit(
    tx,
    { ...who, ...origin },
    { action: "session.signed_in", entityType: "user", entityId: who.userId, after: { secondFactor: options.method } },
  );
  await recordSignInDevice(tx, { ...who, ...origin, sessionId, device: options.device, at: options.now });
  return { cookie, user: await currentUserOf(tx, who) };
}

export const pendingWho = (pending: PendingSignInSession): Who => ({ firmId: pending.firmId, userId: pending.userId });

/**
 * Runs the check of a code under the second step's throttle, per user and per address as for
 * passwords: the attempt is counted before the check, and a check that throws (a wrong code)
 * leaves it counted; one that passes clears the user's failures.
 */
export async function throttled<T>(db: Database, who: Who & Origin, now: Date, run: () => Promise<T>): Promise<T> {
  const throttle = { usernameKey: `second-factor:${who.userId}`, ip: who.ip ?? "unknown" };
  const attempt = await admitPasswordAttempt(db, throttle, now);
  if (!attempt.admitted) {
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    throw new AppError("RATE_LIMITED", `Too many wrong codes. Try again in ${minutes} minute(s).`, {
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  const result = await run();
  await clearLoginFailures(db, throttle.usernameKey);
  return result;
}

/** A new set of recovery codes for the user, replacing (voiding) the old set; the codes, shown once. */
export async function replaceRecoveryCodes(tx: DbExecutor, who: Who): Promise<string[]> {
  const { codes, hashes } = newRecoveryCodes();
  await tx.delete(recoveryCodes).where(myCodes(who));
  await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ ...who, codeHash })));
  return codes;
}

export function toFactor(factor: ConfirmedFactor) {
  return {
    id: factor.id,
    kind: factor.kind,
    name: factor.name,
    createdAt: factor.createdAt.toISOString(),
    lastUsedAt: factor.lastUsedAt?.toISOString() ?? null,
  };
}
