import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_NODE_FLAGS } from "../src/server/platform/runtime";
import { makeTempDir } from "../tests/temp-dir";

/*
 * The built app (`node dist/server/main.js`, as `npm start` runs it) on a fresh temporary data
 * directory with the demo firm, for the scripts that look at the product as a visitor sees it:
 * `npm run screenshots` and `npm run bench:lighthouse`. `stop()` ends it with SIGTERM (it drains
 * and stops its embedded PostgreSQL) and removes the data directory; call it in a `finally`.
 */

export const projectRoot = fileURLToPath(new URL("..", import.meta.url));

export type BuiltApp = { baseUrl: string; stop: () => Promise<void> };

/** `preferred` if nothing listens there, else any free port the system hands out. */
export async function freePort(preferred: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(undefined));
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : undefined));
      });
    });
  const port = (await tryListen(preferred)) ?? (await tryListen(0));
  if (port === undefined) throw new Error("no free port");
  return port;
}

export async function startBuiltApp(options: { port: number; env?: Record<string, string> }): Promise<BuiltApp> {
  const main = path.join(projectRoot, "dist", "server", "main.js");
  if (!fs.existsSync(main) || !fs.existsSync(path.join(projectRoot, "dist", "client", "index.html"))) {
    throw new Error("The app is not built: run `npm run build` first.");
  }
  const port = await freePort(options.port);
  const dataDir = makeTempDir();
  const { DATABASE_URL: _external, ...inherited } = process.env;
  let output = "";
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child?.kill("SIGKILL"), 45_000);
      await exited;
      clearTimeout(timer);
    }
    removeDataDir();
  };

  try {
    child = spawn(process.execPath, [...APP_NODE_FLAGS, main], {
      cwd: projectRoot,
      env: {
        ...inherited,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        SEED_DEMO_DATA: "true",
        LOG_LEVEL: "warn",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const started = child;
    started.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    started.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    exited = new Promise((resolve) => {
      started.once("exit", (code) => resolve(code));
      started.once("error", (error) => {
        output += `\n${error.message}`;
        resolve(null);
      });
    });

    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 180_000;
    let exitedEarly = false;
    void exited.then(() => {
      exitedEarly = true;
    });
    for (;;) {
      if (exitedEarly) throw new Error(`the app exited before it answered /api/health:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the app did not answer /api/health within 180 s:\n${output}`);
      const healthy = await fetch(`${baseUrl}/api/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { baseUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs `work`, then `cleanup` also when it fails or the run is interrupted (Ctrl-C, SIGTERM). */
export async function withCleanup<T>(cleanup: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  let cleaning: Promise<void> | undefined;
  const once = () => {
    cleaning ??= cleanup();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`${signal}: stopping the app and removing its data directory\n`);
    void once().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work();
  } finally {
    await once();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
