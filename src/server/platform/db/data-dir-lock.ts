import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/** The lock files this process holds, to tell them from ones an earlier process with our pid left. */
const heldLocks = new Set<string>();

/**
 * Claims a data directory for this process, so two app processes never run one embedded
 * PostgreSQL. A lock is taken over when its process no longer runs, or when its pid now belongs
 * to something else: our own pid (a restarted container gets pid 1 again) or a process that is
 * not Node.
 */
export function lockDataDir(dataDir: string): { release: () => void } {
  const lockPath = path.join(dataDir, "tendwell.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: "wx", mode: 0o644 });
      heldLocks.add(lockPath);
      return {
        release: () => {
          heldLocks.delete(lockPath);
          if (readLockOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readLockOwner(lockPath);
      if (owner !== undefined && holdsLock(owner, lockPath)) {
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

function holdsLock(pid: number, lockPath: string): boolean {
  if (pid === process.pid) return heldLocks.has(lockPath);
  if (!isRunning(pid)) return false;
  const command = commandLine(pid);
  return command === undefined || command.includes("node");
}

/** A process's command line, arguments joined by spaces; undefined where /proc cannot tell. */
export function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
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
