import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../tests/temp-dir";
import { embeddedDataDir, ROOT_DATA_HOME } from "./data-dir";

/*
 * Where the embedded database is kept when root starts the app. The whole start from a private
 * folder, twice, is in tests/app-process.test.ts; these are the cases around it.
 */
const open = makeTempDir();
const closed = makeTempDir();
fs.chmodSync(closed, 0o700);
const moved: string[] = [];

afterAll(() => {
  for (const dir of [open, closed, ...moved]) fs.rmSync(dir, { recursive: true, force: true });
});

const defaultIn = (folder: string) => ({ dataDir: path.join(folder, "data"), dataDirFromEnv: false });

describe.skipIf(process.getuid?.() !== 0)("embeddedDataDir, run by root", () => {
  it("S-RUN-04 keeps DATA_DIR when it is set, even in a folder PostgreSQL's account cannot reach", () => {
    const configured = { dataDir: path.join(closed, "mine"), dataDirFromEnv: true };
    expect(embeddedDataDir(configured)).toBe(configured.dataDir);
  });

  it("S-RUN-04 keeps the default `data` when PostgreSQL's account can reach it", () => {
    expect(embeddedDataDir(defaultIn(open))).toBe(path.join(open, "data"));
  });

  it("S-RUN-04 keeps a default that already holds a cluster: its start says what to set, nothing is left behind", () => {
    const checkout = path.join(closed, "with-cluster");
    fs.mkdirSync(path.join(checkout, "data", "postgres"), { recursive: true });
    fs.writeFileSync(path.join(checkout, "data", "postgres", "PG_VERSION"), "17\n");
    expect(embeddedDataDir(defaultIn(checkout))).toBe(path.join(checkout, "data"));
  });

  it("S-RUN-04 moves a default that cannot be reached to a folder of the checkout's own, the same at every start", () => {
    const said: string[] = [];
    const checkout = path.join(closed, "tendwell");
    const chosen = embeddedDataDir(defaultIn(checkout), (line) => said.push(line));
    moved.push(chosen);
    expect(path.dirname(chosen)).toBe(ROOT_DATA_HOME);
    expect(path.basename(chosen)).toMatch(/^tendwell-[0-9a-f]{8}$/);
    expect(fs.statSync(chosen).isDirectory()).toBe(true);
    expect(said).toEqual([
      `DATA_DIR is not set and ${path.join(checkout, "data")} is closed to the OS user "tendwell" that runs the ` +
        `embedded PostgreSQL (a folder above it is private): the data is kept in ${chosen}`,
    ]);
    expect(embeddedDataDir(defaultIn(checkout))).toBe(chosen);
    // Another checkout of the same name elsewhere gets a folder of its own.
    const other = embeddedDataDir(defaultIn(path.join(closed, "elsewhere", "tendwell")));
    moved.push(other);
    expect(other).not.toBe(chosen);
    expect(path.basename(other)).toMatch(/^tendwell-[0-9a-f]{8}$/);
  });
});
