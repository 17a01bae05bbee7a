import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "./config";
import { MFA_KEY_FILE, mfaKeyInDataDir, resolveMfaKey } from "./mfa-key";
import { seal, unseal } from "./sealed-secrets";

const dirs: string[] = [];
async function dataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "tendwell-mfa-key-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: { info: (line: string) => lines.push(`info ${line}`), warn: (line: string) => lines.push(`warn ${line}`) },
  };
}

describe("the MFA key kept in the data directory", () => {
  it("S-MFA-21 is made once, readable by its owner only, and read back the same at every later start", async () => {
    const dir = await dataDir();
    const first = recorder();
    const key = await mfaKeyInDataDir(dir, first.log);
    const file = path.join(dir, MFA_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(first.lines).toEqual([
      expect.stringMatching(/^info Made the key that seals authenticator secrets: .*mfa-encryption\.key/),
    ]);
    const sealed = seal(key, "JBSWY3DPEHPK3PXP", "totp:one");

    const again = recorder();
    const reread = await mfaKeyInDataDir(dir, again.log);
    expect(again.lines).toEqual([]);
    expect(unseal(reread, sealed, "totp:one")).toBe("JBSWY3DPEHPK3PXP");
  });

  it("S-MFA-21 makes a file others could read owner-only again, and refuses a file that holds no key", async () => {
    const dir = await dataDir();
    const file = path.join(dir, MFA_KEY_FILE);
    await mfaKeyInDataDir(dir, recorder().log);
    await chmod(file, 0o644);
    const loose = recorder();
    await mfaKeyInDataDir(dir, loose.log);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(loose.lines).toEqual([
      expect.stringMatching(/^warn .* was readable by others; it is now readable by its owner only$/),
    ]);

    await writeFile(file, "not a key\n");
    await expect(mfaKeyInDataDir(dir, recorder().log)).rejects.toThrow(
      /mfa-encryption\.key holds no key: a sealing key is 32 bytes/,
    );
    expect(await readFile(file, "utf8")).toBe("not a key\n");
  });

  it("S-MFA-21 is the configured key when there is one, and must be one on an external database", async () => {
    const dir = await dataDir();
    const configured = loadConfig({ MFA_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"), DATA_DIR: dir });
    expect((await resolveMfaKey(configured, recorder().log)).equals(Buffer.alloc(32, 9))).toBe(true);
    const external = loadConfig({ DATABASE_URL: "postgres://app@db/tendwell", DATA_DIR: dir });
    await expect(resolveMfaKey(external, recorder().log)).rejects.toThrow(
      /MFA_ENCRYPTION_KEY is required with DATABASE_URL/,
    );
    // Production on the embedded database keeps its key in the data directory.
    const embedded = loadConfig({ NODE_ENV: "production", DATA_DIR: dir });
    await resolveMfaKey(embedded, recorder().log);
    expect((await stat(path.join(dir, MFA_KEY_FILE))).mode & 0o777).toBe(0o600);
  });
});
