import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { APP_ROLE, asUser, ensureRoles, OWNER_ROLE } from "../../src/server/platform/db/roles";
import { newSealingKey } from "../../src/server/platform/sealed-secrets";
import { type FaultCheck, type FaultReport, runFaultScript } from "./report";

/*
 * Several instances behind a real load balancer: `npm run fault:several-instances`.
 *
 * The image's own steps, without Docker (no base image can be pulled here): the build stage and
 * the runtime stage of deploy/Dockerfile are replayed in two temporary folders, each COPY as a
 * copy and each `RUN deploy/image-steps.sh <step>` run as it is (install, build,
 * install-production), then `migrate` once and `start` per instance. So the image ships what this
 * run proves enough: a file the server needs and the Dockerfile forgets fails here.
 *
 * Then, on a database of its own on a PostgreSQL server (TEST_DATABASE_URL's, else the local
 * 127.0.0.1:5432) and the local Redis (TEST_REDIS_URL, else 127.0.0.1:6379), it starts two
 * instances in production mode and nginx with deploy/nginx.conf, and checks through nginx:
 *
 *   - a session made on one instance works on the other, and a sign-out on one ends it on both;
 *   - the sign-in throttle counts failures across both (they are rows in PostgreSQL), under the
 *     client's own address (TRUST_PROXY reads nginx's X-Forwarded-For);
 *   - SIGTERM to one instance under load loses no GET (nginx retries what the draining instance
 *     refuses with 503 or cannot take) and creates no client twice: a POST that reached the
 *     instance is never resent by nginx, so one refused with 503 is resent by the client with
 *     its Idempotency-Key;
 *   - both instances starting together with recurring schedules due run the scheduler at once
 *     and make each period's task exactly once;
 *   - the general rate limit counts one address across both (in Redis).
 *
 * Each client of the run connects from an address of its own in 127.0.0.0/8, which nginx passes
 * on as X-Forwarded-For: the rate limit's counts in the shared Redis are then this run's alone.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const deployDir = path.join(root, "deploy");
const signal = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The checks the scenario makes, by name (the Vitest test asserts each). */
export const severalInstancesChecks = {
  session: "a session made on one instance works on the other",
  clientAddress: "the app sees the client's own address through the balancer (TRUST_PROXY)",
  signOut: "a sign-out on one instance ends the session on both",
  throttle: "the sign-in throttle counts failures on both instances together",
  throttleAddress: "the throttle's failures are counted under the client's own address",
  sigtermGets: "SIGTERM to one instance under load loses no GET",
  sigtermPosts:
    "POSTs in flight: none lost, none created twice (the client resends what nginx did not, with its Idempotency-Key)",
  scheduler: "both instances' schedulers, started together, make each period's task exactly once",
  rateLimit: "the general rate limit counts one address across both instances (in Redis)",
} as const;

export type SeveralInstancesOptions = {
  /** A connection string to an existing database of the PostgreSQL server to create the run's database on. */
  adminUrl?: string;
  redisUrl?: string;
  /** The run's database name starts with this (a test run's prefix, so its teardown finds it). */
  databasePrefix?: string;
  /**
   * "dockerfile" (the default) replays deploy/Dockerfile's steps in temporary folders (a few
   * minutes: two npm installs and a build), then migrates and starts from the runtime stage with
   * deploy/image-steps.sh. "sources" runs the migrate and start steps from this checkout's
   * sources instead (through tsx), for a quicker run of the balancer's checks (the Vitest test).
   */
  image?: "dockerfile" | "sources";
  /** Progress lines (steps and times); stderr by default. */
  log?: (line: string) => void;
};

// ---------------------------------------------------------------------------------------------
// Processes

type Proc = { name: string; child: ChildProcess; output: () => string; exited: Promise<number | null> };

function startProcess(name: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
  });
  return { name, child, output: () => output, exited } satisfies Proc;
}

