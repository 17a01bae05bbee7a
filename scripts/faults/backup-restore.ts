import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { embeddedSocketUrl } from "../../src/server/platform/db/backup";
import { projectPaths } from "../../src/server/platform/paths";
import { createRandom } from "../../src/server/seed/random";
import { drawSignature } from "../../src/server/seed/signature-image";
import { type AppProcess, startApp } from "../../tests/app-process";
import { makeTempDir } from "../../tests/temp-dir";
import { demoSignIn } from "./app-instance";
import { httpSession, type Session } from "./http-client";
import { keptCountMismatchesSql } from "./kept-counts";
import { type FaultCheck, type FaultReport, runFaultScript } from "./report";

/*
 * A backup taken under write load, restored and run: the app on its embedded database serves
 * writers that create clients and sign tasks off, each acknowledged answer logged with its time;
 * `npm run db:backup` runs meanwhile, as its own process, through the app's socket. The backup is
 * restored with `npm run db:restore` into an empty data directory and the app is started on it.
 * Every write acknowledged before the backup began must be there, every firm's audit chain must
 * verify (through the app's own route) and the kept task counts must equal a fresh count.
 */

type Ack = { kind: "client" | "task"; id: string; at: number };
type Writers = { acks: Ack[]; refused: number; errors: string[]; stop: () => Promise<void> };

const runScript = (script: string, args: string[], env: Record<string, string>) => {
  // Only what the scenario gives decides which database the command uses.
  const { DATABASE_URL: _url, DATABASE_OWNER_URL: _owner, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(projectPaths.root, "scripts", script), ...args], {
    cwd: projectPaths.root,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const started = performance.now();
  return new Promise<{ code: number | null; output: string; seconds: number }>((resolve) => {
    child.once("exit", (code) => resolve({ code, output, seconds: (performance.now() - started) / 1000 }));
  });
};

/** A session signed in as the demo firm's super admin on `app`. */
async function signedIn(app: AppProcess): Promise<Session> {
  const session = httpSession(app.baseUrl);
  await session.signIn(demoSignIn.username, demoSignIn.password);
  return session;
}

/** `count` writers, each alternating a new client and a sign-off, until stopped. */
async function startWriters(app: AppProcess, count: number): Promise<Writers> {
  const session = await signedIn(app);
  const listed = (await session.get("/api/tasks?limit=500")).body as { id: string; status: string }[];
  const open = listed.filter((task) => task.status !== "completed").map((task) => task.id);
  const signature = drawSignature("Olivia Hart", createRandom(7)).dataUrl;
  const writers: Writers = { acks: [], refused: 0, errors: [], stop: async () => {} };
  let running = true;
  const loop = async (writer: number) => {
    for (let round = 0; running; round++) {
      try {
        const taskId = round % 2 === 1 ? open.shift() : undefined;
        if (taskId) {
          const answer = await session.patch(`/api/tasks/${taskId}/complete`, {
            signature,
            printedName: "Olivia Hart",
          });
          if (answer.status === 200) writers.acks.push({ kind: "task", id: taskId, at: Date.now() });
          else writers.refused += 1; // an archived client's task, say: refused, so not a write
        } else {
          const answer = await session.post("/api/clients", { name: `Load client ${writer}-${round}` });
          const id = (answer.body as { id?: string } | undefined)?.id;
          if (answer.status === 201 && id) writers.acks.push({ kind: "client", id, at: Date.now() });
          else writers.refused += 1;
        }
      } catch (error) {
        writers.errors.push((error as Error).message);
        if (writers.errors.length > 20) return;
      }
    }
  };
  const loops = Array.from({ length: count }, (_, writer) => loop(writer));
  writers.stop = async () => {
    running = false;
    await Promise.all(loops);
    session.close();
  };
  return writers;
}

async function withSocket<T>(dataDir: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: embeddedSocketUrl(dataDir) });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const figure = (output: string, pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);

