import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../../tests/test-database";
import { connectDatabase } from "../db/database";
import { JOBS_SCHEMA, type JobKind, type JobQueue, startJobQueue } from "./job-queue";

const quiet = pino({ level: "silent" });

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the job queue");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A kind of job that records each run's data in `runs` (and what the instance was). */
function recordingKind(name: string, runs: object[], extra: Partial<JobKind> = {}): JobKind {
  return {
    name,
    policy: "standard",
    retryLimit: 2,
    retryDelaySeconds: 1,
    expireSeconds: 60,
    run: async (data) => {
      runs.push(data);
    },
    ...extra,
  };
}

describe("the job queue (pg-boss as the app's role)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const queues: JobQueue[] = [];
  const start = async (kinds: JobKind[]) => {
    const queue = await startJobQueue({ url: database.appUrl, log: quiet, kinds, poolSize: 2 });
    queues.push(queue);
    return queue;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const queue of queues) await queue.stop(1_000);
    await database.drop();
  });

  it("S-JOB-01 the migrations install the queue's tables, owned by the owner; the app role runs a job sent to it, once", async () => {
    const owner = new pg.Client({ connectionString: database.url });
    await owner.connect();
    try {
      const { rows } = await owner.query<{ owner: string }>(
        "select nspowner::regrole::text as owner from pg_namespace where nspname = $1",
        [JOBS_SCHEMA],
      );
      expect(rows).toEqual([{ owner: "tendwell_owner" }]);
    } finally {
      await owner.end();
    }
    const runs: object[] = [];
    const queue = await start([recordingKind("s-job-01", runs)]);
    await queue.send("s-job-01", { n: 1 });
    await until(() => runs.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs).toEqual([{ n: 1 }]);
  });

  it("S-JOB-02 a job sent within a transaction exists only if the transaction commits", async () => {
    const runs: object[] = [];
    const queue = await start([recordingKind("s-job-02", runs)]);
    const app = connectDatabase({ url: database.appUrl, poolSize: 1 });
    try {
      await app.db
        .transaction(async (tx) => {
          await queue.sendWithin(tx, "s-job-02", { committed: false });
          throw new Error("the change failed");
        })
        .catch(() => {});
      await app.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await queue.sendWithin(tx, "s-job-02", { committed: true });
      });
    } finally {
      await app.close();
    }
    await until(() => runs.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(runs).toEqual([{ committed: true }]);
  });

  it("S-JOB-03 two instances share the work: each job runs on one of them, once; a kind's schedule is one, whoever made it", async () => {
    const runs: object[] = [];
    const kind = recordingKind("s-job-03", runs, { cron: "0 3 * * *" });
    const [first, second] = await Promise.all([start([kind]), start([kind])]);
    if (first === undefined || second === undefined) throw new Error("no queues");
    for (let n = 0; n < 20; n++) await (n % 2 === 0 ? first : second).send("s-job-03", { n });
    await until(() => runs.length >= 20);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(runs.map((data) => (data as { n: number }).n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, n) => n),
    );
    const owner = new pg.Client({ connectionString: database.url });
    await owner.connect();
    try {
      const { rows } = await owner.query(`select cron, timezone from ${JOBS_SCHEMA}.schedule where name = $1`, [
        "s-job-03",
      ]);
      expect(rows).toEqual([{ cron: "0 3 * * *", timezone: "UTC" }]);
    } finally {
      await owner.end();
    }
  });

  it("S-JOB-04 a run that fails is tried again later, until it succeeds; a key keeps one job waiting", async () => {
    const attempts: number[] = [];
    const queue = await start([
      recordingKind("s-job-04", [], {
        run: async () => {
          attempts.push(Date.now());
          if (attempts.length < 2) throw new Error("a temporary failure");
        },
      }),
    ]);
    await queue.send("s-job-04", {}, { key: "once" });
    await until(() => attempts.length >= 2, 20_000);
    const [firstTry = 0, secondTry = 0] = attempts;
    expect(secondTry - firstTry).toBeGreaterThanOrEqual(900);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(attempts).toHaveLength(2);
  });

  it("S-JOB-05 stopping waits for the job that is running, and takes no new one", async () => {
    let finished = false;
    const runs: object[] = [];
    const queue = await start([
      recordingKind("s-job-05", runs, {
        run: async (data) => {
          runs.push(data);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          finished = true;
        },
      }),
    ]);
    await queue.send("s-job-05", { n: 1 });
    await until(() => runs.length === 1);
    await queue.stop(10_000);
    expect(finished).toBe(true);
  });
});
