import { and, eq, isNotNull } from "drizzle-orm";
import type { AccountSecurity, FirmMfaPolicy } from "../../../shared/mfa";
import { STEP_UP_MINUTES } from "../../../shared/mfa";
import type { Database, DbExecutor } from "../../platform/db/database";
import { firms, recoveryCodes, userFactors } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { secondFactorState } from "../auth/second-factor-state";
import { queueSecurityNotice } from "../auth/security-notices";
import { mine, myCodes, replaceRecoveryCodes, toFactor } from "./second-factors";

/* A signed-in user's own factors and recovery codes, as Settings shows and changes them. */

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
