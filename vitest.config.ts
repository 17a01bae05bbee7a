import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: ".",
  test: {
    include: ["src/**/*.test.ts", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    pool: "forks",
    // A worker runs its files one after another in one process, importing the app and its
    // libraries once: isolated, every file paid about two seconds of imports (drizzle-orm alone
    // takes one), half the suite's time. Each file makes its own firms, app and database clone.
    isolate: false,
    // One file per core. Vitest's default leaves one free, which on CI's two cores runs one file
    // at a time: each file's start (importing the app, cloning the template database) then waits
    // its turn, and the run took 140 s where two at once take 85 s (the cores are then busy).
    maxWorkers: os.availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
