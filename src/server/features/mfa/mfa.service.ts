import { and, count, eq, isNotNull, isNull, lt, ne, or } from "drizzle-orm";
import QRCode from "qrcode";
import { v7 as uuidv7 } from "uuid";
import type {
  AccountSecurity,
  ConfirmTotpInput,
  Enrolled,
  FirmMfaPolicy,
  MfaPolicy,
  PendingSignIn,
  SecondFactorInput,
  SecondFactorMethod,
  SignedIn,
  StepUpInput,
  TotpEnrolment,
} from "../../../shared/mfa";
import { STEP_UP_MINUTES } from "../../../shared/mfa";
import type { CurrentUser } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { firms, recoveryCodes, sessions, userFactors, users } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { type SealingKey, seal, unseal } from "../../platform/sealed-secrets";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import type { PendingSignInSession } from "../auth/access-control";
import { currentUserOf } from "../auth/auth.service";
import { recordSignInDevice } from "../auth/known-devices";
import { admitPasswordAttempt, clearLoginFailures, forgetAttempt } from "../auth/login-throttle";
import { verifyPassword } from "../auth/password";
import { type ConfirmedFactor, methodsOf, secondFactorState, type Who } from "../auth/second-factor-state";
import { queueSecurityNotice } from "../auth/security-notices";
import { createSession, deleteUserSessions } from "../auth/sessions";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { acceptTotp, newTotpSecret, totpSealOwner, totpUri } from "./totp";

/*
 * Multi-factor sign-in (decision 0044): the second step of a pending sign-in, the step-up check,
 * adding and removing factors, recovery codes, the firm's policy and a super admin's reset. Codes
 * and secrets never reach an answer after the one that hands them out, nor the audit trail.
 */

export type Origin = Pick<Actor, "ip" | "userAgent">;

const DEFAULT_TOTP_NAME = "Authenticator app";
/** An authenticator app being added must be confirmed within this long of being shown. */
const ENROLMENT_MS = 15 * 60_000;

const wrongCode = () =>
  fieldError(
    "code",
    "That code is not right. Check that your phone sets its time automatically, or wait for a new code.",
  );

export const mine = (who: Who) => and(eq(userFactors.firmId, who.firmId), eq(userFactors.userId, who.userId));
const myCodes = (who: Who) => and(eq(recoveryCodes.firmId, who.firmId), eq(recoveryCodes.userId, who.userId));

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
    if (!passed) throw wrongCode();
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

/** A secret sealed under another key (the key was replaced or lost) opens to nothing: no code matches it. */
function unsealSecret(key: SealingKey, sealed: string, factorId: string): string {
  try {
    return unseal(key, sealed, totpSealOwner(factorId));
  } catch {
    return "";
  }
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

export const pendingWho = (pending: PendingSignInSession): Who => ({ firmId: pending.firmId, userId: pending.userId });

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

/** POST /api/auth/second-step/totp: enrolment, where the firm requires a factor the user has not got. */
export async function startSignInEnrolment(options: { db: Database; key: SealingKey; pending: PendingSignInSession }) {
  const { pending } = options;
  if (pending.stage !== "enrol") throw new AppError("CONFLICT", "Confirm your sign-in with your second factor");
  return startTotpEnrolment({ db: options.db, key: options.key, who: pending });
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
    await checkPassword(db, actor, input.password);
  } else {
    await checkSecondFactor(db, options.key, actor, input, now);
  }
  await db
    .update(sessions)
    .set({ verifiedAt: now })
    .where(and(eq(sessions.firmId, actor.firmId), eq(sessions.id, actor.sessionId)));
  return { stepUpUntil: new Date(now.getTime() + STEP_UP_MINUTES * 60_000) };
}

/** The password of the signed-in user, throttled as a sign-in is. */
async function checkPassword(db: Database, actor: Actor, password: string) {
  const attempt = await admitPasswordAttempt(db, {
    usernameKey: actor.username.toLowerCase(),
    ip: actor.ip ?? "unknown",
  });
  if (!attempt.admitted) {
    throw new AppError("RATE_LIMITED", "Too many wrong passwords. Try again later.", {
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  const [user] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, actor.userId), eq(users.firmId, actor.firmId)));
  if (!user || !(await verifyPassword(user.passwordHash, password)))
    throw fieldError("password", "Password is incorrect");
  await forgetAttempt(db, attempt.attemptId);
}