/** Runs a command to its end; throws with its output if it fails. */
async function runToEnd(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
) {
  const proc = startProcess(name, command, args, options);
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${name} failed (exit ${code}):\n${proc.output().slice(-4000)}`);
  return proc.output();
}

/** Polls `probe` until it answers something; a probe that throws ends the wait with its error. */
async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await signal(100);
  }
}

/** A free TCP port in 5300-5399 on 127.0.0.1, not among `taken`. */
async function freePort(taken: number[]): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 5300 + randomInt(100);
    if (taken.includes(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port in 5300-5399");
}

// ---------------------------------------------------------------------------------------------
// The image's steps, replayed from deploy/Dockerfile

type Stage = { name: string | undefined; dir: string; env: Record<string, string> };

/** The repository as the image's build context: what git tracks or would track, from the working tree. */
function copyBuildContext(target: string) {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root })
    .toString()
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(root, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.cpSync(path.join(root, file), path.join(target, file));
  }
}

/**
 * Replays deploy/Dockerfile: each stage in a folder of its own, WORKDIR /app being that folder.
 * COPY copies (from the build context or `--from=` an earlier stage), ENV collects the
 * environment, RUN runs deploy/image-steps.sh's step; any other RUN is refused, so the Dockerfile
 * cannot do work this replay skips. Returns the last stage (the runtime image) and each step's time.
 */
async function replayDockerfile(options: { contextDir: string; workDir: string; log: (line: string) => void }) {
  const lines = fs
    .readFileSync(path.join(deployDir, "Dockerfile"), "utf8")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const stages: Stage[] = [];
  const timings: Record<string, string> = {};
  const inApp = (stage: Stage, target: string) => {
    if (!target.startsWith("/app")) throw new Error(`the replay knows only paths under /app, not ${target}`);
    return path.join(stage.dir, path.relative("/app", target));
  };
  for (const line of lines) {
    const [instruction = "", ...rest] = line.split(/\s+/);
    const current = stages.at(-1);
    switch (instruction.toUpperCase()) {
      case "FROM": {
        const name = /\bAS\s+(\S+)/i.exec(line)?.[1];
        const dir = path.join(options.workDir, `stage-${stages.length}${name ? `-${name}` : ""}`);
        fs.mkdirSync(dir, { recursive: true });
        stages.push({ name, dir, env: {} });
        break;
      }
      case "WORKDIR":
        if (rest[0] !== "/app") throw new Error(`the replay expects WORKDIR /app, not ${rest[0]}`);
        break;
      case "ENV":
        if (!current) throw new Error("ENV before FROM");
        for (const pair of rest) {
          const [key = "", ...value] = pair.split("=");
          current.env[key] = value.join("=");
        }
        break;
      case "COPY": {
        if (!current) throw new Error("COPY before FROM");
        const from = rest.find((word) => word.startsWith("--from="))?.slice("--from=".length);
        const paths = rest.filter((word) => !word.startsWith("--"));
        const target = paths.pop() ?? "";
        const source = from ? stages.find((stage) => stage.name === from) : undefined;
        if (from && !source) throw new Error(`COPY --from=${from}: no such stage`);
        const destination = target.startsWith("/") ? inApp(current, target) : path.join(current.dir, target);
        for (const item of paths) {
          const origin = source ? inApp(source, item) : path.join(options.contextDir, item);
          const into =
            target.endsWith("/") || paths.length > 1 ? path.join(destination, path.basename(item)) : destination;
          if (item === ".") fs.cpSync(origin, destination, { recursive: true });
          else {
            fs.mkdirSync(path.dirname(into), { recursive: true });
            fs.cpSync(origin, into, { recursive: true });
          }
        }
        break;
      }
      case "RUN": {
        if (!current) throw new Error("RUN before FROM");
        const command = rest.filter((word) => !word.startsWith("--mount=")).join(" ");
        const match = /^deploy\/image-steps\.sh ([a-z-]+)$/.exec(command);
        if (!match?.[1]) throw new Error(`the replay runs only deploy/image-steps.sh steps, not: RUN ${command}`);
        const started = Date.now();
        options.log(`image step: ${match[1]} (stage ${current.name ?? "runtime"})`);
        // The container's environment: the stage's ENV lines and nothing of this process's.
        await runToEnd(`image-steps.sh ${match[1]}`, path.join(current.dir, "deploy", "image-steps.sh"), [match[1]], {
          cwd: current.dir,
          env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), ...current.env },
        });
        timings[match[1]] = `${((Date.now() - started) / 1000).toFixed(1)} s`;
        options.log(`image step: ${match[1]} took ${timings[match[1]]}`);
        break;
      }
      default:
        // USER, EXPOSE, HEALTHCHECK and CMD describe the container, not its contents.
        break;
    }
  }
  const runtime = stages.at(-1);
  if (!runtime) throw new Error("deploy/Dockerfile has no stage");
  return { runtime, timings };
}

// ---------------------------------------------------------------------------------------------
// nginx with deploy/nginx.conf

/** Replaces `from` in `text`, insisting it is there exactly once: the committed file is what runs. */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + from.length) !== -1) {
    throw new Error(`deploy/nginx.conf should hold "${from}" exactly once`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/**
 * deploy/nginx.conf with this run's addresses: the two instances, the listener, and its own
 * temporary folders (the packaged defaults are system folders). Two lines are added for the test
 * only: each answer says which instance gave it (X-Upstream, nginx's $upstream_addr: two
 * addresses when nginx tried one and then the other), and, when this runs as root, `user root;`:
 * a master started as root runs its workers as the `user` directive's account (nobody by default),
 * which could not use the temporary folders made here; the balancer in the image keeps its own.
 */
function renderNginxConf(options: { prefix: string; listen: number; upstreams: [number, number] }) {
  let conf = fs.readFileSync(path.join(deployDir, "nginx.conf"), "utf8");
  conf = replaceOnce(conf, "server app1:3000 ", `server 127.0.0.1:${options.upstreams[0]} `);
  conf = replaceOnce(conf, "server app2:3000 ", `server 127.0.0.1:${options.upstreams[1]} `);
  conf = replaceOnce(conf, "listen 80;", `listen 127.0.0.1:${options.listen};`);
  // The image's nginx writes its access log to its stdout; here it is a file of the run.
  conf = replaceOnce(conf, "access_log /dev/stdout ", `access_log ${path.join(options.prefix, "access.log")} `);
  const temp = (name: string) => `${name}_temp_path ${path.join(options.prefix, name)};`;
  conf = replaceOnce(
    conf,
    "http {\n",
    `http {\n    ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n    ")}\n`,
  );
  conf = replaceOnce(
    conf,
    "proxy_pass http://tendwell;\n",
    "proxy_pass http://tendwell;\n            add_header X-Upstream $upstream_addr always;\n",
  );
  if (process.getuid?.() === 0) conf = `user root;\n${conf}`;
  return conf;
}

