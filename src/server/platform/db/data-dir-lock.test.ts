import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../tests/temp-dir";
import { DataDirLockedError, lockDataDir } from "./data-dir-lock";

describe("lockDataDir", () => {
  const dir = makeTempDir();
  const lockFile = path.join(dir, "tendwell.lock");
  afterEach(() => fs.rmSync(lockFile, { force: true }));

  it("claims the directory with this process's pid and releases it", () => {
    const lock = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("refuses while this process holds it", () => {
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(`Another Tendwell process (pid ${process.pid}) is already using`);
    lock.release();
  });

  it("refuses while another running Node process holds it, naming that process", () => {
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(lockFile, `${other.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(`Another Tendwell process (pid ${other.pid}) is already using`);
    } finally {
      other.kill();
    }
  });

  it("takes over a lock naming its own pid from an earlier life (a restarted container is pid 1 again)", () => {
    fs.writeFileSync(lockFile, `${process.pid}\n`);
    lockDataDir(dir).release();
  });

  it("takes over a lock whose pid now belongs to a program that is not Node", () => {
    const bystander = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      fs.writeFileSync(lockFile, `${bystander.pid}\n`);
      lockDataDir(dir).release();
    } finally {
      bystander.kill();
    }
  });

  it("takes over a lock left by a process that has exited", () => {
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    fs.writeFileSync(lockFile, `${exited}\n`);
    const lock = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    lock.release();
  });

  it("takes over an unreadable lock file", () => {
    fs.writeFileSync(lockFile, "garbage");
    lockDataDir(dir).release();
  });
});
