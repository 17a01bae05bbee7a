import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: ".",
  test: {
    include: ["src/**/*.test.ts", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    pool: "forks",
    // One file per core. Vitest's default leaves one free, which on CI's two cores runs one file
    // at a time: each file's start (importing the app, cloning the template database) then waits
    // its turn, and the run took 140 s where two at once take 85 s (the cores are then busy).
    maxWorkers: os.availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
