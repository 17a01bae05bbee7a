import { and, eq, sql } from "drizzle-orm";
import type { CompleteTaskInput, Task } from "../../../shared/tasks";
import type { Database } from "../../platform/db/database";
import { preparedStatement } from "../../platform/db/prepared";
import { tasks, users } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { checkSignature, signatureBytes } from "./signature";
import { findTask, refuseArchivedClient, toTask, visibleTo } from "./task-rows";

/*
 * A task's sign-off, written once by completeTask: who, when, from where, the printed name, the
 * signature and its hash. The signed task is evidence: it cannot be changed or deleted.
 */

/** The one read of a drawn signature's image. */
const signatureOfTask = preparedStatement("signature_of_task", (db) =>
  db
    .select({ signature: tasks.signature, sha256: tasks.signatureSha256 })
    .from(tasks)
    .where(and(eq(tasks.firmId, sql.placeholder("firmId")), eq(tasks.id, sql.placeholder("taskId")), visibleTo)),
);

/**
 * Signs a pending task off. Who signed is the session's user; a `completedBy` in the body is
 * ignored (S-TCOMP-08). The signature is checked before any write. Exactly one of two
 * concurrent completions succeeds: the update only matches a task that is still pending, and the
 * other is answered 409.
 */
export async function completeTask(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  input: CompleteTaskInput;
  origin: { ip: string | null; userAgent: string | null };
  ifMatch?: IfMatch;
}): Promise<Task> {
  const { db, actor, taskId, input, origin } = options;
  const signature = checkSignature(input.signature);
  if (!signature.ok) throw fieldError("signature", signature.message);
  return db.transaction(async (tx) => {
    const { role } = await lockFirmAsActor(tx, actor, "tasks.complete");
    const before = await findTask(
      tx,
      actor.firmId,
      taskId,
      assignedUserOf({ role: role, userId: actor.userId }, "tasks.complete"),
    );
    assertVersion(before.version, options.ifMatch, "task");
    if (before.status === "completed") throw new AppError("CONFLICT", "This task is already completed");
    await refuseArchivedClient(tx, actor.firmId, before.clientId, "signing off its tasks");
    const completedAt = new Date();
    const [completed] = await tx
      .update(tasks)
      .set({
        status: "completed",
        completedAt,
        completedBy: actor.userId,
        printedName: input.printedName,
        signature: signature.dataUrl,
        signatureSha256: signature.sha256,
        completedIp: origin.ip,
        completedUserAgent: origin.userAgent,
        updatedAt: completedAt,
      })
      .where(and(eq(tasks.firmId, actor.firmId), eq(tasks.id, taskId), eq(tasks.status, "pending")))
      .returning();
    if (!completed) throw new AppError("CONFLICT", "This task is already completed");
    const [signer] = await tx
      .select({ fullName: users.fullName, username: users.username })
      .from(users)
      .where(and(eq(users.firmId, actor.firmId), eq(users.id, actor.userId)));
    await recordAudit(tx, actor, {
      action: "task.completed",
      entityType: "task",
      entityId: taskId,
      // The hash, never the image: it proves which signature the task carries.
      after: {
        clientId: completed.clientId,
        completedAt: completedAt.toISOString(),
        completedBy: actor.userId,
        printedName: input.printedName,
        signatureSha256: signature.sha256,
      },
    });
    return toTask(completed, completedAt, signer ?? null);
  });
}

/**
 * A signed-off task's signature, as the PNG it was drawn as, and its hash; 404 when the actor may
 * not see the task's client, when the task is not signed off, or when `sha256` (the `v` of the
 * image's URL) names another image.
 */
export async function getSignature(options: {
  db: Database;
  actor: Actor;
  taskId: string;
  sha256?: string;
}): Promise<{ png: Buffer; sha256: string }> {
  const { db, actor, taskId } = options;
  const [row] = await signatureOfTask(db).execute({
    firmId: actor.firmId,
    taskId,
    userId: assignedUserOf(actor, "clients.read"),
  });
  if (!row || row.signature === null || row.sha256 === null) throw new AppError("NOT_FOUND", "Signature not found");
  if (options.sha256 !== undefined && options.sha256 !== row.sha256) {
    throw new AppError("NOT_FOUND", "Signature not found");
  }
  return { png: signatureBytes(row.signature), sha256: row.sha256 };
}
