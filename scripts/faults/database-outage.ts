import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { isRunning } from "../../src/server/platform/db/data-dir-lock";
import { connectDatabase } from "../../src/server/platform/db/database";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../../src/server/platform/db/migrate";
import { embeddedRoleUrls } from "../../src/server/platform/db/roles";
import { newSealingKey } from "../../src/server/platform/sealed-secrets";
import { demoLogins, demoPassword, seedDemoData } from "../../src/server/seed/demo-seed";
import { type AppProcess, startApp } from "../../tests/app-process";
import { makeTempDir } from "../../tests/temp-dir";
import { type FaultCheck, type FaultReport, runFaultScript } from "./report";

/*
 * PostgreSQL goes away under load, and comes back.
 *
 * The real app runs as its own process (src/server/main.ts, as `npm start` runs it) on an
 * embedded PostgreSQL in a temporary folder, with the demo firm. Five loops keep asking: two read
 * the clients list and the dashboard as a signed-in user, one asks /api/health as a load balancer
 * does (without a session), two create clients and keep every client acknowledged with a 201.
 * Then:
 *   (a) PostgreSQL stops (a fast shutdown), stays stopped for 10 s and starts again on the same
 *       data directory;
 *   (b) PostgreSQL is killed with an immediate shutdown (as in a crash: no checkpoint, its
 *       recovery replays the WAL) and started again at once.
 * While it is stopped every answer must be a 503 in the JSON error convention with Retry-After
 * (/api/health's says "The database is unreachable"); the app's log must hold one warning as it
 * goes and one as it returns, per outage, and no error-level line; /api/health must answer 200
 * within 10 s of its return and every request after that succeed; and every acknowledged client
 * must be in the database at the end.
 */

const OUTAGE_MS = 10_000;
const HEALTHY_WITHIN_MS = 10_000;
const PAUSE_MS = 20;

type Answer = {
  loop: string;
  startedAt: number;
  endedAt: number;
  /** 0 when no HTTP answer came at all (a refused or dropped connection, a timeout). */
  status: number;
  retryAfter: string | null;
  json: { message?: unknown; code?: unknown; id?: unknown } | undefined;
};

type Outage = {
  name: string;
  /** PostgreSQL is asked to stop (or killed). */
  stopAt: number;
  /** It has exited: from here until restartAt no request can succeed. */
  downAt: number;
  /** Its start is asked for. */
  restartAt: number;
  /** It accepts connections again (the start has returned). */
  upAt: number;
  /** The first /api/health asked after upAt that answered 200. */
  healthyAt?: number;
};

