import { z } from "zod";
import { nameKey } from "./names";
import { frequencies, taskPriorities } from "./tasks";
import { libraryCategories, templateLibrary } from "./template-library";
import { versionSchema } from "./versions";
import "./validation";

/*
 * Task templates (the TTPL requirements, S-VAL-16..19, S-STATE-19..22). One frequency list for
 * create and edit; "yearly" is taken as "annually"; "none", "" or null mean one-time. A template is
 * recurring exactly when it has a frequency, so the checkbox and the frequency never disagree.
 */

const frequencyInput = z
  .union([z.enum(frequencies), z.literal("yearly"), z.literal("none"), z.literal(""), z.null()], {
    error: "Frequency must be daily, weekly, monthly, quarterly or annually (or none)",
  })
  .optional()
  .transform((value) => (value === "yearly" ? "annually" : value === "none" || value === "" ? null : value));

const templateFields = {
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(200, "Name must be at most 200 characters"),
  description: z
    .string({ error: "Description is required" })
    .trim()
    .min(1, "Description is required")
    .max(2000, "Description must be at most 2000 characters"),
  priority: z.enum(taskPriorities).default("medium"),
  frequency: frequencyInput,
  isRecurring: z.boolean({ error: "isRecurring must be true or false" }).optional(),
  /**
   * The statutory due-date rule its tasks fall due by (GET /api/due-date-rules), or null for none;
   * left out, a change keeps the one the template has.
   */
  dueDateRule: z
    .string({ error: "dueDateRule must be a rule's id, such as us-1040" })
    .trim()
    .max(100, "dueDateRule must be a rule's id, such as us-1040")
    .nullable()
    .transform((value) => value || null)
    .optional(),
  /** A client may send it; the session decides (S-ROLE-20), so it is accepted and ignored. */
  createdBy: z.unknown().optional(),
};

/** What to store: unchecking "recurring" makes the template one-time whatever frequency was sent. */
const resolveFrequency = <T extends { frequency?: (typeof frequencies)[number] | null; isRecurring?: boolean }>(
  input: T,
) => {
  const frequency = input.isRecurring === false ? null : (input.frequency ?? null);
  return { ...input, frequency, isRecurring: frequency !== null };
};

/** POST /api/task-templates {name, description, priority, frequency, isRecurring, createdBy}. */
export const createTemplateSchema = z
  .strictObject(templateFields)
  .transform(({ createdBy: _ignored, ...input }) => resolveFrequency(input));
export type CreateTemplateInput = z.output<typeof createTemplateSchema>;

/** PUT /api/task-templates/{id}: the same fields, the whole template. */
export const updateTemplateSchema = createTemplateSchema;
export type UpdateTemplateInput = CreateTemplateInput;

export const templateSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  priority: z.enum(taskPriorities),
  isRecurring: z.boolean(),
  frequency: z.enum(frequencies).nullable(),
  createdBy: z.uuid(),
  createdAt: z.iso.datetime(),
  /** The library template it was added from, if any. */
  libraryKey: z.string().nullable(),
  /** The statutory due-date rule its tasks fall due by, or null. */
  dueDateRule: z.string().nullable(),
  version: versionSchema,
});
export type Template = z.infer<typeof templateSchema>;

export const libraryTemplateSchema = z.object({
  key: z.string(),
  category: z.enum(libraryCategories),
  name: z.string(),
  description: z.string(),
  priority: z.enum(taskPriorities),
  frequency: z.enum(frequencies).nullable(),
  /** Whether the firm has already added it to its templates. */
  added: z.boolean(),
  /**
   * Whether another of the firm's templates (its own, or one added from another library entry)
   * already has this name, ignoring case and surrounding spaces (S-EDGE-05).
   */
  nameInUse: z.boolean(),
});
export type LibraryTemplateEntry = z.infer<typeof libraryTemplateSchema>;

/** Each library entry's name as names are compared. */
const libraryNameKeys = templateLibrary.map((entry) => nameKey(entry.name));

/**
 * The library as one firm sees it, from its templates' library keys and names: what it has added,
 * and what would give it a second template of a name it already has. The API and the benchmark's
 * floor both answer this.
 */
export function libraryAsSeenBy(templates: readonly { libraryKey: string | null; name: string }[]) {
  // One pass over the firm's templates: the keys it has added, and for each name (as compared)
  // the library keys of the templates carrying it (null for its own). Comparing every entry with
  // every template instead made two lowered copies per pair: 71 entries by a firm's templates.
  const added = new Set<string | null>();
  const keysByName = new Map<string, (string | null)[]>();
  for (const template of templates) {
    added.add(template.libraryKey);
    const name = nameKey(template.name);
    const keys = keysByName.get(name);
    if (keys) keys.push(template.libraryKey);
    else keysByName.set(name, [template.libraryKey]);
  }
  return templateLibrary.map(
    // Written out rather than spread: on Node 20 each property after a spread costs about 1 µs.
    (entry, index): LibraryTemplateEntry => ({
      key: entry.key,
      category: entry.category,
      name: entry.name,
      description: entry.description,
      priority: entry.priority,
      frequency: entry.frequency,
      added: added.has(entry.key),
      nameInUse: keysByName.get(libraryNameKeys[index] as string)?.some((key) => key !== entry.key) ?? false,
    }),
  );
}
