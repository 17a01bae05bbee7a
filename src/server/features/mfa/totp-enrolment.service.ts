import { and, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import { v7 as uuidv7 } from "uuid";
import type { ConfirmTotpInput, Enrolled, TotpEnrolment } from "../../../shared/mfa";
import type { CurrentUser } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { sessions, userFactors } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { type SealingKey, seal } from "../../platform/sealed-secrets";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import type { PendingSignInSession } from "../auth/access-control";
import { secondFactorState, type Who } from "../auth/second-factor-state";
import { queueSecurityNotice } from "../auth/security-notices";
import {
  completeSignIn,
  mine,
  type Origin,
  pendingWho,
  replaceRecoveryCodes,
  throttled,
  toFactor,
  unsealSecret,
  wrongCode,
} from "./second-factors";
import { acceptTotp, newTotpSecret, totpSealOwner, totpUri } from "./totp";

/* Adding an authenticator app: by a signed-in user, or as the enrolment a pending sign-in waits for. */

const DEFAULT_TOTP_NAME = "Authenticator app";
/** An authenticator app being added must be confirmed within this long of being shown. */
const ENROLMENT_MS = 15 * 60_000;

/** POST /api/auth/second-step/totp: enrolment, where the firm requires a factor the user has not got. */
export async function startSignInEnrolment(options: { db: Database; key: SealingKey; pending: PendingSignInSession }) {
  const { pending } = options;
  if (pending.stage !== "enrol") throw new AppError("CONFLICT", "Confirm your sign-in with your second factor");
  return startTotpEnrolment({ db: options.db, key: options.key, who: pending });
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
