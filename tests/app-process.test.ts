import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT_DATA_HOME } from "../src/server/platform/db/data-dir";
import { isRunning } from "../src/server/platform/db/data-dir-lock";
import { POSTGRES_OS_USER } from "../src/server/platform/db/embedded-postgres";
import { projectPaths } from "../src/server/platform/paths";
import { newSealingKey } from "../src/server/platform/sealed-secrets";
import { type AppProcess, spawnApp, startApp } from "./app-process";
import { startStripeStandIn, stripeTestKeys } from "./stripe-stand-in";
import { makeTempDir } from "./temp-dir";
import { createTestDatabase } from "./test-database";

/*
 * The app as a whole process on its embedded PostgreSQL, the way `npm start` runs it:
 * restarts keep data, a second process on the same data directory is refused, signals stop
 * everything cleanly, and a crash leaves nothing that blocks the next start.
 */
const dataDir = makeTempDir();
const socketUrl = `postgresql://postgres@localhost:5432/tendwell?host=${encodeURIComponent(path.join(dataDir, "run"))}`;
const running: AppProcess[] = [];

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: socketUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const postmasterPid = () => {
  const file = path.join(dataDir, "postgres", "postmaster.pid");
  return fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8").split("\n")[0]) : undefined;
};

async function start(env: Record<string, string> = {}) {
  const app = await startApp({ DATA_DIR: dataDir, ...env });
  running.push(app);
  return app;
}

afterAll(async () => {
  for (const app of running) if (app.child.exitCode === null) await app.stop("SIGKILL");
  const orphan = postmasterPid();
  if (orphan && isRunning(orphan)) process.kill(orphan, "SIGQUIT");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the app process on its embedded database", () => {
  it("starts on an empty data directory, seeds the demo firm and prints the URL and sign-ins", async () => {
    const app = await start();
    expect(app.output()).toContain("Demo sign-ins");
    expect(app.output()).toContain("olivia.hart");
    expect(app.output()).toContain("E-mail is not sent (no SMTP_URL is set): each message is written to the log");
    const health = await fetch(`${app.baseUrl}/api/health`);
    expect(await health.json()).toEqual({ status: "ok", database: "ok" });
    // The server listens on no TCP port: only the socket in the data directory.
    const [settings] = await query<{ listen_addresses: string }>(
      "select current_setting('listen_addresses') as listen_addresses",
    );
    expect(settings?.listen_addresses).toBe("");
  });

  it("refuses a second process on the same data directory with a clear message", async () => {
    const second = spawnApp({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(
      new RegExp(`Another Tendwell process \\(pid \\d+\\) is already using the data directory ${dataDir}`),
    );
    // The first one is unharmed.
    const first = running[0];
    expect((await fetch(`${first?.baseUrl}/api/health`)).status).toBe(200);
  });

  it("stops cleanly on SIGTERM: database stopped, lock released", async () => {
    await query(
      "insert into clients (id, firm_id, name) select gen_random_uuid(), id, 'Marker Client' from firms limit 1",
    );
    const pid = postmasterPid();
    expect(await running[0]?.stop("SIGTERM")).toBe(0);
    expect(pid && isRunning(pid)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "tendwell.lock"))).toBe(false);
  });

  it("stops cleanly even while a client trickles a request body, once the grace period is over", async () => {
    const app = await start({ SHUTDOWN_GRACE_SECONDS: "1" });
    const { port } = new URL(app.baseUrl);
    const socket = net.connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.on("error", () => {});
    socket.write(
      "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    await sleep(200);
    const pid = postmasterPid();
    const stoppedAt = Date.now();
    expect(await app.stop("SIGTERM")).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(app.output()).toContain("requests still running after 1 s: closing their connections");
    expect(pid && isRunning(pid)).toBe(false);
    socket.destroy();
  });

  it("restarts on the same data: nothing lost, nothing seeded twice; SIGINT stops it too", async () => {
    const app = await start();
    expect(await query("select name from clients where name = 'Marker Client'")).toHaveLength(1);
    const [counts] = await query<{ firms: number; clients: number }>(
      "select (select count(*)::int from firms) as firms, (select count(*)::int from clients) as clients",
    );
    expect(counts).toEqual({ firms: 1, clients: 37 });
    expect(await app.stop("SIGINT")).toBe(0);
  });

  it("recovers after a crash that left PostgreSQL running", async () => {
    const crashed = await start();
    await crashed.stop("SIGKILL");
    const orphan = postmasterPid();
    expect(orphan && isRunning(orphan)).toBe(true);
    const app = await start();
    expect(app.output()).toContain(`Stopping a PostgreSQL server (pid ${orphan}) left running by an earlier process`);
    expect(isRunning(orphan as number)).toBe(false);
    expect(await query("select name from clients where name = 'Marker Client'")).toHaveLength(1);
    expect(await app.stop()).toBe(0);
  });

  it("starts when stale pid files name programs that now have those pids, and leaves them alone", async () => {
    // After a reboot the pids in old lock files belong to whatever started since.
    const bystander = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      const pid = String(bystander.pid);
      fs.writeFileSync(path.join(dataDir, "tendwell.lock"), `${pid}\n`);
      fs.writeFileSync(path.join(dataDir, "postgres", "postmaster.pid"), `${pid}\n${path.join(dataDir, "postgres")}\n`);
      const app = await start();
      expect(app.output()).toContain(`Removing a stale postmaster.pid: pid ${pid} is now another program`);
      expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
      expect(await app.stop()).toBe(0);
      expect(bystander.exitCode).toBeNull();
      expect(isRunning(bystander.pid as number)).toBe(true);
    } finally {
      bystander.kill();
    }
  });

  it("exits with a clear message on bad configuration", async () => {
    const bad = spawnApp({ DATA_DIR: dataDir, PORT: "eighty" });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("Tendwell could not start: Invalid configuration:\n  PORT: ");
  });
});

