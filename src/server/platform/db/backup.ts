import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { finished, pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { projectPaths } from "../paths";
import { isRunning } from "./data-dir-lock";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { type JournalEntry, migrateDatabase, readJournal } from "./migrate";

/*
 * Tendwell's own backup format (docs/operations.md, Backups; decision 0034): the rows of every
 * table of the `public` schema, as PostgreSQL's COPY text, read in one snapshot, behind a header
 * naming the migrations the schema had. Data only: no tables, functions, triggers, owners or
 * grants, which the migrations make. A restore therefore migrates an empty database to the
 * backup's migrations and loads the rows into that schema, whoever owns it.
 *
 * The file is gzip of these lines:
 *
 *   TENDWELL-BACKUP 1
 *   {header: when the snapshot was taken, the migrations, each table and its columns}
 *   TABLE "firms"                 one section per table, parents before the tables that
 *   <COPY text rows>              reference them, so a restore that checks foreign keys
 *   \.                            can load them in file order
 *   …
 *   END {"rows":{"firms":1,…}}    written last: a file without it is incomplete
 *
 * COPY's text format escapes newlines and backslashes inside values, so every row is one line
 * and no row is ever the line `\.`.
 */

export const BACKUP_FORMAT = 1;
const MAGIC = "TENDWELL-BACKUP";

export type BackupMigration = { tag: string | null; hash: string; createdAt: number };
export type BackupHeader = {
  format: number;
  /** The snapshot's moment: the backup transaction's start, by the database server's clock. */
  takenAt: string;
  serverVersion: string;
  migrations: BackupMigration[];
  tables: { name: string; columns: string[] }[];
};
export type BackupSummary = {
  file: string;
  takenAt: string;
  migrations: BackupMigration[];
  rows: Record<string, number>;
  totalRows: number;
  bytes: number;
  seconds: number;
};
export type RestoreSummary = {
  takenAt: string;
  migrations: BackupMigration[];
  /** Migrations of this code the backup did not have, applied after the load. */
  migratedAfterLoad: string[];
  rows: Record<string, number>;
  totalRows: number;
  seconds: number;
};

/** A refusal or failure worth a plain message (the commands print it without a stack). */
export class BackupError extends Error {
  override name = "BackupError";
}

type Log = (line: string) => void;
const quiet: Log = () => {};

// ---------------------------------------------------------------------------------------------
// Where the database is

/** The embedded server's socket URL for a data directory, as the app builds it. */
export function embeddedSocketUrl(dataDir: string): string {
  const runDir = path.join(path.resolve(dataDir), "run");
  return `postgresql://postgres@localhost:5432/tendwell?host=${encodeURIComponent(runDir)}`;
}

/**
 * The embedded database of `dataDir`, for a backup. While the app runs it owns the folder (its
 * lock) and its server, and the backup reads through the server's socket beside it; otherwise
 * the backup starts the server itself, holding the lock so that no app starts meanwhile.
 */
export async function openEmbeddedForBackup(
  dataDir: string,
  log: Log = quiet,
): Promise<{ url: string; running: boolean; stop: () => Promise<void> }> {
  const dir = path.resolve(dataDir);
  if (!fs.existsSync(path.join(dir, "postgres", "PG_VERSION"))) {
    throw new BackupError(`There is no Tendwell database in ${dir} (DATA_DIR): nothing to back up.`);
  }
  const url = embeddedSocketUrl(dir);
  if (await accepts(url)) return { url, running: true, stop: async () => {} };
  const lockOwner = readPid(path.join(dir, "tendwell.lock"));
  if (lockOwner !== undefined && lockOwner !== process.pid && isRunning(lockOwner)) {
    // The app is starting (or stopping): its server does not answer yet.
    throw new BackupError(
      `Tendwell (pid ${lockOwner}) holds ${dir} but its database does not answer yet; try again in a moment.`,
    );
  }
  const embedded = await startEmbeddedPostgres({ dataDir: dir, log: { info: log, warn: log } });
  return { url: embedded.url, running: false, stop: embedded.stop };
}

/**
 * A new embedded database in `dataDir` for a restore: the folder must be missing or empty, so a
 * restore never lands on top of a firm's data.
 */
export async function openEmbeddedForRestore(
  dataDir: string,
  log: Log = quiet,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = path.resolve(dataDir);
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (entries.length > 0) {
    throw new BackupError(
      `${dir} (DATA_DIR) is not empty (it holds ${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", …" : ""}). ` +
        "A restore goes into an empty data directory only: set DATA_DIR to a new folder, or move this one away first.",
    );
  }
  const embedded = await startEmbeddedPostgres({ dataDir: dir, log: { info: log, warn: log } });
  return { url: embedded.url, stop: embedded.stop };
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Backup

/**
 * Writes a backup of the database at `url` to `file` (which must not exist yet). Every table is
 * read in one REPEATABLE READ, READ ONLY transaction: one snapshot, so the file holds exactly the
 * transactions committed before the snapshot was taken, whatever the app writes meanwhile. The
 * file is written as `file.partial` and renamed when complete and flushed to disk.
 */
export async function writeBackup(options: { url: string; file: string; log?: Log }): Promise<BackupSummary> {
  const log = options.log ?? quiet;
  const started = performance.now();
  const file = path.resolve(options.file);
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists; a backup never overwrites a file.`);
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  let output: fs.WriteStream | undefined;
  try {
    await client.query("begin transaction isolation level repeatable read, read only");
    // The snapshot is taken by the transaction's first query: this one.
    const facts = await client.query<{ taken_at: Date; server_version: string; migrations: string | null }>(
      "select now() as taken_at, current_setting('server_version') as server_version, " +
        "to_regclass('drizzle.__drizzle_migrations')::text as migrations",
    );
    const { taken_at: takenAt, server_version: serverVersion, migrations: migrationsTable } = facts.rows[0] ?? {};
    if (!takenAt || !serverVersion) throw new BackupError("The database did not answer the first query.");
    if (!migrationsTable) {
      throw new BackupError("This database has no Tendwell migrations applied: it is not a Tendwell database.");
    }
    const migrations = await appliedMigrations(client);
    const tables = await tablesInLoadOrder(client);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      takenAt: takenAt.toISOString(),
      serverVersion,
      migrations,
      tables,
    };
    log(`Snapshot taken at ${header.takenAt}: ${tables.length} tables, ${describeMigrations(migrations)}`);

    output = fs.createWriteStream(partial, { flags: "wx", mode: 0o600 });
    const gzip = zlib.createGzip();
    const written = pipeline(gzip, output);
    written.catch(() => {}); // awaited below; an early failure surfaces at the next write
    const write = async (chunk: string | Buffer) => {
      if (!gzip.write(chunk)) await Promise.race([once(gzip, "drain"), written]);
    };
    await write(`${MAGIC} ${BACKUP_FORMAT}\n${JSON.stringify(header)}\n`);
    const rows: Record<string, number> = {};
    for (const table of tables) {
      await write(`TABLE ${JSON.stringify(table.name)}\n`);
      const source = client.query(copyTo(`copy ${columnList(client, table)} to stdout`));
      let count = 0;
      for await (const chunk of source as AsyncIterable<Buffer>) {
        count += countNewlines(chunk);
        await write(chunk);
      }
      await write("\\.\n");
      rows[table.name] = count;
      log(`  ${table.name.padEnd(24)} ${String(count).padStart(9)} rows`);
    }
    await write(`END ${JSON.stringify({ rows })}\n`);
    gzip.end();
    await written;
    await client.query("commit");

    const handle = fs.openSync(partial, "r+");
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    if (fs.existsSync(file))
      throw new BackupError(`${file} appeared while the backup ran; the backup is in ${partial}.`);
    fs.renameSync(partial, file);
    const totalRows = Object.values(rows).reduce((sum, count) => sum + count, 0);
    return {
      file,
      takenAt: header.takenAt,
      migrations,
      rows,
      totalRows,
      bytes: fs.statSync(file).size,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    output?.destroy();
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The migrations the database has, oldest first, named by this code's journal where it knows them. */
async function appliedMigrations(client: pg.Client): Promise<BackupMigration[]> {
  const tags = new Map(readJournal().map((entry) => [entry.when, entry.tag]));
  const { rows } = await client.query<{ hash: string; created_at: string }>(
    "select hash, created_at::text from drizzle.__drizzle_migrations order by created_at, id",
  );
  return rows.map((row) => {
    const createdAt = Number(row.created_at);
    return { tag: tags.get(createdAt) ?? null, hash: row.hash, createdAt };
  });
}

/**
 * The `public` schema's tables with their columns (generated ones left out: COPY cannot load
 * them), ordered so that a table comes after every table its foreign keys reference.
 */
async function tablesInLoadOrder(client: pg.Client): Promise<BackupHeader["tables"]> {
  const { rows: columns } = await client.query<{ table: string; column: string }>(
    `select c.relname as table, a.attname as column
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname, a.attnum`,
  );
  const { rows: references } = await client.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent
       from pg_constraint k
       join pg_class child on child.oid = k.conrelid
       join pg_class parent on parent.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace and k.conrelid <> k.confrelid`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of references) parents.set(child, (parents.get(child) ?? new Set()).add(parent));

  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: string) => {
    if (placed.has(table)) return;
    if (visiting.has(table)) throw new BackupError(`The foreign keys of ${table} form a cycle; no load order exists.`);
    visiting.add(table);
    for (const parent of [...(parents.get(table) ?? [])].sort()) if (byTable.has(parent)) place(parent);
    visiting.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of [...byTable.keys()].sort()) place(table);
  return ordered.map((name) => ({ name, columns: byTable.get(name) ?? [] }));
}

