import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/*
 * Browser tests in Debian's Chromium against the built app on a freshly seeded embedded
 * database (a new data directory each run). `npm run test:e2e` builds first.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
// One data directory per port, so two checkouts can run their browser tests side by side.
const dataDir = path.join(os.tmpdir(), `tendwell-e2e-${port}`);

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  // Two workers, the app server and its PostgreSQL share two cores: a lazy page behind the
  // session check can take longer than the default 5 s to show under that load.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // The demo firm and a large firm are written first (e2e/seed-large-firm.ts), then the app starts.
    command: `rm -rf ${dataDir} && node --import tsx e2e/seed-large-firm.ts ${dataDir} && node dist/server/main.js`,
    url: `http://127.0.0.1:${port}/api/health`,
    env: { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, SEED_DEMO_DATA: "true", LOG_LEVEL: "warn" },
    reuseExistingServer: false,
    // Writing the large firm takes a minute or two on a busy 2-core machine.
    timeout: 300_000,
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
