import { and, asc, desc, eq, gt, isNotNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import {
  type ClientImport,
  type ClientImportPreview,
  type CommitImportInput,
  type FileEncoding,
  IMPORT_PAGE_ROWS,
  type ImportMapping,
  type ImportRow,
  type ImportRowError,
  type ImportRowsQuery,
  importFieldLabels,
  importFields,
  MAX_IMPORT_ROWS,
  type UpdateImportMappingInput,
} from "../../../shared/client-import";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clientImportMappings, clientImportRows, clientImports, clients, users } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import type { JobQueue } from "../../platform/jobs/job-queue";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { meterUse } from "../billing/plan-usage";
import { detectDelimiter, parseCsv } from "./csv-reader";
import { checkRow, clientMatcher, fitMapping, headerSignature, importNameKey, suggestMapping } from "./import-rows";

/*
 * Client import (decision 0051). Uploading reads the file, guesses or recalls the mapping, and
 * keeps every row with its errors and the client it matches; the mapping can be changed (every
 * row checked again) until the import is committed. A commit with no row in error queues one job
 * (client-import.job.ts) in its own transaction; an undo queues another (client-import-undo.job.ts)
 * that takes back what the first wrote.
 */

/** The jobs that commit an import's rows and take them back. */
export const CLIENT_IMPORT_JOB = "client-import";
export const CLIENT_IMPORT_UNDO_JOB = "client-import-undo";
export type ClientImportJobData = { firmId: string; importId: string };

/** Rows written to the database per statement when an upload is kept. */
const INSERT_BATCH = 1_000;

type ImportRecord = typeof clientImports.$inferSelect;

const importNotFound = () => new AppError("NOT_FOUND", "Import not found");

/** One row as evaluated under a mapping: its errors (the create's words) and the client it matches. */
type EvaluatedRow = {
  rowNumber: number;
  cells: string[];
  errors: ImportRowError[];
  match: { clientId: string; name: string; by: "name" | "email" } | null;
};

// -------------------------------------------------------------------------------------------
// Reading a file

/** POST /api/client-imports: reads the file, keeps its rows, answers the preview's first page. */
export async function createImport(options: {
  db: Database;
  actor: Actor;
  fileName: string;
  file: { text: string; encoding: FileEncoding };
}): Promise<ClientImportPreview> {
  const { db, actor, fileName, file } = options;
  const delimiter = detectDelimiter(file.text);
  const records = parseCsv(file.text, delimiter);
  const [header, ...body] = records;
  if (!header)
    throw new AppError("BAD_REQUEST", "This file is empty. Choose a CSV file with a header row and a row per client.");
  if (body.length === 0) {
    throw new AppError("BAD_REQUEST", "This file has a header row but no clients below it.");
  }
  if (body.length > MAX_IMPORT_ROWS) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `This file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows. Split it into smaller files and import each.`,
    );
  }
  const width = Math.max(header.cells.length, ...body.map((record) => record.cells.length));
  if (width > 1000)
    throw new AppError("BAD_REQUEST", "This file has more than 1,000 columns; it is not a client list.");
  const headers = Array.from({ length: width }, (_, index) => header.cells[index]?.trim() || `Column ${index + 1}`);
  const signature = headerSignature(headers);
  const id = uuidv7();
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const [remembered] = await tx
      .select({ mapping: clientImportMappings.mapping })
      .from(clientImportMappings)
      .where(and(eq(clientImportMappings.firmId, actor.firmId), eq(clientImportMappings.headerSignature, signature)));
    const mapping = fitMapping(remembered?.mapping ?? suggestMapping(headers), width);
    const rows = evaluateRows(
      body.map((record) => ({ rowNumber: record.row, cells: record.cells })),
      mapping,
      await liveClients(tx, actor.firmId),
    );
    await tx.insert(clientImports).values({
      id,
      firmId: actor.firmId,
      createdBy: actor.userId,
      fileName,
      encoding: file.encoding,
      delimiter,
      headers,
      headerSignature: signature,
      mapping,
      rowCount: rows.length,
      ...countsOf(rows),
    });
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await tx.insert(clientImportRows).values(
        rows.slice(start, start + INSERT_BATCH).map((row) => ({
          firmId: actor.firmId,
          importId: id,
          rowNumber: row.rowNumber,
          cells: row.cells,
          ...matchColumns(row),
        })),
      );
    }
  });
  return previewOf(db, actor, id);
}

