import { z } from "zod";
import "./validation";

/*
 * Client import from CSV (decision 0051): a file of clients and their primary contacts is read,
 * mapped onto our fields, checked row by row with the create schema's own messages, matched
 * against the firm's clients, committed by one background job and undone as a whole.
 */

/** The largest file taken (the request body), and the most rows in it. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 20_000;
/** Rows on one page of a preview. */
export const IMPORT_PAGE_ROWS = 100;

/** The fields a column can be mapped to: the client's, then its primary contact's. */
export const importFields = [
  "name",
  "industry",
  "address",
  "phone",
  "email",
  "status",
  "contactName",
  "contactTitle",
  "contactPhone",
  "contactEmail",
] as const;
export type ImportField = (typeof importFields)[number];

export const importFieldLabels: Record<ImportField, string> = {
  name: "Company name",
  industry: "Industry",
  address: "Address",
  phone: "Phone",
  email: "Email",
  status: "Status",
  contactName: "Contact name",
  contactTitle: "Contact title",
  contactPhone: "Contact phone",
  contactEmail: "Contact email",
};

/** What to do with a row whose client the firm already has. */
export const duplicateChoices = ["skip", "update", "create"] as const;
export type DuplicateChoice = (typeof duplicateChoices)[number];

/** `undoing`: an undo asked for, its job at work until the import is `undone`. */
export const importStatuses = ["previewed", "queued", "running", "done", "failed", "undoing", "undone"] as const;
export type ImportStatus = (typeof importStatuses)[number];

export const fileEncodings = ["utf-8", "utf-8-bom", "windows-1252"] as const;
export type FileEncoding = (typeof fileEncodings)[number];
export const encodingLabels: Record<FileEncoding, string> = {
  "utf-8": "UTF-8",
  "utf-8-bom": "UTF-8 (with BOM)",
  "windows-1252": "Windows-1252 (Excel)",
};

export const delimiters = [",", ";", "\t"] as const;
export type Delimiter = (typeof delimiters)[number];
export const delimiterLabels: Record<Delimiter, string> = { ",": "comma", ";": "semicolon", "\t": "tab" };

/** Which column of the file each field reads (0-based), or null for none. Company name is required. */
export const importMappingSchema = z.strictObject(
  Object.fromEntries(
    importFields.map((field) => [
      field,
      z
        .number({ error: `${importFieldLabels[field]} must be a column number or null` })
        .int(`${importFieldLabels[field]} must be a column number or null`)
        .min(0, `${importFieldLabels[field]} must be a column number or null`)
        .max(999, `${importFieldLabels[field]} must be a column number or null`)
        .nullable()
        .optional(),
    ]),
  ) as Record<ImportField, z.ZodOptional<z.ZodNullable<z.ZodNumber>>>,
);
export type ImportMapping = Partial<Record<ImportField, number | null>>;

/** PUT /api/client-imports/{id}/mapping. */
export const updateImportMappingSchema = z.strictObject({ mapping: importMappingSchema });
export type UpdateImportMappingInput = z.infer<typeof updateImportMappingSchema>;

/** POST /api/client-imports/{id}/commit. */
export const commitImportSchema = z.strictObject({
  duplicates: z.enum(duplicateChoices, { error: "duplicates must be skip, update or create" }),
});
export type CommitImportInput = z.infer<typeof commitImportSchema>;

/** Query of POST /api/client-imports: the file's name, as the browser gave it. */
export const createImportQuerySchema = z.strictObject({
  fileName: z
    .string()
    .trim()
    .min(1, "fileName is required")
    .max(255, "fileName must be at most 255 characters")
    .default("clients.csv"),
});

/** Query of GET /api/client-imports/{id}/rows. */
export const importRowsQuerySchema = z.strictObject({
  filter: z.enum(["all", "errors", "duplicates"], { error: "filter must be all, errors or duplicates" }).optional(),
  cursor: z.coerce
    .number({ error: "cursor must be a row number" })
    .int("cursor must be a row number")
    .min(0, "cursor must be a row number")
    .max(1_000_000, "cursor must be a row number")
    .optional(),
});
export type ImportRowsQuery = z.infer<typeof importRowsQuerySchema>;

// -------------------------------------------------------------------------------------------
// Answers

export const importRowErrorSchema = z.object({ field: z.enum(importFields), message: z.string() });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/** One row of the file as the preview shows it: its cells, its errors, the client it matches. */
export const importRowSchema = z.object({
  /** The row's number in the file as a spreadsheet counts it (the header is row 1). */
  row: z.number().int(),
  cells: z.array(z.string()),
  errors: z.array(importRowErrorSchema),
  match: z.object({ clientId: z.uuid(), name: z.string(), by: z.enum(["name", "email"]) }).nullable(),
  /** What the commit did with it: null until then. */
  action: z.enum(["create", "update", "skip"]).nullable(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

const countsSchema = z.object({
  rows: z.number().int(),
  errors: z.number().int(),
  duplicates: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
});

/** An undo's job at work or done: the import's changes taken back so far, and what became of their clients. */
const undoSchema = z.object({
  /** Changes taken back so far, of `total` (the clients the import created or updated). */
  progress: z.number().int(),
  total: z.number().int(),
  removed: z.number().int(),
  /** Created clients that had gained work since: archived, keeping it. */
  archived: z.number().int(),
  restored: z.number().int(),
  /** Updated clients changed again since the import: left as they are now. */
  kept: z.number().int(),
});
export type ImportUndo = z.infer<typeof undoSchema>;

/** An import as GET /api/client-imports/{id} and the list answer it. */
export const clientImportSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  status: z.enum(importStatuses),
  encoding: z.enum(fileEncodings),
  delimiter: z.enum(delimiters),
  headers: z.array(z.string()),
  mapping: importMappingSchema,
  duplicates: z.enum(duplicateChoices).nullable(),
  counts: countsSchema,
  /** Rows the commit has worked through so far, of counts.rows. */
  progress: z.number().int(),
  /** Why the plan refuses this import as it stands, or null. */
  planProblem: z.string().nullable(),
  /** What went wrong, for a failed import. */
  error: z.string().nullable(),
  createdBy: z.object({ id: z.uuid(), fullName: z.string() }),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  /** Its undo, once asked for; null before. */
  undo: undoSchema.nullable(),
  undoneAt: z.iso.datetime().nullable(),
});
export type ClientImport = z.infer<typeof clientImportSchema>;

/** POST and PUT mapping answer the import with the first page of its rows. */
export const clientImportPreviewSchema = z.object({
  import: clientImportSchema,
  rows: z.array(importRowSchema),
});
export type ClientImportPreview = z.infer<typeof clientImportPreviewSchema>;
