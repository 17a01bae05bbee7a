import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, eq, gt, isNotNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type {
  AddPasskeyInput,
  Enrolled,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  SignedIn,
  UsePasskeyInput,
} from "../../../shared/mfa";
import { PENDING_SIGN_IN_MINUTES } from "../../../shared/mfa";
import type { CurrentUser } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inFirm } from "../../platform/db/firm-scope";
import { sessions, userFactors, users, type WebauthnPurpose, webauthnChallenges } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { hashToken } from "../../platform/tokens";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import type { PendingSignInSession } from "../auth/access-control";
import { admitPasswordAttempt, forgetAttempt } from "../auth/login-throttle";
import { secondFactorState, type Who } from "../auth/second-factor-state";
import { queueSecurityNotice } from "../auth/security-notices";
import {
  completeSignIn,
  mine,
  type Origin,
  openSession,
  pendingWho,
  replaceRecoveryCodes,
  throttled,
  toFactor,
} from "./second-factors";

/*
 * Passkeys (WebAuthn, decision 0044) through @simplewebauthn/server: adding one, the second step
 * with one, a sign-in with a passkey alone (it is itself two factors: something held, unlocked by
 * something known or something one is) and a step-up. User verification is required every time.
 *
 * Each ceremony's challenge is kept in webauthn_challenges from the options to the answer, and
 * used once; its id travels in a cookie of five minutes. A passkey's signature counter is kept and
 * must move forward when the authenticator counts (synced passkeys answer 0 each time).
 */

/**
 * The keys a passkey may have: EdDSA, ES256 and RS256 (COSE ids). Left to choose, the library
 * asks the runtime whether it verifies ML-DSA-44, which Node 24 answers through an experimental
 * API that prints a warning on the terminal; post-quantum keys wait until Node verifies them
 * without one.
 */
const PASSKEY_ALGORITHMS = [-8, -7, -257];

/** The relying party: the site's host name as its id, and the origin browsers use. */
export type RelyingParty = { id: string; origin: string; name: string };

export const WEBAUTHN_COOKIE = "tendwell_webauthn";
const CEREMONY_MS = PENDING_SIGN_IN_MINUTES * 60_000;
const DEFAULT_PASSKEY_NAME = "Passkey";

const notAccepted = () => new AppError("BAD_REQUEST", "The passkey was not accepted. Try again, or use another way.");

async function keepChallenge(db: DbExecutor, purpose: WebauthnPurpose, challenge: string, userId: string | null) {
  const id = uuidv7();
  await db.insert(webauthnChallenges).values({
    id,
    challenge,
    purpose,
    userId,
    expiresAt: new Date(Date.now() + CEREMONY_MS),
  });
  return id;
}

/** The challenge a ceremony's cookie names, used up: it answers once, for its purpose and user. */
async function takeChallenge(
  db: DbExecutor,
  challengeId: string | undefined,
  purpose: WebauthnPurpose,
  userId: string | null,
): Promise<string> {
  if (!challengeId || !/^[0-9a-f-]{36}$/.test(challengeId)) throw notAccepted();
  const [taken] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.id, challengeId),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? sql`${webauthnChallenges.userId} is null` : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (!taken) throw notAccepted();
  return taken.challenge;
}

/** The user's passkeys, for the options that name them. */
async function passkeysOf(db: DbExecutor, who: Who) {
  return db
    .select({ id: userFactors.credentialId, transports: userFactors.transports })
    .from(userFactors)
    .where(and(mine(who), eq(userFactors.kind, "passkey"), isNotNull(userFactors.confirmedAt)));
}

const descriptors = (rows: { id: string | null; transports: string[] | null }[]) =>
  rows.flatMap((row) =>
    row.id === null
      ? []
      : [{ id: row.id, type: "public-key" as const, ...(row.transports ? { transports: row.transports } : {}) }],
  );

/** POST /api/account/factors/passkey/options: what the browser needs to make a passkey for this user. */
export async function passkeyCreationOptions(options: {
  db: Database;
  relyingParty: RelyingParty;
  actor: Actor;
}): Promise<{ challengeId: string; options: PasskeyCreationOptions }> {
  const { db, relyingParty, actor } = options;
  const [user] = await db
    .select({ fullName: users.fullName })
    .from(users)
    .where(and(eq(users.id, actor.userId), eq(users.firmId, actor.firmId)));
  const created = await generateRegistrationOptions({
    rpName: relyingParty.name,
    rpID: relyingParty.id,
    userName: actor.username,
    userDisplayName: user?.fullName ?? actor.username,
    // The user's id as the handle: no name or email in it, and the same one for each of their passkeys.
    userID: new Uint8Array(Buffer.from(actor.userId.replace(/-/g, ""), "hex")),
    attestationType: "none",
    excludeCredentials: descriptors(await passkeysOf(db, actor)),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    timeout: CEREMONY_MS,
  });
  const challengeId = await keepChallenge(db, "register", created.challenge, actor.userId);
  return {
    challengeId,
    options: {
      rp: { name: created.rp.name, id: relyingParty.id },
      user: created.user,
      challenge: created.challenge,
      pubKeyCredParams: created.pubKeyCredParams.map((param) => ({ alg: param.alg, type: "public-key" as const })),
      timeout: CEREMONY_MS,
      excludeCredentials: descriptors(await passkeysOf(db, actor)),
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      attestation: "none",
      extensions: { credProps: true },
    },
  };
}

