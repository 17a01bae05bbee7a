import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { count } from "drizzle-orm";
import * as esbuild from "esbuild";
import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { embeddedRoleUrls } from "../src/server/platform/db/roles";
import { clients, tasks, users } from "../src/server/platform/db/schema";
import { newSealingKey } from "../src/server/platform/sealed-secrets";
import { demoLogins, demoPassword, seedDemoData } from "../src/server/seed/demo-seed";
import { type AppProcess, startApp } from "../tests/app-process";
import { makeTempDir } from "../tests/temp-dir";
import { checkOnly, failOnFigure } from "./check-mode";
import { type CpuSnapshot, cpuBetween, cpuReadable, postgresCpu, processCpu } from "./cpu-time";

/*
 * Throughput and latency of the API as `npm start` runs it, side by side with the floor
 * (bench/floor.ts: a bare node:http server sending the same SQL as prepared statements).
 * One embedded PostgreSQL with the demo firm serves both; the app process and the floor process
 * are driven over real HTTP by autocannon on the same machine, in alternating rounds, so a
 * noisy neighbour slows both alike. Each read route is reported as Tendwell's requests/s and
 * latency, the floor's, and their ratio: the one number that means the same on any machine.
 *
 * The host's speed drifts by tens of percent within seconds, so the servers take turns in short
 * slices and each one's figures are pooled over its slices. The turns' orders form a balanced
 * Latin square (balancedOrder): each server runs in each place of a turn, and after each other
 * server, equally often, so that a place's own advantage (running first, or right after the same
 * server) favours none of them.
 * Run: npm run bench (about five minutes). BENCH_SECONDS (default 12) is each server's total time
 * per route, BENCH_SLICE (default 2) the length of one turn, BENCH_ROUTES (a comma-separated list of
 * path prefixes, e.g. "/api/health,/api/users") the reads to run, all by default.
 *
 * Last, the memory phase: a fresh app, bundled and run as `npm start` runs it (tsx, which runs
 * the sources above, holds some 75 MB of its own), takes 100 connections driving all the chosen
 * reads at once (each connection asking for them in turn) for BENCH_MEMORY_SECONDS (default 10;
 * 0 skips it). Its resident set (VmRSS in /proc, read every 100 ms) is reported at its peak
 * against the 300 MB one instance may use; a peak over it fails the run, after the tables.
 *
 * BENCH_BASELINE=<another checkout> adds that checkout's app and its own floor to the same turns
 * (both connected as the database's superuser, so row-level security does not apply to that app),
 * and reports the baseline's ratio to its floor and the change from it: how a change's cost is
 * measured in one run, rather than as the difference of two runs that the host's drift between
 * them would blur.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 12);
const slice = Number(process.env.BENCH_SLICE ?? 2);
const slices = Math.max(1, Math.round(seconds / slice));
const CONNECTIONS = 10;
const memorySeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 10);
const MEMORY_CONNECTIONS = 100;
/** What one app instance's resident set may reach under the memory phase's load. */
const RSS_BUDGET_MB = 300;

type Target = { name: string; baseUrl: string; cpu: () => CpuSnapshot };
const baselineRoot = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : undefined;
/** One turn of one server: its answers, and the CPU seconds its process and the database used. */
type Sample = { requests: number; seconds: number; p50: number; p99: number; cpu?: number; dbCpu?: number };

const reads = [
  { path: "/api/health", what: "one database round trip", signedIn: false },
  { path: "/api/auth/me", what: "session lookup + user and firm", signedIn: true },
  { path: "/api/users", what: "session lookup + the firm's users", signedIn: true },
  { path: "/api/clients?limit=50", what: "a page of clients with their task counts", signedIn: true },
  { path: "/api/clients/{busiest}", what: "the client with the most tasks: contacts, tasks, team", signedIn: true },
  { path: "/api/dashboard", what: "every dashboard figure, counted in SQL", signedIn: true },
  { path: "/api/tasks?limit=50", what: "the first page of the task audit list", signedIn: true },
  { path: "/api/tasks/overdue", what: "overdue tasks with their client's name (the bell)", signedIn: true },
  { path: "/api/task-templates", what: "the firm's task templates", signedIn: true },
  {
    path: "/api/template-library",
    what: "the curated library, marking what the firm added and the names it has",
    signedIn: true,
  },
  { path: "/api/firm", what: "the firm's name, plan and time zone", signedIn: true },
];

