import { and, eq, sql } from "drizzle-orm";
import type { ClientImport, CommitImportInput } from "../../../shared/client-import";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clientImports } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import type { JobQueue } from "../../platform/jobs/job-queue";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import {
  CLIENT_IMPORT_JOB,
  CLIENT_IMPORT_UNDO_JOB,
  type ClientImportJobData,
  getImport,
} from "./client-import.service";
import { assertPreviewed, countsOf, lockedImport, planProblem, reevaluate, rememberMapping } from "./import-records";

/* Committing an import (its job writes the rows) and undoing one (its job takes them back). */

/**
 * POST /api/client-imports/{id}/commit: refused while any row has an error (a file with errors
 * writes nothing) or when the plan has no room for the clients it would add; otherwise every
 * row's action is fixed against the firm's clients as they are now and the job is queued in the
 * same transaction. The audit trail records it here, with who asked.
 */
export async function commitImport(options: {
  db: Database;
  actor: Actor;
  jobs: Pick<JobQueue, "sendWithin">;
  importId: string;
  input: CommitImportInput;
}): Promise<ClientImport> {
  const { db, actor, jobs, importId, input } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const record = await lockedImport(tx, actor.firmId, importId);
    assertPreviewed(record);
    if (record.mapping.name === null || record.mapping.name === undefined) {
      throw fieldError("mapping.name", "Choose the column that holds the company name");
    }
    // Clients made or changed since the preview count: the rows are matched again now.
    const rows = await reevaluate(tx, record, record.mapping);
    const counts = countsOf(rows);
    if (counts.errorCount > 0) {
      throw new AppError(
        "BAD_REQUEST",
        `${counts.errorCount} ${counts.errorCount === 1 ? "row has an error" : "rows have errors"}. ` +
          "Correct the file and upload it again, or change the mapping; nothing has been imported.",
      );
    }
    const actions = rows.map((row) => ({
      row: row.rowNumber,
      action: row.match === null ? "create" : input.duplicates,
    }));
    const creating = actions.filter((each) => each.action === "create").length;
    await assertPlanRoom(tx, actor.firmId, creating);
    await tx.execute(sql`
      update client_import_rows r set action = v.action
      from jsonb_to_recordset(${JSON.stringify(actions)}::jsonb) as v(row integer, action text)
      where r.firm_id = ${actor.firmId} and r.import_id = ${importId} and r.row_number = v.row`);
    await tx
      .update(clientImports)
      .set({ status: "queued", duplicates: input.duplicates, ...counts, updatedAt: new Date() })
      .where(and(eq(clientImports.firmId, actor.firmId), eq(clientImports.id, importId)));
    await rememberMapping(tx, actor.firmId, record.headerSignature, record.mapping);
    await recordAudit(tx, actor, {
      action: "client_import.committed",
      entityType: "firm",
      entityId: actor.firmId,
      after: {
        importId,
        fileName: record.fileName,
        rows: rows.length,
        toCreate: creating,
        toUpdate: actions.filter((each) => each.action === "update").length,
        toSkip: actions.filter((each) => each.action === "skip").length,
      },
    });
    const data: ClientImportJobData = { firmId: actor.firmId, importId };
    await jobs.sendWithin(tx, CLIENT_IMPORT_JOB, data);
  });
  return getImport({ db, actor, importId });
}

/**
 * POST /api/client-imports/{id}/undo: an import whose commit has finished (or stopped) is marked
 * `undoing` and the undo's job (client-import-undo.job.ts) queued in the same transaction; the
 * audit trail records it here, with who asked. The job takes the changes back in batches, its
 * progress and counts on the import, which is `undone` when it is done.
 */
export async function undoImport(options: {
  db: Database;
  actor: Actor;
  jobs: Pick<JobQueue, "sendWithin">;
  importId: string;
}): Promise<ClientImport> {
  const { db, actor, jobs, importId } = options;
  const firmId = actor.firmId;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const record = await lockedImport(tx, firmId, importId);
    if (record.status === "undone") throw new AppError("CONFLICT", "This import has already been undone.");
    if (record.status === "undoing") throw new AppError("CONFLICT", "This import is already being undone.");
    if (record.status !== "done" && record.status !== "failed") {
      throw new AppError(
        "CONFLICT",
        record.status === "previewed"
          ? "This import has not been committed, so there is nothing to undo."
          : "This import is still running. Undo it once it has finished.",
      );
    }
    const now = new Date();
    await tx
      .update(clientImports)
      .set({ status: "undoing", undoRequestedAt: now, updatedAt: now })
      .where(and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId)));
    await recordAudit(tx, actor, {
      action: "client_import.undone",
      entityType: "firm",
      entityId: firmId,
      after: { importId, fileName: record.fileName, created: record.createdCount, updated: record.updatedCount },
    });
    const data: ClientImportJobData = { firmId, importId };
    await jobs.sendWithin(tx, CLIENT_IMPORT_UNDO_JOB, data);
  });
  return getImport({ db, actor, importId });
}

async function assertPlanRoom(tx: DbExecutor, firmId: string, creating: number) {
  const problem = await planProblem(tx, firmId, creating);
  if (problem !== null) throw new AppError("FORBIDDEN", problem);
}
