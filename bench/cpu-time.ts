import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/*
 * CPU time used by processes, from Linux's /proc: what a server spends per request, read beside
 * its requests per second. Throughput on a shared host moves with whatever else runs there; the
 * CPU a request costs moves far less, so it shows a few microseconds that a ratio cannot.
 * Elsewhere than Linux there is no /proc, and every reading is undefined.
 */

const ticksPerSecond = fs.existsSync("/proc/self/stat")
  ? Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim())
  : undefined;

/** Whether CPU times can be read here. */
export const cpuReadable = ticksPerSecond !== undefined;

/** Seconds of CPU (user and system, every thread) that `pid` has used since it started. */
function cpuSecondsOf(pid: number): number {
  // The fields after the command's name, which is in parentheses and may itself hold spaces.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / (ticksPerSecond ?? 1);
}

/** The ids of the processes whose parent is `pid`: a PostgreSQL server's backends. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false; // it exited while being read
      }
    })
    .map(Number);
}

/** CPU seconds so far of each process read: a snapshot to subtract a later one from. */
export type CpuSnapshot = Map<number, number>;

/** A snapshot of one process's CPU time; empty where there is no /proc. */
export function processCpu(pid: number | undefined): () => CpuSnapshot {
  return () => snapshot(ticksPerSecond && pid ? [pid] : []);
}

/**
 * A snapshot of an embedded PostgreSQL server's CPU time: its postmaster's and every backend's
 * alive at the reading. The servers under test keep their pooled connections, so their backends
 * live from one snapshot to the next.
 */
export function postgresCpu(dataDir: string): () => CpuSnapshot {
  if (!ticksPerSecond) return () => new Map();
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  const postmaster = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  return () => snapshot([postmaster, ...childrenOf(postmaster)]);
}

/**
 * The CPU seconds used between two snapshots, or undefined without /proc. A process that started
 * in between counts whole; one that exited takes its last moments with it.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): number | undefined {
  if (after.size === 0) return undefined;
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}

function snapshot(pids: number[]): CpuSnapshot {
  const taken: CpuSnapshot = new Map();
  for (const pid of pids) {
    try {
      taken.set(pid, cpuSecondsOf(pid));
    } catch {
      // it exited while being read
    }
  }
  return taken;
}