describe("the app process with DATABASE_URL", () => {
  it("uses that database, applies the migrations and starts no embedded server", async () => {
    const database = await createTestDatabase();
    const unusedDataDir = path.join(makeTempDir(), "data");
    try {
      const app = await startApp({
        DATABASE_URL: database.url,
        DATA_DIR: unusedDataDir,
        MFA_ENCRYPTION_KEY: newSealingKey().text,
      });
      expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
      // External databases get no demo data unless asked.
      expect(app.output()).not.toContain("Demo sign-ins");
      expect(await app.stop()).toBe(0);
      expect(fs.existsSync(unusedDataDir)).toBe(false);
    } finally {
      await database.drop();
      fs.rmSync(path.dirname(unusedDataDir), { recursive: true, force: true });
    }
  });
});

describe("the app process and the MFA key", () => {
  it("S-MFA-21 refuses to start on an external database without MFA_ENCRYPTION_KEY, and says how to make one", async () => {
    const database = await createTestDatabase();
    const unusedDataDir = path.join(makeTempDir(), "data");
    try {
      const app = spawnApp({ DATABASE_URL: database.url, DATA_DIR: unusedDataDir });
      expect(await app.exited).toBe(1);
      expect(app.output()).toMatch(/MFA_ENCRYPTION_KEY is required with DATABASE_URL.*openssl rand -base64 32/);
      expect(fs.existsSync(unusedDataDir)).toBe(false);
    } finally {
      await database.drop();
      fs.rmSync(path.dirname(unusedDataDir), { recursive: true, force: true });
    }
  });
});

