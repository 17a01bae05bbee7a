import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { isRunning } from "../../src/server/platform/db/data-dir-lock";
import { type AppProcess, startApp } from "../../tests/app-process";
import { makeTempDir } from "../../tests/temp-dir";

/*
 * The app as the fault scripts run it: the real process (src/server/main.ts) on its embedded
 * PostgreSQL in a data directory of its own, on loopback, with the demo firm. The rate limit per
 * address is raised: every request of a load comes from 127.0.0.1.
 */

export const demoSignIn = { username: "olivia.hart", password: "tendwell-demo" } as const;

export type Instance = ReturnType<typeof appInstance>;

export function appInstance(options: { env?: Record<string, string> } = {}) {
  const dataDir = makeTempDir();
  const started: AppProcess[] = [];
  const socketDir = path.join(dataDir, "run");

  const postmasterPid = () => {
    const file = path.join(dataDir, "postgres", "postmaster.pid");
    if (!fs.existsSync(file)) return undefined;
    const pid = Number(fs.readFileSync(file, "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  };

  return {
    dataDir,
    postmasterPid,
    /** Starts the app on the data directory and resolves once it prints its address. */
    async start(env: Record<string, string> = {}): Promise<AppProcess & { seconds: number }> {
      const startedAt = performance.now();
      const app = await startApp({
        DATA_DIR: dataDir,
        RATE_LIMIT_PER_MINUTE: "1000000",
        ...options.env,
        ...env,
      });
      started.push(app);
      return { ...app, seconds: (performance.now() - startedAt) / 1000 };
    },
    /** One query on the app's database over its socket (a connection of its own, closed after). */
    async query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
      const client = new pg.Client({ host: socketDir, port: 5432, user: "postgres", database: "tendwell" });
      await client.connect();
      try {
        return (await client.query<T>(sql, values)).rows;
      } finally {
        await client.end();
      }
    },
    /** Kills whatever is still running and removes the data directory. */
    async dispose() {
      for (const app of started)
        if (app.child.exitCode === null && app.child.signalCode === null) await app.stop("SIGKILL");
      const orphan = postmasterPid();
      if (orphan && isRunning(orphan)) {
        process.kill(orphan, "SIGQUIT");
        for (let waited = 0; waited < 10_000 && isRunning(orphan); waited += 100) await sleep(100);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
