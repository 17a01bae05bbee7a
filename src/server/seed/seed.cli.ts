import { loadConfig } from "../platform/config";
import { connectDatabase } from "../platform/db/database";
import { startEmbeddedPostgres } from "../platform/db/embedded-postgres";
import { migrateDatabase } from "../platform/db/migrate";
import { demoLogins, demoPassword, seedDemoData } from "./demo-seed";

/** `npm run db:seed`: adds the demo firm to the configured database unless it is there. */
async function run() {
  const config = loadConfig(process.env);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir });
  const url = config.databaseUrl ?? embedded?.url ?? "";
  const database = connectDatabase({ url, poolSize: 2 });
  try {
    await migrateDatabase(url);
    const created = await seedDemoData(database.db);
    process.stdout.write(created ? "Created the demo firm.\n" : "The demo firm is already there; nothing changed.\n");
    process.stdout.write(
      `Sign in as ${demoLogins.map((login) => login.username).join(", ")} with password "${demoPassword}".\n`,
    );
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

run().catch((error: unknown) => {
  process.stderr.write(`Seeding failed: ${(error as Error).message}\n`);
  process.exit(1);
});
