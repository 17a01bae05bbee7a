import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from "fastify";
import { z } from "zod";
import { AppError } from "./errors";

declare module "fastify" {
  interface FastifySchema {
    /** One line for the API description at /api/docs. */
    summary?: string;
  }
}

/*
 * Routes declare zod schemas (one per operation, from src/shared) for their body, path params and
 * answers. The same schemas validate requests, serialize answers and describe the API at
 * /api/docs, so the three cannot drift apart.
 */

/** Gives handlers the parsed types of their declared schemas (`app.withTypeProvider<ZodTypeProvider>()`). */
// An interface, not a type: Fastify's type providers are resolved through `this`.
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends z.ZodType ? z.output<this["schema"]> : unknown;
  serializer: this["schema"] extends z.ZodType ? z.input<this["schema"]> : unknown;
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    if (httpPart === "body" && (data === null || typeof data !== "object" || Array.isArray(data))) {
      return { error: new AppError("BAD_REQUEST", "The request body must be a JSON object") };
    }
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    // A path that cannot name anything is answered like a missing row: 404.
    if (httpPart === "params")
      return { error: new AppError("NOT_FOUND", result.error.issues[0]?.message ?? "Not found") };
    return { error: result.error };
  };

/**
 * Answers keep only the fields their schema lists: nothing else can leak out. An answer that
 * breaks its schema is our bug (a 500 with the details in the log), not the caller's mistake.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url, httpStatus }) =>
  (data: unknown) => {
    const result = schema.safeParse(data);
    if (!result.success) {
      throw new Error(
        `The ${httpStatus} answer of ${method} ${url} breaks its schema: ${z.prettifyError(result.error)}`,
      );
    }
    return JSON.stringify(result.data);
  };

/** The `:id` path parameter of a route about one `entity`; a malformed id is "<entity> not found". */
export const idParams = (entity: string) => z.object({ id: z.uuid({ error: `${entity} not found` }) });

/** Whether a parsed JSON value (or query object) holds U+0000 in any string or key. */
export function containsNulCharacter(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNulCharacter);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => key.includes("\u0000") || containsNulCharacter(item));
  }
  return false;
}
