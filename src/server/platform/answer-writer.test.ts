import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientSummarySchema } from "../../shared/clients";
import { compileAnswerWriter } from "./answer-writer";

const id = "0190a6f2-7c1e-7b3a-9c4d-2e5f6a7b8c9d";
const person = z.object({ id: z.uuid(), fullName: z.string() });
const signedTask = z.object({
  id: z.uuid(),
  status: z.enum(["pending", "completed"]),
  kind: z.literal("task"),
  dueDate: z.iso.datetime().nullable(),
  completedByUser: person.nullable(),
  tags: z.array(z.string()),
  counts: z.record(z.string(), z.number().int()),
  note: z.string().optional(),
  event: z.discriminatedUnion("type", [
    z.object({ type: z.literal("created"), by: z.string() }),
    z.object({ type: z.literal("moved"), from: z.string(), to: z.string() }),
  ]),
});

/** The answer as its zod schema reads it, through JSON: what the writer's text must read back as. */
const parsed = (schema: z.ZodType, data: unknown) => JSON.parse(JSON.stringify(schema.parse(data)));

describe("answer writers compiled from answer schemas", () => {
  const write = compileAnswerWriter(signedTask);
  const answer = {
    id,
    status: "completed",
    kind: "task",
    dueDate: "2026-12-31T00:00:00.000Z",
    completedByUser: { id, fullName: 'Ann "Nan" Lee \\ ☃ 🦄' },
    tags: ["a", "b,c"],
    counts: { open: 2, done: 3 },
    event: { type: "moved", from: "x", to: "y" },
  };

  it("writes what a zod parse of the answer reads: nulls, nested objects, records, unions, optional fields", () => {
    expect(JSON.parse(write(answer))).toStrictEqual(parsed(signedTask, answer));
    const unsigned = {
      ...answer,
      dueDate: null,
      completedByUser: null,
      note: "n",
      event: { type: "created", by: "z" },
    };
    expect(JSON.parse(write(unsigned))).toStrictEqual(parsed(signedTask, unsigned));
  });

  it("writes the required fields in the schema's order, then the optional ones present", () => {
    const written = write({ ...answer, note: "n" });
    expect(Object.keys(JSON.parse(written))).toEqual([...Object.keys(answer), "note"]);
  });

  it("writes only the listed fields, however many more the answer holds", () => {
    const row = {
      ...answer,
      passwordHash: "$argon2id$secret",
      completedByUser: { ...answer.completedByUser, firmId: id },
    };
    const written = write(row);
    expect(written).not.toContain("argon2id");
    expect(written).not.toContain("firmId");
    expect(JSON.parse(written)).toEqual(answer);
  });

  it("refuses an answer missing a required field", () => {
    const { status: _missing, ...withoutStatus } = answer;
    expect(() => write(withoutStatus)).toThrow(/status/);
  });

  it("writes a page of client summaries as a zod parse does", () => {
    const page = z.array(clientSummarySchema);
    const rows = [null, "2026-01-02T03:04:05.678Z"].map((archivedAt) => ({
      id,
      name: "Bright & Co, \u2028Ltd",
      industry: null,
      address: "1 Main St",
      phone: null,
      email: "a@example.com",
      status: "active",
      createdAt: "2026-01-02T03:04:05.678Z",
      archivedAt,
      taskCounts: { total: 3, pending: 1, overdue: 1, completed: 1 },
      health: { level: "critical", label: "1 overdue task(s)" },
    }));
    // Byte for byte: every field of a summary is required, so the order is the schema's.
    expect(compileAnswerWriter(page)(rows)).toBe(JSON.stringify(page.parse(rows)));
  });
});
