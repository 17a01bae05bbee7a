import fs from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { installJobQueue } from "../jobs/job-queue";
import { projectPaths } from "../paths";

/** Arbitrary constant naming the advisory lock that serialises migrations across app instances. */
const MIGRATION_LOCK_ID = 7_246_731_001;

/**
 * Applies the committed SQL migrations, then installs or upgrades the job queue's tables (their
 * own schema, `jobs`); safe to run from many instances at once.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client), { migrationsFolder: projectPaths.migrations });
    await installJobQueue(url);
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

export type JournalEntry = { tag: string; when: number };

/** This code's migrations, oldest first, from drizzle's journal. */
export function readJournal(folder = projectPaths.migrations): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * The tags of this code's migrations a database has not had yet, by drizzle's own rule (those
 * newer than the last it applied). Needs only read access to drizzle's table of applied ones.
 */
export async function pendingMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [table] = (
      await client.query<{ exists: boolean }>(
        "select to_regclass('drizzle.__drizzle_migrations') is not null as exists",
      )
    ).rows;
    let last = -1;
    if (table?.exists) {
      const { rows } = await client.query<{ last: string }>(
        "select coalesce(max(created_at), -1)::text as last from drizzle.__drizzle_migrations",
      );
      last = Number(rows[0]?.last ?? -1);
    }
    return readJournal()
      .filter((entry) => entry.when > last)
      .map((entry) => entry.tag);
  } finally {
    await client.end();
  }
}
