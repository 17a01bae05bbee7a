import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AssignClientsInput, UserAssignment, UserClientLink } from "../../../shared/assignments";
import { scopeOf } from "../../../shared/permissions";
import type { Database } from "../../platform/db/database";
import { clients, userClients, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";

/** The firm's user-client links; a `user` sees only their own (scope "self"). */
export async function listAssignments(options: { db: Database; actor: Actor }): Promise<UserClientLink[]> {
  const { db, actor } = options;
  const inFirm = eq(userClients.firmId, actor.firmId);
  return db
    .select({
      userId: userClients.userId,
      clientId: userClients.clientId,
      clientName: clients.name,
      clientArchived: sql<boolean>`${clients.archivedAt} is not null`,
    })
    .from(userClients)
    .innerJoin(clients, and(eq(clients.id, userClients.clientId), eq(clients.firmId, userClients.firmId)))
    .where(
      scopeOf(actor.role, "assignments.read") === "self" ? and(inFirm, eq(userClients.userId, actor.userId)) : inFirm,
    )
    .orderBy(asc(userClients.userId), asc(userClients.clientId));
}

/** Replaces a user's assigned clients with the given list (which may be empty). */
export async function assignClients(options: {
  db: Database;
  actor: Actor;
  input: AssignClientsInput;
}): Promise<UserAssignment> {
  const { db, actor, input } = options;
  const { firmId } = actor;
  const clientIds = [...new Set(input.clientIds)].sort();
  return db.transaction(async (tx) => {
    // One assignment per firm at a time, by someone still allowed to make it: without the lock
    // two replacements of one list would both delete the old links and insert the same new ones.
    await lockFirmAsActor(tx, actor, "assignments.write");
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.firmId, firmId), eq(users.id, input.userId)));
    if (!user) throw new AppError("NOT_FOUND", "User not found");
    if (clientIds.length > 0) {
      const found = await tx
        .select({ id: clients.id })
        .from(clients)
        .where(and(eq(clients.firmId, firmId), inArray(clients.id, clientIds)));
      if (found.length !== clientIds.length) throw new AppError("NOT_FOUND", "Client not found");
    }
    const mine = and(eq(userClients.firmId, firmId), eq(userClients.userId, input.userId));
    const before = (await tx.select({ clientId: userClients.clientId }).from(userClients).where(mine))
      .map((row) => row.clientId)
      .sort();
    // The same list again changes nothing: no write, no audit event.
    if (before.length === clientIds.length && before.every((id, index) => id === clientIds[index])) {
      return { userId: input.userId, clientIds };
    }
    await tx.delete(userClients).where(mine);
    if (clientIds.length > 0) {
      await tx.insert(userClients).values(clientIds.map((clientId) => ({ firmId, userId: input.userId, clientId })));
    }
    await recordAudit(tx, actor, {
      action: "user.clients_assigned",
      entityType: "user",
      entityId: input.userId,
      before: { clientIds: before },
      after: { clientIds },
    });
    return { userId: input.userId, clientIds };
  });
}
