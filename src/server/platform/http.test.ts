import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestApp } from "../../../tests/test-app";
import { answerSerializerCompiler, idParams, type ZodTypeProvider } from "./http";

const noteBody = z.strictObject({ text: z.string().min(1, "Text is required") });
const noteAnswer = z.object({ id: z.uuid(), text: z.string() });

describe("routes declared with zod schemas", () => {
  let handled = 0;
  const ctx = useTestApp({
    extend: (app) => {
      const api = app.withTypeProvider<ZodTypeProvider>();
      api.put(
        "/api/test/notes/:id",
        {
          config: { access: "public" },
          schema: { params: idParams("Note"), body: noteBody, response: { 200: noteAnswer } },
        },
        async (request) => {
          handled += 1;
          // More than the answer's schema lists, as a database row would be.
          return { id: request.params.id, text: request.body.text, passwordHash: "$argon2id$secret" };
        },
      );
      api.get(
        "/api/test/broken-answer",
        { config: { access: "public" }, schema: { response: { 200: noteAnswer } } },
        async () => ({ id: "not-an-id", text: "x" }) as never,
      );
    },
  });
  const id = "0190a6f2-7c1e-7b3a-9c4d-2e5f6a7b8c9d";
  const put = (url: string, payload: unknown) =>
    ctx.app.inject({
      method: "PUT",
      url,
      payload: JSON.stringify(payload),
      headers: { "content-type": "application/json" },
    });

  it("answers with only the fields the answer's schema lists", async () => {
    const response = await put(`/api/test/notes/${id}`, { text: "Call the client" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id, text: "Call the client" });
  });

  it("refuses a bad body with the schema's message before the handler runs", async () => {
    const before = handled;
    const response = await put(`/api/test/notes/${id}`, { text: "" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "Text is required",
      code: "VALIDATION_FAILED",
      issues: [{ path: ["text"], message: "Text is required" }],
    });
    expect((await put(`/api/test/notes/${id}`, ["not", "an", "object"])).json()).toEqual({
      message: "The request body must be a JSON object",
      code: "BAD_REQUEST",
    });
    expect(handled).toBe(before);
  });

  it("answers a path id that cannot exist like a missing row", async () => {
    const response = await put("/api/test/notes/12345", { text: "Call the client" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Note not found", code: "NOT_FOUND" });
  });

  it("treats an answer that breaks its own schema as our bug: 500, no details", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/test/broken-answer" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: "Something went wrong on our side", code: "INTERNAL" });
  });

  it("refuses bodies nested deeper than any document of ours, however deep, with a 400", async () => {
    for (const url of [`/api/test/notes/${id}`, "/api/no-such-route"]) {
      for (const depth of [33, 5000]) {
        const response = await ctx.app.inject({
          method: "PUT",
          url,
          payload: `{"text":${"[".repeat(depth)}${"]".repeat(depth)}}`,
          headers: { "content-type": "application/json" },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ message: "The request nests deeper than 32 levels", code: "BAD_REQUEST" });
      }
    }
  });

  it("refuses text that is not Unicode (a lone surrogate) instead of storing U+FFFD", async () => {
    const response = await ctx.app.inject({
      method: "PUT",
      url: `/api/test/notes/${id}`,
      payload: '{"text":"half a \\ud83d pair"}',
      headers: { "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Text must be valid Unicode (it holds a lone surrogate)");
    expect((await put(`/api/test/notes/${id}`, { text: "a whole pair: 😀" })).statusCode).toBe(200);
  });
});

describe("the answer serializer", () => {
  const compile = (checkAnswers: boolean, schema: z.ZodType) =>
    answerSerializerCompiler({ checkAnswers })({ schema, method: "GET", url: "/api/test", httpStatus: "200" });

  it("in production writes the listed fields without parsing: no format check, nothing unlisted", () => {
    const write = compile(false, noteAnswer);
    expect(write({ id: "not-an-id", text: "x", passwordHash: "$argon2id$secret" })).toBe(
      '{"id":"not-an-id","text":"x"}',
    );
  });

  it("elsewhere parses each answer too, and refuses one the writer would write otherwise than zod reads it", () => {
    expect(() => compile(true, noteAnswer)({ id: "not-an-id", text: "x" })).toThrow(/breaks its schema/);
    // A transform changes the answer in zod's reading; the writer, knowing only types, does not.
    const shouting = z.object({ text: z.string().transform((text) => text.toUpperCase()) });
    expect(compile(false, shouting)({ text: "hi" })).toBe('{"text":"hi"}');
    expect(() => compile(true, shouting)({ text: "hi" })).toThrow(/is written otherwise than its schema reads it/);
  });
});
