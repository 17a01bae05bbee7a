import { and, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { PendingSignIn, SecondFactorInput, SecondFactorMethod, SignedIn, StepUpInput } from "../../../shared/mfa";
import { STEP_UP_MINUTES } from "../../../shared/mfa";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { recoveryCodes, sessions, userFactors } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import type { SealingKey } from "../../platform/sealed-secrets";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import type { PendingSignInSession } from "../auth/access-control";
import { checkCurrentPassword } from "../auth/current-password";
import { methodsOf, secondFactorState, type Who } from "../auth/second-factor-state";
import { hashRecoveryCode } from "./recovery-codes";
import {
  completeSignIn,
  mine,
  myCodes,
  type Origin,
  pendingWho,
  throttled,
  unsealSecret,
  wrongCode,
} from "./second-factors";
import { acceptTotp } from "./totp";

/*
 * Multi-factor sign-in (decision 0044): the second step of a pending sign-in, the step-up check,
 * adding and removing factors, recovery codes, the firm's policy and a super admin's reset. Codes
 * and secrets never reach an answer after the one that hands them out, nor the audit trail.
 *
 * This file is the second step of a sign-in and the step-up; adding an authenticator app is
 * totp-enrolment.service.ts, the account's own factors factors.service.ts, the firm's policy and a
 * super admin's reset mfa-policy.service.ts, passkeys passkeys.ts.
 */

/**
 * Checks a second factor, throttled per user and per address as passwords are (a wrong code
 * counts as a failed attempt): an authenticator code, each step's once, or an unused recovery
 * code, which is then used up (an audit event). What passed, and the recovery codes left after one.
 */
async function checkSecondFactor(
  db: Database,
  key: SealingKey,
  who: Who & Origin,
  input: SecondFactorInput,
  now: Date,
): Promise<{ method: SecondFactorMethod; recoveryCodesLeft: number | null }> {
  return throttled(db, who, now, async () => {
    const passed =
      input.method === "totp"
        ? await acceptAuthenticatorCode(db, key, who, input.code, now)
        : await spendRecoveryCode(db, who, input.code, now);
    if (!passed) throw wrongCode(input.method);
    return passed;
  });
}

async function acceptAuthenticatorCode(db: Database, key: SealingKey, who: Who, code: string, now: Date) {
  const factors = await db
    .select({ id: userFactors.id, secret: userFactors.totpSecret, lastStep: userFactors.totpLastStep })
    .from(userFactors)
    .where(and(mine(who), eq(userFactors.kind, "totp"), isNotNull(userFactors.confirmedAt)));
  for (const factor of factors) {
    if (factor.secret === null) continue;
    const step = acceptTotp({
      secret: unsealSecret(key, factor.secret, factor.id),
      code,
      at: now,
      lastUsedStep: factor.lastStep,
    });
    if (step === undefined) continue;
    // Only a later step moves it on: of two requests with one code, one wins here.
    const [kept] = await db
      .update(userFactors)
      .set({ totpLastStep: step, lastUsedAt: now })
      .where(
        and(
          eq(userFactors.id, factor.id),
          mine(who),
          or(isNull(userFactors.totpLastStep), lt(userFactors.totpLastStep, step)),
        ),
      )
      .returning({ id: userFactors.id });
    if (kept) return { method: "totp" as const, recoveryCodesLeft: null };
  }
  return undefined;
}

async function spendRecoveryCode(db: Database, who: Who & Origin, code: string, now: Date) {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(and(myCodes(who), eq(recoveryCodes.codeHash, hashRecoveryCode(code)), isNull(recoveryCodes.usedAt)))
      .returning({ codeHash: recoveryCodes.codeHash });
    if (!used) return undefined;
    const left = await recoveryCodesLeft(tx, who);
    await recordAudit(tx, who, {
      action: "mfa.recovery_code_used",
      entityType: "user",
      entityId: who.userId,
      after: { recoveryCodesLeft: left },
    });
    return { method: "recovery_code" as const, recoveryCodesLeft: left };
  });
}

async function recoveryCodesLeft(db: DbExecutor, who: Who): Promise<number> {
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(myCodes(who), isNull(recoveryCodes.usedAt)));
  return left?.n ?? 0;
}

/** POST /api/auth/second-step: the second factor of a pending sign-in. */
export async function passSecondStep(options: {
  db: Database;
  config: Config;
  key: SealingKey;
  pending: PendingSignInSession;
  origin: Origin;
  device: string;
  input: SecondFactorInput;
}): Promise<{ cookie: string; signedIn: SignedIn }> {
  const { db, pending, origin } = options;
  if (pending.stage !== "second_factor") {
    throw new AppError("CONFLICT", "Your firm requires a second factor: add one to finish signing in");
  }
  const now = new Date();
  const passed = await checkSecondFactor(db, options.key, { ...pendingWho(pending), ...origin }, options.input, now);
  const { cookie, user } = await completeSignIn(db, { ...options, method: passed.method, now });
  return { cookie, signedIn: { user, recoveryCodesLeft: passed.recoveryCodesLeft } };
}

/** GET /api/auth/second-step: what the pending sign-in waits for, and the user's ways to pass it. */
export async function pendingSignInView(options: {
  db: Database;
  pending: PendingSignInSession;
}): Promise<PendingSignIn> {
  const { pending } = options;
  const state = await secondFactorState(options.db, pendingWho(pending));
  return {
    next: pending.stage === "enrol" ? "enrol" : "second_factor",
    methods: methodsOf(state),
    expiresAt: pending.expiresAt.toISOString(),
  };
}

/** POST /api/auth/step-up: a fresh proof for the session, good for five minutes of sensitive changes. */
export async function stepUp(options: {
  db: Database;
  key: SealingKey;
  actor: Actor;
  /** A passkey's step-up is passkeys.ts's. */
  input: Exclude<StepUpInput, { method: "passkey" }>;
}) {
  const { db, actor, input } = options;
  const now = new Date();
  if (input.method === "password") {
    const { factors } = await secondFactorState(db, actor);
    if (factors.length > 0) {
      throw fieldError("password", "Confirm with your authenticator app or a recovery code: you have a second factor");
    }
    await checkCurrentPassword({
      db,
      actor,
      password: input.password,
      field: "password",
      wrongMessage: "Password is incorrect",
    });
  } else {
    await checkSecondFactor(db, options.key, actor, input, now);
  }
  await db
    .update(sessions)
    .set({ verifiedAt: now })
    .where(and(eq(sessions.firmId, actor.firmId), eq(sessions.id, actor.sessionId)));
  return { stepUpUntil: new Date(now.getTime() + STEP_UP_MINUTES * 60_000) };
}
