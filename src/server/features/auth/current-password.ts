import { and, eq } from "drizzle-orm";
import type { Database } from "../../platform/db/database";
import { users } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { admitPasswordAttempt, forgetAttempt } from "./login-throttle";
import { verifyPassword } from "./password";

/**
 * Checks the signed-in user's own password (to change it, or as a step-up), throttled as a
 * sign-in is: the attempt counts as a failure of the username and the address until the password
 * proves right. A wrong one is answered on `field` with `wrongMessage`.
 */
export async function checkCurrentPassword(options: {
  db: Database;
  actor: Actor;
  password: string;
  field: string;
  wrongMessage: string;
}): Promise<void> {
  const { db, actor } = options;
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
  if (!user || !(await verifyPassword(user.passwordHash, options.password))) {
    throw fieldError(options.field, options.wrongMessage);
  }
  await forgetAttempt(db, attempt.attemptId);
}
