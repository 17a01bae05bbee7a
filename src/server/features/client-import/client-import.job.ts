import { and, asc, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { v7 as uuidv7 } from "uuid";
import type { ImportField, ImportMapping } from "../../../shared/client-import";
import type { CreateClientInput } from "../../../shared/clients";
import { isDatabaseUnreachable } from "../../platform/db/availability";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inFirm } from "../../platform/db/firm-scope";
import { clientImportChanges, clientImportRows, clientImports, clients, contacts } from "../../platform/db/schema";
import type { JobKind } from "../../platform/jobs/job-queue";
import { lockFirm } from "../../tenancy/firm-lock";
import { CLIENT_IMPORT_JOB, type ClientImportJobData, pgUuids } from "./client-import.service";
import { checkRow } from "./import-rows";

/*
 * The commit of an import (decision 0051): its rows in batches, each batch one transaction that
 * writes the clients and contacts, records each change with its before-image, marks the rows
 * done and moves the import's progress, so progress shows while it runs and a run repeated after
 * a crash carries on from the first row not done, writing nothing twice.
 */

/** Rows per batch: large enough for few round trips, small enough that progress moves every second or so. */
export const IMPORT_BATCH = 500;

export function clientImportJob(options: { db: Database; log: Logger }): JobKind {
  return importJobKind(CLIENT_IMPORT_JOB, options.log, "client import: done", (data) =>
    runClientImport({ db: options.db, data }),
  );
}

/** A kind of job on one import (its commit, its undo): queued by its route, logged when it did something. */
export function importJobKind(
  name: string,
  log: Logger,
  done: string,
  run: (data: ClientImportJobData) => Promise<Record<string, number> | null>,
): JobKind {
  return {
    name,
    policy: "standard",
    retryLimit: 3,
    retryDelaySeconds: 10,
    expireSeconds: 30 * 60,
    run: async (data) => {
      const { firmId, importId } = data as Partial<ClientImportJobData>;
      if (typeof firmId !== "string" || typeof importId !== "string") return;
      const result = await run({ firmId, importId });
      if (result) log.info({ importId, ...result }, done);
    },
  };
}

type Counts = { created: number; updated: number; skipped: number };

/**
 * Runs an import's commit to the end; harmless to repeat (a finished or undone import is left
 * alone, a part-done one continues). A failure other than the database being unreachable marks
 * the import failed, with what was written so far undoable; an unreachable database is retried.
 */
export async function runClientImport(options: {
  db: Database;
  data: ClientImportJobData;
  batchSize?: number;
}): Promise<Counts | null> {
  const { firmId, importId } = options.data;
  const db = inFirm(options.db, firmId);
  const thisImport = and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId));
  const [record] = await db.select().from(clientImports).where(thisImport);
  if (!record || (record.status !== "queued" && record.status !== "running")) return null;
  await db
    .update(clientImports)
    .set({ status: "running", updatedAt: new Date() })
    .where(and(thisImport, eq(clientImports.status, "queued")));
  const total = await inBatches({
    db,
    thisImport,
    zero: { created: 0, updated: 0, skipped: 0 },
    batch: (tx) =>
      commitBatch(tx, { firmId, importId, mapping: record.mapping, size: options.batchSize ?? IMPORT_BATCH }),
    failed: { error: "The import stopped unexpectedly. What it wrote so far can be undone.", finishes: true },
  });
  await db
    .update(clientImports)
    .set({ status: "done", finishedAt: new Date(), updatedAt: new Date() })
    .where(and(thisImport, eq(clientImports.status, "running")));
  return total;
}

/**
 * Runs an import's job (its commit, or its undo) batch after batch, each in a transaction of its
 * own, until one finds nothing left, and sums their counts. A failure other than the database
 * being unreachable marks the import failed, with `failed.error` saying what the firm can do
 * (the cause goes to the log: pg-boss records the job's failure), and is thrown on; an
 * unreachable database is thrown on for the queue to retry.
 */
