import { z } from "zod";
import { AppError } from "./errors";

/** Parses a JSON body with an operation's schema; a body that is not an object is a clear 400. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new AppError("BAD_REQUEST", "The request body must be a JSON object");
  }
  return schema.parse(body);
}

const idSchema = z.uuid();

/** An id from the path. One that cannot exist is answered like a missing row: 404. */
export function parseId(value: unknown, entity: string): string {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw new AppError("NOT_FOUND", `${entity} not found`);
  return parsed.data;
}

/** Whether a parsed JSON value (or query object) holds U+0000 in any string or key. */
export function containsNulCharacter(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNulCharacter);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => key.includes("\u0000") || containsNulCharacter(item));
  }
  return false;
}
