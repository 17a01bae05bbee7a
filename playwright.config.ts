import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./scripts/chromium";

/*
 * Browser tests in Debian's Chromium against the built app (`npm run test:e2e` builds first). Three
 * projects, each with a server of its own on a data directory of its own, copied from a seeded one
 * built once (e2e/prepare-data-dir.ts):
 *   app        most specs, on the demo firm;
 *   large-firm the tests tagged @large-firm, on the demo firm and a firm of 10,000 clients;
 *   card-mode  the card-mode specs, on the app with Stripe configured (against a local stand-in).
 * Playwright starts every web server of its config whichever projects run, so the config starts
 * only those of the projects named by --project (all of them when none is named): CI runs each
 * project as its own pass, and the app's tests never wait for the large firm to be written.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const cardModePort = port + 1;
const stripeStandInPort = port + 2;
const largeFirmPort = port + 3;
// One data directory per port, so two checkouts can run their browser tests side by side.
const dataDirOf = (serverPort: number) => path.join(os.tmpdir(), `tendwell-e2e-${serverPort}`);
const appEnv = {
  HOST: "127.0.0.1",
  SEED_DEMO_DATA: "true",
  LOG_LEVEL: "warn",
  // Every test's browser calls from 127.0.0.1: the general rate limit would soon answer 429.
  RATE_LIMIT_PER_MINUTE: "100000",
};
const cardModeSpecs = /card-mode\.spec\.ts$/;
const largeFirmTag = /@large-firm/;

/** The server of a project, started only when the project runs. */
function server(seed: "demo" | "large", serverPort: number, start: string, env: Record<string, string> = {}) {
  const dataDir = dataDirOf(serverPort);
  return {
    command: `node --import tsx e2e/prepare-data-dir.ts ${seed} ${dataDir} && ${start}`,
    url: `http://127.0.0.1:${serverPort}/api/health`,
    env: { ...appEnv, PORT: String(serverPort), DATA_DIR: dataDir, ...env },
    reuseExistingServer: false,
    // Seeding the large firm takes about 20 s on a quiet 2-core machine, longer on a busy one.
    timeout: 300_000,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
  };
}
const servers = {
  app: server("demo", port, "node dist/server/main.js"),
  "large-firm": server("large", largeFirmPort, "node dist/server/main.js"),
  // Behind a proxy, so each card test can be a visitor of its own address (X-Forwarded-For).
  "card-mode": server("demo", cardModePort, `node --import tsx e2e/card-mode-server.ts ${stripeStandInPort}`, {
    TRUST_PROXY: "true",
  }),
};

/** The projects named by --project (or -p) on the command line; all of them when none is. */
function selectedProjects(argv: string[]): (keyof typeof servers)[] {
  const named = argv.flatMap((arg, index) => {
    if (arg.startsWith("--project=")) return [arg.slice("--project=".length)];
    if (arg === "--project" || arg === "-p") return [argv[index + 1] ?? ""];
    return [];
  });
  const all = Object.keys(servers) as (keyof typeof servers)[];
  return named.length === 0 ? all : all.filter((name) => named.includes(name));
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // On CI a failed test runs once more; one that passes then is reported as flaky by name in the
  // summary (.ci/summarize.mjs), never silently (decision 0027). Locally every failure stands.
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // Two workers, the app server and its PostgreSQL share two cores: a lazy page behind the
  // session check can take longer than the default 5 s to show under that load, and a test that
  // walks through several pages (a sign-in with its second step, every page of the app) longer
  // than the default 30 s: on Debian's Chromium 156 a fresh page takes 1-3 s to load and render.
  expect: { timeout: 10_000 },
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: process.env.E2E_RESULTS ?? "test-results/e2e-results.json" }]],
  projects: [
    {
      name: "app",
      testIgnore: cardModeSpecs,
      grepInvert: largeFirmTag,
      use: { baseURL: `http://127.0.0.1:${port}` },
    },
    { name: "large-firm", grep: largeFirmTag, use: { baseURL: `http://127.0.0.1:${largeFirmPort}` } },
    { name: "card-mode", testMatch: cardModeSpecs, use: { baseURL: `http://127.0.0.1:${cardModePort}` } },
  ],
  use: {
    // A trace is recorded only when a failed test runs again on CI: recording one for every test
    // and throwing it away when it passed cost each test its writes and the run its minutes.
    trace: "on-first-retry",
    // Each worker keeps one browser context and page from test to test, which Playwright resets
    // in between (cookies, storage, cache, routes, init scripts, viewport): a fresh context's
    // first page cost Chromium twice the work of the same page loaded in a reset one (decision
    // 0063). What the reset leaves, the test fixture handles (e2e/fixtures.ts): it clears granted
    // permissions and closes a context whose clock was installed.
    reuseContext: true,
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  webServer: selectedProjects(process.argv).map((name) => servers[name]),
});