describe("the app process with card payments (decision 0025)", () => {
  it("starts with all the STRIPE_* variables, answers the publishable key and sends Stripe's origins in the CSP", async () => {
    const database = await createTestDatabase();
    const stripeApi = await startStripeStandIn();
    const unusedDataDir = path.join(makeTempDir(), "data");
    try {
      const app = await startApp({
        DATABASE_URL: database.url,
        DATA_DIR: unusedDataDir,
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        ...stripeTestKeys,
        STRIPE_API_URL: stripeApi.url,
      });
      const response = await fetch(`${app.baseUrl}/api/billing/config`);
      expect(await response.json()).toEqual({ stripePublishableKey: stripeTestKeys.STRIPE_PUBLISHABLE_KEY });
      const page = await fetch(`${app.baseUrl}/robots.txt`);
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self' https://js.stripe.com");
      expect(await app.stop()).toBe(0);
    } finally {
      await stripeApi.close();
      await database.drop();
      fs.rmSync(path.dirname(unusedDataDir), { recursive: true, force: true });
    }
  });

  it("exits with a message naming what is missing from a partial Stripe configuration", async () => {
    const { STRIPE_WEBHOOK_SECRET: _, ...partial } = stripeTestKeys;
    const dir = makeTempDir();
    try {
      const bad = spawnApp({ DATA_DIR: path.join(dir, "data"), ...partial });
      expect(await bad.exited).toBe(1);
      expect(bad.output()).toContain("missing: STRIPE_WEBHOOK_SECRET");
      expect(bad.output()).not.toContain(stripeTestKeys.STRIPE_SECRET_KEY);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(process.getuid?.() !== 0)("started by root in a private folder, DATA_DIR unset", () => {
  it("S-RUN-04 keeps its data in a folder of the checkout's own under /var/lib/tendwell, says where, and finds it again at the next start", async () => {
    // A checkout in root's home, as on a VPS or in a container: /root is mode 700.
    const home = makeTempDir();
    fs.chmodSync(home, 0o700);
    const checkout = path.join(home, "tendwell");
    fs.mkdirSync(checkout);
    let kept = "";
    try {
      const first = await startApp({ LOG_LEVEL: "info" }, { cwd: checkout });
      kept = /Data is kept in (\S+)/.exec(first.output())?.[1] ?? "";
      expect(path.dirname(kept)).toBe(ROOT_DATA_HOME);
      expect(path.basename(kept)).toMatch(/^tendwell-[0-9a-f]{8}$/);
      expect(first.output()).toContain(`${path.join(checkout, "data")} is closed to the OS user`);
      expect(first.output()).toContain("Creating a new PostgreSQL cluster");
      expect(first.output()).toContain("Demo sign-ins");
      expect(fs.existsSync(path.join(kept, "postgres", "PG_VERSION"))).toBe(true);
      expect(fs.existsSync(path.join(checkout, "data"))).toBe(false);
      expect(await first.stop()).toBe(0);

      const second = await startApp({ LOG_LEVEL: "info" }, { cwd: checkout });
      expect(second.output()).toContain(`Data is kept in ${kept}`);
      expect(second.output()).not.toContain("Creating a new PostgreSQL cluster");
      expect(await second.stop()).toBe(0);
    } finally {
      if (kept.startsWith(`${ROOT_DATA_HOME}/`)) fs.rmSync(kept, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

/** As root, the same app also runs as an ordinary user (if that user can read the checkout and run this node). */
const canRunUnprivileged =
  process.getuid?.() === 0 &&
  spawnSync("id", ["-u", POSTGRES_OS_USER]).status === 0 &&
  spawnSync("runuser", [
    "-u",
    POSTGRES_OS_USER,
    "--",
    "sh",
    "-c",
    'test -r "$0" && test -x "$1"',
    path.join(projectPaths.root, "package.json"),
    process.execPath,
  ]).status === 0;

describe.skipIf(!canRunUnprivileged)("run by an ordinary user", () => {
  it("starts and stops its own embedded PostgreSQL without root", async () => {
    const uid = Number(spawnSync("id", ["-u", POSTGRES_OS_USER], { encoding: "utf8" }).stdout);
    const gid = Number(spawnSync("id", ["-g", POSTGRES_OS_USER], { encoding: "utf8" }).stdout);
    const ownDir = makeTempDir();
    fs.chownSync(ownDir, uid, gid);
    try {
      const app = await startApp({ DATA_DIR: ownDir, HOME: ownDir, SEED_DEMO_DATA: "false" }, { uid, gid });
      expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
      expect(await app.stop()).toBe(0);
    } finally {
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  });
});
