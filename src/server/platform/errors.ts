import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { type ApiErrorBody, type ApiIssue, type ErrorCode, errorStatus } from "../../shared/api-error";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNREACHABLE_MESSAGE,
  type DatabaseAvailability,
  isDatabaseUnreachable,
} from "./db/availability";
import { apiSecurityHeaders } from "./security-headers";

/** An expected failure with a stable code; the handler turns it into `{ message, code, issues? }`. */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { issues?: ApiIssue[]; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** A 400 about one field, shaped like a schema failure so forms can show it beside the field. */
export function fieldError(path: string, message: string): AppError {
  return new AppError("VALIDATION_FAILED", message, { issues: [{ path: [path], message }] });
}

/** Fastify's own 4xx errors, translated into our codes and plain messages. */
const fastifyErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "MALFORMED_JSON", message: "The request body is not valid JSON" },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: "MALFORMED_JSON",
    message: "The request body is empty but its content type says JSON",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "PAYLOAD_TOO_LARGE", message: "The request body is too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Unsupported content type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "BAD_REQUEST", message: "The request's content length is wrong" },
  FST_ERR_BAD_URL: { code: "BAD_REQUEST", message: "The URL is not valid" },
  // A path segment longer than any id we issue cannot name anything.
  FST_ERR_MAX_PARAM_LENGTH: { code: "NOT_FOUND", message: "Not found" },
};

/** The generic code of a status, for Fastify's own errors: BAD_REQUEST, not VALIDATION_FAILED. */
const codeForStatus = (status: number): ErrorCode =>
  status === 400
    ? "BAD_REQUEST"
    : ((Object.entries(errorStatus).find(([, value]) => value === status)?.[0] as ErrorCode | undefined) ??
      "BAD_REQUEST");

function toErrorBody(error: unknown): { status: number; body: ApiErrorBody } {
  if (error instanceof AppError) {
    const { issues } = error.options;
    return {
      status: errorStatus[error.code],
      body: { message: error.message, code: error.code, ...(issues ? { issues } : {}) },
    };
  }
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => ({
      path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
      message: issue.message,
    }));
    return {
      status: 400,
      body: { message: issues[0]?.message ?? "Invalid request", code: "VALIDATION_FAILED", issues },
    };
  }
  // A database restart or outage is no bug of ours: the caller may try again shortly.
  if (isDatabaseUnreachable(error)) {
    return { status: 503, body: { message: DATABASE_UNREACHABLE_MESSAGE, code: "SERVICE_UNAVAILABLE" } };
  }
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? fastifyErrors[fastifyError.code] : undefined;
  if (known) return { status: errorStatus[known.code], body: { message: known.message, code: known.code } };
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { message: fastifyError.message ?? "Bad request", code: codeForStatus(status) } };
  }
  return { status: 500, body: { message: "Something went wrong on our side", code: "INTERNAL" } };
}

/** For errors Fastify's router raises before any route (and so the error handler) is chosen. */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toErrorBody(error);
  request.log.info({ code: body.code, status }, body.message);
  void reply.status(status).type("application/json; charset=utf-8").send(body);
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: an address and headers over
 * its 16 KB limit (431), a request that did not arrive in time (408), bytes that are not HTTP
 * (400). Those are answered in our `{ message, code }` with the API's headers too (Fastify's own
 * answer is another shape), and the connection is closed, as Node would.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, body]: [number, ApiErrorBody] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, { message: "The request's address and headers are too long", code: "HEADERS_TOO_LARGE" }]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, { message: "The request did not arrive in time", code: "REQUEST_TIMEOUT" }]
        : [400, { message: "The request is not HTTP the server can read", code: "BAD_REQUEST" }];
  this.log.info({ code: body.code, status, err: error }, body.message);
  if (socket.writable) {
    const text = JSON.stringify(body);
    const headers = Object.entries({
      ...apiSecurityHeaders,
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(text)),
      connection: "close",
    }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.join("")}\r\n${text}`);
  }
  socket.destroy(error);
}

/**
 * Answers every error in the `{ message, code, issues? }` convention. A failure that means the
 * database is unreachable (see db/availability) is a 503 with Retry-After, logged at info: the
 * availability tracker warns once for the whole outage. Anything else at 5xx is logged as an error.
 */
export function registerErrorHandler(app: FastifyInstance, options: { availability?: DatabaseAvailability } = {}) {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error);
    const unreachable = status === 503 && (options.availability?.reportFailure(error) ?? isDatabaseUnreachable(error));
    const retryAfter =
      error instanceof AppError && error.options.retryAfterSeconds !== undefined
        ? error.options.retryAfterSeconds
        : unreachable
          ? DATABASE_RETRY_AFTER_SECONDS
          : undefined;
    if (retryAfter !== undefined) reply.header("retry-after", String(retryAfter));
    if (status >= 500 && !unreachable) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: body.code, status }, body.message);
    return reply.status(status).type("application/json; charset=utf-8").send(body);
  });
}

/** The constraint a PostgreSQL unique violation names, if the error is one (Drizzle wraps pg errors). */
export function uniqueViolation(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const pgError = current as Error & { code?: string; constraint?: string };
    if (pgError.code === "23505") return pgError.constraint;
  }
  return undefined;
}
