import { and, asc, desc, eq, gt, isNotNull, sql } from "drizzle-orm";
import {
  type ClientImport,
  IMPORT_PAGE_ROWS,
  type ImportRow,
  type ImportRowsQuery,
} from "../../../shared/client-import";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clientImportRows, clientImports, users } from "../../platform/db/schema";
import type { Actor } from "../../tenancy/actor";
import { type ImportRecord, importNotFound, planProblem } from "./import-records";
import { fitMapping } from "./import-rows";

/*
 * Client import (decision 0051). Uploading reads the file, guesses or recalls the mapping, and
 * keeps every row with its errors and the client it matches; the mapping can be changed (every
 * row checked again) until the import is committed. A commit with no row in error queues one job
 * (client-import.job.ts) in its own transaction; an undo queues another (client-import-undo.job.ts)
 * that takes back what the first wrote.
 *
 * This file reads imports; uploading and mapping a file is client-import-upload.service.ts, the
 * commit and the undo client-import-commit.service.ts.
 */

/** The jobs that commit an import's rows and take them back. */
export const CLIENT_IMPORT_JOB = "client-import";
export const CLIENT_IMPORT_UNDO_JOB = "client-import-undo";
export type ClientImportJobData = { firmId: string; importId: string };

/** A list of ids as one PostgreSQL array literal, so a batch is one parameter, not thousands. */
export const pgUuids = (ids: readonly string[]) => `{${ids.join(",")}}`;

// -------------------------------------------------------------------------------------------
// Reading an import

/** GET /api/client-imports: the firm's latest imports, newest first. */
export async function listImports(options: { db: Database; actor: Actor }): Promise<ClientImport[]> {
  const { db, actor } = options;
  const rows = await importsQuery(db, actor.firmId).orderBy(desc(clientImports.createdAt)).limit(20);
  return Promise.all(rows.map((row) => toClientImport(db, row.record, row.fullName)));
}

/** GET /api/client-imports/{id}. */
export async function getImport(options: { db: Database; actor: Actor; importId: string }): Promise<ClientImport> {
  const { db, actor, importId } = options;
  const [row] = await importsQuery(db, actor.firmId, importId);
  if (!row) throw importNotFound();
  return toClientImport(db, row.record, row.fullName);
}

/** GET /api/client-imports/{id}/rows: a page of rows in file order, all of them, those in error, or the duplicates. */
export async function listImportRows(options: {
  db: Database;
  actor: Actor;
  importId: string;
  query: ImportRowsQuery;
}): Promise<{ rows: ImportRow[]; nextCursor: string | null }> {
  const { db, actor, importId, query } = options;
  const [record] = await db
    .select({ id: clientImports.id })
    .from(clientImports)
    .where(and(eq(clientImports.firmId, actor.firmId), eq(clientImports.id, importId)));
  if (!record) throw importNotFound();
  const rows = await rowsPage(db, actor.firmId, importId, query.filter ?? "all", query.cursor ?? 0);
  const more = rows.length > IMPORT_PAGE_ROWS;
  const page = more ? rows.slice(0, IMPORT_PAGE_ROWS) : rows;
  return { rows: page, nextCursor: more ? String(page.at(-1)?.row ?? 0) : null };
}

const importsQuery = (db: DbExecutor, firmId: string, importId?: string) =>
  db
    .select({ record: clientImports, fullName: users.fullName })
    .from(clientImports)
    .innerJoin(users, and(eq(users.firmId, clientImports.firmId), eq(users.id, clientImports.createdBy)))
    .where(and(eq(clientImports.firmId, firmId), importId === undefined ? undefined : eq(clientImports.id, importId)));

async function toClientImport(db: DbExecutor, record: ImportRecord, fullName: string): Promise<ClientImport> {
  // Before the commit, the plan is judged on the rows that would be new whatever the choice for duplicates.
  const problem =
    record.status === "previewed"
      ? await planProblem(db, record.firmId, record.rowCount - record.errorCount - record.duplicateCount)
      : null;
  return {
    id: record.id,
    fileName: record.fileName,
    status: record.status,
    encoding: record.encoding,
    delimiter: record.delimiter,
    headers: record.headers,
    mapping: fitMapping(record.mapping, record.headers.length),
    duplicates: record.duplicates,
    counts: {
      rows: record.rowCount,
      errors: record.errorCount,
      duplicates: record.duplicateCount,
      created: record.createdCount,
      updated: record.updatedCount,
      skipped: record.skippedCount,
    },
    progress: record.progress,
    planProblem: problem,
    error: record.error,
    createdBy: { id: record.createdBy, fullName },
    createdAt: record.createdAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
    undo:
      record.undoRequestedAt === null
        ? null
        : {
            progress: record.undoProgress,
            total: record.createdCount + record.updatedCount,
            removed: record.removedCount,
            archived: record.archivedCount,
            restored: record.restoredCount,
            kept: record.keptCount,
          },
    undoneAt: record.undoneAt?.toISOString() ?? null,
  };
}

async function rowsPage(
  db: DbExecutor,
  firmId: string,
  importId: string,
  filter: "all" | "errors" | "duplicates",
  after: number,
): Promise<ImportRow[]> {
  const rows = await db
    .select()
    .from(clientImportRows)
    .where(
      and(
        eq(clientImportRows.firmId, firmId),
        eq(clientImportRows.importId, importId),
        gt(clientImportRows.rowNumber, after),
        filter === "errors" ? sql`jsonb_array_length(${clientImportRows.errors}) > 0` : undefined,
        filter === "duplicates" ? isNotNull(clientImportRows.matchClientId) : undefined,
      ),
    )
    .orderBy(asc(clientImportRows.rowNumber))
    .limit(IMPORT_PAGE_ROWS + 1);
  return rows.map((row) => ({
    row: row.rowNumber,
    cells: row.cells,
    errors: row.errors,
    match:
      row.matchClientId !== null && row.matchName !== null && row.matchBy !== null
        ? { clientId: row.matchClientId, name: row.matchName, by: row.matchBy }
        : null,
    action: row.action,
  }));
}
