import { and, asc, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inFirm } from "../../platform/db/firm-scope";
import { clientImportChanges, clientImports } from "../../platform/db/schema";
import type { JobKind } from "../../platform/jobs/job-queue";
import { lockFirm } from "../../tenancy/firm-lock";
import { importJobKind, inBatches } from "./client-import.job";
import { CLIENT_IMPORT_UNDO_JOB, type ClientImportJobData, pgUuids } from "./client-import.service";

/*
 * The undo of an import (decision 0056), as its commit runs (client-import.job.ts): the changes it
 * recorded in batches, each batch one transaction that takes back its clients, marks its changes
 * undone and moves the undo's progress and counts. So progress shows while it runs, a run
 * repeated after a crash carries on from the first change not undone, and each batch's work is
 * bounded by its own size: the whole undo costs in proportion to the import's rows.
 *
 * A client the import created is removed with its contacts, unless it has since been changed or
 * gained tasks, schedules, assignments or contacts of its own: then it is archived, keeping what
 * was added. A client it updated gets its before-image back, version and all, unless someone has
 * changed it since: then it is kept as it is. The primary contact is treated the same way.
 */

/** Changes per batch: as the commit's rows, progress moves every second or so. */
export const UNDO_BATCH = 500;

export type UndoCounts = { removed: number; archived: number; restored: number; kept: number };

export function clientImportUndoJob(options: { db: Database; log: Logger }): JobKind {
  return importJobKind(CLIENT_IMPORT_UNDO_JOB, options.log, "client import: undone", (data) =>
    runImportUndo({ db: options.db, data }),
  );
}

/**
 * Runs an import's undo to the end; harmless to repeat (only an import being undone is worked on,
 * from its first change not yet undone). A failure marks the import failed (inBatches), what was
 * taken back staying so, to be undone again.
 */
export async function runImportUndo(options: {
  db: Database;
  data: ClientImportJobData;
  batchSize?: number;
}): Promise<UndoCounts | null> {
  const { firmId, importId } = options.data;
  const db = inFirm(options.db, firmId);
  const thisImport = and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId));
  const [record] = await db.select({ status: clientImports.status }).from(clientImports).where(thisImport);
  if (record?.status !== "undoing") return null;
  const total = await inBatches({
    db,
    thisImport,
    zero: { removed: 0, archived: 0, restored: 0, kept: 0 },
    batch: (tx) => undoBatch(tx, { firmId, importId, size: options.batchSize ?? UNDO_BATCH }),
    failed: { error: "The undo stopped unexpectedly. What it took back stays so; undo the import again to finish." },
  });
  await db
    .update(clientImports)
    .set({ status: "undone", undoneAt: new Date(), updatedAt: new Date() })
    .where(and(thisImport, eq(clientImports.status, "undoing")));
  return total;
}

