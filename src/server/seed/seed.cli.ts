import { loadConfig } from "../platform/config";
import { embeddedDataDir } from "../platform/db/data-dir";
import { connectDatabase } from "../platform/db/database";
import { startEmbeddedPostgres } from "../platform/db/embedded-postgres";
import { embeddedRoleUrls } from "../platform/db/roles";
import { createLogger } from "../platform/logger";
import { demoLogins, demoPassword, seedDemoData } from "./demo-seed";
import { prepareDatabase } from "./prepare-database";

/**
 * `npm run db:seed`: adds the demo firm to the configured database unless it is there. It works
 * as the role that owns the tables, as the migrate step does: DATABASE_OWNER_URL's (or
 * DATABASE_URL's when there is no owner URL), or the embedded database's owner.
 */
async function run() {
  const config = loadConfig(process.env);
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: embeddedDataDir(config, console.log) });
  const urls = embedded
    ? await embeddedRoleUrls(embedded.url)
    : { owner: config.databaseOwnerUrl ?? config.databaseUrl ?? "", app: config.databaseUrl ?? "" };
  const owner = connectDatabase({ url: urls.owner, poolSize: 2 });
  try {
    await prepareDatabase({ ownerUrl: urls.owner, appUrl: urls.app, seedDemoData: false, log: createLogger(config) });
    const created = await seedDemoData(owner.db);
    process.stdout.write(created ? "Created the demo firm.\n" : "The demo firm is already there; nothing changed.\n");
    process.stdout.write(
      `Sign in as ${demoLogins.map((login) => login.username).join(", ")} with password "${demoPassword}".\n`,
    );
  } finally {
    await owner.close();
    await embedded?.stop();
  }
}

run().catch((error: unknown) => {
  process.stderr.write(`Seeding failed: ${(error as Error).message}\n`);
  process.exit(1);
});
