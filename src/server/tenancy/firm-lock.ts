import { and, eq, sql } from "drizzle-orm";
import { type Action, can, forbiddenMessage } from "../../shared/permissions";
import type { Role } from "../../shared/roles";
import type { DbExecutor } from "../platform/db/database";
import { users } from "../platform/db/schema";
import { AppError } from "../platform/errors";
import type { Actor } from "./actor";

/**
 * Serialises one firm's writers until the transaction ends. FOR NO KEY UPDATE, not FOR UPDATE:
 * a transaction that has inserted a row referencing the firm holds a KEY SHARE lock on it, and
 * FOR UPDATE would wait on other writers' KEY SHARE locks while they wait on ours (a deadlock).
 */
export async function lockFirm(tx: DbExecutor, firmId: string): Promise<void> {
  await tx.execute(sql`select 1 from firms where id = ${firmId} for no key update`);
}

/**
 * For a change that must be judged on the firm as it is now: serialises the firm's writers and
 * returns the actor's current role, refusing one who has meanwhile been disabled or lost the
 * right to `action` (the guard checked the session as it was when the request arrived).
 */
export async function lockFirmAsActor(
  tx: DbExecutor,
  actor: Pick<Actor, "firmId" | "userId">,
  action: Action,
): Promise<{ role: Role }> {
  await lockFirm(tx, actor.firmId);
  const [me] = await tx
    .select({ role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(and(eq(users.firmId, actor.firmId), eq(users.id, actor.userId)));
  if (!me || me.disabledAt !== null) throw new AppError("UNAUTHENTICATED", "Please sign in to continue");
  if (!can(me.role, action)) throw new AppError("FORBIDDEN", forbiddenMessage(me.role, action));
  return { role: me.role };
}
