import { brand } from "../shared/brand";
import { ConfigError, loadConfig } from "./platform/config";
import { migrateDatabase } from "./platform/db/migrate";

/*
 * `npm run db:migrate` (and the image's migrate step, `deploy/image-steps.sh migrate`): applies
 * the migrations that have not run yet to the database DATABASE_URL names, then exits. The app
 * also migrates at every start, under the same advisory lock, so running this first only moves
 * the work (and the owner role's rights) out of the app's start: a start after it finds nothing
 * to apply. It starts no embedded database: without DATABASE_URL there is nothing to migrate ahead.
 */
async function run() {
  const config = loadConfig(process.env);
  if (config.databaseUrl === undefined) {
    throw new ConfigError(
      "DATABASE_URL is not set: the migrate step needs an external PostgreSQL (the embedded one migrates at start)",
    );
  }
  const started = Date.now();
  await migrateDatabase(config.databaseUrl);
  process.stdout.write(`${brand.name}: the database's migrations are applied (${Date.now() - started} ms)\n`);
}

run().catch((error: unknown) => {
  // A bad setting or a database's refusal (it carries PostgreSQL's code) is said in a line; a bug
  // shows its stack.
  const expected = error instanceof ConfigError || (error instanceof Error && "code" in error);
  const message = expected ? (error as Error).message : String((error as Error)?.stack ?? error);
  process.stderr.write(`${brand.name} could not migrate the database: ${message}\n`);
  process.exit(1);
});
