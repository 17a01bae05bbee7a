import { z } from "zod";
import { usStateCodes } from "./due-dates";
import { roles } from "./roles";
import { taskSchema } from "./tasks";
import { versionSchema } from "./versions";
import "./validation";

export const clientStatuses = ["active", "inactive", "prospect"] as const;
export type ClientStatus = (typeof clientStatuses)[number];

/*
 * One schema per operation, shared by the forms and the routes; messages are S-VAL-09..15's.
 * Optional text fields accept a value, "", null or nothing, and store "" as null.
 */

/** "" and null both mean "no value"; a field left out stays out, so a change touches only what it names. */
function emptyAsNull(value: string | null | undefined): string | null | undefined {
  return value === undefined ? undefined : value || null;
}

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform(emptyAsNull);

/** "A valid address or empty" (S-VAL-10, S-VAL-14), for clients and contacts alike. */
const optionalEmail = z
  .string({ error: "Invalid email address" })
  .trim()
  .max(254, "Invalid email address")
  .refine((value) => value === "" || z.regexes.email.test(value), "Invalid email address")
  .nullish()
  .transform(emptyAsNull);

// -------------------------------------------------------------------------------------------
// What statutory due dates need to know of a client (decision 0053): when its tax year ends, what
// kind of filer it is, whose law it files under and, in the US, its state.

export const entityTypes = [
  "individual",
  "sole_proprietor",
  "partnership",
  "s_corporation",
  "c_corporation",
  "limited_company",
  "trust_or_estate",
  "nonprofit",
  "other",
] as const;
export type EntityType = (typeof entityTypes)[number];

export const entityTypeLabels: Record<EntityType, string> = {
  individual: "Individual",
  sole_proprietor: "Sole proprietor or sole trader",
  partnership: "Partnership",
  s_corporation: "S corporation",
  c_corporation: "C corporation",
  limited_company: "Limited company",
  trust_or_estate: "Trust or estate",
  nonprofit: "Nonprofit",
  other: "Other",
};

export const taxJurisdictions = ["US", "UK"] as const;
export type TaxJurisdiction = (typeof taxJurisdictions)[number];
export const taxJurisdictionLabels: Record<TaxJurisdiction, string> = { US: "United States", UK: "United Kingdom" };

const daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** "12-31": a month and day as MM-DD (29 February stands for February's last day). */
export function isMonthDay(value: string): boolean {
  const match = /^(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[1]);
  const day = Number(match[2]);
  return month >= 1 && month <= 12 && day >= 1 && day <= (daysInMonth[month - 1] ?? 0);
}

const fiscalYearEndMessage = "Fiscal year end must be a month and day written MM-DD, such as 12-31";
const stateMessage = "State must be a US state's two-letter code, such as MA";

/** The tax fields, each optional; "" and null clear one. A state belongs to a US client only (checked with the rest). */
const taxFields = {
  fiscalYearEnd: z
    .string({ error: fiscalYearEndMessage })
    .trim()
    .refine((value) => value === "" || isMonthDay(value), fiscalYearEndMessage)
    .nullable()
    .transform(emptyAsNull)
    .optional(),
  entityType: z.enum(entityTypes, { error: `Entity type must be one of ${entityTypes.join(", ")}` }).nullish(),
  jurisdiction: z.enum(taxJurisdictions, { error: "Jurisdiction must be US or UK" }).nullish(),
  state: z
    .string({ error: stateMessage })
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value) => value === "" || usStateCodes.includes(value), stateMessage)
    .nullable()
    .transform(emptyAsNull)
    .optional(),
};

/** The message when a state comes without the United States as the jurisdiction. */
export const stateOutsideUsMessage = "A state applies to clients in the United States only";

/** Whether a client's state (if any) goes with its jurisdiction: a state is for a US client only. */
export const stateFitsJurisdiction = (client: { state?: string | null; jurisdiction?: string | null }) =>
  !client.state || client.jurisdiction === "US";

const clientFields = {
  name: z
    .string({ error: "Company name is required" })
    .trim()
    .min(1, "Company name is required")
    .max(200, "Company name must be at most 200 characters"),
  industry: optionalText("Industry", 100),
  address: optionalText("Address", 500),
  phone: optionalText("Phone", 50),
  email: optionalEmail,
  status: z.enum(clientStatuses),
};

const contactFields = {
  name: z
    .string({ error: "Contact name is required" })
    .trim()
    .min(1, "Contact name is required")
    .max(200, "Contact name must be at most 200 characters"),
  title: optionalText("Title", 100),
  phone: optionalText("Phone", 50),
  email: optionalEmail,
};

const nothingToChange = (value: object) => Object.values(value).some((field) => field !== undefined);

/**
 * POST /api/clients: S-CNEW-17's fields, plus what the New Client dialog creates with it in one
 * transaction: an optional primary contact and the templates to start tasks from.
 */
export const createClientSchema = z
  .strictObject({
    ...clientFields,
    ...taxFields,
    status: clientFields.status.default("active"),
    primaryContact: z.strictObject(contactFields).optional(),
    templateIds: z
      .array(z.uuid("templateIds must be template ids"))
      .max(100, "At most 100 templates at once")
      .refine((ids) => new Set(ids).size === ids.length, "A template is listed twice")
      .default([]),
  })
  .refine(stateFitsJurisdiction, { message: stateOutsideUsMessage, path: ["state"] });