// ---------------------------------------------------------------------------------------------
// A client of the balancer, from an address of its own

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: unknown; upstream: string };

function makeClient(baseUrl: string, origin: string) {
  const localAddress = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const agent = new http.Agent({ keepAlive: true, localAddress, maxSockets: 64 });
  let cookie: string | undefined;
  const send = (
    method: string,
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; cookie?: string | null } = {},
  ) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const sessionCookie = options.cookie === null ? undefined : (options.cookie ?? cookie);
      const request = http.request(
        new URL(url, baseUrl),
        {
          method,
          agent,
          headers: {
            ...(payload ? { "content-type": "application/json" } : {}),
            // As the browser sends it on a state-changing request: the app checks it against APP_ORIGIN.
            ...(method === "GET" ? {} : { origin }),
            ...(sessionCookie ? { cookie: sessionCookie } : {}),
            ...options.headers,
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => {
            const session = response.headers["set-cookie"]?.find((line) => line.startsWith("tendwell_session="));
            if (session && options.cookie === undefined) cookie = session.split(";")[0];
            let body: unknown = text;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {}
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body,
              upstream: String(response.headers["x-upstream"] ?? ""),
            });
          });
          response.on("error", reject);
        },
      );
      request.on("error", reject);
      request.end(payload);
    });
  return {
    localAddress,
    send,
    get cookie() {
      return cookie;
    },
    close: () => agent.destroy(),
  };
}

// ---------------------------------------------------------------------------------------------
// The scenario