/** POST /api/account/factors/passkey: the browser's new passkey, checked and kept. A first factor comes with recovery codes. */
export async function addPasskey(options: {
  db: Database;
  relyingParty: RelyingParty;
  actor: Actor;
  challengeId: string | undefined;
  input: AddPasskeyInput;
}): Promise<Enrolled> {
  const { db, relyingParty, actor, input } = options;
  const now = new Date();
  return db.transaction(async (tx) => {
    const challenge = await takeChallenge(tx, options.challengeId, "register", actor.userId);
    const verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    }).catch(() => undefined);
    if (!verified?.verified) throw notAccepted();
    const { credential } = verified.registrationInfo;
    const { factors } = await secondFactorState(tx, actor);
    const [added] = await tx
      .insert(userFactors)
      .values({
        firmId: actor.firmId,
        userId: actor.userId,
        kind: "passkey",
        name: input.name ?? DEFAULT_PASSKEY_NAME,
        credentialId: credential.id,
        publicKey: credential.publicKey,
        signCount: credential.counter,
        transports: credential.transports ?? null,
        confirmedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!added) throw new AppError("CONFLICT", "This passkey is already added");
    const codes = factors.length === 0 ? await replaceRecoveryCodes(tx, actor) : null;
    // Making a passkey with user verification is a fresh second factor for this session.
    await tx
      .update(sessions)
      .set({ secondFactorAt: now, secondFactorDueAt: null, verifiedAt: now })
      .where(and(eq(sessions.firmId, actor.firmId), eq(sessions.id, actor.sessionId)));
    await recordAudit(tx, actor, {
      action: "mfa.factor_added",
      entityType: "user",
      entityId: actor.userId,
      after: { kind: "passkey", name: added.name },
    });
    await queueSecurityNotice(tx, actor, { kind: "factor_added", factor: { kind: "passkey", name: added.name } }, now);
    return { factor: toFactor(added), recoveryCodes: codes };
  });
}

/**
 * What the browser needs to sign with a passkey: for a known user (the second step, a step-up),
 * their passkeys; for a sign-in by passkey alone, none named (the browser offers the passkeys it
 * holds for this site).
 */
export async function passkeyRequestOptions(options: {
  db: Database;
  relyingParty: RelyingParty;
  purpose: "second_factor" | "sign_in" | "step_up";
  who: Who | null;
}): Promise<{ challengeId: string; options: PasskeyRequestOptions }> {
  const { db, relyingParty, who, purpose } = options;
  const allow = who ? descriptors(await passkeysOf(db, who)) : [];
  if (who && allow.length === 0) throw new AppError("CONFLICT", "You have no passkey: use another way");
  const requested = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    allowCredentials: allow,
    userVerification: "required",
    timeout: CEREMONY_MS,
  });
  const challengeId = await keepChallenge(db, purpose, requested.challenge, who?.userId ?? null);
  return {
    challengeId,
    options: {
      challenge: requested.challenge,
      timeout: CEREMONY_MS,
      rpId: relyingParty.id,
      allowCredentials: allow,
      userVerification: "required",
    },
  };
}

/**
 * Checks a passkey's signature for a user of a firm (found by the credential when unknown) and
 * moves its counter on; the user and firm it belongs to.
 */
