import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { projectPaths } from "../src/server/platform/paths";
import { APP_NODE_FLAGS } from "../src/server/platform/runtime";

export type AppProcess = {
  child: ChildProcess;
  /** Where it listens, read from its start-up banner. */
  baseUrl: string;
  output: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

type SpawnOptions = {
  uid?: number;
  gid?: number;
  /** The checkout whose app runs (this one by default): the bench compares with another. */
  root?: string;
  /** The folder the app starts in, which holds its default data folder (the checkout by default). */
  cwd?: string;
  /**
   * A bundled server (as `npm run build:server` writes) to run as `npm start` runs it, with
   * the app's Node flags; by default the sources run through tsx.
   */
  bundle?: string;
};

/** Runs `src/server/main.ts` as a real process, as `npm start` would, with the given environment. */
export function spawnApp(env: Record<string, string>, options: SpawnOptions = {}) {
  // Only what the test gives decides which database the app uses.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const { root = projectPaths.root, cwd = root, bundle, ...user } = options;
  const args = bundle
    ? [...APP_NODE_FLAGS, bundle]
    : [...APP_NODE_FLAGS, "--import", "tsx", path.join(root, "src", "server", "main.ts")];
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...inherited, NODE_ENV: "development", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...user,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    // A process that could not be started at all (e.g. EACCES) emits "error" and never "exit".
    child.once("error", (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
  });
  return { child, exited, output: () => output };
}

/** Starts the app and waits for its banner; rejects with the output if it exits first. */
export async function startApp(env: Record<string, string>, options: SpawnOptions = {}) {
  const { child, exited, output } = spawnApp(env, options);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${output()}`)), 60_000);
    const check = () => {
      const match = /Tendwell is running at (http:\/\/localhost:\d+)/.exec(output());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code}) before it started:\n${output()}`));
    });
  });
  return {
    child,
    baseUrl,
    output,
    stop: async (signal: NodeJS.Signals = "SIGTERM") => {
      child.kill(signal);
      return exited;
    },
  } satisfies AppProcess;
}