/** PUT /api/client-imports/{id}/mapping: every row checked again under the new mapping, which the firm keeps for files like this one. */
export async function setImportMapping(options: {
  db: Database;
  actor: Actor;
  importId: string;
  input: UpdateImportMappingInput;
}): Promise<ClientImportPreview> {
  const { db, actor, importId, input } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const record = await lockedImport(tx, actor.firmId, importId);
    assertPreviewed(record);
    const mapping = checkedMapping(input.mapping, record.headers.length);
    const rows = await reevaluate(tx, record, mapping);
    await tx
      .update(clientImports)
      .set({ mapping, ...countsOf(rows), updatedAt: new Date() })
      .where(and(eq(clientImports.firmId, actor.firmId), eq(clientImports.id, importId)));
    await rememberMapping(tx, actor.firmId, record.headerSignature, mapping);
  });
  return previewOf(db, actor, importId);
}

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

// -------------------------------------------------------------------------------------------
// Commit and undo

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

// -------------------------------------------------------------------------------------------
// Helpers

/** A list of ids as one PostgreSQL array literal, so a batch is one parameter, not thousands. */
export const pgUuids = (ids: readonly string[]) => `{${ids.join(",")}}`;

/** The firm's live clients, as matching reads them. Archived ones are not matched (decision 0051). */
async function liveClients(tx: DbExecutor, firmId: string) {
  return tx
    .select({ id: clients.id, name: clients.name, email: clients.email })
    .from(clients)
    .where(and(eq(clients.firmId, firmId), sql`${clients.archivedAt} is null`))
    .orderBy(asc(clients.createdAt), asc(clients.id));
}

/**
 * Every row checked under `mapping` and matched against the firm's clients. Two rows of one file
 * naming the same client (by name, or matching the same one) are an error on the later: which of
 * them should win is for the file's owner to say.
 */
function evaluateRows(
  rows: { rowNumber: number; cells: string[] }[],
  mapping: ImportMapping,
  existing: Awaited<ReturnType<typeof liveClients>>,
): EvaluatedRow[] {
  const match = clientMatcher(existing);
  const seenNames = new Map<string, number>();
  const seenClients = new Map<string, number>();
  return rows.map(({ rowNumber, cells }) => {
    const checked = checkRow(cells, mapping);
    if (checked.input === null) return { rowNumber, cells, errors: checked.errors, match: null };
    const key = importNameKey(checked.input.name);
    const earlier = seenNames.get(key);
    if (earlier !== undefined) {
      return {
        rowNumber,
        cells,
        errors: [{ field: "name", message: `This client is also on row ${earlier} of this file` }],
        match: null,
      };
    }
    seenNames.set(key, rowNumber);
    const found = match(checked.input);
    const matchedBefore = found ? seenClients.get(found.clientId) : undefined;
    if (found && matchedBefore !== undefined) {
      return {
        rowNumber,
        cells,
        errors: [{ field: "name", message: `Row ${matchedBefore} of this file already matches ${found.name}` }],
        match: null,
      };
    }
    if (found) seenClients.set(found.clientId, rowNumber);
    return { rowNumber, cells, errors: [], match: found };
  });
}

const matchColumns = (row: EvaluatedRow) => ({
  errors: row.errors,
  matchClientId: row.match?.clientId ?? null,
  matchName: row.match?.name ?? null,
  matchBy: row.match?.by ?? null,
});

function countsOf(rows: EvaluatedRow[]) {
  return {
    errorCount: rows.filter((row) => row.errors.length > 0).length,
    duplicateCount: rows.filter((row) => row.match !== null).length,
  };
}

