import { and, eq, isNull } from "drizzle-orm";
import type { FirmMfaPolicy, MfaPolicy } from "../../../shared/mfa";
import type { Database } from "../../platform/db/database";
import { firms, recoveryCodes, sessions, userFactors, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { secondFactorState } from "../auth/second-factor-state";
import { queueSecurityNotice } from "../auth/security-notices";
import { deleteUserSessions } from "../auth/sessions";
import { mine, myCodes } from "./second-factors";

/* What a super admin decides for the firm: whether a second factor is required, and a user's reset. */

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
