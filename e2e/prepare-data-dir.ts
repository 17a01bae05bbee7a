import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { projectPaths } from "../src/server/platform/paths";
import { seedDemoData } from "../src/server/seed/demo-seed";
import { seedLargeFirm } from "../src/server/seed/large-firm";
import { largeFirm } from "./large-firm";

/*
 * Run by playwright.config.ts before an e2e server starts: gives it a data directory of its own,
 * copied from a seeded one that is built once and kept in the system's temporary folder, as the
 * Vitest suite clones its template database. Usage: tsx e2e/prepare-data-dir.ts <kind> <directory>
 *   demo   the demo firm (the app and card-mode servers);
 *   large  the demo firm and beside it a firm of 10,000 clients and 100,000 tasks, for the tests
 *          tagged @large-firm (the client grid and the task lists stay smooth, their DOM small).
 * A seeded directory is keyed by what writes it (the migrations, the seed's sources, this file) and
 * by today's date, since the demo firm's work is dated from today; a new key builds it anew.
 */
const [kind, dataDir] = process.argv.slice(2);
if ((kind !== "demo" && kind !== "large") || !dataDir) {
  throw new Error("usage: tsx e2e/prepare-data-dir.ts <demo|large> <data directory>");
}

const cacheRoot = path.join(os.tmpdir(), "tendwell-e2e-seeds");
const seeded = path.join(cacheRoot, `${kind}-${seedKey()}`);
if (!fs.existsSync(seeded)) await buildSeeded(kind, seeded);
fs.rmSync(dataDir, { recursive: true, force: true });
// `cp -a` keeps the owner: run by root, the cluster belongs to the account PostgreSQL runs as.
const copied = spawnSync("cp", ["-a", seeded, dataDir], { encoding: "utf8" });
if (copied.status !== 0) throw new Error(`copying ${seeded} to ${dataDir}: ${copied.stderr}`);

function seedKey(): string {
  const hash = createHash("sha256");
  const sources = [projectPaths.migrations, path.join(projectPaths.root, "src", "server", "seed")];
  const files = sources.flatMap((folder) =>
    fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).map((name) => path.join(folder, name)),
  );
  files.push(path.join(import.meta.dirname, "prepare-data-dir.ts"), path.join(import.meta.dirname, "large-firm.ts"));
  for (const file of files.filter((name) => fs.statSync(name).isFile()).sort()) {
    hash.update(`${path.relative(projectPaths.root, file)}\0`).update(fs.readFileSync(file));
  }
  hash.update(new Date().toISOString().slice(0, 10));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Writes the seeded directory beside its final place and renames it there, so a server started at
 * the same time (the app's and the card-mode's) never copies half of one; older keys of the kind go.
 */
async function buildSeeded(seedKind: "demo" | "large", target: string): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(cacheRoot, { recursive: true });
  const key = path.basename(target);
  for (const name of fs.readdirSync(cacheRoot)) {
    const stale = name.startsWith(`${seedKind}-`) && !name.startsWith(key);
    if (stale) fs.rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
  }
  const building = `${target}.building-${process.pid}`;
  // Written once and copied: durability buys nothing here and costs seconds.
  const embedded = await startEmbeddedPostgres({
    dataDir: building,
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_wal_size: "4GB" },
  });
  try {
    await migrateDatabase(embedded.url);
    const database = connectDatabase({ url: embedded.url, poolSize: 2 });
    try {
      await seedDemoData(database.db);
      if (seedKind === "large") await seedLargeFirm(database, largeFirm.size, largeFirm.logins);
      await database.pool.query("vacuum analyze");
    } finally {
      await database.close();
    }
  } finally {
    await embedded.stop();
  }
  try {
    fs.renameSync(building, target);
  } catch {
    // Another server's preparation got there first: theirs is the same.
    fs.rmSync(building, { recursive: true, force: true });
  }
  // On stderr, which Playwright shows (it drops a web server's stdout), so CI's log has the time.
  console.error(`e2e: the ${seedKind} data directory seeded in ${Math.round((Date.now() - started) / 1000)} s`);
}
