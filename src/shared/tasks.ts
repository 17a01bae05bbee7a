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
