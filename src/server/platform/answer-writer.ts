import fastJson from "fast-json-stringify";
import { z } from "zod";

/** Writes one answer as JSON text. */
export type AnswerWriter = (data: unknown) => string;

type JsonSchema = { [keyword: string]: unknown };

/**
 * The function that writes answers of one zod schema: fast-json-stringify, compiled from the
 * schema's JSON Schema (decision 0043). It writes the listed fields only (the required ones
 * first, then the optional ones present, each group in the schema's order) and throws on a
 * missing required field, so nothing a row holds beyond its schema can leave the
 * server; unlike a zod parse it checks no string formats, which is what made it worth having: on
 * a page of 50 clients the parse cost as much as writing the JSON.
 *
 * Schemas JSON Schema cannot say (a custom check such as `pngAnswer`, whose bytes never pass
 * through a writer) become "anything", written as `JSON.stringify` would.
 */
export function compileAnswerWriter(schema: z.ZodType): AnswerWriter {
  const jsonSchema = z.toJSONSchema(schema, { io: "input", target: "draft-7", unrepresentable: "any" });
  return fastJson(withNullableTypes(jsonSchema) as Parameters<typeof fastJson>[0]);
}

/**
 * zod says "X or null" as `anyOf: [X, {type: "null"}]`, for which fast-json-stringify would run a
 * validator on every value to choose the branch; a type list (`type: ["string", "null"]`) says the
 * same and is written directly. Every other union is left as it is.
 */
function withNullableTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullableTypes);
  if (schema === null || typeof schema !== "object") return schema;
  const simplified: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) simplified[keyword] = withNullableTypes(value);
  const { anyOf, ...rest } = simplified;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return simplified;
  const [branch, nullBranch] = anyOf as [JsonSchema, JsonSchema];
  const isNull = Object.keys(nullBranch).length === 1 && nullBranch.type === "null";
  if (!isNull || typeof branch.type !== "string") return simplified;
  return { ...rest, ...branch, type: [branch.type, "null"] };
}