async function checkAssertion(
  db: Database,
  options: { relyingParty: RelyingParty; challenge: string; input: UsePasskeyInput; firmId: string; userId?: string },
): Promise<Who> {
  const { input, relyingParty } = options;
  const firmDb = inFirm(db, options.firmId);
  const [factor] = await firmDb
    .select()
    .from(userFactors)
    .where(
      and(
        eq(userFactors.firmId, options.firmId),
        eq(userFactors.credentialId, input.response.id),
        eq(userFactors.kind, "passkey"),
        isNotNull(userFactors.confirmedAt),
        ...(options.userId ? [eq(userFactors.userId, options.userId)] : []),
      ),
    );
  if (!factor?.credentialId || !factor.publicKey || factor.signCount === null) throw notAccepted();
  const verified = await verifyAuthenticationResponse({
    response: input.response as AuthenticationResponseJSON,
    expectedChallenge: options.challenge,
    expectedOrigin: relyingParty.origin,
    expectedRPID: relyingParty.id,
    credential: {
      id: factor.credentialId,
      publicKey: new Uint8Array(factor.publicKey),
      counter: factor.signCount,
      ...(factor.transports ? { transports: factor.transports as never } : {}),
    },
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verified?.verified) throw notAccepted();
  // Only from the count this check started from: of two uses of one signature, one wins here.
  const [moved] = await firmDb
    .update(userFactors)
    .set({ signCount: verified.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(and(eq(userFactors.id, factor.id), eq(userFactors.signCount, factor.signCount)))
    .returning({ id: userFactors.id });
  if (!moved) throw notAccepted();
  return { firmId: factor.firmId, userId: factor.userId };
}

/** POST /api/auth/second-step/passkey: a pending sign-in completed with one of the user's passkeys. */
export async function passSecondStepWithPasskey(options: {
  db: Database;
  config: Config;
  relyingParty: RelyingParty;
  pending: PendingSignInSession;
  origin: Origin;
  device: string;
  challengeId: string | undefined;
  input: UsePasskeyInput;
}): Promise<{ cookie: string; signedIn: SignedIn }> {
  const { db, pending, origin } = options;
  if (pending.stage !== "second_factor") {
    throw new AppError("CONFLICT", "Your firm requires a second factor: add one to finish signing in");
  }
  const who = pendingWho(pending);
  const now = new Date();
  await throttled(db, { ...who, ...origin }, now, async () => {
    const challenge = await takeChallenge(db, options.challengeId, "second_factor", who.userId);
    await checkAssertion(db, { ...options, challenge, firmId: who.firmId, userId: who.userId });
  });
  const { cookie, user } = await completeSignIn(db, { ...options, method: "passkey", now });
  return { cookie, signedIn: { user, recoveryCodesLeft: null } };
}

/**
 * POST /api/auth/passkey: a sign-in with a passkey alone, no password: the passkey names its user
 * (the firm through the database's firm_of_passkey, as a username's is found). Failures are
 * throttled as a password's are: per address, and per passkey (its credential id, in the place of
 * the username), so one address's failures never refuse another's passkey. A disabled user is
 * refused, as at the password.
 */
export async function signInWithPasskey(options: {
  db: Database;
  config: Config;
  relyingParty: RelyingParty;
  origin: Origin;
  device: string;
  challengeId: string | undefined;
  input: UsePasskeyInput;
}): Promise<{ cookie: string; user: CurrentUser }> {
  const { db, origin } = options;
  const throttle = { usernameKey: passkeyThrottleKey(options.input.response.id), ip: origin.ip ?? "unknown" };
  const attempt = await admitPasswordAttempt(db, throttle);
  if (!attempt.admitted) {
    throw new AppError("RATE_LIMITED", "Too many failed sign-in attempts. Try again later.", {
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  const challenge = await takeChallenge(db, options.challengeId, "sign_in", null);
  const { rows } = await db.execute<{ firm_id: string | null }>(
    sql`select firm_of_passkey(${options.input.response.id}) as firm_id`,
  );
  const firmId = rows[0]?.firm_id;
  if (!firmId) throw notAccepted();
  const who = await checkAssertion(db, { ...options, challenge, firmId });
  const firmDb = inFirm(db, firmId);
  const [user] = await firmDb
    .select({ disabledAt: users.disabledAt })
    .from(users)
    .where(and(eq(users.id, who.userId), eq(users.firmId, firmId)));
  if (!user || user.disabledAt) {
    await forgetAttempt(db, attempt.attemptId);
    throw new AppError("ACCOUNT_DISABLED", "This account is disabled. Ask an administrator of your firm to enable it.");
  }
  await forgetAttempt(db, attempt.attemptId);
  return firmDb.transaction((tx) =>
    openSession(tx, {
      config: options.config,
      who,
      origin,
      device: options.device,
      method: "passkey",
      now: new Date(),
    }),
  );
}

/**
 * The throttle's key for a passkey's failures: its credential id, hashed to a fixed length (an id
 * may be long), after a prefix no username can hold, so a passkey and a username never share a count.
 */
const passkeyThrottleKey = (credentialId: string) => `passkey:${hashToken(credentialId)}`;

/** POST /api/auth/step-up with a passkey: a fresh proof for the session. */
export async function stepUpWithPasskey(options: {
  db: Database;
  relyingParty: RelyingParty;
  actor: Actor;
  challengeId: string | undefined;
  input: UsePasskeyInput;
}) {
  const { db, actor } = options;
  const now = new Date();
  await throttled(db, actor, now, async () => {
    const challenge = await takeChallenge(db, options.challengeId, "step_up", actor.userId);
    await checkAssertion(db, { ...options, challenge, firmId: actor.firmId, userId: actor.userId });
  });
  await db
    .update(sessions)
    .set({ verifiedAt: now })
    .where(and(eq(sessions.firmId, actor.firmId), eq(sessions.id, actor.sessionId)));
}
