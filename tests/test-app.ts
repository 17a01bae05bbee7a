import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { type AppOptions, buildApp } from "../src/server/app";
import { clientImportJob } from "../src/server/features/client-import/client-import.job";
import { clientImportUndoJob } from "../src/server/features/client-import/client-import-undo.job";
import { type Config, loadConfig } from "../src/server/platform/config";
import { connectDatabase, type DatabaseHandle } from "../src/server/platform/db/database";
import { type JobQueue, startJobQueue } from "../src/server/platform/jobs/job-queue";
import { newSealingKey } from "../src/server/platform/sealed-secrets";
import { createTestDatabase } from "./test-database";

export type TestApp = {
  readonly app: FastifyInstance;
  /** The test's own connection, as the superuser: fixtures and checks see every firm's rows. */
  readonly database: DatabaseHandle;
  /** The app's connection, as the app's own role: row-level security applies to it. */
  readonly appDatabase: DatabaseHandle;
  /** The app's configuration: e.g. the key it seals authenticator secrets with. */
  readonly config: Config;
};

/**
 * The real app on this file's own fresh database, built once for the file.
 * `env` adds configuration; `extend` may add routes before the app starts, to exercise the
 * framework itself.
 */
export function useTestApp(
  options: {
    /** A function when a value is known only once other beforeAll hooks ran (a stand-in's port). */
    env?: Record<string, string> | (() => Record<string, string>);
    clientDir?: string;
    extend?: (app: FastifyInstance) => void;
    logger?: AppOptions["logger"];
    /** Connections in the app's pool (default 5); 1 makes every query run on one session. */
    poolSize?: number;
    /** Start the job queue on the file's database, working the jobs routes queue (a client import's commit and undo). */
    jobs?: boolean;
    /** The app's clock (AppOptions.clock), for answers that depend on the moment. */
    clock?: () => Date;
  } = {},
): TestApp {
  let app: FastifyInstance | undefined;
  let database: DatabaseHandle | undefined;
  let appDatabase: DatabaseHandle | undefined;
  let config: Config | undefined;
  let jobs: JobQueue | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    config = loadConfig({
      MFA_ENCRYPTION_KEY: newSealingKey().text,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      DATABASE_URL: created.appUrl,
      // A test file sends thousands of requests from one address within a minute;
      // rate-limit.test.ts exercises the limiter at small limits.
      RATE_LIMIT_PER_MINUTE: "1000000",
      ...(typeof options.env === "function" ? options.env() : options.env),
    });
    database = connectDatabase({ url: created.url, poolSize: 5 });
    appDatabase = connectDatabase({ url: created.appUrl, poolSize: options.poolSize ?? 5 });
    if (options.jobs) {
      const log = pino({ level: "silent" });
      jobs = await startJobQueue({
        url: created.appUrl,
        log,
        kinds: [clientImportJob({ db: appDatabase.db, log }), clientImportUndoJob({ db: appDatabase.db, log })],
        poolSize: 2,
      });
    }
    app = await buildApp({
      config,
      database: appDatabase,
      ...(jobs ? { jobs } : {}),
      ...(options.clientDir ? { clientDir: options.clientDir } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    options.extend?.(app);
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await jobs?.stop(5_000);
    await appDatabase?.close();
    await database?.close();
    await drop?.();
  });

  return {
    get app() {
      if (!app) throw new Error("the test app is built in beforeAll");
      return app;
    },
    get database() {
      if (!database) throw new Error("the test database is created in beforeAll");
      return database;
    },
    get appDatabase() {
      if (!appDatabase) throw new Error("the test database is created in beforeAll");
      return appDatabase;
    },
    get config() {
      if (!config) throw new Error("the test app is built in beforeAll");
      return config;
    },
  };
}