export async function severalInstances(options: SeveralInstancesOptions = {}): Promise<FaultReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`  ${line}\n`));
  const adminUrl = options.adminUrl ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const redisUrl = options.redisUrl ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const checks: FaultCheck[] = [];
  const figures: FaultReport["figures"] = {};
  const check = (name: string, passed: boolean, detail?: string) => {
    checks.push({ name, passed, ...(detail ? { detail } : {}) });
  };
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const started = Date.now();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "tendwell-several-"));
  cleanups.push(() => fs.rmSync(workDir, { recursive: true, force: true }));

  try {
    // 1. The image, built as the Dockerfile builds it, or this checkout's sources.
    let runtime: Stage;
    let stepCommand: (step: "migrate" | "start") => [string, string[]];
    if ((options.image ?? "dockerfile") === "dockerfile") {
      const contextDir = path.join(workDir, "context");
      copyBuildContext(contextDir);
      const replayed = await replayDockerfile({ contextDir, workDir, log });
      for (const [step, took] of Object.entries(replayed.timings)) figures[`image step ${step}`] = took;
      fs.rmSync(path.join(workDir, "stage-0-build"), { recursive: true, force: true });
      fs.rmSync(contextDir, { recursive: true, force: true });
      runtime = replayed.runtime;
      const steps = path.join(runtime.dir, "deploy", "image-steps.sh");
      stepCommand = (step) => [steps, [step]];
    } else {
      runtime = { name: undefined, dir: root, env: {} };
      const entry = { migrate: "src/server/migrate.cli.ts", start: "src/server/main.ts" };
      stepCommand = (step) => [process.execPath, ["--import", "tsx", path.join(root, entry[step])]];
      figures.image = "this checkout's sources (tsx)";
    }

    // 2. A database of its own, migrated by the image's migrate step.
    const databaseName = `${options.databasePrefix ?? "tendwell_multi_"}${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    // The two roles an operator makes (docs/operations.md): the owner migrates, the instances run as the app.
    await ensureRoles(adminUrl);
    await admin.query(`create database ${admin.escapeIdentifier(databaseName)} owner ${OWNER_ROLE}`);
    cleanups.push(() => admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`));
    const databaseUrlOf = new URL(adminUrl);
    databaseUrlOf.pathname = `/${databaseName}`;
    const databaseUrl = databaseUrlOf.toString();
    const db = new pg.Client({ connectionString: databaseUrl });
    const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), ...runtime.env };
    // Both instances open the same sealed secrets: one key for the pair, as production configures it.
    const mfaKey = newSealingKey().text;
    const migrateStarted = Date.now();
    const appUrl = asUser(databaseUrl, APP_ROLE);
    await runToEnd("migrate", ...stepCommand("migrate"), {
      cwd: runtime.dir,
      env: { ...baseEnv, DATABASE_OWNER_URL: asUser(databaseUrl, OWNER_ROLE), DATABASE_URL: appUrl },
    });
    figures["image step migrate"] = `${((Date.now() - migrateStarted) / 1000).toFixed(1)} s`;
    await db.connect();
    cleanups.push(() => db.end());

    // 3. Two instances and nginx in front of them.
    const ports: number[] = [];
    for (let n = 0; n < 3; n++) ports.push(await freePort(ports));
    const [portA = 0, portB = 0, balancerPort = 0] = ports;
    const balancer = `http://127.0.0.1:${balancerPort}`;
    const instanceName = (upstream: string) => {
      const last = upstream.split(",").at(-1)?.trim() ?? "";
      return last === `127.0.0.1:${portA}` ? "A" : last === `127.0.0.1:${portB}` ? "B" : `? (${upstream})`;
    };
    const running = new Map<string, Proc>();
    const startInstance = async (name: "A" | "B", env: Record<string, string> = {}) => {
      const proc = startProcess(`instance ${name}`, ...stepCommand("start"), {
        cwd: runtime.dir,
        env: {
          ...baseEnv,
          NODE_ENV: "production",
          MFA_ENCRYPTION_KEY: mfaKey,
          HOST: "127.0.0.1",
          PORT: String(name === "A" ? portA : portB),
          // The app's own role alone: the migrate step has readied the database.
          DATABASE_URL: appUrl,
          REDIS_URL: redisUrl,
          TRUST_PROXY: "true",
          APP_ORIGIN: balancer,
          LOG_LEVEL: "info",
          RATE_LIMIT_PER_MINUTE: "100000",
          ...env,
        },
      });
      running.set(name, proc);
      await waitFor(`instance ${name}'s start`, 60_000, async () => {
        if (proc.child.exitCode !== null) throw new Error(`instance ${name} exited:\n${proc.output()}`);
        return /is running at http/.test(proc.output()) ? true : undefined;
      }).catch((error: Error) => {
        throw new Error(`${error.message}\n${proc.output().slice(-3000)}`);
      });
      return proc;
    };
    const stopInstance = async (name: string) => {
      const proc = running.get(name);
      if (!proc) return null;
      running.delete(name);
      proc.child.kill("SIGTERM");
      return proc.exited;
    };
    cleanups.push(async () => {
      for (const name of [...running.keys()]) await stopInstance(name);
    });
    await Promise.all([startInstance("A"), startInstance("B")]);

    const prefix = path.join(workDir, "nginx");
    fs.mkdirSync(prefix, { recursive: true });
    fs.writeFileSync(
      path.join(prefix, "nginx.conf"),
      renderNginxConf({ prefix, listen: balancerPort, upstreams: [portA, portB] }),
    );
    const nginx = startProcess(
      "nginx",
      "nginx",
      [
        "-p",
        prefix,
        "-c",
        path.join(prefix, "nginx.conf"),
        "-e",
        "stderr",
        "-g",
        `daemon off; pid ${path.join(prefix, "nginx.pid")};`,
      ],
      {
        cwd: prefix,
        env: baseEnv,
      },
    );
    cleanups.push(async () => {
      nginx.child.kill("SIGQUIT");
      await nginx.exited;
    });
    const setup = makeClient(balancer, balancer);
    cleanups.push(() => setup.close());
    await waitFor("nginx", 15_000, async () => {
      if (nginx.child.exitCode !== null) throw new Error(`nginx exited:\n${nginx.output()}`);
      const answer = await setup.send("GET", "/api/health").catch(() => undefined);
      return answer?.status === 200 ? true : undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${nginx.output().slice(-3000)}`);
    });
    log(`instances A :${portA} and B :${portB} behind nginx :${balancerPort}`);

    // Every answer through the balancer, by instance.
    const answeredBy: Record<string, number> = { A: 0, B: 0 };
    let throughBalancer = 0;
    let retriedByBalancer = 0;
    const tally = (answer: Answer) => {
      throughBalancer++;
      const name = instanceName(answer.upstream);
      answeredBy[name] = (answeredBy[name] ?? 0) + 1;
      if (answer.upstream.includes(",")) retriedByBalancer++;
      return answer;
    };

    // 4. A session made on one instance works on the other; a sign-out on one ends it on both.
    const user = { username: `multi.${randomBytes(3).toString("hex")}`, password: "several-instances-1" };
    const browser = makeClient(balancer, balancer);
    cleanups.push(() => browser.close());
    const signup = tally(
      await browser.send("POST", "/api/auth/register", {
        body: {
          fullName: "Several Instances",
          email: `${user.username}@example.com`,
          username: user.username,
          password: user.password,
          subscriptionPlan: "enterprise",
        },
      }),
    );
    if (signup.status !== 201 || !browser.cookie)
      throw new Error(`sign-up failed: ${signup.status} ${JSON.stringify(signup.body)}`);
    const firmId = String((signup.body as { firm?: { id?: string } }).firm?.id ?? "");
    const madeOn = instanceName(signup.upstream);
    const meAnswers = [];
    for (let n = 0; n < 6; n++) meAnswers.push(tally(await browser.send("GET", "/api/auth/me")));
    const meOk = meAnswers.filter((answer) => answer.status === 200);
    const meOn = new Set(meOk.map((answer) => instanceName(answer.upstream)));
    check(
      severalInstancesChecks.session,
      meOk.length === meAnswers.length && meOn.has("A") && meOn.has("B"),
      `signed up on ${madeOn}; GET /api/auth/me answered ${meOk.length}/${meAnswers.length} with 200, by ${[...meOn].sort().join(" and ")}`,
    );
    const [auditIp] = (
      await db.query<{ ip: string }>("select ip from audit_events where firm_id = $1 order by seq limit 1", [firmId])
    ).rows;
    check(
      severalInstancesChecks.clientAddress,
      auditIp?.ip === browser.localAddress,
      `the sign-up's audit event records ${auditIp?.ip ?? "nothing"}, the client connected from ${browser.localAddress}`,
    );

    const oldCookie = browser.cookie;
    const logout = tally(await browser.send("POST", "/api/auth/logout"));
    const afterLogout = [];
    for (let n = 0; n < 6; n++)
      afterLogout.push(tally(await browser.send("GET", "/api/auth/me", { cookie: oldCookie })));
    const refusedOn = new Set(afterLogout.filter((a) => a.status === 401).map((a) => instanceName(a.upstream)));
    check(
      severalInstancesChecks.signOut,
      logout.status === 204 && afterLogout.every((a) => a.status === 401) && refusedOn.has("A") && refusedOn.has("B"),
      `signed out on ${instanceName(logout.upstream)} (${logout.status}); the old cookie then got ${afterLogout.map((a) => a.status).join(", ")} from ${[...refusedOn].sort().join(" and ")}`,
    );

    // 5. The sign-in throttle counts across both instances.
    const signIn = tally(await browser.send("POST", "/api/auth/login", { body: user }));
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
    const session = browser.cookie ?? "";
    const guesses = [];
    for (let n = 0; n < 6; n++) {
      guesses.push(
        tally(
          await browser.send("POST", "/api/auth/login", { body: { ...user, password: `wrong-${n}` }, cookie: null }),
        ),
      );
    }
    const rightAfter = tally(await browser.send("POST", "/api/auth/login", { body: user, cookie: null }));
    const failedOn = new Set(guesses.filter((a) => a.status === 401).map((a) => instanceName(a.upstream)));
    const failureRows = (
      await db.query<{ ip: string; n: number }>(
        "select ip, count(*)::int as n from login_failures where username_key = $1 group by ip",
        [user.username.toLowerCase()],
      )
    ).rows;
    check(
      severalInstancesChecks.throttle,
      guesses.slice(0, 5).every((a) => a.status === 401) &&
        guesses[5]?.status === 429 &&
        rightAfter.status === 429 &&
        failedOn.has("A") &&
        failedOn.has("B"),
      `wrong passwords got ${guesses.map((a) => `${a.status} (${instanceName(a.upstream)})`).join(", ")}; the right one then ${rightAfter.status}`,
    );
    check(
      severalInstancesChecks.throttleAddress,
      failureRows.length === 1 && failureRows[0]?.ip === browser.localAddress,
      `login_failures: ${failureRows.map((row) => `${row.n} from ${row.ip}`).join(", ") || "none"}`,
    );

    // 6. SIGTERM to one instance under load.
    const template = tally(
      await browser.send("POST", "/api/task-templates", {
        body: { name: "Daily reconciliation", description: "Reconcile the day's entries", frequency: "daily" },
        cookie: session,
      }),
    );
    const templateId = String((template.body as { id?: string }).id ?? "");
    if (template.status !== 201) throw new Error(`template: ${template.status} ${JSON.stringify(template.body)}`);

    const load = makeClient(balancer, balancer);
    cleanups.push(() => load.close());
    const getStatuses: Record<string, number> = {};
    const postStatuses: Record<string, number> = {};
    const loadBy: Record<string, number> = { A: 0, B: 0 };
    const failedPosts: { key: string; name: string }[] = [];
    let postsSent = 0;
    let stopLoad = false;
    const getWorker = async (worker: number) => {
      for (let n = 0; !stopLoad; n++) {
        const url = (worker + n) % 2 === 0 ? "/api/auth/me" : "/api/health";
        try {
          const answer = tally(await load.send("GET", url, { cookie: session }));
          getStatuses[answer.status] = (getStatuses[answer.status] ?? 0) + 1;
          const name = instanceName(answer.upstream);
          loadBy[name] = (loadBy[name] ?? 0) + 1;
        } catch (error) {
          getStatuses[(error as Error).message] = (getStatuses[(error as Error).message] ?? 0) + 1;
        }
      }
    };
    const postWorker = async () => {
      while (!stopLoad) {
        const key = randomUUID();
        const name = `Load client ${++postsSent}`;
        try {
          const answer = tally(
            await load.send("POST", "/api/clients", {
              body: { name, templateIds: [templateId] },
              headers: { "idempotency-key": key },
              cookie: session,
            }),
          );
          postStatuses[answer.status] = (postStatuses[answer.status] ?? 0) + 1;
          if (answer.status !== 201) failedPosts.push({ key, name });
        } catch (error) {
          postStatuses[(error as Error).message] = (postStatuses[(error as Error).message] ?? 0) + 1;
          failedPosts.push({ key, name });
        }
      }
    };
    const requestsBefore = throughBalancer;
    const workers = [...Array.from({ length: 6 }, (_, n) => getWorker(n)), postWorker(), postWorker()];
    await signal(1500);
    const stopping = running.get("A");
    const exitCode = await stopInstance("A");
    log(`instance A stopped (exit ${exitCode}) under load`);
    await signal(1500);
    await startInstance("A");
    // Until nginx sends to the restarted instance again (after fail_timeout at the latest).
    const backAt = loadBy.A ?? 0;
    await waitFor("the restarted instance A to answer through nginx", 15_000, async () =>
      (loadBy.A ?? 0) > backAt + 20 ? true : undefined,
    );
    stopLoad = true;
    await Promise.all(workers);
    const getsSent = Object.values(getStatuses).reduce((sum, n) => sum + n, 0);
    const getFailures = getsSent - (getStatuses[200] ?? 0);
    check(
      severalInstancesChecks.sigtermGets,
      getFailures === 0 && exitCode === 0,
      `${getsSent} GETs: ${Object.entries(getStatuses)
        .map(([status, n]) => `${n} × ${status}`)
        .join(
          ", ",
        )}; instance A exited ${exitCode}${stopping?.output().includes("shut down cleanly") ? ' after "shut down cleanly"' : ""}`,
    );
    // A POST nginx did not resend is the client's to resend, with the same key.
    for (const post of failedPosts) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const answer = tally(
          await load.send("POST", "/api/clients", {
            body: { name: post.name, templateIds: [templateId] },
            headers: { "idempotency-key": post.key },
            cookie: session,
          }),
        );
        if (answer.status === 201) break;
        await signal(200);
      }
    }
    const { rows: clientCounts } = await db.query<{ name: string; n: number }>(
      "select name, count(*)::int as n from clients where firm_id = $1 and name like 'Load client %' group by name",
      [firmId],
    );
    const duplicateClients = clientCounts.filter((row) => row.n > 1).length;
    const missingClients = postsSent - clientCounts.length;
    check(
      severalInstancesChecks.sigtermPosts,
      duplicateClients === 0 && missingClients === 0,
      `${postsSent} POSTs: ${Object.entries(postStatuses)
        .map(([status, n]) => `${n} × ${status}`)
        .join(
          ", ",
        )}; ${failedPosts.length} resent by the client; ${clientCounts.length} clients made, ${duplicateClients} twice`,
    );
    figures["load: requests through the balancer"] = throughBalancer - requestsBefore;
    figures["load: GETs answered by A / B"] = `${loadBy.A ?? 0} / ${loadBy.B ?? 0}`;
    figures["load: GET failures"] = getFailures;
    figures["load: POSTs sent"] = postsSent;
    figures["load: POSTs answered 201 / other"] = `${postStatuses[201] ?? 0} / ${postsSent - (postStatuses[201] ?? 0)}`;
    figures["load: POSTs resent by the client"] = failedPosts.length;
    figures["load: clients created twice"] = duplicateClients;

    // 7. Both instances start together with recurring work due: each period's task once.
    await Promise.all([stopInstance("A"), stopInstance("B")]);
    const days = 60;
    await db.query(
      `update recurring_schedules set starts_at = now() - make_interval(days => $2), materialized_until = null
        where firm_id = $1`,
      [firmId, days],
    );
    const { rows: scheduleRows } = await db.query<{ n: number }>(
      "select count(*)::int as n from recurring_schedules where firm_id = $1",
      [firmId],
    );
    const schedules = scheduleRows[0]?.n ?? 0;
    const limit = 10;
    await Promise.all([
      startInstance("A", { RATE_LIMIT_PER_MINUTE: String(limit) }),
      startInstance("B", { RATE_LIMIT_PER_MINUTE: String(limit) }),
    ]);
    await waitFor("the scheduler to catch every schedule up", 60_000, async () => {
      const { rows } = await db.query<{ n: number }>(
        "select count(*)::int as n from recurring_schedules where firm_id = $1 and (materialized_until is null or materialized_until < now())",
        [firmId],
      );
      return rows[0]?.n === 0 ? true : undefined;
    });
    const { rows: taskRows } = await db.query<{
      schedule_id: string;
      n: number;
      periods: number;
      distinct_due: number;
    }>(
      `select s.id as schedule_id, count(t.id)::int as n, count(distinct t.due_date)::int as distinct_due,
              ((now() at time zone f.time_zone)::date - (s.starts_at at time zone f.time_zone)::date + 1)::int as periods
         from recurring_schedules s
         join firms f on f.id = s.firm_id
         left join tasks t on t.firm_id = s.firm_id and t.schedule_id = s.id
        where s.firm_id = $1
        group by s.id, f.time_zone, s.starts_at`,
      [firmId],
    );
    const duplicateTasks = taskRows.reduce((sum, row) => sum + (row.n - row.distinct_due), 0);
    const wrongCounts = taskRows.filter((row) => row.n !== row.periods).length;
    const madeBy = (name: string) =>
      [
        ...(running.get(name)?.output() ?? "").matchAll(
          /"tasksCreated":(\d+)[^\n]*scheduler: created recurring tasks/g,
        ),
      ].reduce((sum, match) => sum + Number(match[1]), 0);
    const madeByA = madeBy("A");
    const madeByB = madeBy("B");
    const allTasks = taskRows.reduce((sum, row) => sum + row.n, 0);
    check(
      severalInstancesChecks.scheduler,
      schedules > 0 && duplicateTasks === 0 && wrongCounts === 0,
      `${schedules} daily schedules ${days} days behind: ${allTasks} tasks, ${duplicateTasks} duplicates, ${wrongCounts} schedules with a wrong count; made at this start by A ${madeByA}, by B ${madeByB}`,
    );
    figures["recurring schedules due"] = schedules;
    figures["tasks made by A / B at start"] = `${madeByA} / ${madeByB}`;
    figures["duplicate tasks"] = duplicateTasks;

    // 8. The general rate limit counts one address across both instances (in Redis).
    const limited = makeClient(balancer, balancer);
    cleanups.push(() => limited.close());
    const limitAnswers = [];
    for (let n = 0; n < limit + 4; n++) limitAnswers.push(tally(await limited.send("GET", "/api/billing/config")));
    const admitted = limitAnswers.filter((a) => a.status === 200);
    const refused = limitAnswers.filter((a) => a.status === 429);
    const admittedOn = new Set(admitted.map((a) => instanceName(a.upstream)));
    check(
      severalInstancesChecks.rateLimit,
      admitted.length === limit && refused.length === 4 && admittedOn.has("A") && admittedOn.has("B"),
      `a limit of ${limit} a minute; ${limitAnswers.length} requests: ${admitted.length} × 200 (by ${[...admittedOn].sort().join(" and ")}), ${refused.length} × 429`,
    );

    figures["requests through the balancer"] = throughBalancer;
    figures["answered by A / B"] = `${answeredBy.A ?? 0} / ${answeredBy.B ?? 0}`;
    figures["retried by nginx on the other instance"] = retriedByBalancer;
  } finally {
    // Last made, first undone: the clients, nginx, the instances, the database, the folders.
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`cleanup: ${(error as Error).message}`);
      }
    }
  }
  figures["run time"] = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  return { scenario: "several instances behind nginx", checks, figures };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // --from-sources: the balancer's checks on this checkout's sources, without the image's steps.
  runFaultScript(() => severalInstances({ image: process.argv.includes("--from-sources") ? "sources" : "dockerfile" }));
}