/**
 * Starts adding an authenticator app: a new secret, sealed and kept unconfirmed (replacing any
 * earlier unconfirmed one), with the address and QR code an app reads it from.
 */
export async function startTotpEnrolment(options: {
  db: Database;
  key: SealingKey;
  who: Who & { username: string };
}): Promise<TotpEnrolment> {
  const { db, key, who } = options;
  const secret = newTotpSecret();
  const id = uuidv7();
  await db.transaction(async (tx) => {
    await tx.delete(userFactors).where(and(mine(who), eq(userFactors.kind, "totp"), isNull(userFactors.confirmedAt)));
    await tx.insert(userFactors).values({
      id,
      firmId: who.firmId,
      userId: who.userId,
      kind: "totp",
      name: DEFAULT_TOTP_NAME,
      totpSecret: seal(key, secret, totpSealOwner(id)),
    });
  });
  const uri = totpUri(secret, who.username);
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    secret: secret.match(/.{1,4}/g)?.join(" ") ?? secret,
    uri,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/**
 * Confirms the authenticator app being added with one of its codes (throttled as the second step
 * is). The user's first factor comes with a set of recovery codes, shown this once. In `tx`'s
 * caller's session the proof counts as fresh.
 */
async function confirmTotp(
  tx: DbExecutor,
  key: SealingKey,
  who: Who & Origin,
  input: ConfirmTotpInput,
  now: Date,
): Promise<Enrolled> {
  const [factor] = await tx
    .select({ id: userFactors.id, secret: userFactors.totpSecret, createdAt: userFactors.createdAt })
    .from(userFactors)
    .where(and(mine(who), eq(userFactors.kind, "totp"), isNull(userFactors.confirmedAt)));
  if (!factor?.secret || now.getTime() - factor.createdAt.getTime() > ENROLMENT_MS) {
    throw new AppError("CONFLICT", "Start adding the authenticator app again: this setup has expired");
  }
  const step = acceptTotp({
    secret: unsealSecret(key, factor.secret, factor.id),
    code: input.code,
    at: now,
    lastUsedStep: null,
  });
  if (step === undefined) throw wrongCode();
  const { factors } = await secondFactorState(tx, who);
  const [confirmed] = await tx
    .update(userFactors)
    .set({ confirmedAt: now, totpLastStep: step, name: input.name ?? DEFAULT_TOTP_NAME })
    .where(and(eq(userFactors.id, factor.id), mine(who), isNull(userFactors.confirmedAt)))
    .returning();
  if (!confirmed) throw new AppError("CONFLICT", "This authenticator app was already added");
  const codes = factors.length === 0 ? await replaceRecoveryCodes(tx, who) : null;
  await recordAudit(tx, who, {
    action: "mfa.factor_added",
    entityType: "user",
    entityId: who.userId,
    after: { kind: "totp", name: confirmed.name },
  });
  await queueSecurityNotice(tx, who, { kind: "factor_added", factor: { kind: "totp", name: confirmed.name } }, now);
  return { factor: toFactor(confirmed), recoveryCodes: codes };
}

/** POST /api/account/factors/totp/confirm: a signed-in user adds an authenticator app. */
export async function confirmTotpEnrolment(options: {
  db: Database;
  key: SealingKey;
  actor: Actor;
  input: ConfirmTotpInput;
}): Promise<Enrolled> {
  const { db, actor } = options;
  const now = new Date();
  return throttled(db, actor, now, () =>
    db.transaction(async (tx) => {
      const enrolled = await confirmTotp(tx, options.key, actor, options.input, now);
      // The code just given is a fresh second factor for this session.
      await tx
        .update(sessions)
        .set({ secondFactorAt: now, secondFactorDueAt: null, verifiedAt: now })
        .where(and(eq(sessions.firmId, actor.firmId), eq(sessions.id, actor.sessionId)));
      return enrolled;
    }),
  );
}

/** POST /api/auth/second-step/totp/confirm: enrolment a pending sign-in waited for; the sign-in then completes. */
export async function enrolAndSignIn(options: {
  db: Database;
  config: Config;
  key: SealingKey;
  pending: PendingSignInSession;
  origin: Origin;
  device: string;
  input: ConfirmTotpInput;
}): Promise<{ cookie: string; enrolled: Enrolled; user: CurrentUser }> {
  const { db, pending, origin } = options;
  if (pending.stage !== "enrol") throw new AppError("CONFLICT", "Confirm your sign-in with your second factor");
  const who = { ...pendingWho(pending), ...origin };
  const now = new Date();
  let enrolled: Enrolled | undefined;
  const { cookie, user } = await throttled(db, who, now, () =>
    completeSignIn(db, { ...options, method: "totp", now }, async (tx) => {
      enrolled = await confirmTotp(tx, options.key, who, options.input, now);
    }),
  );
  if (!enrolled) throw new Error("the factor was not confirmed");
  return { cookie, enrolled, user };
}

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

/** POST /api/account/recovery-codes: a new set, which voids the old one. */
export async function regenerateRecoveryCodes(options: { db: Database; actor: Actor }): Promise<string[]> {
  const { db, actor } = options;
  return db.transaction(async (tx) => {
    const { factors } = await secondFactorState(tx, actor);
    if (factors.length === 0) {
      throw new AppError("CONFLICT", "Add an authenticator app or a passkey first: recovery codes stand in for one");
    }
    const codes = await replaceRecoveryCodes(tx, actor);
    await recordAudit(tx, actor, { action: "mfa.recovery_codes_replaced", entityType: "user", entityId: actor.userId });
    return codes;
  });
}

/** DELETE /api/account/factors/{id}. The last factor may not go where the firm requires one. */
export async function removeFactor(options: { db: Database; actor: Actor; factorId: string }) {
  const { db, actor } = options;
  await db.transaction(async (tx) => {
    const { factors } = await secondFactorState(tx, actor);
    const factor = factors.find((each) => each.id === options.factorId);
    if (!factor) throw new AppError("NOT_FOUND", "Factor not found");
    if (factors.length === 1) {
      const [firm] = await tx
        .select({ policy: firms.mfaPolicy })
        .from(firms)
        .where(eq(firms.id, actor.firmId))
        .for("update");
      if (firm?.policy === "required") {
        throw new AppError("CONFLICT", "Your firm requires a second factor: add another before removing this one");
      }
      // Without a factor, recovery codes stand in for nothing.
      await tx.delete(recoveryCodes).where(myCodes(actor));
    }
    await tx.delete(userFactors).where(and(eq(userFactors.id, factor.id), mine(actor)));
    await recordAudit(tx, actor, {
      action: "mfa.factor_removed",
      entityType: "user",
      entityId: actor.userId,
      before: { kind: factor.kind, name: factor.name },
    });
    await queueSecurityNotice(
      tx,
      actor,
      { kind: "factor_removed", factor: { kind: factor.kind, name: factor.name } },
      new Date(),
    );
  });
}

/** PATCH /api/account/factors/{id}: a factor's name, to tell two phones apart. */
export async function renameFactor(options: { db: Database; actor: Actor; factorId: string; name: string }) {
  const { db, actor } = options;
  const [renamed] = await db
    .update(userFactors)
    .set({ name: options.name })
    .where(and(eq(userFactors.id, options.factorId), mine(actor), isNotNull(userFactors.confirmedAt)))
    .returning();
  if (!renamed) throw new AppError("NOT_FOUND", "Factor not found");
  return toFactor(renamed);
}

/** GET /api/account/security. */
export async function accountSecurity(options: {
  db: Database;
  actor: Actor;
  verifiedAt: Date | null;
}): Promise<AccountSecurity> {
  const { db, actor, verifiedAt } = options;
  const [state, policy] = await Promise.all([secondFactorState(db, actor), firmPolicy(db, actor.firmId)]);
  const until = verifiedAt ? verifiedAt.getTime() + STEP_UP_MINUTES * 60_000 : 0;
  return {
    factors: state.factors.map(toFactor),
    recoveryCodesLeft: state.recoveryCodesLeft,
    firmPolicy: policy,
    stepUpUntil: until > Date.now() ? new Date(until).toISOString() : null,
  };
}

async function firmPolicy(db: DbExecutor, firmId: string): Promise<FirmMfaPolicy> {
  const [firm] = await db
    .select({ policy: firms.mfaPolicy, requiredFrom: firms.mfaRequiredFrom })
    .from(firms)
    .where(eq(firms.id, firmId));
  if (!firm) throw new AppError("NOT_FOUND", "Firm not found");
  return { policy: firm.policy, requiredFrom: firm.requiredFrom?.toISOString() ?? null };
}

/**
 * PUT /api/firm/mfa-policy. Required applies at once: every password-only session of the firm
 * must pass a second factor at its next request. The super admin who requires it must hold a
 * factor, or the change would lock them out.
 */
export async function setMfaPolicy(options: { db: Database; actor: Actor; policy: MfaPolicy }): Promise<FirmMfaPolicy> {
  const { db, actor, policy } = options;
  return db.transaction(async (tx) => {
    const [firm] = await tx
      .select({ policy: firms.mfaPolicy, requiredFrom: firms.mfaRequiredFrom })
      .from(firms)
      .where(eq(firms.id, actor.firmId))
      .for("update");
    if (!firm) throw new AppError("NOT_FOUND", "Firm not found");
    const now = new Date();
    // Required already and in force, or optional already: nothing to change. Required in its grace
    // is brought forward to now: the super admin asks for it now.
    const inForce = firm.requiredFrom === null || firm.requiredFrom <= now;
    if (firm.policy === policy && inForce) return { policy, requiredFrom: firm.requiredFrom?.toISOString() ?? null };
    if (policy === "required" && (await secondFactorState(tx, actor)).factors.length === 0) {
      throw new AppError("CONFLICT", "Add a second factor to your own account before requiring one of everyone");
    }
    const requiredFrom = policy === "required" ? now : null;
    await tx.update(firms).set({ mfaPolicy: policy, mfaRequiredFrom: requiredFrom }).where(eq(firms.id, actor.firmId));
    await tx
      .update(sessions)
      .set({ secondFactorDueAt: requiredFrom })
      .where(and(eq(sessions.firmId, actor.firmId), eq(sessions.stage, "active"), isNull(sessions.secondFactorAt)));
    await recordAudit(tx, actor, {
      action: "firm.mfa_policy_changed",
      entityType: "firm",
      entityId: actor.firmId,
      before: { mfaPolicy: firm.policy, requiredFrom: firm.requiredFrom?.toISOString() ?? null },
      after: { mfaPolicy: policy, requiredFrom: requiredFrom?.toISOString() ?? null },
    });
    return { policy, requiredFrom: requiredFrom?.toISOString() ?? null };
  });
}

/**
 * DELETE /api/users/{id}/factors: a super admin resets another user's factors (a lost phone).
 * Their factors and recovery codes go, and so do their sessions: they sign in again and, where
 * the firm requires it, enrol again. Nothing here signs anyone in.
 */
export async function resetFactors(options: { db: Database; actor: Actor; userId: string }) {
  const { db, actor, userId } = options;
  if (userId === actor.userId) {
    throw new AppError("BAD_REQUEST", "Manage your own sign-in factors in Settings");
  }
  const who = { firmId: actor.firmId, userId };
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.firmId, actor.firmId)));
    if (!user) throw new AppError("NOT_FOUND", "User not found");
    const removed = await tx
      .delete(userFactors)
      .where(mine(who))
      .returning({ kind: userFactors.kind, confirmedAt: userFactors.confirmedAt });
    await tx.delete(recoveryCodes).where(myCodes(who));
    await deleteUserSessions(tx, who);
    await recordAudit(tx, actor, {
      action: "mfa.factors_reset",
      entityType: "user",
      entityId: userId,
      before: { factors: removed.filter((factor) => factor.confirmedAt !== null).length },
    });
    if (removed.some((factor) => factor.confirmedAt !== null)) {
      await queueSecurityNotice(tx, who, { kind: "factors_reset" }, new Date());
    }
  });
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
