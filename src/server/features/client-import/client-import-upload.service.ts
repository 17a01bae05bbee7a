import { and, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import {
  type ClientImportPreview,
  type FileEncoding,
  type ImportMapping,
  importFieldLabels,
  importFields,
  MAX_IMPORT_ROWS,
  type UpdateImportMappingInput,
} from "../../../shared/client-import";
import type { Database } from "../../platform/db/database";
import { clientImportMappings, clientImportRows, clientImports } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { getImport, listImportRows } from "./client-import.service";
import { detectDelimiter, parseCsv } from "./csv-reader";
import {
  assertPreviewed,
  countsOf,
  evaluateRows,
  INSERT_BATCH,
  liveClients,
  lockedImport,
  matchColumns,
  reevaluate,
  rememberMapping,
} from "./import-records";
import { fitMapping, headerSignature, suggestMapping } from "./import-rows";

/* Uploading a file to import and choosing its mapping: every row kept, checked and matched, until the commit. */

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

async function previewOf(db: Database, actor: Actor, importId: string): Promise<ClientImportPreview> {
  const [record, page] = await Promise.all([
    getImport({ db, actor, importId }),
    listImportRows({ db, actor, importId, query: {} }),
  ]);
  return { import: record, rows: page.rows };
}
