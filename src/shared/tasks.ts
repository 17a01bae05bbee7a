import { z } from "zod";
import "./validation";

export const taskPriorities = ["low", "medium", "high"] as const;
export type TaskPriority = (typeof taskPriorities)[number];

/** What is stored. `overdue` is derived (design section 4), never stored. */
export const storedTaskStatuses = ["pending", "completed"] as const;
export type StoredTaskStatus = (typeof storedTaskStatuses)[number];

export const taskStatuses = ["pending", "completed", "overdue"] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** One list for create and edit (design section 4); no value means one-time. */
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
  /** The id of the user who signed it off (design section 4: from the session, never the body). */
  completedBy: z.uuid().nullable(),
  completedByUser: z.object({ id: z.uuid(), fullName: z.string(), username: z.string() }).nullable(),
  printedName: z.string().nullable(),
  /** The drawn signature as a PNG data URL. */
  signature: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;
