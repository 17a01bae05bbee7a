import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientSummarySchema } from "../../shared/clients";
import { compileAnswerWriter } from "./answer-writer";

const id = "0190a6f2-7c1e-7b3a-9c4d-2e5f6a7b8c9d";
const person = z.object({ id: z.uuid(), fullName: z.string() });
const signedTask = z.object({
  id: z.uuid(),
  status: z.enum(["pending", "completed"]),
  priority: z.enum(["low", "high"]).nullable(),
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
    priority: null,
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
      priority: "high",
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
    expect(() => write(withoutStatus)).toThrow(/"status" is missing/);
  });

  it("refuses a value of another type than its schema's, naming where it is", () => {
    expect(() => write({ ...answer, tags: ["a", 2] })).toThrow(/an item of the answer's "tags" is a number/);
    expect(() => write({ ...answer, counts: { open: 1.5 } })).toThrow(/"counts"'s field is a number/);
    expect(() => write({ ...answer, completedByUser: "Ann" })).toThrow(/"completedByUser" is a string/);
    expect(() => write({ ...answer, status: "deleted" })).toThrow(/"status" is a string/);
    expect(() => write({ ...answer, dueDate: new Date() })).toThrow(/"dueDate" is an object/);
  });

  it("writes a union's value by the branch that takes it, with that branch's fields only", () => {
    const created = { ...answer, event: { type: "created", by: "z", from: "x" } };
    expect(JSON.parse(write(created)).event).toEqual({ type: "created", by: "z" });
    expect(() => write({ ...answer, event: { type: "deleted", by: "z" } })).toThrow(/no branch/);
  });

  it("writes a record's every key as a field, __proto__ included", () => {
    const counts = JSON.parse('{"__proto__": 1, "open": 2}');
    expect(write({ ...answer, counts })).toContain('"counts":{"__proto__":1,"open":2}');
  });

  it("writes an object open to more fields than it lists with all of them", () => {
    const open = compileAnswerWriter(z.looseObject({ openapi: z.literal("3.1.0") }));
    const document = { openapi: "3.1.0", paths: { "/api/health": { get: {} } } };
    expect(JSON.parse(open(document))).toEqual(document);
    expect(() => open({ openapi: "3.0.0" })).toThrow(/"openapi" is a string/);
  });

  it("refuses at compile time a schema whose JSON Schema it cannot follow", () => {
    const tuple = z.object({ pair: z.tuple([z.string(), z.number()]) });
    expect(() => compileAnswerWriter(tuple)).toThrow(/Answers cannot be written from/);
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
