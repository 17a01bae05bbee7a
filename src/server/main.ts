import { brand } from "../shared/brand";
import { buildApp } from "./app";
import { BlogContentError, syncBlogPosts } from "./features/blog/blog-content";
import { startHousekeeping } from "./jobs/housekeeping";
import { startScheduler } from "./jobs/scheduler";
import { ConfigError, loadConfig } from "./platform/config";
import { DataDirLockedError } from "./platform/db/data-dir-lock";
import { connectDatabase } from "./platform/db/database";
import { EmbeddedPostgresError, startEmbeddedPostgres } from "./platform/db/embedded-postgres";
import { migrateDatabase } from "./platform/db/migrate";
import { createLogger } from "./platform/logger";
import { projectPaths } from "./platform/paths";
import { demoLogins, demoPassword, hasDemoData, seedDemoData } from "./seed/demo-seed";

/** Boots Tendwell: database (embedded unless DATABASE_URL), migrations, demo data, HTTP. */
async function main() {
  const config = loadConfig(process.env);
  const logger = createLogger(config);

  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: config.dataDir,
        log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
      });
  const databaseUrl = config.databaseUrl ?? embedded?.url;
  if (!databaseUrl) throw new Error("unreachable: no database URL");

  const stopEmbedded = async () => embedded?.stop();
  let database: ReturnType<typeof connectDatabase> | undefined;
  try {
    await migrateDatabase(databaseUrl);
    database = connectDatabase({
      url: databaseUrl,
      poolSize: config.databasePoolSize,
    });
    if (config.seedDemoData && (await seedDemoData(database.db, { onlyIfEmpty: true }))) {
      logger.info("Created the demo firm on the empty database");
    }
    const blog = await syncBlogPosts(database.db, projectPaths.blogContent);
    logger.info(blog, "Blog posts synced from content/blog");
  } catch (error) {
    await database?.close();
    await stopEmbedded();
    throw error;
  }

  const app = await buildApp({ config, database, logger });
  const stopHousekeeping = startHousekeeping({ db: database.db, config, log: logger });
  const stopScheduler = startScheduler({ db: database.db, log: logger });
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    shuttingDown = true;
    logger.info(`${signal} received: draining requests and shutting down`);
    // A request still running after the grace period (a client trickling its body, say) must
    // not keep the database running: its connection is cut and the shutdown goes on.
    const cutOff = setTimeout(() => {
      logger.warn(`requests still running after ${config.shutdownGraceMs / 1000} s: closing their connections`);
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    cutOff.unref();
    const force = setTimeout(() => {
      logger.error("shutdown is stuck; exiting");
      process.exit(1);
    }, config.shutdownGraceMs + 30_000);
    force.unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests
      clearTimeout(cutOff);
      await stopHousekeeping();
      await stopScheduler();
      await database?.close();
      await stopEmbedded();
      logger.info("shut down cleanly");
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await stopHousekeeping();
    await stopScheduler();
    await database.close();
    await stopEmbedded();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const lines = [`${brand.name} is running at http://localhost:${port}`];
  if (config.seedDemoData && (await hasDemoData(database.db))) {
    lines.push(`Demo sign-ins (password "${demoPassword}"):`);
    for (const login of demoLogins) lines.push(`  ${login.username.padEnd(12)} ${login.role}`);
  }
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}

main().catch((error: unknown) => {
  const expected =
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof BlogContentError;
  process.stderr.write(
    `\n${brand.name} could not start: ${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
