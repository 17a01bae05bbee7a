import { describe, expect, it } from "vitest";
import type { Task } from "../../../shared/tasks";
import { tasksInWorkOrder } from "./task-order";

const task = (name: string, fields: Partial<Task>): Task => ({
  id: name,
  clientId: "c",
  templateId: null,
  name,
  description: null,
  priority: "medium",
  status: "pending",
  dueDate: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  completedAt: null,
  completedBy: null,
  completedByUser: null,
  printedName: null,
  signature: null,
  signatureSha256: null,
  version: 1,
  ...fields,
});

describe("a client's tasks in work order", () => {
  it("lists overdue, then pending by due date (none last), then completed newest first", () => {
    const tasks = [
      task("done early", { status: "completed", completedAt: "2026-02-01T00:00:00.000Z" }),
      task("pending undated", {}),
      task("pending later", { dueDate: "2026-06-01T00:00:00.000Z" }),
      task("overdue", { status: "overdue", dueDate: "2026-01-10T00:00:00.000Z" }),
      task("done late", { status: "completed", completedAt: "2026-03-01T00:00:00.000Z" }),
      task("pending sooner", { dueDate: "2026-05-01T00:00:00.000Z" }),
    ];
    expect(tasksInWorkOrder(tasks).map((t) => t.name)).toEqual([
      "overdue",
      "pending sooner",
      "pending later",
      "pending undated",
      "done late",
      "done early",
    ]);
  });
});
