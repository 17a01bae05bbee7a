import { brand } from "../shared/brand";
import { buildApp } from "./app";
import { BlogContentError } from "./features/blog/blog-content";
import { backgroundJobs, RECURRING_WORK } from "./jobs/background-jobs";
import { type Config, ConfigError, loadConfig } from "./platform/config";
import { embeddedDataDir } from "./platform/db/data-dir";
import { DataDirLockedError } from "./platform/db/data-dir-lock";
import { connectDatabase } from "./platform/db/database";
import { EmbeddedPostgresError, startEmbeddedPostgres } from "./platform/db/embedded-postgres";
import { inAnyScope } from "./platform/db/firm-scope";
import { pendingMigrations } from "./platform/db/migrate";
import { embeddedRoleUrls, mayCreateIn, userOf } from "./platform/db/roles";
import { JobQueueNotInstalledError, startJobQueue } from "./platform/jobs/job-queue";
import { createLogger } from "./platform/logger";
import { smtpMailSender } from "./platform/mail/mail-sender";
import { resolveMfaKey } from "./platform/mfa-key";
import { runtimeProblem } from "./platform/runtime";
import { demoLogins, demoPassword, hasDemoData } from "./seed/demo-seed";
import { prepareDatabase } from "./seed/prepare-database";

/** The logger as the start-up steps take it: a line at info, a line at warn. */
const logLines = (logger: ReturnType<typeof createLogger>) => ({
  info: (message: string) => logger.info(message),
  warn: (message: string) => logger.warn(message),
});

/** Boots Tendwell: database (embedded unless DATABASE_URL), migrations, demo data, HTTP. */
async function main() {
  const tooOld = runtimeProblem();
  if (tooOld) throw new StartError(tooOld);
  const configured = loadConfig(process.env);
  const logger = createLogger(configured);
  // Embedded, the data may be kept elsewhere than configured: a root-run checkout in a private folder.
  const config = configured.databaseUrl
    ? configured
    : { ...configured, dataDir: embeddedDataDir(configured, (message) => logger.info(message)) };
  // The key that seals authenticator secrets: configured, or kept in the data directory.
  const mfaKey = await resolveMfaKey(config, logLines(logger));

  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: config.dataDir,
        log: logLines(logger),
      });
  const stopEmbedded = async () => embedded?.stop();
  let database: ReturnType<typeof connectDatabase> | undefined;
  let appUrl = "";
  try {
    const urls = embedded ? await embeddedRoleUrls(embedded.url) : await externalRoles(config, logger);
    if (urls.owner) {
      await prepareDatabase({ ownerUrl: urls.owner, appUrl: urls.app, seedDemoData: config.seedDemoData, log: logger });
    }
    appUrl = urls.app;
    database = connectDatabase({
      url: urls.app,
      poolSize: config.databasePoolSize,
    });
  } catch (error) {
    await database?.close();
    await stopEmbedded();
    throw error;
  }

  const mail = config.mail.smtpUrl ? smtpMailSender({ url: config.mail.smtpUrl, from: config.mail.from }) : undefined;
  // The queue starts before the app: routes queue work in their own transactions (a client
  // import's commit, decision 0051).
  const jobs = await startJobQueue({
    url: appUrl,
    log: logger,
    kinds: backgroundJobs({ db: database.db, config, log: logger, mail, key: mfaKey }),
  }).catch(async (error: unknown) => {
    mail?.close();
    await database?.close();
    await stopEmbedded();
    throw error;
  });
  const app = await buildApp({ config: { ...config, mfaKey }, database, logger, jobs }).catch(
    async (error: unknown) => {
      await jobs.stop(1_000);
      mail?.close();
      await database?.close();
      await stopEmbedded();
      throw error;
    },
  );
  app.addHook("onClose", async () => mail?.close());
  // Recurring work begun while no instance ran is made now rather than at the next five minutes;
  // instances starting together send one job between them.
  await jobs.send(RECURRING_WORK, {}, { key: "start" });
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
      await jobs.stop(config.shutdownGraceMs);
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
    await jobs.stop();
    await database.close();
    await stopEmbedded();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const lines = [`${brand.name} is running at http://localhost:${port}`];
  if (config.seedDemoData && (await hasDemoData(inAnyScope(database.db)))) {
    lines.push(`Demo sign-ins (password "${demoPassword}"):`);
    for (const login of demoLogins) lines.push(`  ${login.username.padEnd(12)} ${login.role}`);
  }
  if (embedded) lines.push(`Data is kept in ${config.dataDir}`);
  lines.push(
    config.mail.smtpUrl
      ? `E-mail is sent through ${new URL(config.mail.smtpUrl).host} from ${config.mail.from}`
      : "E-mail is not sent (no SMTP_URL is set): each message is written to the log",
  );
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}

/**
 * With DATABASE_URL: the owner's URL when the operator gave it; else DATABASE_URL's role, when it
 * may create in the database (it owns it: one role does both, with a warning); else none, and the
 * app role's database must already have had this version's migrate step.
 */
async function externalRoles(config: Config, logger: ReturnType<typeof createLogger>) {
  const app = config.databaseUrl ?? "";
  if (config.databaseOwnerUrl) return { owner: config.databaseOwnerUrl, app };
  if (await mayCreateIn(app)) {
    logger.warn(
      `The app connects as "${userOf(app)}", a role that owns the database: least privilege needs a role of its own ` +
        "(set DATABASE_OWNER_URL to the owner and DATABASE_URL to the app's role; docs/operations.md says how)",
    );
    return { owner: app, app };
  }
  const pending = await pendingMigrations(app);
  if (pending.length > 0) {
    throw new StartError(
      `The database lacks ${pending.length} migration(s) of this version (${pending.join(", ")}), and DATABASE_URL's ` +
        `role "${userOf(app)}" may not apply them: run the migrate step (npm run db:migrate with DATABASE_OWNER_URL) first`,
    );
  }
  return { owner: undefined, app };
}

/** A start refused for a reason the operator can fix, said in one line. */
class StartError extends Error {
  override name = "StartError";
}

main().catch((error: unknown) => {
  const expected =
    error instanceof ConfigError ||
    error instanceof StartError ||
    error instanceof DataDirLockedError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof JobQueueNotInstalledError ||
    error instanceof BlogContentError;
  process.stderr.write(
    `\n${brand.name} could not start: ${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