const only = process.env.BENCH_ROUTES?.split(",").filter(Boolean);
const chosen = only ? reads.filter((read) => only.some((prefix) => read.path.startsWith(prefix))) : reads;
if (chosen.length === 0) throw new Error(`BENCH_ROUTES names no read the bench has: ${process.env.BENCH_ROUTES}`);

const dataDir = makeTempDir();
const embedded = await startEmbeddedPostgres({ dataDir });
const processes: { stop: () => Promise<unknown> }[] = [];
try {
  await migrateDatabase(embedded.url);
  const database = connectDatabase({ url: embedded.url, poolSize: 2 });
  await seedDemoData(database.db);
  const size = await dataSize(database);
  await database.close();
  const roles = await embeddedRoleUrls(embedded.url);

  // The general rate limit would answer most of these requests 429 within the first second.
  const appEnv = {
    // As production runs: the app's own role, row-level security and all (decision 0033).
    DATABASE_URL: roles.app,
    DATABASE_OWNER_URL: roles.owner,
    NODE_ENV: "production",
    MFA_ENCRYPTION_KEY: newSealingKey().text,
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "1000000",
  };
  const app = await startApp(appEnv);
  processes.push(app);
  const floor = await startFloor(roles.app);
  processes.push(floor);
  const tendwell: Target = { name: "Tendwell", baseUrl: app.baseUrl, cpu: processCpu(app.child.pid) };
  const targets: Target[] = [tendwell, floor];
  if (baselineRoot) {
    const other = await startApp(
      {
        DATABASE_URL: embedded.url,
        NODE_ENV: "production",
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MINUTE: "1000000",
      },
      { root: baselineRoot },
    );
    processes.push(other);
    const otherFloor = await startFloor(embedded.url, baselineRoot);
    processes.push(otherFloor);
    targets.push(
      { name: "baseline", baseUrl: other.baseUrl, cpu: processCpu(other.child.pid) },
      { ...otherFloor, name: "baseline floor" },
    );
  }

  // Whole squares of turns, so every server has every place in a turn equally often; checking
  // only, one turn, each server once.
  const turns = checkOnly ? 1 : Math.ceil(slices / targets.length) * targets.length;
  const origin = new URL(app.baseUrl).origin;
  // Each app signs in for itself and its floor: a checkout's session cookie is its own.
  const cookies = new Map<Target, string>();
  for (let pair = 0; pair < targets.length; pair += 2) {
    const baseUrl = targets[pair]?.baseUrl ?? "";
    const signIn = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(baseUrl).origin },
      body: JSON.stringify({ username: demoLogins[0].username, password: demoPassword }),
    });
    if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const cookie = signIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    for (const target of targets.slice(pair, pair + 2)) cookies.set(target, cookie);
  }
  const cookie = cookies.get(tendwell) ?? "";

  const databaseCpu = postgresCpu(dataDir);
  const load = async (
    target: Target,
    url: string,
    duration: number,
    options: autocannon.Options | object = {},
  ): Promise<Sample> => {
    const before = { app: target.cpu(), db: databaseCpu() };
    const result = await autocannon({ url: `${target.baseUrl}${url}`, connections: CONNECTIONS, duration, ...options });
    const after = { app: target.cpu(), db: databaseCpu() };
    const failures = result.non2xx + result.errors + result.timeouts;
    if (failures > 0)
      throw new Error(
        `${target.name} ${url}: ${failures} of ${result.requests.total} requests failed: ${JSON.stringify(result.statusCodeStats)}`,
      );
    return {
      requests: result.requests.total,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      cpu: cpuBetween(before.app, after.app),
      dbCpu: cpuBetween(before.db, after.db),
    };
  };

  // The detail case reads the client with the most tasks: the heaviest detail the demo has.
  const list = (await (await fetch(`${app.baseUrl}/api/clients`, { headers: { cookie } })).json()) as {
    id: string;
    taskCounts: { total: number };
  }[];
  const busiest = [...list].sort((a, b) => b.taskCounts.total - a.taskCounts.total)[0]?.id ?? "";

  const table: string[] = [];
  const cpuTable: string[] = [];
  for (const listed of chosen) {
    const read = { ...listed, path: listed.path.replace("{busiest}", busiest) };
    const headersOf = (target: Target) => ({ origin, ...(read.signedIn ? { cookie: cookies.get(target) ?? "" } : {}) });
    // Each app and its floor must answer the same bytes, or the comparison would be unfair to one of them.
    const answers = await Promise.all(
      targets.map((target) =>
        fetch(`${target.baseUrl}${read.path}`, { headers: headersOf(target) }).then((r) => r.text()),
      ),
    );
    for (const pair of [0, 2]) {
      const [app, itsFloor] = [answers[pair], answers[pair + 1]];
      if (app !== itsFloor)
        throw new Error(`${read.path}: ${targets[pair + 1]?.name} answers differently:\n${app}\n${itsFloor}`);
    }

    const samples = new Map<Target, Sample[]>(targets.map((target) => [target, []]));
    // A warm-up, except when only checking that the bench works: its answers were compared above.
    if (!checkOnly) for (const target of targets) await load(target, read.path, 2, { headers: headersOf(target) });
    for (let turn = 0; turn < turns; turn++) {
      const order = balancedOrder(targets.length, turn).map((index) => targets[index] as Target);
      for (const target of order)
        samples.get(target)?.push(await load(target, read.path, slice, { headers: headersOf(target) }));
    }
    const [t, f, b, bf] = targets.map((target) => pooled(samples.get(target) ?? []));
    if (!t || !f) throw new Error("the bench has Tendwell and the floor");
    const ratio = t.rps / f.rps;
    const compared =
      b && bf
        ? ` ${(b.rps / bf.rps).toFixed(2)} | ${signed(ratio - b.rps / bf.rps)} | ${spread(turnChanges(samples, targets))} |`
        : "";
    table.push(
      `| GET ${listed.path.replace("{busiest}", "{id}")} (${read.what}) | ${Math.round(t.rps)} | ${t.p50} | ${t.p99} | ${Math.round(f.rps)} | ${f.p50} | ${f.p99} | **${ratio.toFixed(2)}** |${compared}`,
    );
    const perRequest = [t, f, b, bf].flatMap((server) => (server ? [server.cpu, server.dbCpu] : []));
    cpuTable.push(`| GET ${listed.path.replace("{busiest}", "{id}")} | ${perRequest.map(microseconds).join(" | ")} |`);
    console.error(`${read.path}: done`);
  }

  // Sign-in has no floor: it is bound by argon2id by design, not by the framework.
  const login = await load(tendwell, "/api/auth/login", slice * 3, {
    connections: 4,
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ username: demoLogins[1].username, password: demoPassword }),
  });

  /** The memory phase: a fresh bundled app's RSS before, at its peak during and after the load. */
  const memoryUnderLoad = async () => {
    const distDir = path.join(path.dirname(import.meta.dirname), "dist");
    fs.mkdirSync(distDir, { recursive: true });
    const bundleDir = fs.mkdtempSync(path.join(distDir, "bench-"));
    try {
      // The same bundle as `npm run build:server`, in a folder of its own inside the project (the
      // server finds its folder by walking up to package.json).
      await esbuild.build({
        entryPoints: [path.join(path.dirname(import.meta.dirname), "src", "server", "main.ts")],
        bundle: true,
        platform: "node",
        format: "esm",
        packages: "external",
        target: "node22.12",
        sourcemap: true,
        logLevel: "warning",
        outdir: bundleDir,
      });
      const built = await startApp(appEnv, { bundle: path.join(bundleDir, "main.js") });
      try {
        return await driveReads(built);
      } finally {
        await built.stop();
      }
    } finally {
      fs.rmSync(bundleDir, { recursive: true, force: true });
    }
  };
  const driveReads = async (built: AppProcess) => {
    const pid = built.child.pid ?? 0;
    const baseUrl = built.baseUrl;
    const signIn = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(baseUrl).origin },
      body: JSON.stringify({ username: demoLogins[0].username, password: demoPassword }),
    });
    if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const builtCookie = signIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    const builtOrigin = new URL(baseUrl).origin;
    const before = residentBytes(pid);
    let peak = before;
    const sampler = setInterval(() => {
      const now = residentBytes(pid);
      if (now !== undefined && (peak === undefined || now > peak)) peak = now;
    }, 100);
    try {
      const result = await autocannon({
        url: baseUrl,
        connections: MEMORY_CONNECTIONS,
        duration: memorySeconds,
        requests: chosen.map((read) => ({
          method: "GET" as const,
          path: read.path.replace("{busiest}", busiest),
          headers: { origin: builtOrigin, ...(read.signedIn ? { cookie: builtCookie } : {}) },
        })),
      });
      const failures = result.non2xx + result.errors + result.timeouts;
      if (failures > 0)
        throw new Error(
          `memory phase: ${failures} of ${result.requests.total} requests failed: ${JSON.stringify(result.statusCodeStats)}`,
        );
      return {
        before,
        peak,
        after: residentBytes(pid),
        requests: result.requests.total,
        seconds: result.duration,
        p99: result.latency.p99,
      };
    } finally {
      clearInterval(sampler);
    }
  };
  // Every chosen read at once, as many users' screens would ask, while the app's memory is watched.
  const memory = memorySeconds > 0 ? await memoryUnderLoad() : undefined;

  const cpu = os.cpus();
  console.log(
    `\n${cpu.length} × ${cpu[0]?.model ?? "CPU"}, Node ${process.version}, embedded PostgreSQL 17 on a Unix socket, ` +
      `demo firm (${size}); ${CONNECTIONS} connections, ${turns} alternating turn${turns === 1 ? "" : "s"} of ${slice} s per server and route\n`,
  );
  if (baselineRoot) console.log(`baseline: ${baselineRoot} as the superuser\n`);
  const extra = baselineRoot ? [" baseline ratio |", " change |", " turns' change ± 2 SE |"] : [];
  console.log(
    `| request | Tendwell req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | ratio |${extra.join("")}`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |${extra.map(() => " --- |").join("")}`);
  for (const row of table) console.log(row);
  if (cpuReadable) {
    const columns = targets.flatMap((target) => [`${target.name} process`, `${target.name}'s database`]);
    console.log("\nCPU time per request, in µs (the process's every thread; the database's every backend):\n");
    console.log(`| request | ${columns.join(" | ")} |`);
    console.log(`| --- |${columns.map(() => " --- |").join("")}`);
    for (const row of cpuTable) console.log(row);
  }
  console.log(
    `\nPOST /api/auth/login (argon2id verification, new session), 4 connections: ${Math.round(login.requests / login.seconds)} req/s, p50 ${login.p50} ms, p99 ${login.p99} ms`,
  );
  if (memory) {
    const mb = (bytes: number | undefined) => (bytes === undefined ? "–" : `${(bytes / 2 ** 20).toFixed(0)} MB`);
    console.log(
      `\nMemory of a fresh bundled app, ${MEMORY_CONNECTIONS} connections of the ${chosen.length} reads above in turn for ${memorySeconds} s ` +
        `(${Math.round(memory.requests / memory.seconds)} req/s, p99 ${memory.p99} ms): the app's RSS ${mb(memory.before)} ` +
        `before, peak ${mb(memory.peak)}, after ${mb(memory.after)} (one instance may use ${RSS_BUDGET_MB} MB)`,
    );
    if (memory.peak !== undefined && memory.peak > RSS_BUDGET_MB * 2 ** 20) {
      failOnFigure(`the app's RSS peaked at ${mb(memory.peak)}, over ${RSS_BUDGET_MB} MB`);
    }
  }
} finally {
  for (const child of processes.reverse()) await child.stop();
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The order of turn `turn` among `count` servers (an even number): a row of a Williams square.
 * Over `count` turns each server takes each place once and follows each other server once.
 */
function balancedOrder(count: number, turn: number): number[] {
  const first = Array.from({ length: count }, (_, place) =>
    place % 2 === 1 ? (place + 1) / 2 : (count - place / 2) % count,
  );
  return first.map((server) => (server + turn) % count);
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(2)}`;
}

/**
 * The change of each turn on its own: Tendwell's ratio to its floor in that turn minus the
 * baseline's in the same turn. Their spread says how far the pooled change can be trusted.
 */
function turnChanges(samples: Map<Target, Sample[]>, targets: Target[]): number[] {
  const [t, f, b, bf] = targets.map((target) => samples.get(target) ?? []);
  const rate = (sample: Sample | undefined) => (sample ? sample.requests / sample.seconds : Number.NaN);
  return (t ?? []).map((_, turn) => {
    const at = (series: Sample[] | undefined) => rate(series?.[turn]);
    return at(t) / at(f) - at(b) / at(bf);
  });
}

/** The mean of `values` and twice its standard error: about a 95 % interval for six turns or more. */
function spread(values: number[]): string {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, values.length - 1);
  return `${signed(mean)} ± ${(2 * Math.sqrt(variance / values.length)).toFixed(2)}`;
}

function microseconds(seconds: number | undefined): string {
  return seconds === undefined ? "–" : String(Math.round(seconds * 1e6));
}

/**
 * Requests/s over all of a server's turns; latency percentiles as the median of its turns'; CPU
 * seconds per request of the process and of the database over all its turns.
 */
function pooled(samples: Sample[]): { rps: number; p50: number; p99: number; cpu?: number; dbCpu?: number } {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
  const requests = samples.reduce((sum, sample) => sum + sample.requests, 0);
  const elapsed = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const perRequest = (cpu: (sample: Sample) => number | undefined) =>
    samples.every((sample) => cpu(sample) !== undefined)
      ? samples.reduce((sum, sample) => sum + (cpu(sample) ?? 0), 0) / requests
      : undefined;
  return {
    rps: requests / elapsed,
    p50: median(samples.map((sample) => sample.p50)),
    p99: median(samples.map((sample) => sample.p99)),
    cpu: perRequest((sample) => sample.cpu),
    dbCpu: perRequest((sample) => sample.dbCpu),
  };
}

async function dataSize(database: ReturnType<typeof connectDatabase>): Promise<string> {
  const [u] = await database.db.select({ n: count() }).from(users);
  const [c] = await database.db.select({ n: count() }).from(clients);
  const [t] = await database.db.select({ n: count() }).from(tasks);
  return `${u?.n} users, ${c?.n} clients, ${t?.n} tasks`;
}

/** The floor of this checkout, or of `root`'s (a baseline's floor sends that checkout's SQL). */
async function startFloor(
  databaseUrl: string,
  root = path.dirname(import.meta.dirname),
): Promise<Target & { stop: () => Promise<unknown> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench", "floor.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /floor listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`the floor exited (${code}) before it listened`)));
  });
  return {
    name: "floor",
    baseUrl,
    cpu: processCpu(child.pid),
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A process's resident set in bytes (VmRSS in /proc), or undefined where there is no /proc. */
function residentBytes(pid: number): number | undefined {
  try {
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}
