import { sql } from "drizzle-orm";
import { fromDrizzle, type Job, type JobResult, PgBoss, type Queue } from "pg-boss";
import type { Logger } from "pino";
import { isDatabaseUnreachable } from "../db/availability";
import type { Database } from "../db/database";

/**
 * The background work's queue: pg-boss on our own PostgreSQL, in a schema of its own (decision
 * 0046). The owner installs and upgrades its tables beside the migrations; the app role, which may
 * only read and write rows, runs the queues: each instance works on jobs, and pg-boss's cron
 * sends one job per occurrence of a schedule however many instances watch it.
 */
export const JOBS_SCHEMA = "jobs";

/**
 * Installs pg-boss's tables in their schema, or brings them up to this version's, as `url`'s role
 * (the owner). Safe to run from several processes at once: pg-boss takes an advisory lock.
 */
export async function installJobQueue(url: string): Promise<void> {
  const boss = new PgBoss({ connectionString: url, schema: JOBS_SCHEMA, max: 1, supervise: false, schedule: false });
  let failure: Error | undefined;
  boss.on("error", (error: Error) => {
    failure ??= error;
  });
  try {
    await boss.start();
  } finally {
    await boss.stop({ graceful: false });
  }
  if (failure) throw failure;
}

/** A kind of background job: its queue's policy and retries, its schedule, what one run does. */
export type JobKind<Data extends object = object> = {
  name: string;
  /**
   * What it runs on: a cron expression, evaluated in UTC, when it recurs for the whole
   * installation; a firm's own schedules (in its time zone) are sent by the code that owns them.
   */
  cron?: string;
  /** pg-boss's queue policy: `stately` keeps at most one job waiting and one running. */
  policy: Queue["policy"];
  /** Tries after the first, each waiting longer than the last (backoff from `retryDelaySeconds`). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** How long one run may take before pg-boss counts it failed (and retries it). */
  expireSeconds: number;
  /** One run, given its job's data. It must be harmless to run twice (a crash can repeat it). */
  run: (data: Data) => Promise<void>;
};

export type JobQueue = {
  /**
   * Adds a job inside the caller's transaction, so it exists only if the change that causes it
   * commits. `key` makes it once-only among the kind's waiting jobs.
   */
  sendWithin: (tx: Pick<Database, "execute">, kind: string, data: object, options?: { key?: string }) => Promise<void>;
  /** Adds a job now (outside any transaction). */
  send: (kind: string, data: object, options?: { key?: string }) => Promise<void>;
  /** Stops taking jobs, waits up to `timeoutMs` for the running ones, and closes its connections. */
  stop: (timeoutMs?: number) => Promise<void>;
};

/** A start refused because the database lacks this version's job tables. */
export class JobQueueNotInstalledError extends Error {
  override name = "JobQueueNotInstalledError";
}

/**
 * Starts working the given kinds of job on the database `url` names (the app role's), creating
 * their queues and schedules when missing: several instances may do this at once.
 */
export async function startJobQueue(options: {
  url: string;
  log: Logger;
  kinds: JobKind[];
  /** Connections of its own, beside the app's pool (pg-boss polls and keeps one to listen). */
  poolSize?: number;
}): Promise<JobQueue> {
  const { log, kinds } = options;
  const boss = new PgBoss({
    connectionString: options.url,
    schema: JOBS_SCHEMA,
    max: options.poolSize ?? 3,
    // The owner installs and upgrades the tables (installJobQueue); this role may not.
    migrate: false,
    createSchema: false,
    useListenNotify: true,
  });
  // While the database is unreachable the app's availability watch says so, once each way; the
  // queue's polls failing meanwhile are expected and go to the debug log.
  boss.on("error", (error: Error) => {
    if (isDatabaseUnreachable(error)) log.debug({ err: error }, "job queue: the database is unreachable; it retries");
    else log.warn({ err: error }, "job queue: a database call failed; it retries");
  });
  boss.on("warning", (warning: { message: string }) => log.warn(`job queue: ${warning.message}`));
  try {
    await boss.start();
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => {});
    if (/not (been )?installed|requires migration|version/i.test((error as Error).message)) {
      throw new JobQueueNotInstalledError(
        `The job queue's tables are missing or older than this version (${(error as Error).message}): run the migrate step first`,
      );
    }
    throw error;
  }

  for (const kind of kinds) {
    const queue = {
      policy: kind.policy,
      retryLimit: kind.retryLimit,
      retryDelay: kind.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: kind.expireSeconds,
      notify: true,
    };
    await createQueueOnce(boss, kind.name, queue);
    if (kind.cron) await boss.schedule(kind.name, kind.cron, {}, { tz: "UTC" });
    // Up to ten jobs a fetch, run one after another and settled each on its own; while fetches
    // come back full the next follows at once. A job sent wakes the instances (NOTIFY); one that
    // heard nothing looks again every two seconds.
    await boss.work(
      kind.name,
      { perJobResults: true, batchSize: 10, burstWhenBatchFull: true, notifyPollingIntervalSeconds: 2 },
      async (batch: Job<object>[]) => {
        const results: JobResult[] = [];
        for (const job of batch) {
          const started = Date.now();
          try {
            await kind.run(job.data);
            log.debug({ job: kind.name, id: job.id, ms: Date.now() - started }, "job done");
            results.push({ id: job.id, status: "completed" });
          } catch (error) {
            const level = isDatabaseUnreachable(error) ? "debug" : "warn";
            log[level]({ err: error, job: kind.name, id: job.id }, "job failed; it is tried again later");
            results.push({ id: job.id, status: "failed", output: { message: (error as Error).message } });
          }
        }
        return results;
      },
    );
  }

  const known = new Set(kinds.map((kind) => kind.name));
  const assertKnown = (kind: string) => {
    if (!known.has(kind)) throw new Error(`no job kind named ${kind}`);
  };
  return {
    sendWithin: async (tx, kind, data, sendOptions = {}) => {
      assertKnown(kind);
      await boss.send(kind, data, {
        db: fromDrizzle(tx, sql),
        ...(sendOptions.key ? { singletonKey: sendOptions.key } : {}),
      });
    },
    send: async (kind, data, sendOptions = {}) => {
      assertKnown(kind);
      await boss.send(kind, data, sendOptions.key ? { singletonKey: sendOptions.key } : {});
    },
    stop: (timeoutMs = 30_000) => boss.stop({ graceful: true, timeout: timeoutMs }),
  };
}

/** Creates a queue unless it exists; two instances starting together may both try. */
async function createQueueOnce(boss: PgBoss, name: string, queue: Omit<Queue, "name">): Promise<void> {
  if (await boss.getQueue(name)) {
    await boss.updateQueue(name, {
      retryLimit: queue.retryLimit,
      retryDelay: queue.retryDelay,
      retryBackoff: queue.retryBackoff,
      expireInSeconds: queue.expireInSeconds,
      notify: queue.notify,
    });
    return;
  }
  try {
    await boss.createQueue(name, queue);
  } catch (error) {
    // 23505: the other instance created it first.
    if ((error as { code?: string }).code !== "23505") throw error;
  }
}
