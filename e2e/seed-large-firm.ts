import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { seedDemoData } from "../src/server/seed/demo-seed";
import { seedLargeFirm } from "../src/server/seed/large-firm";
import { largeFirm } from "./large-firm";

/*
 * Run by playwright.config.ts before the e2e server starts on the same data directory: the demo
 * firm, and beside it a firm of 10,000 clients and 100,000 tasks for the large-firm tests
 * (issue 8: the client grid and the task lists stay smooth, their DOM under 1,500 elements).
 * Usage: tsx e2e/seed-large-firm.ts <data directory>
 * E2E_SKIP_LARGE_FIRM=1 writes only the demo firm, for a quick local run of specs that do not need it.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: tsx e2e/seed-large-firm.ts <data directory>");
const started = Date.now();
// Written once, then served by the app's own start of the server (with the usual settings): a
// crash here means a new run anyway, so the writing need not wait for the disk.
const embedded = await startEmbeddedPostgres({
  dataDir,
  settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_wal_size: "4GB" },
});
try {
  await migrateDatabase(embedded.url);
  const database = connectDatabase({ url: embedded.url, poolSize: 2 });
  try {
    await seedDemoData(database.db);
    if (process.env.E2E_SKIP_LARGE_FIRM !== "1") await seedLargeFirm(database, largeFirm.size, largeFirm.logins);
    await database.pool.query("vacuum analyze");
  } finally {
    await database.close();
  }
} finally {
  await embedded.stop();
}
// On stderr, which Playwright shows (it drops a web server's stdout), so CI's log has the time.
console.error(`e2e: demo firm and large firm seeded in ${Math.round((Date.now() - started) / 1000)} s`);