const postmasterPid = (dataDir: string): number | undefined => {
  try {
    const pid = Number.parseInt(
      fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0] ?? "",
      10,
    );
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

export async function databaseOutage(): Promise<FaultReport> {
  const dataDir = makeTempDir();
  let database: EmbeddedPostgres | undefined;
  let app: AppProcess | undefined;
  let loadRunning = true;
  try {
    database = await startEmbeddedPostgres({ dataDir });
    const url = database.url;
    await migrateDatabase(url);
    const seeding = connectDatabase({ url, poolSize: 2 });
    try {
      await seedDemoData(seeding.db);
      // Hundreds of new clients: the unlimited plan, so none is refused for the plan's size.
      await seeding.pool.query("update firms set plan = 'enterprise'");
    } finally {
      await seeding.close();
    }

    const roles = await embeddedRoleUrls(url);
    app = await startApp({
      // As production runs: the app's own role (decision 0033).
      DATABASE_URL: roles.app,
      DATABASE_OWNER_URL: roles.owner,
      NODE_ENV: "production",
      MFA_ENCRYPTION_KEY: newSealingKey().text,
      LOG_LEVEL: "warn",
      SEED_DEMO_DATA: "false",
      RATE_LIMIT_PER_MINUTE: "1000000",
    });
    const { baseUrl } = app;
    const origin = new URL(baseUrl).origin;
    const signIn = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ username: demoLogins[0].username, password: demoPassword }),
    });
    if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const cookie = signIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";

    // The load: each loop asks, records the answer, pauses, until told to stop.
    const answers: Answer[] = [];
    const acknowledged = new Map<string, string>();
    const ask = async (loop: string, pathname: string, body?: unknown): Promise<Answer> => {
      const startedAt = performance.now();
      let answer: Answer;
      try {
        const response = await fetch(`${baseUrl}${pathname}`, {
          method: body === undefined ? "GET" : "POST",
          headers: {
            // /api/health is asked as a load balancer asks it: without a session.
            ...(pathname === "/api/health" ? {} : { cookie }),
            origin,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await response.text();
        let json: Answer["json"];
        try {
          json = response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        answer = {
          loop,
          startedAt,
          endedAt: performance.now(),
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          json,
        };
      } catch {
        answer = { loop, startedAt, endedAt: performance.now(), status: 0, retryAfter: null, json: undefined };
      }
      answers.push(answer);
      return answer;
    };
    const loop = async (step: (n: number) => Promise<unknown>) => {
      for (let n = 0; loadRunning; n++) {
        await step(n);
        await sleep(PAUSE_MS);
      }
    };
    const writer = (name: string) =>
      loop(async (n) => {
        const clientName = `Outage ${name} ${n}`;
        const answer = await ask(name, "/api/clients", { name: clientName });
        if (answer.status === 201 && typeof answer.json?.id === "string") acknowledged.set(answer.json.id, clientName);
      });
    const loops = Promise.all([
      loop(() => ask("clients list", "/api/clients")),
      loop(() => ask("dashboard", "/api/dashboard")),
      loop(() => ask("health", "/api/health")),
      writer("writer 1"),
      writer("writer 2"),
    ]);

    /** Waits for the first /api/health asked after `since` to answer 200. */
    const healthyAfter = async (since: number): Promise<number | undefined> => {
      const deadline = since + HEALTHY_WITHIN_MS + 5_000;
      while (performance.now() < deadline) {
        const healthy = answers.find((a) => a.loop === "health" && a.startedAt >= since && a.status === 200);
        if (healthy) return healthy.endedAt;
        await sleep(50);
      }
      return undefined;
    };

    const outages: Outage[] = [];
    await sleep(2_000);

    // (a) A fast shutdown, 10 s without a database, a start on the same data.
    const stopAt = performance.now();
    await database.stop();
    const downAt = performance.now();
    await sleep(OUTAGE_MS);
    const restartAt = performance.now();
    database = await startEmbeddedPostgres({ dataDir });
    const first: Outage = { name: "10 s outage", stopAt, downAt, restartAt, upAt: performance.now() };
    outages.push(first);
    first.healthyAt = await healthyAfter(first.upAt);
    await sleep(3_000);

    // (b) An immediate shutdown (PostgreSQL's SIGQUIT: no checkpoint, crash recovery at the next
    // start) and a start at once.
    const pid = postmasterPid(dataDir);
    if (pid === undefined) throw new Error("no postmaster.pid in the data directory");
    const quickStopAt = performance.now();
    process.kill(pid, "SIGQUIT");
    while (isRunning(pid)) await sleep(10);
    const quickDownAt = performance.now();
    await database.stop(); // the process has exited: this releases the data directory's lock
    const quickRestartAt = performance.now();
    database = await startEmbeddedPostgres({ dataDir });
    const quick: Outage = {
      name: "quick restart",
      stopAt: quickStopAt,
      downAt: quickDownAt,
      restartAt: quickRestartAt,
      upAt: performance.now(),
    };
    outages.push(quick);
    quick.healthyAt = await healthyAfter(quick.upAt);
    await sleep(3_000);

    loadRunning = false;
    await loops;

    // What the database holds now, asked directly.
    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    let present: Map<string, string>;
    try {
      const ids = [...acknowledged.keys()];
      const { rows } = await check.query<{ id: string; name: string }>(
        "select id, name from clients where id = any($1::uuid[])",
        [ids],
      );
      present = new Map(rows.map((row) => [row.id, row.name]));
    } finally {
      await check.end();
    }
    const lost = [...acknowledged].filter(([id, name]) => present.get(id) !== name);

    const exitCode = await app.stop("SIGTERM");
    const stoppedApp = app;
    app = undefined;
    const logLines = stoppedApp
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; time: number; msg: string });
    // Log times are wall-clock; the answers' are performance.now(): one offset joins them.
    const toPerf = (time: number) => time - performance.timeOrigin;

    const checks: FaultCheck[] = [];
    const figures: FaultReport["figures"] = {};
    const isOutage503 = (a: Answer) =>
      a.status === 503 &&
      a.json?.code === "SERVICE_UNAVAILABLE" &&
      typeof a.json.message === "string" &&
      a.retryAfter !== null &&
      /^[1-9]\d*$/.test(a.retryAfter);
    for (const [index, outage] of outages.entries()) {
      const next = outages[index + 1];
      const stopped = answers.filter((a) => a.startedAt >= outage.downAt && a.endedAt <= outage.restartAt);
      const stoppedWrong = stopped.filter((a) => !isOutage503(a));
      // From the stop to the return, a request either made it (2xx) or met the outage (503).
      const around = answers.filter((a) => a.endedAt >= outage.stopAt && a.startedAt <= outage.upAt);
      const aroundWrong = around.filter((a) => !isOutage503(a) && !(a.status >= 200 && a.status < 300));
      const around503 = around.filter(isOutage503);
      checks.push({
        name: `${outage.name}: every answer while PostgreSQL was down is a 503 JSON SERVICE_UNAVAILABLE with Retry-After (or a 2xx finished before it went)`,
        // A quick restart's gap can be too short for a request to fall wholly inside it.
        passed:
          (stopped.length > 0 || index > 0) &&
          stoppedWrong.length === 0 &&
          around503.length > 0 &&
          aroundWrong.length === 0,
        detail:
          `${stopped.length} answers while stopped, ${stoppedWrong.length} otherwise; ${around.length} from stop to return, ` +
          `${around503.length} of them 503, ${aroundWrong.length} neither 2xx nor 503` +
          ((stoppedWrong[0] ?? aroundWrong[0])
            ? ` (e.g. ${describeAnswer((stoppedWrong[0] ?? aroundWrong[0]) as Answer)})`
            : ""),
      });
      const health = around.filter((a) => a.loop === "health" && a.status !== 200);
      const healthWrong = health.filter((a) => !(isOutage503(a) && a.json?.message === "The database is unreachable"));
      checks.push({
        name: `${outage.name}: /api/health answered 503 "The database is unreachable" while it was down`,
        passed: health.length > 0 && healthWrong.length === 0,
        detail: `${health.length} checks${healthWrong[0] ? `, ${healthWrong.length} otherwise (e.g. ${describeAnswer(healthWrong[0])})` : ""}`,
      });
      const seconds = outage.healthyAt === undefined ? undefined : (outage.healthyAt - outage.upAt) / 1000;
      checks.push({
        name: `${outage.name}: /api/health answered 200 within ${HEALTHY_WITHIN_MS / 1000} s of PostgreSQL's return`,
        passed: seconds !== undefined && seconds <= HEALTHY_WITHIN_MS / 1000,
        detail: seconds === undefined ? "never" : `after ${seconds.toFixed(2)} s`,
      });
      const after = answers.filter(
        (a) =>
          outage.healthyAt !== undefined && a.startedAt >= outage.healthyAt && a.endedAt < (next?.stopAt ?? Infinity),
      );
      const failedAfter = after.filter((a) => a.status < 200 || a.status >= 300);
      checks.push({
        name: `${outage.name}: every request after health returned succeeded (the pool recovered without a restart)`,
        passed: after.some((a) => a.loop.startsWith("writer")) && failedAfter.length === 0,
        detail: `${after.length} requests, ${failedAfter.length} failed${failedAfter[0] ? ` (e.g. ${describeAnswer(failedAfter[0])})` : ""}`,
      });
      const logged = (prefix: string, from: number, to: number) =>
        logLines.filter((line) => line.msg.startsWith(prefix) && toPerf(line.time) >= from && toPerf(line.time) <= to);
      // The app notices the loss at the first request that meets it, which in a quick restart under
      // load may be after PostgreSQL is already starting again: so both lines are looked for from the
      // stop to the next outage, the loss before the return.
      const gone = logged("database unreachable: ", outage.stopAt, next?.stopAt ?? Infinity);
      const back = logged("database reachable again after ", outage.stopAt, next?.stopAt ?? Infinity);
      const inOrder = gone[0] !== undefined && back[0] !== undefined && gone[0].time <= back[0].time;
      checks.push({
        name: `${outage.name}: one warning as the database went and one as it returned`,
        passed:
          gone.length === 1 && back.length === 1 && inOrder && [...gone, ...back].every((line) => line.level === 40),
        detail: [...gone, ...back].map((line) => `"${line.msg}"`).join(", ") || "none",
      });
      figures[`${outage.name}: seconds PostgreSQL was down`] = ((outage.upAt - outage.downAt) / 1000).toFixed(2);
      figures[`${outage.name}: requests from stop to return`] = around.length;
      figures[`${outage.name}: 503 answers`] = around503.length;
      figures[`${outage.name}: seconds to healthy after return`] = seconds === undefined ? "never" : seconds.toFixed(2);
    }

    const other5xx = answers.filter((a) => a.status >= 500 && a.status !== 503);
    const no503Shape = answers.filter((a) => a.status === 503 && !isOutage503(a));
    const unanswered = answers.filter((a) => a.status === 0);
    checks.push({
      name: "no answer was another 5xx, a malformed 503 or no answer at all",
      passed: other5xx.length === 0 && no503Shape.length === 0 && unanswered.length === 0,
      detail: `${other5xx.length} other 5xx, ${no503Shape.length} malformed 503, ${unanswered.length} unanswered`,
    });
    const errorLines = logLines.filter((line) => line.level >= 50);
    const warnings = logLines.filter((line) => line.level === 40);
    checks.push({
      name: "the app logged no error-level line and no warning besides the outages' own",
      passed: errorLines.length === 0 && warnings.length === outages.length * 2,
      detail: `${errorLines.length} error lines${errorLines[0] ? ` (e.g. "${errorLines[0].msg}")` : ""}, ${warnings.length} warnings`,
    });
    checks.push({
      name: "every acknowledged (201) client is in the database afterwards",
      passed: acknowledged.size > 0 && lost.length === 0,
      detail: `${acknowledged.size} acknowledged, ${lost.length} lost`,
    });
    // Had the app died under the outage (every later request unanswered), its last words say why.
    const lastWords = stoppedApp.output().trimEnd().split("\n").slice(-15).join("\n    ");
    checks.push({
      name: "the app stayed up and stopped cleanly on SIGTERM",
      passed: exitCode === 0,
      detail: `exit code ${exitCode}${exitCode === 0 ? "" : `; its output ends:\n    ${lastWords}`}`,
    });

    return {
      scenario:
        "database outage: PostgreSQL stopped for 10 s, then an immediate shutdown and quick restart, under load",
      checks,
      figures: {
        requests: answers.length,
        ...figures,
        "other 5xx answers": other5xx.length,
        "acknowledged writes": acknowledged.size,
        "lost writes": lost.length,
        "warnings logged": warnings.length,
        "error lines logged": errorLines.length,
      },
    };
  } finally {
    loadRunning = false;
    if (app) await app.stop("SIGKILL");
    await database?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const describeAnswer = (a: Answer) =>
  a.status === 0 ? `${a.loop}: no answer` : `${a.loop}: ${a.status} ${JSON.stringify(a.json ?? null)}`;

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runFaultScript(databaseOutage);
}
