import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { backupRestoreScenario } from "../scripts/faults/backup-restore";
import { formatReport, passed } from "../scripts/faults/report";
import { verifyAuditChain } from "../src/server/features/audit-trail/audit-trail.service";
import { migrateTo, restoreBackup, writeBackup } from "../src/server/platform/db/backup";
import { connectDatabase } from "../src/server/platform/db/database";
import { projectPaths } from "../src/server/platform/paths";
import { seedFirm, signIn } from "./fixtures";
import { makeTempDir } from "./temp-dir";
import { useTestApp } from "./test-app";
import { createEmptyDatabase } from "./test-database";

/*
 * Backups (docs/operations.md, Backups): the whole path through real processes on the embedded
 * database (the fault scenario), and the library on configured databases of the test server.
 */

describe("a backup under write load (the fault scenario)", () => {
  it("S-BACKUP-01 S-BACKUP-03 npm run db:backup under write load, db:restore into an empty data directory: every acknowledged write, a verifying chain, exact task counts", async () => {
    const report = await backupRestoreScenario({ writers: 4, loadSeconds: 1.5 });
    expect(passed(report), formatReport(report)).toBe(true);
  }, 120_000);
});

describe("backups of a configured database", () => {
  const ctx = useTestApp();
  const dir = makeTempDir();
  const dropLater: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of dropLater) await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const sourceUrl = () => ctx.database.pool.options.connectionString as string;
  async function tableCounts(url: string): Promise<Record<string, number>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        "select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1",
      );
      const counts: Record<string, number> = {};
      for (const { name } of rows) {
        counts[name] = Number(
          (await client.query(`select count(*) from ${client.escapeIdentifier(name)}`)).rows[0].count,
        );
      }
      return counts;
    } finally {
      await client.end();
    }
  }
  async function emptyDatabase() {
    const database = await createEmptyDatabase();
    dropLater.push(database.drop);
    return database.url;
  }
  async function freshBackup(name: string) {
    const { firm, users } = await seedFirm(ctx.database.db, `Backup firm ${name}`);
    const admin = await signIn(ctx.app, users.super_admin);
    for (let index = 0; index < 3; index++) {
      expect((await admin.post("/api/clients", { name: `Backed-up client ${name} ${index}` })).status).toBe(201);
    }
    const file = path.join(dir, `${name}.backup.gz`);
    const summary = await writeBackup({ url: sourceUrl(), file });
    return { file, summary, firm };
  }
  /** The backup rewritten line by line, as a damaged or foreign file would be. */
  function rewrite(file: string, name: string, change: (lines: string[]) => string[]) {
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").split("\n");
    const target = path.join(dir, name);
    fs.writeFileSync(target, zlib.gzipSync(change(lines).join("\n")));
    return target;
  }

  it("S-BACKUP-01 S-BACKUP-02 restores into an empty database: the same rows in every table, audit chains that verify, sequences and triggers in place", async () => {
    const { file, summary, firm } = await freshBackup("a");
    expect(summary.totalRows).toBeGreaterThan(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const target = await emptyDatabase();
    const restored = await restoreBackup({ url: target, file });
    expect(restored.totalRows).toBe(summary.totalRows);
    expect(await tableCounts(target)).toEqual(await tableCounts(sourceUrl()));
    const database = connectDatabase({ url: target, poolSize: 1 });
    try {
      const verification = await verifyAuditChain(database.db, firm.id);
      const source = await verifyAuditChain(ctx.database.db, firm.id);
      // The verdicts agree; each database keeps its own checkpoint, written when it was checked.
      expect({ ...verification, checkpoint: null }).toEqual({ ...source, checkpoint: null });
      expect(verification).toMatchObject({ intact: true, events: expect.any(Number) });
      expect(verification.events).toBeGreaterThanOrEqual(3);
      // The triggers are back on after the load: the append-only one refuses a change.
      await expect(database.pool.query("delete from audit_events")).rejects.toThrow(/append-only/);
    } finally {
      await database.close();
    }
    // A second restore into the same database is refused: it is no longer empty.
    await expect(restoreBackup({ url: target, file })).rejects.toThrow(/The database is not empty: .* hold rows/);
    // A backup never overwrites a file.
    await expect(writeBackup({ url: sourceUrl(), file })).rejects.toThrow(/already exists/);
  });

  it("S-BACKUP-02 refuses a backup from a newer migration set, naming the migration this version lacks", async () => {
    const { file } = await freshBackup("b");
    const newer = rewrite(file, "newer.backup.gz", (lines) => {
      const header = JSON.parse(lines[1] ?? "{}");
      header.migrations.push({ tag: "9999_from_the_future", hash: "0", createdAt: 4_102_444_800_000 });
      return [lines[0] ?? "", JSON.stringify(header), ...lines.slice(2)];
    });
    const target = await emptyDatabase();
    await expect(restoreBackup({ url: target, file: newer })).rejects.toThrow(
      /taken by a newer version of Tendwell: its schema has migration 9999_from_the_future/,
    );
    expect(Object.values(await tableCounts(target)).every((count) => count === 0)).toBe(true);
  });

  it("S-BACKUP-04 a truncated or miscounted backup is refused and the database is left empty", async () => {
    const { file } = await freshBackup("c");
    const truncated = rewrite(file, "truncated.backup.gz", (lines) => lines.slice(0, -3));
    const miscounted = rewrite(file, "miscounted.backup.gz", (lines) =>
      lines.map((line) =>
        line.replace(/^END \{"rows":\{"firms":(\d+)/, (_, firms) => `END {"rows":{"firms":${Number(firms) + 1}`),
      ),
    );
    for (const [damaged, message] of [
      [truncated, /is incomplete \(it ends before its END line\): nothing was restored/],
      [miscounted, /firms: the backup has \d+ rows, the database \d+/],
    ] as const) {
      const target = await emptyDatabase();
      await expect(restoreBackup({ url: target, file: damaged })).rejects.toThrow(message);
      expect(Object.values(await tableCounts(target)).every((count) => count === 0)).toBe(true);
    }
  });

  it("S-BACKUP-02 restores a backup of an older migration set: the load goes into that schema, then this version's migrations run", async () => {
    // The source: a database an older version left, migrated to all but this code's last migration.
    const journal = JSON.parse(fs.readFileSync(path.join(projectPaths.migrations, "meta", "_journal.json"), "utf8"));
    const tags = (journal.entries as { tag: string }[]).map((entry) => entry.tag);
    const older = await emptyDatabase();
    const client = new pg.Client({ connectionString: older });
    await client.connect();
    try {
      await migrateTo(client, older, tags.length - 1);
      await client.query(
        "insert into firms (id, name, plan, trial_ends_at) values (gen_random_uuid(), 'Older firm', 'starter', now())",
      );
    } finally {
      await client.end();
    }
    const file = path.join(dir, "older.backup.gz");
    const summary = await writeBackup({ url: older, file });
    expect(summary.migrations).toHaveLength(tags.length - 1);
    const target = await emptyDatabase();
    const restored = await restoreBackup({ url: target, file });
    expect(restored.migratedAfterLoad).toEqual([tags.at(-1)]);
    // Every table the backup had holds the same rows; a table the last migration adds is there, empty.
    const olderCounts = await tableCounts(older);
    const targetCounts = await tableCounts(target);
    expect(Object.fromEntries(Object.keys(olderCounts).map((name) => [name, targetCounts[name]]))).toEqual(olderCounts);
    for (const [name, rows] of Object.entries(targetCounts)) if (!(name in olderCounts)) expect(rows, name).toBe(0);
    const check = new pg.Client({ connectionString: target });
    await check.connect();
    try {
      const { rows } = await check.query("select count(*)::int as applied from drizzle.__drizzle_migrations");
      expect(rows[0].applied).toBe(tags.length);
    } finally {
      await check.end();
    }
  });
});