const columnList = (client: pg.Client, table: { name: string; columns: string[] }) =>
  `${client.escapeIdentifier(table.name)} (${table.columns.map((column) => client.escapeIdentifier(column)).join(", ")})`;

function countNewlines(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count += 1;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Reading a backup

/** The lines of a backup file, decompressed, without their line ends. */
function backupLines(file: string): { lines: AsyncIterable<string>; close: () => void } {
  const input = fs.createReadStream(file);
  const gunzip = zlib.createGunzip();
  const lines = readline.createInterface({ input: input.pipe(gunzip), crlfDelay: Number.POSITIVE_INFINITY });
  const fail = (error: Error) =>
    lines.emit("error", new BackupError(`${file} is not a readable backup (${error.message}).`));
  input.on("error", fail);
  gunzip.on("error", fail);
  // Made at once: readline drops the lines it reads before an iterator listens.
  const iterator = lines[Symbol.asyncIterator]();
  return {
    lines: { [Symbol.asyncIterator]: () => iterator },
    close: () => {
      lines.close();
      input.destroy();
    },
  };
}

/** The header of a backup file, checked to be one this code can read. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  if (!fs.existsSync(file)) throw new BackupError(`${path.resolve(file)} does not exist.`);
  const reader = backupLines(file);
  try {
    const iterator = reader.lines[Symbol.asyncIterator]();
    return parseHeader(file, (await iterator.next()).value, (await iterator.next()).value);
  } finally {
    reader.close();
  }
}

function parseHeader(file: string, magic: string | undefined, json: string | undefined): BackupHeader {
  const [word, version] = (magic ?? "").split(" ");
  if (word !== MAGIC) throw new BackupError(`${file} is not a Tendwell backup.`);
  if (Number(version) > BACKUP_FORMAT) {
    throw new BackupError(
      `${file} is in backup format ${version}; this version of Tendwell reads format ${BACKUP_FORMAT}. Restore it with a newer Tendwell.`,
    );
  }
  try {
    return JSON.parse(json ?? "") as BackupHeader;
  } catch {
    throw new BackupError(`${file} has a damaged header.`);
  }
}

/** This code's migrations, in order, as drizzle records them once applied. */
function codeMigrations(): { tag: string; createdAt: number }[] {
  return readJournal().map((entry) => ({ tag: entry.tag, createdAt: entry.when }));
}

const describeMigrations = (migrations: { tag: string | null; createdAt: number }[]) => {
  const last = migrations.at(-1);
  return last ? `${migrations.length} migrations (the last ${last.tag ?? `of ${last.createdAt}`})` : "no migrations";
};

// ---------------------------------------------------------------------------------------------
// Restore

/**
 * Restores `file` into the database at `url`, which must hold no rows in any table (a new
 * database, or one only migrated). It is migrated to exactly the backup's
 * migrations, the rows are loaded in one transaction, and then the migrations this code has and
 * the backup had not are applied, so they convert the data as they would have on the original.
 *
 * During the load each table's own triggers are disabled (`ALTER TABLE … DISABLE TRIGGER USER`,
 * which needs the table's owner or a superuser): the kept task counts are loaded as they were
 * instead of being counted again on top, and no trigger rewrites a row. The foreign keys stay
 * checked, which is why the backup lists parents first. The triggers are enabled again in the same
 * transaction, so no other session ever sees them off. Before committing, every table's row count
 * must equal the backup's, and the backup must be complete (its END line); anything else rolls
 * the load back and leaves the database empty.
 */
export async function restoreBackup(options: { url: string; file: string; log?: Log }): Promise<RestoreSummary> {
  const log = options.log ?? quiet;
  const started = performance.now();
  const file = path.resolve(options.file);
  const header = await readBackupHeader(file);

  const ours = codeMigrations();
  const theirs = header.migrations;
  theirs.forEach((migration, index) => {
    if (ours[index]?.createdAt !== migration.createdAt) {
      throw new BackupError(
        `This backup was taken by a newer version of Tendwell: its schema has migration ${migration.tag ?? migration.createdAt}, ` +
          `which this version ${index < ours.length ? `does not have at that place (it has ${ours[index]?.tag})` : "does not have"}. ` +
          "Restore it with that version or a newer one.",
      );
    }
  });
  const missing = ours.slice(theirs.length).map((migration) => migration.tag);

  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await refuseUnlessEmpty(client, theirs.length);
    log(`Restoring the snapshot of ${header.takenAt} (${describeMigrations(theirs)})`);
    await migrateTo(client, options.url, theirs.length, ours.length);

    const rows = await load(client, file, header, log);
    const totalRows = Object.values(rows).reduce((sum, count) => sum + count, 0);
    if (missing.length > 0) {
      log(`Applying the ${missing.length} migrations this version adds: ${missing.join(", ")}`);
      await migrateDatabase(options.url);
    }
    return {
      takenAt: header.takenAt,
      migrations: theirs,
      migratedAfterLoad: missing,
      rows,
      totalRows,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/** A restore goes only into a database with no rows, migrated no further than the backup. */
async function refuseUnlessEmpty(client: pg.Client, backupMigrations: number) {
  const { rows: tables } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
  );
  const withRows: string[] = [];
  for (const { name } of tables) {
    const { rowCount } = await client.query(`select 1 from ${client.escapeIdentifier(name)} limit 1`);
    if (rowCount) withRows.push(name);
  }
  if (withRows.length > 0) {
    throw new BackupError(
      `The database is not empty: ${withRows.slice(0, 5).join(", ")}${withRows.length > 5 ? ", …" : ""} hold rows. ` +
        "A restore goes into an empty database only: create a new one (or a new DATA_DIR) and restore there.",
    );
  }
  const { rows: registry } = await client.query<{ name: string | null }>(
    "select to_regclass('drizzle.__drizzle_migrations')::text as name",
  );
  const applied = registry[0]?.name
    ? Number(
        (await client.query<{ count: string }>("select count(*) from drizzle.__drizzle_migrations")).rows[0]?.count,
      )
    : 0;
  if (applied > backupMigrations) {
    throw new BackupError(
      `The database is empty but already migrated past this backup's schema (${applied} migrations, the backup has ${backupMigrations}). ` +
        "Restore into a new database: the backup's rows fit its own schema, which the restore migrates on from there.",
    );
  }
}

/**
 * Applies this code's first `count` migrations (all of them through the app's own migrator), as
 * an older version of Tendwell would have left its database.
 */
export async function migrateTo(client: pg.Client, url: string, count: number, all = codeMigrations().length) {
  if (count === all) {
    await migrateDatabase(url);
    return;
  }
  // Drizzle applies a folder's migrations: give it a copy whose journal ends at the backup's last.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "tendwell-restore-migrations-"));
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(projectPaths.migrations, "meta", "_journal.json"), "utf8"));
    journal.entries = journal.entries.slice(0, count);
    fs.mkdirSync(path.join(folder, "meta"));
    fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
    for (const entry of journal.entries as JournalEntry[]) {
      fs.copyFileSync(path.join(projectPaths.migrations, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    }
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function load(client: pg.Client, file: string, header: BackupHeader, log: Log): Promise<Record<string, number>> {
  const reader = backupLines(file);
  let sink: ReturnType<typeof copyFrom> | undefined;
  let sinkDone: Promise<void> = Promise.resolve();
  await client.query("begin");
  try {
    const tables = header.tables;
    for (const table of tables) {
      await client.query(`alter table ${client.escapeIdentifier(table.name)} disable trigger user`);
    }
    const loaded: Record<string, number> = {};
    let trailer: { rows: Record<string, number> } | undefined;
    let current: BackupHeader["tables"][number] | undefined;
    let count = 0;
    let buffered: string[] = [];
    let bufferedBytes = 0;
    const flush = async () => {
      if (!sink || buffered.length === 0) return;
      const chunk = buffered.join("");
      buffered = [];
      bufferedBytes = 0;
      if (!sink.write(chunk)) await Promise.race([once(sink, "drain"), sinkDone]);
    };

    let lineNumber = 0;
    for await (const line of reader.lines) {
      lineNumber += 1;
      if (lineNumber <= 2) continue; // the magic line and the header, read already
      if (current) {
        if (line === "\\.") {
          await flush();
          sink?.end();
          await sinkDone;
          loaded[current.name] = count;
          log(`  ${current.name.padEnd(24)} ${String(count).padStart(9)} rows`);
          current = undefined;
          sink = undefined;
          continue;
        }
        buffered.push(line, "\n");
        bufferedBytes += line.length + 1;
        count += 1;
        if (bufferedBytes >= 256 * 1024) await flush();
      } else if (line.startsWith("TABLE ")) {
        const name = JSON.parse(line.slice("TABLE ".length)) as string;
        current = tables.find((table) => table.name === name);
        if (!current) throw new BackupError(`${file} has rows for ${name}, which its header does not list.`);
        count = 0;
        sink = client.query(copyFrom(`copy ${columnList(client, current)} from stdin`));
        sinkDone = finished(sink);
        sinkDone.catch(() => {}); // awaited at the section's end; a write waiting on it sees it too
      } else if (line.startsWith("END ")) {
        trailer = JSON.parse(line.slice("END ".length));
      } else if (line !== "") {
        throw new BackupError(`${file} is damaged at line ${lineNumber}.`);
      }
    }
    if (current || !trailer) {
      throw new BackupError(`${file} is incomplete (it ends before its END line): nothing was restored.`);
    }

    for (const table of tables) {
      await client.query(`alter table ${client.escapeIdentifier(table.name)} enable trigger user`);
    }
    await resetSequences(client);
    const mismatches: string[] = [];
    for (const table of tables) {
      const expected = trailer.rows[table.name] ?? 0;
      const { rows } = await client.query<{ count: string }>(
        `select count(*) from ${client.escapeIdentifier(table.name)}`,
      );
      const actual = Number(rows[0]?.count);
      if (actual !== expected || (loaded[table.name] ?? 0) !== expected) {
        mismatches.push(`${table.name}: the backup has ${expected} rows, the database ${actual}`);
      }
    }
    if (mismatches.length > 0) {
      throw new BackupError(
        `The restored rows do not match the backup (${mismatches.join("; ")}): nothing was restored.`,
      );
    }
    await client.query("commit");
    return loaded;
  } catch (error) {
    // A COPY still open holds the connection: abort it (CopyFail) before rolling back.
    if (sink && !sink.writableFinished) {
      sink.destroy(error as Error);
      await sinkDone.catch(() => {});
    }
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    reader.close();
  }
}

/** Sequences owned by a column continue after the largest value loaded (the schema has none today). */
async function resetSequences(client: pg.Client) {
  const { rows } = await client.query<{ sequence: string; table: string; column: string }>(
    `select s.oid::regclass::text as sequence, t.relname as table, a.attname as column
       from pg_depend d
       join pg_class s on s.oid = d.objid and s.relkind = 'S'
       join pg_class t on t.oid = d.refobjid
       join pg_namespace n on n.oid = t.relnamespace and n.nspname = 'public'
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')`,
  );
  for (const { sequence, table, column } of rows) {
    const col = client.escapeIdentifier(column);
    await client.query(
      `select setval($1::regclass, coalesce(max(${col}), 1), max(${col}) is not null) from ${client.escapeIdentifier(table)}`,
      [sequence],
    );
  }
}
