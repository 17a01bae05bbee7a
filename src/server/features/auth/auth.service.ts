import { and, eq, sql } from "drizzle-orm";
import {
  type ChangePasswordInput,
  invalidLoginMessage,
  type LoginInput,
  type RegisterInput,
} from "../../../shared/auth";
import { addDays } from "../../../shared/dates";
import { trialDays } from "../../../shared/plans";
import type { CurrentUser } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database } from "../../platform/db/database";
import { preparedStatement } from "../../platform/db/prepared";
import { firms, users } from "../../platform/db/schema";
import { AppError, fieldError, uniqueViolation } from "../../platform/errors";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { claimSetup, type SetupLink, setupNotFoundMessage } from "../billing/billing.service";
import { isCommonPassword } from "./common-passwords";
import { admitPasswordAttempt, clearLoginFailures, forgetAttempt } from "./login-throttle";
import { hashPassword, verifyPassword } from "./password";
import { createSession, deleteSessionByToken, deleteUserSessions, type SessionInfo } from "./sessions";

type Origin = { ip: string | null; userAgent: string | null };

export function assertNotCommonPassword(password: string, field: string) {
  if (isCommonPassword(password)) {
    throw fieldError(field, "This password is one of the most common ones; choose one that is harder to guess");
  }
}