export async function backupRestoreScenario(options: { writers?: number; loadSeconds?: number } = {}) {
  const writerCount = options.writers ?? 4;
  const loadMs = (options.loadSeconds ?? 1.5) * 1000;
  const root = makeTempDir();
  const source = path.join(root, "source");
  const restored = path.join(root, "restored");
  const file = path.join(root, "tendwell.backup.gz");
  const checks: FaultCheck[] = [];
  const check = (name: string, passed: boolean, detail?: string) => checks.push({ name, passed, detail });
  const apps: AppProcess[] = [];
  try {
    // 1. The app on its embedded database, under write load.
    const app = await startApp({ DATA_DIR: source, RATE_LIMIT_PER_MINUTE: "1000000" });
    apps.push(app);
    const writers = await startWriters(app, writerCount);
    await sleep(loadMs);

    // 2. The backup, while the writers go on.
    const backupBegan = Date.now();
    const backup = await runScript("db-backup.ts", [file], { DATA_DIR: source });
    await sleep(500);
    await writers.stop();
    check(
      "the backup command succeeds while the app runs",
      backup.code === 0,
      backup.code === 0 ? undefined : backup.output,
    );
    check("the writers met no error", writers.errors.length === 0, writers.errors.slice(0, 3).join("; ") || undefined);
    const before = writers.acks.filter((ack) => ack.at < backupBegan);
    check("writes were acknowledged before the backup began", before.length > 0, `${before.length}`);
    await app.stop("SIGTERM");

    // 3. Restore refuses the used data directory, then restores into an empty one.
    const refused = await runScript("db-restore.ts", [file], { DATA_DIR: source });
    check(
      "the restore refuses a data directory that is not empty",
      refused.code === 1 && refused.output.includes("is not empty"),
      refused.code === 1 ? undefined : refused.output,
    );
    const restore = await runScript("db-restore.ts", [file], { DATA_DIR: restored });
    check(
      "the restore succeeds into an empty data directory, its audit chains verified",
      restore.code === 0 && restore.output.includes("every chain verifies"),
      restore.code === 0 ? undefined : restore.output,
    );

    // 4. The app on the restored data.
    const again = await startApp({ DATA_DIR: restored, RATE_LIMIT_PER_MINUTE: "1000000" });
    apps.push(again);
    const reader = await signedIn(again);
    const verifyAnswer = await reader.get("/api/audit-events/verify");
    reader.close();
    const verification = verifyAnswer.body as { intact?: boolean; events?: number };
    check(
      "the restored app's audit trail verifies",
      verifyAnswer.status === 200 && verification.intact === true,
      JSON.stringify(verification),
    );
    const found = await withSocket(restored, async (client) => {
      const clients = before.filter((ack) => ack.kind === "client").map((ack) => ack.id);
      const tasks = before.filter((ack) => ack.kind === "task").map((ack) => ack.id);
      const foundClients = await client.query("select id from clients where id = any($1::uuid[])", [clients]);
      const foundTasks = await client.query(
        "select id from tasks where id = any($1::uuid[]) and status = 'completed'",
        [tasks],
      );
      return (foundClients.rowCount ?? 0) + (foundTasks.rowCount ?? 0);
    });
    check("every write acknowledged before the backup began is in the restored data", found === before.length);
    const countMismatches = await withSocket(
      restored,
      async (client) => (await client.query(keptCountMismatchesSql)).rowCount ?? -1,
    );
    check("the kept task counts equal a fresh count", countMismatches === 0, `${countMismatches} counts differ`);
    const during = writers.acks.filter((ack) => ack.at >= backupBegan);
    check("the restored app stops cleanly", (await again.stop("SIGTERM")) === 0);

    return {
      scenario: "backup under write load, restored into an empty data directory",
      checks,
      figures: {
        writers: writerCount,
        "rows backed up": figure(backup.output, / (\d+) rows, \d+ bytes/),
        "bytes (gzip)": figure(backup.output, / (\d+) bytes in/),
        "backup seconds": backup.seconds.toFixed(2),
        "restore seconds": restore.seconds.toFixed(2),
        "writes acknowledged before the backup": before.length,
        found,
        lost: before.length - found,
        "writes acknowledged after it began": during.length,
        "audit events verified": verification.events ?? "?",
      },
    } satisfies FaultReport;
  } finally {
    for (const app of apps) if (app.child.exitCode === null) await app.stop("SIGKILL");
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runFaultScript(() => backupRestoreScenario());
}
