import { loadConfig } from "../src/server/platform/config";
import { BackupError, openEmbeddedForBackup, writeBackup } from "../src/server/platform/db/backup";
import { embeddedDataDir } from "../src/server/platform/db/data-dir";

/**
 * `npm run db:backup [FILE]`: a consistent backup of Tendwell's database to FILE (by default
 * tendwell-<date and time>.backup.gz in the current folder). The database is the configured one
 * (DATABASE_OWNER_URL, else DATABASE_URL) or the embedded one in DATA_DIR, read through the
 * running app's socket or, with the app stopped, from a server this command starts. See
 * docs/operations.md, Backups.
 */
async function run() {
  const config = loadConfig(process.env);
  const file = process.argv[2] ?? `tendwell-${new Date().toISOString().slice(0, 19).replaceAll(":", "-")}.backup.gz`;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  // The owner role when roles are split: it reads every table whatever the app role may.
  const configuredUrl = config.databaseOwnerUrl ?? config.databaseUrl;
  let stop = async () => {};
  let url: string;
  if (configuredUrl) {
    say(`Backing up the configured database (${redact(configuredUrl)})`);
    url = configuredUrl;
  } else {
    const dataDir = embeddedDataDir(config, say);
    const embedded = await openEmbeddedForBackup(dataDir, say);
    say(
      embedded.running
        ? `Backing up the embedded database in ${dataDir} through the running app's socket`
        : `Backing up the embedded database in ${dataDir} (the app is not running; started its server)`,
    );
    url = embedded.url;
    stop = embedded.stop;
  }
  try {
    const summary = await writeBackup({ url, file, log: say });
    say(
      `Wrote ${summary.file}: ${Object.keys(summary.rows).length} tables, ${summary.totalRows} rows, ` +
        `${summary.bytes} bytes in ${summary.seconds.toFixed(2)} s (snapshot of ${summary.takenAt})`,
    );
  } finally {
    await stop();
  }
}

/** A connection string without its password, for printing. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

run().catch((error: unknown) => {
  const message = error instanceof BackupError ? error.message : ((error as Error)?.stack ?? String(error));
  process.stderr.write(`Backup failed: ${message}\n`);
  process.exit(1);
});
