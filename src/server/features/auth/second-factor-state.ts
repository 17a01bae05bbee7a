import { and, asc, count, eq, isNotNull, isNull } from "drizzle-orm";
import { type FactorKind, type MfaPolicy, type SecondFactorMethod, STEP_UP_MINUTES } from "../../../shared/mfa";
import type { DbExecutor } from "../../platform/db/database";
import { recoveryCodes, type SessionStage, userFactors } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";

/*
 * What a user holds for the second step of sign-in (decision 0044): their confirmed factors and
 * how many recovery codes are unused; and from it and the firm's policy, what a sign-in whose
 * password was right needs next. Sign-in (this folder) and the factors' own routes (features/mfa)
 * both read it.
 */

export type Who = { firmId: string; userId: string };

export type ConfirmedFactor = { id: string; kind: FactorKind; name: string; createdAt: Date; lastUsedAt: Date | null };

export async function secondFactorState(
  db: DbExecutor,
  who: Who,
): Promise<{ factors: ConfirmedFactor[]; recoveryCodesLeft: number }> {
  const [factors, [left]] = await Promise.all([
    db
      .select({
        id: userFactors.id,
        kind: userFactors.kind,
        name: userFactors.name,
        createdAt: userFactors.createdAt,
        lastUsedAt: userFactors.lastUsedAt,
      })
      .from(userFactors)
      .where(
        and(eq(userFactors.firmId, who.firmId), eq(userFactors.userId, who.userId), isNotNull(userFactors.confirmedAt)),
      )
      .orderBy(asc(userFactors.createdAt), asc(userFactors.id)),
    db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(
        and(eq(recoveryCodes.firmId, who.firmId), eq(recoveryCodes.userId, who.userId), isNull(recoveryCodes.usedAt)),
      ),
  ]);
  return { factors, recoveryCodesLeft: left?.n ?? 0 };
}

/** The ways a user can pass the second step, in the order the screen offers them. */
export function methodsOf(state: { factors: { kind: FactorKind }[]; recoveryCodesLeft: number }): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (state.factors.some((factor) => factor.kind === "totp")) methods.push("totp");
  if (state.factors.some((factor) => factor.kind === "passkey")) methods.push("passkey");
  if (state.factors.length > 0 && state.recoveryCodesLeft > 0) methods.push("recovery_code");
  return methods;
}

export type FirmMfaRule = { mfaPolicy: MfaPolicy; mfaRequiredFrom: Date | null };

/** Whether the firm's policy requires a second factor at `now` (a required policy in its grace does not yet). */
export const requiresSecondFactor = (firm: FirmMfaRule, now: Date) =>
  firm.mfaPolicy === "required" && firm.mfaRequiredFrom !== null && firm.mfaRequiredFrom <= now;

/**
 * What a sign-in whose password was right becomes: a user with a factor passes it next; one
 * without, where the firm requires one now, enrols first; anyone else has a session, which the
 * firm's policy will ask for a second factor when its grace ends (`secondFactorDueAt`).
 */
export function afterPassword(
  hasFactor: boolean,
  firm: FirmMfaRule,
  now: Date,
): { stage: SessionStage; secondFactorDueAt: Date | null } {
  if (hasFactor) return { stage: "second_factor", secondFactorDueAt: null };
  if (requiresSecondFactor(firm, now)) return { stage: "enrol", secondFactorDueAt: null };
  return { stage: "active", secondFactorDueAt: firm.mfaPolicy === "required" ? firm.mfaRequiredFrom : null };
}

/**
 * The step-up check (decision 0044), one for every sensitive change: the session's last fresh
 * proof (the sign-in itself, or POST /api/auth/step-up) is at most five minutes old.
 */
export function assertFreshProof(verifiedAt: Date | null, now = Date.now()): void {
  if (verifiedAt === null || now - verifiedAt.getTime() > STEP_UP_MINUTES * 60_000) {
    throw new AppError("STEP_UP_REQUIRED", "Confirm it is you before making this change");
  }
}