/** One batch of changes not yet undone, in one transaction; null when none are left. */
async function undoBatch(
  tx: DbExecutor,
  options: { firmId: string; importId: string; size: number },
): Promise<UndoCounts | null> {
  const { firmId, importId } = options;
  await lockFirm(tx, firmId);
  const batch = await tx
    .select({ rowNumber: clientImportChanges.rowNumber, action: clientImportChanges.action })
    .from(clientImportChanges)
    .where(
      and(
        eq(clientImportChanges.firmId, firmId),
        eq(clientImportChanges.importId, importId),
        eq(clientImportChanges.undone, false),
      ),
    )
    .orderBy(asc(clientImportChanges.rowNumber))
    .limit(options.size)
    .for("update", { skipLocked: true });
  if (batch.length === 0) return null;
  const rowNumbers = `{${batch.map((change) => change.rowNumber).join(",")}}`;
  const inBatch = sql`ch.firm_id = ${firmId} and ch.import_id = ${importId} and ch.row_number = any(${rowNumbers}::int[])`;

  // Created clients no one has touched since: removed with the contact the import gave them.
  const removable = await tx.execute<{ id: string }>(sql`
    select c.id from client_import_changes ch
    join clients c on c.firm_id = ch.firm_id and c.id = ch.client_id
    where ${inBatch} and ch.action = 'created' and c.archived_at is null
      and c.version = ch.client_version_after
      and not exists (select 1 from tasks t where t.firm_id = c.firm_id and t.client_id = c.id)
      and not exists (select 1 from recurring_schedules s where s.firm_id = c.firm_id and s.client_id = c.id)
      and not exists (select 1 from user_clients u where u.firm_id = c.firm_id and u.client_id = c.id)
      and not exists (
        select 1 from contacts k where k.firm_id = c.firm_id and k.client_id = c.id
          and (ch.contact_id is null or k.id <> ch.contact_id or k.version <> ch.contact_version_after)
      )`);
  const removableIds = removable.rows.map((row) => row.id);
  if (removableIds.length > 0) {
    await tx.execute(
      sql`delete from contacts where firm_id = ${firmId} and client_id = any(${pgUuids(removableIds)}::uuid[])`,
    );
    await tx.execute(sql`delete from clients where firm_id = ${firmId} and id = any(${pgUuids(removableIds)}::uuid[])`);
  }
  // The other created clients gained work since: archived, keeping it.
  const archived = await tx.execute<{ id: string }>(sql`
    update clients c set archived_at = now(), updated_at = now()
    from client_import_changes ch
    where ${inBatch} and ch.action = 'created' and c.firm_id = ch.firm_id and c.id = ch.client_id
      and c.archived_at is null
    returning c.id`);
  // Updated clients still as the import left them: their before-images back, then their versions
  // (the version trigger moves a version on any change of the fields, so it is set on its own after).
  const restored = await tx.execute<{ id: string }>(sql`
    update clients c set name = b.name, industry = b.industry, address = b.address, phone = b.phone,
      email = b.email, status = b.status, archived_at = b.archived_at
    from client_import_changes ch
    cross join lateral jsonb_populate_record(null::clients, ch.client_before) b
    where ${inBatch} and ch.action = 'updated' and c.firm_id = ch.firm_id and c.id = ch.client_id
      and c.version = ch.client_version_after
    returning c.id`);
  const restoredIds = restored.rows.map((row) => row.id);
  if (restoredIds.length > 0) {
    const wasRestored = sql`ch.client_id = any(${pgUuids(restoredIds)}::uuid[])`;
    await tx.execute(sql`
      update clients c set version = b.version, updated_at = b.updated_at
      from client_import_changes ch cross join lateral jsonb_populate_record(null::clients, ch.client_before) b
      where ${inBatch} and ch.action = 'updated' and c.firm_id = ch.firm_id and c.id = b.id and ${wasRestored}`);
    // Their primary contacts: the one the import changed gets its before-image back; the one it
    // added is removed; either only if no one has changed it since.
    await tx.execute(sql`
      update contacts k set name = b.name, title = b.title, phone = b.phone, email = b.email, is_primary = b.is_primary
      from client_import_changes ch cross join lateral jsonb_populate_record(null::contacts, ch.contact_before) b
      where ${inBatch} and ch.action = 'updated' and ch.contact_before is not null
        and k.firm_id = ch.firm_id and k.id = b.id and k.version = ch.contact_version_after and ${wasRestored}`);
    await tx.execute(sql`
      update contacts k set version = b.version, updated_at = b.updated_at
      from client_import_changes ch cross join lateral jsonb_populate_record(null::contacts, ch.contact_before) b
      where ${inBatch} and ch.action = 'updated' and ch.contact_before is not null
        and k.firm_id = ch.firm_id and k.id = b.id and ${wasRestored}`);
    await tx.execute(sql`
      delete from contacts k using client_import_changes ch
      where ${inBatch} and ch.action = 'updated' and ch.contact_before is null and ch.contact_id is not null
        and k.firm_id = ch.firm_id and k.id = ch.contact_id and k.version = ch.contact_version_after and ${wasRestored}`);
  }
  const updated = batch.filter((change) => change.action === "updated").length;
  const counts: UndoCounts = {
    removed: removableIds.length,
    archived: archived.rows.length,
    restored: restoredIds.length,
    kept: updated - restoredIds.length,
  };
  await tx.execute(sql`update client_import_changes ch set undone = true where ${inBatch}`);
  await tx
    .update(clientImports)
    .set({
      undoProgress: sql`${clientImports.undoProgress} + ${batch.length}`,
      removedCount: sql`${clientImports.removedCount} + ${counts.removed}`,
      archivedCount: sql`${clientImports.archivedCount} + ${counts.archived}`,
      restoredCount: sql`${clientImports.restoredCount} + ${counts.restored}`,
      keptCount: sql`${clientImports.keptCount} + ${counts.kept}`,
      updatedAt: new Date(),
    })
    .where(and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId)));
  return counts;
}