/** Maps the users table's unique constraints to the messages people see. */
export function userConflict(error: unknown): AppError | undefined {
  const constraint = uniqueViolation(error);
  if (constraint === "users_username_key") return new AppError("CONFLICT", "Username is already taken");
  if (constraint === "users_email_key") return new AppError("CONFLICT", "An account with this email already exists");
  return undefined;
}

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
  cardSetup?: () => Promise<SetupLink>;
}): Promise<{ token: string; user: CurrentUser }> {
  const { db, input, origin } = options;
  assertNotCommonPassword(input.password, "password");
  const link = await options.cardSetup?.();
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const now = new Date();
      const [firm] = await tx
        .insert(firms)
        .values({
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
      const token = await createSession(tx, {
        userId: user.id,
        firmId: firm.id,
        ...origin,
        absoluteMs: options.config.session.absoluteMs,
      });
      await recordAudit(
        tx,
        { firmId: firm.id, actorUserId: user.id, ...origin },
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
      return { token, user: toCurrentUser(user, firm) };
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

let equaliserHash: Promise<string> | undefined;
/** Verifying against a real hash when the user does not exist keeps both answers equally slow. */
const timingEqualiser = () => {
  equaliserHash ??= hashPassword(`no-such-user-${Math.random()}`);
  return equaliserHash;
};

export async function login(options: {
  db: Database;
  config: Config;
  input: LoginInput;
  origin: Origin;
  previousToken: string | undefined;
}): Promise<{ token: string; user: CurrentUser }> {
  const { db, input, origin } = options;
  const key = { usernameKey: input.username.toLowerCase(), ip: origin.ip ?? "unknown" };
  const attempt = await admitPasswordAttempt(db, key);
  if (!attempt.admitted) {
    const wait = attempt.retryAfterSeconds;
    throw new AppError(
      "RATE_LIMITED",
      `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
      { retryAfterSeconds: wait },
    );
  }
  const [found] = await db
    .select({ user: users, firm: firms })
    .from(users)
    .innerJoin(firms, eq(firms.id, users.firmId))
    .where(eq(sql`lower(${users.username})`, key.usernameKey))
    .limit(1);
  const passwordOk = found
    ? await verifyPassword(found.user.passwordHash, input.password)
    : (await verifyPassword(await timingEqualiser(), input.password)) && false;
  // A wrong password leaves the attempt counted as a failure.
  if (!found || !passwordOk) throw new AppError("INVALID_CREDENTIALS", invalidLoginMessage);
  if (found.user.disabledAt) {
    await forgetAttempt(db, attempt.attemptId); // the password was right: not a guess
    throw new AppError("ACCOUNT_DISABLED", "This account is disabled. Ask an administrator of your firm to enable it.");
  }
  await clearLoginFailures(db, key.usernameKey);
  return db.transaction(async (tx) => {
    // A new session on every sign-in; the one the browser held before is ended (no fixation).
    if (options.previousToken) await deleteSessionByToken(tx, options.previousToken);
    const token = await createSession(tx, {
      userId: found.user.id,
      firmId: found.firm.id,
      ...origin,
      absoluteMs: options.config.session.absoluteMs,
    });
    await recordAudit(
      tx,
      { firmId: found.firm.id, actorUserId: found.user.id, ...origin },
      { action: "session.signed_in", entityType: "user", entityId: found.user.id },
    );
    return { token, user: toCurrentUser(found.user, found.firm) };
  });
}

export async function logout(options: { db: Database; token: string; session: SessionInfo | null; origin: Origin }) {
  await options.db.transaction(async (tx) => {
    await deleteSessionByToken(tx, options.token);
    if (options.session) {
      await recordAudit(
        tx,
        { firmId: options.session.firmId, actorUserId: options.session.userId, ...options.origin },
        { action: "session.signed_out", entityType: "user", entityId: options.session.userId },
      );
    }
  });
}

const currentUserById = preparedStatement("current_user_by_id", (db) =>
  db
    .select({
      user: { id: users.id, username: users.username, fullName: users.fullName, email: users.email, role: users.role },
      firm: {
        id: firms.id,
        name: firms.name,
        plan: firms.plan,
        trialEndsAt: firms.trialEndsAt,
        subscriptionStatus: firms.subscriptionStatus,
      },
    })
    .from(users)
    .innerJoin(firms, eq(firms.id, users.firmId))
    .where(and(eq(users.id, sql.placeholder("userId")), eq(users.firmId, sql.placeholder("firmId")))),
);

export async function getCurrentUser(options: { db: Database; actor: SessionInfo }): Promise<CurrentUser> {
  const { db, actor } = options;
  const [found] = await currentUserById(db).execute({ userId: actor.userId, firmId: actor.firmId });
  if (!found) throw new AppError("UNAUTHENTICATED", "Please sign in to continue");
  return toCurrentUser(found.user, found.firm);
}

/** Checks the current password (failures count like failed sign-ins) and ends the user's other sessions. */
export async function changePassword(options: {
  db: Database;
  actor: SessionInfo;
  input: ChangePasswordInput;
  origin: Origin;
}) {
  const { db, actor, input, origin } = options;
  const key = { usernameKey: actor.username.toLowerCase(), ip: origin.ip ?? "unknown" };
  const attempt = await admitPasswordAttempt(db, key);
  if (!attempt.admitted) {
    throw new AppError("RATE_LIMITED", "Too many wrong passwords. Try again later.", {
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  const [user] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, actor.userId), eq(users.firmId, actor.firmId)));
  if (!user || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw fieldError("currentPassword", "Current password is incorrect");
  }
  await forgetAttempt(db, attempt.attemptId);
  assertNotCommonPassword(input.newPassword, "newPassword");
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.id, actor.userId), eq(users.firmId, actor.firmId)));
    await deleteUserSessions(tx, { firmId: actor.firmId, userId: actor.userId, keepSessionId: actor.sessionId });
    await recordAudit(
      tx,
      { firmId: actor.firmId, actorUserId: actor.userId, ...origin },
      { action: "user.password_changed", entityType: "user", entityId: actor.userId },
    );
  });
}

/** The fields of a user every API answer about them shares; never the hash. */
type UserRow = typeof users.$inferSelect;
type FirmRow = typeof firms.$inferSelect;

export function userIdentity(
  user: Pick<UserRow, "id" | "username" | "fullName" | "email" | "role">,
): Omit<CurrentUser, "firm"> {
  return { id: user.id, username: user.username, fullName: user.fullName, email: user.email, role: user.role };
}

function toCurrentUser(
  user: Parameters<typeof userIdentity>[0],
  firm: Pick<FirmRow, "id" | "name" | "plan" | "trialEndsAt" | "subscriptionStatus">,
): CurrentUser {
  return {
    ...userIdentity(user),
    firm: {
      id: firm.id,
      name: firm.name,
      plan: firm.plan,
      trialEndsAt: firm.trialEndsAt.toISOString(),
      subscriptionStatus: firm.subscriptionStatus,
    },
  };
}
