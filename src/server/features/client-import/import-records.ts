import { and, asc, eq, sql } from "drizzle-orm";
import type { ImportMapping, ImportRowError } from "../../../shared/client-import";
import type { DbExecutor } from "../../platform/db/database";
import { clientImportMappings, clientImportRows, clientImports, clients } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { meterUse } from "../billing/plan-usage";
import { checkRow, clientMatcher, importNameKey } from "./import-rows";

/*
 * What the import's operations share: its record, locked for a change, and its rows as evaluated
 * under a mapping against the firm's clients, kept with their errors and matches.
 */

/** Rows written to the database per statement when an upload is kept. */
export const INSERT_BATCH = 1_000;

export type ImportRecord = typeof clientImports.$inferSelect;

export const importNotFound = () => new AppError("NOT_FOUND", "Import not found");

/** One row as evaluated under a mapping: its errors (the create's words) and the client it matches. */
export type EvaluatedRow = {
  rowNumber: number;
  cells: string[];
  errors: ImportRowError[];
  match: { clientId: string; name: string; by: "name" | "email" } | null;
};

/** The firm's live clients, as matching reads them. Archived ones are not matched (decision 0051). */
export async function liveClients(tx: DbExecutor, firmId: string) {
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
export function evaluateRows(
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

export const matchColumns = (row: EvaluatedRow) => ({
  errors: row.errors,
  matchClientId: row.match?.clientId ?? null,
  matchName: row.match?.name ?? null,
  matchBy: row.match?.by ?? null,
});

export function countsOf(rows: EvaluatedRow[]) {
  return {
    errorCount: rows.filter((row) => row.errors.length > 0).length,
    duplicateCount: rows.filter((row) => row.match !== null).length,
  };
}

/** Every row of an import checked again under `mapping`, and kept so. */
export async function reevaluate(
  tx: DbExecutor,
  record: ImportRecord,
  mapping: ImportMapping,
): Promise<EvaluatedRow[]> {
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

export async function rememberMapping(tx: DbExecutor, firmId: string, signature: string, mapping: ImportMapping) {
  await tx
    .insert(clientImportMappings)
    .values({ firmId, headerSignature: signature, mapping })
    .onConflictDoUpdate({
      target: [clientImportMappings.firmId, clientImportMappings.headerSignature],
      set: { mapping, updatedAt: new Date() },
    });
}

export async function lockedImport(tx: DbExecutor, firmId: string, importId: string): Promise<ImportRecord> {
  const [record] = await tx
    .select()
    .from(clientImports)
    .where(and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId)))
    .for("update");
  if (!record) throw importNotFound();
  return record;
}

export function assertPreviewed(record: ImportRecord) {
  if (record.status === "previewed") return;
  throw new AppError(
    "CONFLICT",
    record.status === "undone"
      ? "This import has been undone. Upload the file again to import it anew."
      : "This import has already been committed; its mapping and rows can no longer change.",
  );
}

/** The plan's words when adding `creating` clients would take the firm past its limit, or null. */
export async function planProblem(tx: DbExecutor, firmId: string, creating: number): Promise<string | null> {
  const { plan, limit, used } = await meterUse(tx, firmId, "clients");
  if (limit === null || used + creating <= limit) return null;
  return (
    `Your ${plan.name} plan allows up to ${limit} clients and your firm has ${used}, so this import cannot add ` +
    `${creating}. Upgrade your plan, or import at most ${Math.max(0, limit - used)} new clients.`
  );
}
