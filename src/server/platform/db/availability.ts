import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";

/*
 * Whether the database can be reached, and which errors say it cannot.
 *
 * A database restart or outage fails every query at once: the connect is refused, the socket is
 * gone, the pool's connect times out, or PostgreSQL ends the session while it shuts down. Those
 * failures are not bugs: a request that meets one is answered 503 with Retry-After (the error
 * handler), /api/health says the database is unreachable, and the log gets one warning when the
 * database goes and one when it returns, instead of one per request or per dropped connection.
 * Requests keep trying the database while it is away (a failed connect is quick), so the first
 * request after its return already succeeds; a probe notices the return when no request does.
 * What counts as unreachable is decided per error; that the database is down is decided by a
 * check of its own, so a single lost session or a late answer to an old connect raises no alarm.
 */

/** What a request that needs the database answers while it is unreachable. */
export const DATABASE_UNREACHABLE_MESSAGE = "The database is unreachable; please try again in a few seconds";
/** The Retry-After (seconds) of those answers. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Node socket errors that mean the server cannot be reached or dropped the connection. */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's own: admin_shutdown (a fast shutdown, or the session was terminated),
 * crash_shutdown, cannot_connect_now (starting up or shutting down); class 08 is
 * connection_exception.
 */
const sqlStates = new Set(["57P01", "57P02", "57P03"]);
const connectionExceptionClass = /^08[0-9A-Z]{3}$/;

/** What node-postgres and its pool say when a connection cannot be made or is lost. */
const driverMessages = new Set([
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
  "Connection terminated unexpectedly",
  "Client has encountered a connection error and is not queryable",
  "timeout expired",
]);

type ErrorLike = { message?: unknown; code?: unknown; syscall?: unknown; cause?: unknown; errors?: unknown };

function meansUnreachable(error: ErrorLike): boolean {
  const code = typeof error.code === "string" ? error.code : undefined;
  if (code !== undefined) {
    if (socketCodes.has(code) || sqlStates.has(code) || connectionExceptionClass.test(code)) return true;
    // A Unix socket that is not there: the server is stopped (it removes its socket file).
    if (code === "ENOENT" && error.syscall === "connect") return true;
  }
  return typeof error.message === "string" && driverMessages.has(error.message);
}

/**
 * The error, among `error` and everything it wraps, that says the database is unreachable.
 * It follows `cause` (Drizzle wraps pg's errors in its own) and an AggregateError's `errors` (a
 * connect that tried several addresses).
 */
export function unreachableCause(error: unknown): Error | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 20) {
    const current = pending.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    if (meansUnreachable(candidate)) return current as Error;
    if (candidate.cause !== undefined) pending.push(candidate.cause);
    if (Array.isArray(candidate.errors)) pending.push(...candidate.errors);
  }
  return undefined;
}

/** Whether the error (or one it wraps) means the database cannot be reached right now. */
export const isDatabaseUnreachable = (error: unknown): boolean => unreachableCause(error) !== undefined;

/** One line for the log: the error's message and its code, e.g. "connect ECONNREFUSED 127.0.0.1:5432". */
function summarize(error: Error): string {
  const { code } = error as ErrorLike;
  const message = error.message || (typeof code === "string" ? code : error.name);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

export type DatabaseAvailability = {
  /** False from a confirmed outage until the database answers again. */
  readonly reachable: boolean;
  /**
   * Notes a failed database call and returns whether it means the database is unreachable. Such
   * a failure is checked with a `select 1` of its own before it counts as an outage: one session
   * PostgreSQL ended, or a connect begun before the database's return and refused after it, is
   * no outage. A confirmed outage logs "database unreachable: …" once and probes for the return.
   */
  reportFailure: (error: unknown) => boolean;
  /** Stops listening to the pool and probing. */
  stop: () => void;
};

/**
 * Watches a pool: its 'error' events (an idle connection lost), its 'connect' events (a new
 * connection made: the server answers), and, during an outage, a `select 1` every
 * `probeIntervalMs`.
 */
export function watchDatabaseAvailability(options: {
  pool: pg.Pool;
  log: Pick<FastifyBaseLogger, "warn">;
  probeIntervalMs?: number;
}): DatabaseAvailability {
  const { pool, log } = options;
  const probeIntervalMs = options.probeIntervalMs ?? 1_000;
  // reachable -> checking (a failure said unreachable; a select 1 checks) -> unreachable, or back
  // to reachable when the check succeeds. unreachable -> reachable at the first answer.
  let state: "reachable" | "checking" | "unreachable" = "reachable";
  let since = 0;
  let probe: NodeJS.Timeout | undefined;
  let stopped = false;
  // It reads no table, so any pooled connection will do, whatever firm it last served.
  const selectOne = () => pool.query("select 1");

  const scheduleProbe = () => {
    if (stopped || state !== "unreachable") return;
    probe = setTimeout(() => {
      probe = undefined;
      selectOne().then(answered, scheduleProbe);
    }, probeIntervalMs);
    probe.unref();
  };

  function reportFailure(error: unknown): boolean {
    const cause = unreachableCause(error);
    if (cause === undefined) return false;
    if (state !== "reachable" || stopped) return true;
    state = "checking";
    since = Date.now();
    selectOne().then(answered, () => {
      if (state !== "checking" || stopped) return;
      state = "unreachable";
      log.warn({ code: (cause as ErrorLike).code }, `database unreachable: ${summarize(cause)}`);
      scheduleProbe();
    });
    return true;
  }

  function answered() {
    if (state === "unreachable") {
      const seconds = (Date.now() - since) / 1000;
      clearTimeout(probe);
      probe = undefined;
      log.warn({ outageSeconds: seconds }, `database reachable again after ${seconds.toFixed(1)} s`);
    }
    state = "reachable";
  }

  // An idle connection whose server went away: the pool drops it and emits this, once per connection.
  const onPoolError = (error: Error) => {
    if (!reportFailure(error)) log.warn({ err: error }, "idle database connection lost");
  };
  pool.on("error", onPoolError);
  pool.on("connect", answered);

  return {
    get reachable() {
      return state !== "unreachable";
    },
    reportFailure,
    stop: () => {
      stopped = true;
      clearTimeout(probe);
      pool.off("error", onPoolError);
      pool.off("connect", answered);
    },
  };
}
