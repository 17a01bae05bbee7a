import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A temporary folder the embedded PostgreSQL can use. mkdtemp makes it 0700; when the tests run
 * as root the server runs as an unprivileged user, who must be able to pass through it.
 * (Free of Vitest, so the benchmarks can use it too.)
 */
export function makeTempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tendwell-test-"));
  fs.chmodSync(dir, 0o755);
  return dir;
}
