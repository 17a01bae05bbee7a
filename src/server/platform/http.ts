import { isDeepStrictEqual } from "node:util";
import type { FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from "fastify";
import { z } from "zod";
import { type AnswerWriter, compileAnswerWriter } from "./answer-writer";
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
 * Answers keep only the fields their schema lists: nothing else can leak out. Each answer schema
 * is compiled once into a writer (platform/answer-writer.ts) that writes just those fields. With
 * `checkAnswers` (everywhere but production: development, the tests, the browser tests) every
 * answer is also parsed by its zod schema, formats and all, and what the writer wrote must read
 * back as the parsed answer; so the suites prove the writer faithful to the schemas on every
 * answer they see, and production pays for neither check (decision 0043). An answer that breaks
 * its schema is our bug (a 500 with the details in the log), not the caller's mistake.
 */
export function answerSerializerCompiler(options: { checkAnswers: boolean }): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) => {
    // Compiled at a route's first answer rather than at boot, where all of them took some 150 ms.
    let writer: AnswerWriter | undefined;
    const write = (data: unknown) => {
      writer ??= compileAnswerWriter(schema);
      return writer(data);
    };
    if (!options.checkAnswers) return write;
    const answer = `The ${httpStatus} answer of ${method} ${url}`;
    return (data: unknown) => {
      const result = schema.safeParse(data);
      if (!result.success) throw new Error(`${answer} breaks its schema: ${z.prettifyError(result.error)}`);
      const written = write(data);
      const parsed = JSON.stringify(result.data);
      // The same text, as for every answer whose fields are all required; else the same meaning.
      if (written !== parsed && !isDeepStrictEqual(JSON.parse(written), JSON.parse(parsed))) {
        throw new Error(
          `${answer} is written otherwise than its schema reads it:\nwritten: ${written}\nparsed:  ${parsed}`,
        );
      }
      return written;
    };
  };
}

/**
 * The answer of a route that sends a PNG image: it goes out as the bytes it is, never through a
 * serializer, and /api/docs describes it as image/png.
 */
export const pngAnswer = z.custom<Buffer>((value) => Buffer.isBuffer(value));

/** The `:id` path parameter of a route about one `entity`; a malformed id is "<entity> not found". */
export const idParams = (entity: string) => z.object({ id: z.uuid({ error: `${entity} not found` }) });

const MAX_NESTING = 32;
/** A lone UTF-16 surrogate: not a character; PostgreSQL would store U+FFFD instead. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What no route can accept in a parsed JSON body or query, whatever its schema: U+0000 (text
 * columns cannot hold it), lone surrogates (not text), or nesting deeper than any of our
 * documents. Walks without recursion, so no input can exhaust the stack.
 */
export function unacceptableInput(value: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const texts =
      typeof item.value === "string"
        ? [item.value]
        : item.value !== null && typeof item.value === "object"
          ? Object.keys(item.value)
          : [];
    for (const text of texts) {
      if (text.includes("\u0000")) return "Text must not contain NUL characters (U+0000)";
      if (loneSurrogate.test(text)) return "Text must be valid Unicode (it holds a lone surrogate)";
    }
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= MAX_NESTING) return `The request nests deeper than ${MAX_NESTING} levels`;
    for (const child of Object.values(item.value)) pending.push({ value: child, depth: item.depth + 1 });
  }
  return undefined;
}

/**
 * Whether a request is for the API, judged on its decoded path as the router matches it, so
 * `/%61pi/health` counts as `/api/health` for the rate limit, caching and error answers alike.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const { url } = request;
  // Every request asks this, so the common case (nothing escaped) splits and decodes nothing.
  if (!url.includes("%")) return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
  const raw = url.split("?")[0] ?? "/";
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the router refuses the URL anyway; judge the raw text.
  }
  return path === "/api" || path.startsWith("/api/");
}

/** A route option's hooks as an array, to add one of ours before or after them (onRoute). */
export const hooksOf = <Hook>(hooks: Hook | Hook[] | undefined): Hook[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