export type CreateClientInput = z.infer<typeof createClientSchema>;

export const updateClientSchema = z
  .strictObject({
    name: clientFields.name.optional(),
    industry: clientFields.industry,
    address: clientFields.address,
    phone: clientFields.phone,
    email: clientFields.email,
    status: clientFields.status.optional(),
    ...taxFields,
  })
  .refine(nothingToChange, "Nothing to change");
export type UpdateClientInput = z.input<typeof updateClientSchema>;

/** POST /api/contacts (S-API-13); isPrimary is false unless given. */
export const createContactSchema = z.strictObject({
  ...contactFields,
  isPrimary: z.boolean({ error: "isPrimary must be true or false" }).default(false),
  clientId: z.uuid("clientId must be a client id"),
});
export type CreateContactInput = z.infer<typeof createContactSchema>;

export const updateContactSchema = z
  .strictObject({
    name: contactFields.name.optional(),
    title: contactFields.title,
    phone: contactFields.phone,
    email: contactFields.email,
    isPrimary: z.boolean({ error: "isPrimary must be true or false" }).optional(),
  })
  .refine(nothingToChange, "Nothing to change");
export type UpdateContactInput = z.input<typeof updateContactSchema>;

/**
 * Query of GET /api/clients/name-matches: the name a new client would get, read as the create
 * reads it (trimmed, with the same messages), so "is this name taken" is asked of the stored name.
 */
export const clientNameMatchesQuerySchema = z.strictObject({ name: clientFields.name });
export type ClientNameMatchesQuery = z.infer<typeof clientNameMatchesQuerySchema>;

/** Query of GET /api/clients. */
export const listClientsQuerySchema = z.strictObject({
  q: z.string().trim().max(200, "The search is too long").optional(),
  status: z.enum(clientStatuses).optional(),
  archived: z.enum(["true", "false"]).optional(),
  limit: z.coerce.number().int("limit must be a whole number").min(1).max(500).optional(),
  cursor: z.string().max(1000).optional(),
  /** `csv`: every matching client as a CSV download (then without limit and cursor). */
  format: z.enum(["json", "csv"], { error: "format must be json or csv" }).optional(),
});
export type ListClientsQuery = z.infer<typeof listClientsQuerySchema>;

// -------------------------------------------------------------------------------------------
// Health (S-STATE-15..18): one function for the API and the screens.

export const healthLevels = ["good", "warning", "critical"] as const;
export type HealthLevel = (typeof healthLevels)[number];
export type ClientHealth = { level: HealthLevel; label: string };

/** A client's tasks by derived status (S-STATE-10: overdue is not completed and past due). */
export type TaskCounts = { total: number; pending: number; overdue: number; completed: number };

export function clientHealth(counts: TaskCounts): ClientHealth {
  if (counts.total === 0) return { level: "good", label: "No tasks" };
  if (counts.overdue > 0) return { level: "critical", label: `${counts.overdue} overdue task(s)` };
  if (counts.pending > 0) return { level: "warning", label: `${counts.pending} pending task(s)` };
  return { level: "good", label: "All tasks complete" };
}

// -------------------------------------------------------------------------------------------
// Answers. The server serializes through these, so only the fields listed leave it.

export const contactSchema = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  name: z.string(),
  title: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  isPrimary: z.boolean(),
  createdAt: z.iso.datetime(),
  version: versionSchema,
});
export type Contact = z.infer<typeof contactSchema>;

const taskCountsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  overdue: z.number().int(),
  completed: z.number().int(),
});

/** A client as lists show it: its fields, its health and its tasks counted by status. */
export const clientSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  industry: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(clientStatuses),
  createdAt: z.iso.datetime(),
  archivedAt: z.iso.datetime().nullable(),
  taskCounts: taskCountsSchema,
  health: z.object({ level: z.enum(healthLevels), label: z.string() }),
});
export type ClientSummary = z.infer<typeof clientSummarySchema>;

/**
 * A client whose name matches the one asked about (S-EDGE-04): enough to name it, link to it and
 * say whether it is archived.
 */
export const clientNameMatchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(clientStatuses),
  archivedAt: z.iso.datetime().nullable(),
});
export type ClientNameMatch = z.infer<typeof clientNameMatchSchema>;

/** GET /api/clients/{id}: the client with its contacts, its tasks and the users assigned to it. */
export const clientDetailSchema = clientSummarySchema.extend({
  /** As MM-DD ("12-31"); null when not known. */
  fiscalYearEnd: z.string().nullable(),
  entityType: z.enum(entityTypes).nullable(),
  jurisdiction: z.enum(taxJurisdictions).nullable(),
  /** A US client's state; null otherwise. */
  state: z.string().nullable(),
  /** The client's own fields' version, also its ETag (src/shared/versions.ts). */
  version: versionSchema,
  contacts: z.array(contactSchema),
  tasks: z.array(taskSchema),
  team: z.array(z.object({ id: z.uuid(), username: z.string(), fullName: z.string(), role: z.enum(roles) })),
});
export type ClientDetail = z.infer<typeof clientDetailSchema>;
