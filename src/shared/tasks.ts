import { z } from "zod";
import { instantSchema } from "./date-range";
import { versionSchema } from "./versions";
import "./validation";

export const taskPriorities = ["low", "medium", "high"] as const;
export type TaskPriority = (typeof taskPriorities)[number];

/** What is stored. `overdue` is derived (S-STATE-10), never stored. */
export const storedTaskStatuses = ["pending", "completed"] as const;
export type StoredTaskStatus = (typeof storedTaskStatuses)[number];

export const taskStatuses = ["pending", "completed", "overdue"] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** One list for create and edit (S-STATE-19..20); no value means one-time. */
export const frequencies = ["daily", "weekly", "monthly", "quarterly", "annually"] as const;
export type Frequency = (typeof frequencies)[number];

export function taskStatus(task: { status: StoredTaskStatus; dueDate: Date | null }, now: Date): TaskStatus {
  if (task.status === "completed") return "completed";
  return task.dueDate !== null && task.dueDate.getTime() < now.getTime() ? "overdue" : "pending";
}

/** A task as the API answers it: its status derived, and who signed it off if anyone did. */
export const taskSchema = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  templateId: z.uuid().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  priority: z.enum(taskPriorities),
  status: z.enum(taskStatuses),
  dueDate: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  /** The id of the user who signed it off (S-TCOMP-08: from the session, never the body). */
  completedBy: z.uuid().nullable(),
  completedByUser: z.object({ id: z.uuid(), fullName: z.string(), username: z.string() }).nullable(),
  printedName: z.string().nullable(),
  /**
   * Where the drawn signature's PNG is (GET /api/tasks/{id}/signature, its hash as `v`), for an
   * `<img>`; the image itself is never inline, so a list stays small (docs/decisions/0035).
   */
  signature: z.string().nullable(),
  /** The hex SHA-256 of the signature's PNG bytes, as the audit trail records it. */
  signatureSha256: z.string().nullable(),
  version: versionSchema,
});
export type Task = z.infer<typeof taskSchema>;

/** GET /api/tasks/{id}/signature: `v`, the image's hash, makes its address one that never changes. */
export const signatureQuerySchema = z.object({
  v: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "v must be the signature's SHA-256 in lower-case hex, as the task's signatureSha256")
    .optional(),
});

/** GET /api/tasks and GET /api/tasks/overdue: a task with its client's name, for lists across clients. */
export const taskListItemSchema = taskSchema.extend({ clientName: z.string() });
export type TaskListItem = z.infer<typeof taskListItemSchema>;

// -------------------------------------------------------------------------------------------
// Requests: one schema per operation, shared by the forms and the routes (their messages are the product's texts).

const taskName = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(200, "Name must be at most 200 characters");

/** "" and null both clear the description; a field left out stays out. */
const taskDescription = z
  .string({ error: "Description must be text" })
  .trim()
  .max(2000, "Description must be at most 2000 characters")
  .nullish()
  .transform((value) => (value === undefined ? undefined : value || null));

const taskPriority = z.enum(taskPriorities);

/** An instant of the years 1900-2200, or null for none. */
const dueDate = instantSchema("Due date", "Due date must be an ISO 8601 date and time with an offset, or null")
  .nullable()
  .optional();

const nothingToChange = (value: object) => Object.values(value).some((field) => field !== undefined);

/**
 * POST /api/tasks (S-API-16). A task is always created pending: a completed one needs a
 * sign-off, which only PATCH /api/tasks/{id}/complete records. `createdBy` is the session's user.
 */
export const createTaskSchema = z.strictObject({
  name: taskName,
  description: taskDescription,
  priority: taskPriority.default("medium"),
  clientId: z.uuid("clientId must be a client id"),
  status: z
    .enum(["pending"], { error: "A new task is pending; complete it with a signature afterwards" })
    .default("pending"),
  dueDate: dueDate.transform((value) => value ?? null),
  templateId: z.uuid("templateId must be a task template id").nullish(),
});
export type CreateTaskInput = z.infer<typeof createTaskSchema>;

/** PATCH /api/tasks/{id}: only the fields given change; a signed-off task cannot change at all. */
export const updateTaskSchema = z
  .strictObject({
    name: taskName.optional(),
    description: taskDescription,
    priority: taskPriority.optional(),
    dueDate,
  })
  .refine(nothingToChange, "Nothing to change");
export type UpdateTaskInput = z.input<typeof updateTaskSchema>;

/**
 * PATCH /api/tasks/{id}/complete (S-API-17). The app's client sends `completedBy` (the
 * printed name); it is accepted and ignored, because who signed off is the session's user
 * (S-TCOMP-08), never what a body claims. The signature is checked on the server as a
 * PNG (src/server/features/tasks/signature.ts); here only its presence.
 */
export const completeTaskSchema = z.strictObject({
  completedBy: z.string({ error: "completedBy must be text" }).max(1000, "completedBy is too long").nullish(),
  signature: z.string({ error: "Please provide a signature" }).min(1, "Please provide a signature"),
  printedName: taskName,
});
export type CompleteTaskInput = z.infer<typeof completeTaskSchema>;

/** The most tasks one answer holds: a firm may have a million, so no answer holds them all. */
export const maxTasksPage = 500;

/** Query of GET /api/tasks. */
export const listTasksQuerySchema = z.strictObject({
  status: z.enum(taskStatuses).optional(),
  q: z.string().trim().max(200, "The search is too long").optional(),
  clientId: z.uuid("clientId must be a client id").optional(),
  limit: z.coerce.number().int("limit must be a whole number").min(1).max(maxTasksPage).optional(),
  cursor: z.string().max(1000).optional(),
  /** `csv`: every matching task as a CSV download (then without limit and cursor). */
  format: z.enum(["json", "csv"], { error: "format must be json or csv" }).optional(),
});
export type ListTasksQuery = z.infer<typeof listTasksQuerySchema>;

/** Query of GET /api/tasks/overdue: with `limit`, the oldest-due few (the bell) and their total. */
export const listOverdueQuerySchema = z.strictObject({
  limit: z.coerce.number().int("limit must be a whole number").min(1).max(maxTasksPage).optional(),
});
export type ListOverdueQuery = z.infer<typeof listOverdueQuerySchema>;
