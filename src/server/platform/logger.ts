import pino from "pino";
import type { Config } from "./config";

/** Fields that must never reach a log line, at whatever depth they appear in a logged object. */
const secretFields = new Set([
  "password",
  "currentPassword",
  "newPassword",
  "passwordHash",
  "token",
  "tokenHash",
  "signature",
  "cookie",
  "authorization",
  "set-cookie",
]);
const REDACTED = "[redacted]";

/** Headers of the request and answer objects that Fastify's serializers produce. */
const redactedPaths = ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'];

/**
 * Path segments that are themselves credentials: the secret of a calendar feed's address (decision
 * 0047) and of an unsubscribe address (decision 0055). A request's URL is logged with everything
 * from there on replaced, however the path was escaped, so the request log hands out neither.
 */
const SECRET_PATHS = ["/calendar-feeds/", "/unsubscribe/"];

export function redactUrl(url: string): string {
  // Every request is logged: the common URL, escaping nothing and naming no secret, is left as it is.
  if (!url.includes("%") && !SECRET_PATHS.some((path) => url.includes(path))) return url;
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // A malformed escape: the router refuses the URL; judge the raw text.
  }
  const lower = decoded.toLowerCase();
  // The first secret segment of the path: everything after it goes.
  const cuts = SECRET_PATHS.map((path) => ({ path, at: lower.indexOf(path) })).filter(({ at }) => at >= 0);
  const first = cuts.sort((a, b) => a.at - b.at)[0];
  return first ? `${decoded.slice(0, first.at + first.path.length)}${REDACTED}` : url;
}

/** Fastify's own request serializer (method, url, version, host, address), with the URL's secrets redacted. */
function serializeRequest(request: {
  method: string;
  url: string;
  headers?: Record<string, unknown>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === "object" &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * A copy of a logged value with every secret field replaced, at any depth. It walks only plain
 * objects and arrays (requests and errors have their own serializers) and copies only what it
 * changes, so the common case costs a walk and no allocation.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 10) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => redactSecrets(item, depth + 1));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const safe = secretFields.has(key) ? REDACTED : redactSecrets(item, depth + 1);
    if (safe !== item) {
      copy ??= { ...value };
      copy[key] = safe;
    }
  }
  return copy ?? value;
}

/**
 * Errors keep their message, stack and cause, but not the values of a failed query: Drizzle puts
 * them in `params` and in the message, and they can hold password hashes or signatures.
 */
function serializeError(error: Error) {
  const serialized = pino.stdSerializers.err(error) as pino.SerializedError & { params?: unknown };
  const { params: _values, ...rest } = serialized;
  const withoutParams = (text: string) => text.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");
  return {
    ...rest,
    message: withoutParams(rest.message),
    ...(rest.stack ? { stack: withoutParams(rest.stack) } : {}),
  };
}

/**
 * JSON logs for machines; readable lines when a developer watches a terminal. Tests pass a
 * destination to read what was logged.
 */
export function createLogger(config: Pick<Config, "env" | "logLevel">, destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: redactedPaths, censor: REDACTED },
    serializers: { err: serializeError, req: serializeRequest },
    formatters: { log: (object) => redactSecrets(object) as Record<string, unknown> },
  };
  if (destination) return pino(options, destination);
  const pretty = config.env === "development" && process.stdout.isTTY;
  return pino({
    ...options,
    ...(pretty ? { transport: { target: "pino-pretty", options: { ignore: "pid,hostname" } } } : {}),
  });
}