/** Every row of an import checked again under `mapping`, and kept so. */
async function reevaluate(tx: DbExecutor, record: ImportRecord, mapping: ImportMapping): Promise<EvaluatedRow[]> {
  const stored = await tx
    .select({ rowNumber: clientImportRows.rowNumber, cells: clientImportRows.cells })
    .from(clientImportRows)
    .where(and(eq(clientImportRows.firmId, record.firmId), eq(clientImportRows.importId, record.id)))
    .orderBy(asc(clientImportRows.rowNumber));
  const rows = evaluateRows(stored, mapping, await liveClients(tx, record.firmId));
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = rows.slice(start, start + INSERT_BATCH).map((row) => ({ row: row.rowNumber, ...matchColumns(row) }));
    await tx.execute(sql`
      update client_import_rows r
      set errors = v."errors", match_client_id = v."matchClientId", match_name = v."matchName", match_by = v."matchBy"
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
        as v(row integer, "errors" jsonb, "matchClientId" uuid, "matchName" text, "matchBy" text)
      where r.firm_id = ${record.firmId} and r.import_id = ${record.id} and r.row_number = v.row`);
  }
  return rows;
}

/** A mapping as sent, checked against the file: the company name is needed, and only columns it has. */
function checkedMapping(mapping: ImportMapping, width: number): ImportMapping {
  for (const field of importFields) {
    const column = mapping[field];
    if (column !== undefined && column !== null && column >= width) {
      throw fieldError(
        `mapping.${field}`,
        `${importFieldLabels[field]}: the file has ${width} ${width === 1 ? "column" : "columns"}, so there is no column ${column + 1}`,
      );
    }
  }
  if (mapping.name === undefined || mapping.name === null) {
    throw fieldError("mapping.name", "Choose the column that holds the company name");
  }
  return fitMapping(mapping, width);
}

async function rememberMapping(tx: DbExecutor, firmId: string, signature: string, mapping: ImportMapping) {
  await tx
    .insert(clientImportMappings)
    .values({ firmId, headerSignature: signature, mapping })
    .onConflictDoUpdate({
      target: [clientImportMappings.firmId, clientImportMappings.headerSignature],
      set: { mapping, updatedAt: new Date() },
    });
}

async function lockedImport(tx: DbExecutor, firmId: string, importId: string): Promise<ImportRecord> {
  const [record] = await tx
    .select()
    .from(clientImports)
    .where(and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId)))
    .for("update");
  if (!record) throw importNotFound();
  return record;
}

function assertPreviewed(record: ImportRecord) {
  if (record.status === "previewed") return;
  throw new AppError(
    "CONFLICT",
    record.status === "undone"
      ? "This import has been undone. Upload the file again to import it anew."
      : "This import has already been committed; its mapping and rows can no longer change.",
  );
}

/** The plan's words when adding `creating` clients would take the firm past its limit, or null. */
async function planProblem(tx: DbExecutor, firmId: string, creating: number): Promise<string | null> {
  const { plan, limit, used } = await meterUse(tx, firmId, "clients");
  if (limit === null || used + creating <= limit) return null;
  return (
    `Your ${plan.name} plan allows up to ${limit} clients and your firm has ${used}, so this import cannot add ` +
    `${creating}. Upgrade your plan, or import at most ${Math.max(0, limit - used)} new clients.`
  );
}

async function assertPlanRoom(tx: DbExecutor, firmId: string, creating: number) {
  const problem = await planProblem(tx, firmId, creating);
  if (problem !== null) throw new AppError("FORBIDDEN", problem);
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

async function previewOf(db: Database, actor: Actor, importId: string): Promise<ClientImportPreview> {
  const [record, page] = await Promise.all([
    getImport({ db, actor, importId }),
    listImportRows({ db, actor, importId, query: {} }),
  ]);
  return { import: record, rows: page.rows };
}
