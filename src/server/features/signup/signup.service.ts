import { randomUUID } from "node:crypto";
import type { RegisterInput } from "../../../shared/auth";
import { addDays } from "../../../shared/dates";
import { trialDays } from "../../../shared/plans";
import type { CurrentUser } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database } from "../../platform/db/database";
import { inFirm } from "../../platform/db/firm-scope";
import { firms, users } from "../../platform/db/schema";
import { AppError, uniqueViolation } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { assertNotCommonPassword, toCurrentUser, userConflict } from "../auth/auth.service";
import { recordSignInDevice } from "../auth/known-devices";
import { hashPassword } from "../auth/password";
import { createSession } from "../auth/sessions";
import { claimSetup, type SetupLink, setupNotFoundMessage } from "../billing/billing.service";

type Origin = Pick<Actor, "ip" | "userAgent">;

/**
 * Registration: a new firm on a 14-day trial, its first user as super_admin, signed in. With card
 * billing, `cardSetup` finds the browser's card setup (or refuses): the firm is linked to its
 * Stripe customer and subscription, and the setup is claimed in the same transaction.
 */
export async function register(options: {
  db: Database;
  config: Config;
  input: RegisterInput;
  origin: Origin;
  /** The browser's device token: the new user's first known browser (known-devices.ts). */
  device: string;
  cardSetup?: () => Promise<SetupLink>;
}): Promise<{ token: string; user: CurrentUser }> {
  const { db, input, origin } = options;
  assertNotCommonPassword(input.password, "password");
  const link = await options.cardSetup?.();
  const passwordHash = await hashPassword(input.password);
  // The new firm's id is chosen here, so the registration acts for that firm alone.
  const firmId = randomUUID();
  try {
    return await inFirm(db, firmId).transaction(async (tx) => {
      const now = new Date();
      const [firm] = await tx
        .insert(firms)
        .values({
          id: firmId,
          name: input.fullName,
          plan: input.subscriptionPlan,
          trialEndsAt: link?.trialEndsAt ?? addDays(now, trialDays),
          ...(link
            ? {
                subscriptionStatus: link.subscriptionStatus,
                stripeCustomerId: link.stripeCustomerId,
                stripeSubscriptionId: link.stripeSubscriptionId,
              }
            : {}),
        })
        .returning();
      if (!firm) throw new Error("firm insert returned nothing");
      if (link) await claimSetup(tx, link.setupId, firm.id);
      const [user] = await tx
        .insert(users)
        .values({
          firmId: firm.id,
          username: input.username,
          email: input.email,
          fullName: input.fullName,
          role: "super_admin",
          passwordHash,
        })
        .returning();
      if (!user) throw new Error("user insert returned nothing");
      // The firm's policy starts as required after a grace: this session will want a second factor then.
      const session = await createSession(tx, {
        userId: user.id,
        firmId: firm.id,
        ...origin,
        absoluteMs: options.config.session.absoluteMs,
        secondFactorDueAt: firm.mfaRequiredFrom,
      });
      await recordAudit(
        tx,
        { firmId: firm.id, userId: user.id, ...origin },
        {
          action: "account.registered",
          entityType: "firm",
          entityId: firm.id,
          after: {
            firm: {
              name: firm.name,
              plan: firm.plan,
              ...(link
                ? {
                    subscriptionStatus: firm.subscriptionStatus,
                    stripeCustomerId: link.stripeCustomerId,
                    stripeSubscriptionId: link.stripeSubscriptionId,
                  }
                : {}),
            },
            user: { username: user.username, email: user.email },
          },
        },
      );
      await recordSignInDevice(tx, {
        firmId: firm.id,
        userId: user.id,
        ...origin,
        sessionId: session.sessionId,
        device: options.device,
        at: now,
      });
      return { token: session.cookie, user: toCurrentUser(user, firm) };
    });
  } catch (error) {
    throw userConflict(error) ?? setupTaken(error) ?? error;
  }
}

/** Two registrations racing for one card setup: the second finds it taken. */
function setupTaken(error: unknown): AppError | undefined {
  const constraint = uniqueViolation(error);
  return constraint === "firms_stripe_subscription_id_unique" || constraint === "firms_stripe_customer_id_unique"
    ? new AppError("BAD_REQUEST", setupNotFoundMessage)
    : undefined;
}
