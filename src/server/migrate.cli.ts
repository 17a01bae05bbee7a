import { brand } from "../shared/brand";
import { ConfigError, loadConfig } from "./platform/config";
import { createLogger } from "./platform/logger";
import { prepareDatabase } from "./seed/prepare-database";

/*
 * `npm run db:migrate` (and the image's migrate step, `deploy/image-steps.sh migrate`): prepares
 * the database DATABASE_URL names for this version, as the owner DATABASE_OWNER_URL names (or
 * DATABASE_URL's role when there is no owner URL): the migrations, the app role's grants, the
 * blog's articles. Instances started afterwards with the app's URL alone find it ready. It starts
 * no embedded database: that one is prepared by the app's own start.
 */
async function run() {
  const config = loadConfig(process.env);
  if (config.databaseUrl === undefined) {
    throw new ConfigError(
      "DATABASE_URL is not set: the migrate step needs an external PostgreSQL (the embedded one migrates at start)",
    );
  }
  const started = Date.now();
  await prepareDatabase({
    ownerUrl: config.databaseOwnerUrl ?? config.databaseUrl,
    appUrl: config.databaseUrl,
    seedDemoData: config.seedDemoData,
    log: createLogger(config),
  });
  process.stdout.write(`${brand.name}: the database is ready for this version (${Date.now() - started} ms)\n`);
}

run().catch((error: unknown) => {
  // A bad setting or a database's refusal (it carries PostgreSQL's code) is said in a line; a bug
  // shows its stack.
  const expected = error instanceof ConfigError || (error instanceof Error && "code" in error);
  const message = expected ? (error as Error).message : String((error as Error)?.stack ?? error);
  process.stderr.write(`${brand.name} could not migrate the database: ${message}\n`);
  process.exit(1);
});
