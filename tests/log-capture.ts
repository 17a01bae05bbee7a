import { Writable } from "node:stream";
import type { Config } from "../src/server/platform/config";
import { createLogger } from "../src/server/platform/logger";

/** A real logger whose JSON lines are kept in `lines`, for tests that read what was logged. */
export function captureLogs(logLevel: Config["logLevel"]) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ env: "test", logLevel }, destination) };
}