export async function inBatches<Counts extends Record<string, number>>(options: {
  db: Database;
  thisImport: SQL | undefined;
  zero: Counts;
  batch: (tx: DbExecutor) => Promise<Counts | null>;
  /** What the firm is told; `finishes`: the failure is the import's finish (a commit's, not an undo's). */
  failed: { error: string; finishes?: boolean };
}): Promise<Counts> {
  const total: Record<string, number> = { ...options.zero };
  try {
    for (;;) {
      const counts = await options.db.transaction(options.batch);
      if (counts === null) return total as Counts;
      for (const [key, value] of Object.entries(counts)) total[key] = (total[key] ?? 0) + value;
    }
  } catch (error) {
    if (isDatabaseUnreachable(error)) throw error;
    await options.db
      .update(clientImports)
      .set({
        status: "failed",
        error: options.failed.error,
        ...(options.failed.finishes ? { finishedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(options.thisImport);
    throw error;
  }
}

type Row = typeof clientImportRows.$inferSelect;

/** One batch of rows not yet done, in one transaction; null when none are left. */
async function commitBatch(
  tx: DbExecutor,
  options: { firmId: string; importId: string; mapping: ImportMapping; size: number },
): Promise<Counts | null> {
  const { firmId, importId, mapping } = options;
  await lockFirm(tx, firmId);
  const rows = await tx
    .select()
    .from(clientImportRows)
    .where(
      and(
        eq(clientImportRows.firmId, firmId),
        eq(clientImportRows.importId, importId),
        eq(clientImportRows.done, false),
        isNotNull(clientImportRows.action),
      ),
    )
    .orderBy(asc(clientImportRows.rowNumber))
    .limit(options.size)
    .for("update", { skipLocked: true });
  if (rows.length === 0) return null;
  const planned = rows.map((row) => ({ row, input: checkRow(row.cells, mapping).input }));
  const creates = planned.filter(
    (each): each is { row: Row; input: CreateClientInput } => each.row.action === "create" && each.input !== null,
  );
  const updates = planned.filter(
    (each): each is { row: Row & { matchClientId: string }; input: CreateClientInput } =>
      each.row.action === "update" && each.input !== null && each.row.matchClientId !== null,
  );
  const created = await createClients(tx, { firmId, importId, creates });
  const updated = await updateClients(tx, { firmId, importId, mapping, updates });
  const counts = { created, updated, skipped: rows.length - created - updated };
  await tx
    .update(clientImportRows)
    .set({ done: true })
    .where(
      and(
        eq(clientImportRows.firmId, firmId),
        eq(clientImportRows.importId, importId),
        inArray(
          clientImportRows.rowNumber,
          rows.map((row) => row.rowNumber),
        ),
      ),
    );
  await tx
    .update(clientImports)
    .set({
      progress: sql`${clientImports.progress} + ${rows.length}`,
      createdCount: sql`${clientImports.createdCount} + ${counts.created}`,
      updatedCount: sql`${clientImports.updatedCount} + ${counts.updated}`,
      skippedCount: sql`${clientImports.skippedCount} + ${counts.skipped}`,
      updatedAt: new Date(),
    })
    .where(and(eq(clientImports.firmId, firmId), eq(clientImports.id, importId)));
  return counts;
}

async function createClients(
  tx: DbExecutor,
  options: { firmId: string; importId: string; creates: { row: Row; input: CreateClientInput }[] },
): Promise<number> {
  const { firmId, importId, creates } = options;
  if (creates.length === 0) return 0;
  const made = creates.map(({ row, input }) => ({
    row,
    input,
    clientId: uuidv7(),
    contactId: input.primaryContact ? uuidv7() : null,
  }));
  await tx.insert(clients).values(
    made.map(({ input, clientId }) => ({
      id: clientId,
      firmId,
      name: input.name,
      industry: input.industry,
      address: input.address,
      phone: input.phone,
      email: input.email,
      status: input.status,
    })),
  );
  const withContact = made.filter((each) => each.contactId !== null && each.input.primaryContact);
  if (withContact.length > 0) {
    await tx.insert(contacts).values(
      withContact.map(({ input, clientId, contactId }) => ({
        id: contactId ?? uuidv7(),
        firmId,
        clientId,
        name: input.primaryContact?.name ?? "",
        title: input.primaryContact?.title,
        phone: input.primaryContact?.phone,
        email: input.primaryContact?.email,
        isPrimary: true,
      })),
    );
  }
  await tx.insert(clientImportChanges).values(
    made.map(({ row, clientId, contactId }) => ({
      firmId,
      importId,
      rowNumber: row.rowNumber,
      clientId,
      action: "created" as const,
      clientVersionAfter: 1,
      contactId,
      contactVersionAfter: contactId === null ? null : 1,
    })),
  );
  return made.length;
}

/** The fields a row gives a value for: an update changes those and leaves the rest as they are. */
function given(cells: readonly string[], mapping: ImportMapping, field: ImportField): boolean {
  const column = mapping[field];
  return column !== undefined && column !== null && (cells[column] ?? "").trim() !== "";
}

async function updateClients(
  tx: DbExecutor,
  options: {
    firmId: string;
    importId: string;
    mapping: ImportMapping;
    updates: { row: Row & { matchClientId: string }; input: CreateClientInput }[];
  },
): Promise<number> {
  const { firmId, importId, mapping } = options;
  if (options.updates.length === 0) return 0;
  const ids = options.updates.map((each) => each.row.matchClientId);
  // The before-images, locked: a client archived or removed since the commit is skipped.
  const before = await tx.execute<{ id: string; row: unknown }>(sql`
    select c.id, to_jsonb(c) as row from clients c
    where c.firm_id = ${firmId} and c.id = any(${pgUuids(ids)}::uuid[]) and c.archived_at is null
    for update`);
  const clientBefore = new Map(before.rows.map((row) => [row.id, row.row]));
  const updates = options.updates.filter((each) => clientBefore.has(each.row.matchClientId));
  if (updates.length === 0) return 0;
  const primaries = await tx.execute<{ client_id: string; id: string; row: unknown }>(sql`
    select k.client_id, k.id, to_jsonb(k) as row from contacts k
    where k.firm_id = ${firmId} and k.client_id = any(${pgUuids(ids)}::uuid[]) and k.is_primary
    for update`);
  const primaryOf = new Map(primaries.rows.map((row) => [row.client_id, row]));

  const value = (each: (typeof updates)[number], field: ImportField, of: string | null | undefined) =>
    given(each.row.cells, mapping, field) ? (of ?? null) : null;
  const patch = updates.map((each) => ({
    id: each.row.matchClientId,
    name: each.input.name,
    industry: value(each, "industry", each.input.industry),
    address: value(each, "address", each.input.address),
    phone: value(each, "phone", each.input.phone),
    email: value(each, "email", each.input.email),
    status: value(each, "status", each.input.status),
  }));
  const changed = await tx.execute<{ id: string; version: number }>(sql`
    update clients c set name = v.name, industry = coalesce(v.industry, c.industry),
      address = coalesce(v.address, c.address), phone = coalesce(v.phone, c.phone),
      email = coalesce(v.email, c.email), status = coalesce(v.status, c.status), updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(patch)}::jsonb)
      as v(id uuid, name text, industry text, address text, phone text, email text, status text)
    where c.firm_id = ${firmId} and c.id = v.id
    returning c.id, c.version`);
  const versionAfter = new Map(changed.rows.map((row) => [row.id, row.version]));

  // The primary contact: changed where the client has one, added where it has none.
  const withContact = updates.filter((each) => each.input.primaryContact);
  const contactPatch = withContact
    .filter((each) => primaryOf.has(each.row.matchClientId))
    .map((each) => ({
      id: primaryOf.get(each.row.matchClientId)?.id,
      name: each.input.primaryContact?.name ?? null,
      title: value(each, "contactTitle", each.input.primaryContact?.title),
      phone: value(each, "contactPhone", each.input.primaryContact?.phone),
      email: value(each, "contactEmail", each.input.primaryContact?.email),
    }));
  const contactVersion = new Map<string, number>();
  if (contactPatch.length > 0) {
    const changedContacts = await tx.execute<{ id: string; version: number }>(sql`
      update contacts k set name = coalesce(v.name, k.name), title = coalesce(v.title, k.title),
        phone = coalesce(v.phone, k.phone), email = coalesce(v.email, k.email), updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(contactPatch)}::jsonb)
        as v(id uuid, name text, title text, phone text, email text)
      where k.firm_id = ${firmId} and k.id = v.id
      returning k.id, k.version`);
    for (const row of changedContacts.rows) contactVersion.set(row.id, row.version);
  }
  const added = withContact
    .filter((each) => !primaryOf.has(each.row.matchClientId))
    .map((each) => ({ clientId: each.row.matchClientId, id: uuidv7(), contact: each.input.primaryContact }));
  if (added.length > 0) {
    await tx.insert(contacts).values(
      added.map(({ clientId, id, contact }) => ({
        id,
        firmId,
        clientId,
        name: contact?.name ?? "",
        title: contact?.title,
        phone: contact?.phone,
        email: contact?.email,
        isPrimary: true,
      })),
    );
    for (const { id } of added) contactVersion.set(id, 1);
  }
  const addedTo = new Map(added.map((each) => [each.clientId, each.id]));

  await tx.insert(clientImportChanges).values(
    updates.map((each) => {
      const clientId = each.row.matchClientId;
      const primary = each.input.primaryContact ? primaryOf.get(clientId) : undefined;
      const contactId = primary?.id ?? addedTo.get(clientId) ?? null;
      return {
        firmId,
        importId,
        rowNumber: each.row.rowNumber,
        clientId,
        action: "updated" as const,
        clientBefore: clientBefore.get(clientId),
        clientVersionAfter: versionAfter.get(clientId) ?? 0,
        contactId,
        contactBefore: primary?.row ?? null,
        contactVersionAfter: contactId === null ? null : (contactVersion.get(contactId) ?? null),
      };
    }),
  );
  return updates.length;
}
