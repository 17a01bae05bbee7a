import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/**
 * Claims a data directory for this process, so two app processes never run one embedded
 * PostgreSQL. A lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): { release: () => void } {
  const lockPath = path.join(dataDir, "tendwell.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: "wx", mode: 0o644 });
      return {
        release: () => {
          if (readLockOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readLockOwner(lockPath);
      if (owner !== undefined && isRunning(owner)) {
        throw new DataDirLockedError(
          `Another Tendwell process (pid ${owner}) is already using the data directory ${dataDir}. ` +
            "Stop that process first, or set DATA_DIR to a different folder.",
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}; another process keeps claiming it.`);
}

function readLockOwner(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
