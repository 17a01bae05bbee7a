import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./scripts/chromium";

/*
 * Browser tests in Debian's Chromium against the built app on a freshly seeded embedded
 * database (a new data directory each run). `npm run test:e2e` builds first.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
// The same app with Stripe configured (against a local stand-in of Stripe's API) for the card tests.
const cardModePort = port + 1;
const stripeStandInPort = port + 2;
// One data directory per port, so two checkouts can run their browser tests side by side.
const dataDir = path.join(os.tmpdir(), `tendwell-e2e-${port}`);
const cardModeDataDir = path.join(os.tmpdir(), `tendwell-e2e-${cardModePort}`);
const appEnv = {
  HOST: "127.0.0.1",
  SEED_DEMO_DATA: "true",
  LOG_LEVEL: "warn",
  // Every test's browser calls from 127.0.0.1: the general rate limit would soon answer 429.
  RATE_LIMIT_PER_MINUTE: "100000",
};
const cardModeSpecs = /card-mode\.spec\.ts$/;

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
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  projects: [
    { name: "app", testIgnore: cardModeSpecs, use: { baseURL: `http://127.0.0.1:${port}` } },
    { name: "card-mode", testMatch: cardModeSpecs, use: { baseURL: `http://127.0.0.1:${cardModePort}` } },
  ],
  use: {
    // A trace is recorded only when a failed test runs again on CI: recording one for every test
    // and throwing it away when it passed cost each test its writes and the run its minutes.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  webServer: [
    {
      // The demo firm and a large firm are written first (e2e/seed-large-firm.ts), then the app starts.
      command: `rm -rf ${dataDir} && node --import tsx e2e/seed-large-firm.ts ${dataDir} && node dist/server/main.js`,
      url: `http://127.0.0.1:${port}/api/health`,
      env: { ...appEnv, PORT: String(port), DATA_DIR: dataDir },
      reuseExistingServer: false,
      // Writing the large firm takes about 20 s on a quiet 2-core machine, longer on a busy one.
      timeout: 300_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    },
    {
      command: `rm -rf ${cardModeDataDir} && node --import tsx e2e/card-mode-server.ts ${stripeStandInPort}`,
      url: `http://127.0.0.1:${cardModePort}/api/health`,
      // Behind a proxy, so each card test can be a visitor of its own address (X-Forwarded-For).
      env: { ...appEnv, PORT: String(cardModePort), DATA_DIR: cardModeDataDir, TRUST_PROXY: "true" },
      reuseExistingServer: false,
      timeout: 300_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    },
  ],
});
