import { createHash } from "node:crypto";
import { type ImportField, type ImportMapping, type ImportRowError, importFields } from "../../../shared/client-import";
import { type CreateClientInput, clientStatuses, createClientSchema } from "../../../shared/clients";

/*
 * From a file's cells to a client (decision 0051): which column holds which field, each row
 * checked by POST /api/clients's own schema (so a row's errors read exactly as the New Client
 * form's do), and the key two clients' names are "the same" by.
 */

/** What a header is likely to be called, for each field; compared as nameKey compares names. */
const headerWords: Record<ImportField, string[]> = {
  name: ["company name", "company", "client name", "client", "name", "organisation", "organization", "business name"],
  industry: ["industry", "sector"],
  address: ["address", "street address", "mailing address"],
  phone: ["phone", "telephone", "phone number", "company phone", "tel"],
  email: ["email", "e mail", "email address", "company email"],
  status: ["status", "client status"],
  contactName: ["contact name", "contact", "primary contact", "contact person"],
  contactTitle: ["contact title", "title", "job title", "position"],
  contactPhone: ["contact phone", "mobile", "contact telephone"],
  contactEmail: ["contact email", "contact e mail"],
};

/**
 * The same name for the firm's purposes, for matching an import against its clients: case,
 * accents' forms (NFKC), punctuation, symbols and runs of spaces ignored, so "ACME, Ltd." and
 * "acme ltd" are one name.
 */
export const importNameKey = (name: string): string =>
  name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

export const emailKey = (email: string): string => email.trim().toLowerCase();

/** The headers as one key: the same columns in the same order find the same remembered mapping. */
export const headerSignature = (headers: readonly string[]): string =>
  createHash("sha256")
    .update(JSON.stringify(headers.map(importNameKey)))
    .digest("hex");

/** A first guess at the mapping from the header names; each column given to one field at most. */
export function suggestMapping(headers: readonly string[]): ImportMapping {
  const keys = headers.map(importNameKey);
  const taken = new Set<number>();
  const mapping: ImportMapping = {};
  for (const field of importFields) {
    const index = headerWords[field]
      .map((word) => keys.findIndex((key, column) => key === word && !taken.has(column)))
      .find((column) => column >= 0);
    mapping[field] = index ?? null;
    if (index !== undefined) taken.add(index);
  }
  return mapping;
}

/** A remembered or sent mapping, kept to columns the file has. */
export function fitMapping(mapping: ImportMapping, width: number): ImportMapping {
  const fitted: ImportMapping = {};
  for (const field of importFields) {
    const column = mapping[field];
    fitted[field] = column !== undefined && column !== null && column < width ? column : null;
  }
  return fitted;
}

export type CheckedRow = { input: CreateClientInput | null; errors: ImportRowError[] };

const contactFields = ["contactName", "contactTitle", "contactPhone", "contactEmail"] as const;
const schemaPathToField: Record<string, ImportField> = {
  name: "name",
  industry: "industry",
  address: "address",
  phone: "phone",
  email: "email",
  status: "status",
  "primaryContact.name": "contactName",
  "primaryContact.title": "contactTitle",
  "primaryContact.phone": "contactPhone",
  "primaryContact.email": "contactEmail",
};

/**
 * One row as the create would take it, or its errors in the create schema's words. An empty cell
 * is no value; a status is read ignoring case ("Active"); the contact is made only when one of
 * its cells has something in it, and then needs its name.
 */
export function checkRow(cells: readonly string[], mapping: ImportMapping): CheckedRow {
  const cell = (field: ImportField): string | undefined => {
    const column = mapping[field];
    if (column === undefined || column === null) return undefined;
    const value = cells[column] ?? "";
    return value.trim() === "" ? undefined : value;
  };
  const status = cell("status")?.trim().toLowerCase();
  const hasContact = contactFields.some((field) => cell(field) !== undefined);
  const candidate = {
    name: cell("name") ?? "",
    industry: cell("industry"),
    address: cell("address"),
    phone: cell("phone"),
    email: cell("email"),
    ...(status === undefined
      ? {}
      : { status: (clientStatuses as readonly string[]).includes(status) ? status : cell("status") }),
    ...(hasContact
      ? {
          primaryContact: {
            name: cell("contactName") ?? "",
            title: cell("contactTitle"),
            phone: cell("contactPhone"),
            email: cell("contactEmail"),
          },
        }
      : {}),
  };
  const parsed = createClientSchema.safeParse(candidate);
  if (parsed.success) return { input: parsed.data, errors: [] };
  const errors: ImportRowError[] = [];
  for (const issue of parsed.error.issues) {
    const field = schemaPathToField[issue.path.join(".")];
    if (field && !errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
  }
  return { input: null, errors };
}

/** A client of the firm as matching reads it. */
export type ExistingClient = { id: string; name: string; email: string | null };

export type Match = { clientId: string; name: string; by: "name" | "email" };

/** Finds a row's client among the firm's: by the name's key first, then by e-mail. */
export function clientMatcher(existing: readonly ExistingClient[]) {
  const byName = new Map<string, ExistingClient>();
  const byEmail = new Map<string, ExistingClient>();
  for (const client of existing) {
    const key = importNameKey(client.name);
    if (!byName.has(key)) byName.set(key, client);
    if (client.email) {
      const email = emailKey(client.email);
      if (!byEmail.has(email)) byEmail.set(email, client);
    }
  }
  return (input: Pick<CreateClientInput, "name" | "email">): Match | null => {
    const named = byName.get(importNameKey(input.name));
    if (named) return { clientId: named.id, name: named.name, by: "name" };
    const mailed = input.email ? byEmail.get(emailKey(input.email)) : undefined;
    return mailed ? { clientId: mailed.id, name: mailed.name, by: "email" } : null;
  };
}
