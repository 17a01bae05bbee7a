import { verifyAuditChain } from "../src/server/features/audit-trail/audit-trail.service";
import { loadConfig } from "../src/server/platform/config";
import { BackupError, openEmbeddedForRestore, restoreBackup } from "../src/server/platform/db/backup";
import { embeddedDataDir } from "../src/server/platform/db/data-dir";
import { connectDatabase } from "../src/server/platform/db/database";
import { firms } from "../src/server/platform/db/schema";

/**
 * `npm run db:restore FILE`: restores a backup written by `npm run db:backup` into an empty
 * database, the configured one (DATABASE_OWNER_URL, else DATABASE_URL) or a new embedded one in
 * DATA_DIR, which must be missing or empty. Then every firm's audit trail is verified with the
 * app's own check. Exits 1, saying why, when it refuses or anything fails. See
 * docs/operations.md, Backups.
 */
async function run() {
  const file = process.argv[2];
  if (!file) throw new BackupError("Name the backup file: npm run db:restore FILE");
  const config = loadConfig(process.env);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const configuredUrl = config.databaseOwnerUrl ?? config.databaseUrl;
  const dataDir = configuredUrl ? config.dataDir : embeddedDataDir(config, say);
  let stop = async () => {};
  let url: string;
  if (configuredUrl) {
    say("Restoring into the configured database");
    url = configuredUrl;
  } else {
    const embedded = await openEmbeddedForRestore(dataDir, say);
    say(`Restoring into a new embedded database in ${dataDir}`);
    url = embedded.url;
    stop = embedded.stop;
  }
  try {
    const summary = await restoreBackup({ url, file, log: say });
    const database = connectDatabase({ url, poolSize: 2 });
    let events = 0;
    let firmCount = 0;
    try {
      for (const firm of await database.db.select({ id: firms.id, name: firms.name }).from(firms)) {
        const verification = await verifyAuditChain(database.db, firm.id);
        if (!verification.intact) {
          throw new BackupError(
            `Restored, but the audit trail of "${firm.name}" does not verify: ${JSON.stringify(verification)}.`,
          );
        }
        events += verification.events;
        firmCount += 1;
      }
    } finally {
      await database.close();
    }
    say(`Audit trail: ${firmCount} firms, ${events} events, every chain verifies`);
    say(
      `Restored ${file}: ${Object.keys(summary.rows).length} tables, ${summary.totalRows} rows in ` +
        `${summary.seconds.toFixed(2)} s (snapshot of ${summary.takenAt})`,
    );
    say(
      configuredUrl ? "Start the app on it with npm start." : `Start the app on it with DATA_DIR=${dataDir} npm start.`,
    );
  } finally {
    await stop();
  }
}

run().catch((error: unknown) => {
  const message = error instanceof BackupError ? error.message : ((error as Error)?.stack ?? String(error));
  process.stderr.write(`Restore failed: ${message}\n`);
  process.exit(1);
});
