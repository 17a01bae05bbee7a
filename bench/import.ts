import { eq } from "drizzle-orm";
import pino from "pino";
import { buildApp } from "../src/server/app";
import { clientImportJob } from "../src/server/features/client-import/client-import.job";
import { clientImportUndoJob } from "../src/server/features/client-import/client-import-undo.job";
import { loadConfig } from "../src/server/platform/config";
import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { embeddedRoleUrls } from "../src/server/platform/db/roles";
import { clients, firms } from "../src/server/platform/db/schema";
import { startJobQueue } from "../src/server/platform/jobs/job-queue";
import { newSealingKey } from "../src/server/platform/sealed-secrets";
import { insertFirm, insertUser } from "../src/server/seed/factories";
import { prepareDatabase } from "../src/server/seed/prepare-database";
import { makeTempDir } from "../tests/temp-dir";

/*
 * How long a 10,000-row client import takes (decisions 0051, 0056): the upload and its preview,
 * the commit by the background job until done, and the undo by its job until done. The firm already has 2,000 clients, and
 * a tenth of the file's rows are duplicates of them, updated. One embedded PostgreSQL, the app
 * in-process as the app's own role (row-level security and all), the real job queue.
 * Run: npx tsx bench/import.ts (ROWS=… for another size; DUPLICATE_EVERY=1 makes every row a
 * duplicate of a client the firm has, updated, and the firm as large as the file).
 */
const ROWS = Number(process.env.ROWS ?? 10_000);
const DUPLICATE_EVERY = Number(process.env.DUPLICATE_EVERY ?? 10);
const EXISTING = Math.max(2_000, Math.ceil(ROWS / DUPLICATE_EVERY));

const dataDir = makeTempDir();
const embedded = await startEmbeddedPostgres({ dataDir });
const log = pino({ level: "silent" });
try {
  const roles = await embeddedRoleUrls(embedded.url);
  await prepareDatabase({ ownerUrl: roles.owner, appUrl: roles.app, seedDemoData: false, log });
  const owner = connectDatabase({ url: embedded.url, poolSize: 2 });
  const firm = await insertFirm(owner.db, { name: "Import Bench" });
  await owner.db.update(firms).set({ plan: "enterprise" }).where(eq(firms.id, firm.id));
  const admin = await insertUser(owner.db, { firmId: firm.id, role: "admin" });
  for (let first = 0; first < EXISTING; first += 1_000) {
    const names = Array.from({ length: Math.min(1_000, EXISTING - first) }, (_, index) => first + index);
    await owner.db
      .insert(clients)
      .values(names.map((index) => ({ firmId: firm.id, name: `Existing Client ${index}` })));
  }
  const database = connectDatabase({ url: roles.app, poolSize: 10 });
  const jobs = await startJobQueue({
    url: roles.app,
    log,
    kinds: [clientImportJob({ db: database.db, log }), clientImportUndoJob({ db: database.db, log })],
  });
  const config = loadConfig({
    DATABASE_URL: roles.app,
    MFA_ENCRYPTION_KEY: newSealingKey().text,
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "1000000",
  });
  const app = await buildApp({ config, database, jobs, logger: log });
  const headers = { origin: "http://localhost:80", "sec-fetch-site": "same-origin" };
  const login = await app.inject({
    method: "POST",
    url: "/api/auth/login",
    headers,
    payload: { username: admin.username, password: admin.password },
  });
  const cookie = login.headers["set-cookie"]?.toString().split(";")[0] ?? "";
  const lines = ["Company,Email,Phone,Status,Contact name,Contact email"];
  for (let index = 0; index < ROWS; index++) {
    const name =
      index % DUPLICATE_EVERY === 0 ? `Existing Client ${index / DUPLICATE_EVERY}` : `Imported Client ${index}`;
    lines.push(
      `"${name}",client${index}@example.com,+44 20 7946 ${String(index).padStart(4, "0")},active,Contact ${index},contact${index}@example.com`,
    );
  }
  const file = Buffer.from(`${lines.join("\r\n")}\r\n`);

  let started = performance.now();
  const uploaded = await app.inject({
    method: "POST",
    url: "/api/client-imports?fileName=bench.csv",
    headers: { ...headers, cookie, "content-type": "text/csv" },
    payload: file,
  });
  const preview = performance.now() - started;
  if (uploaded.statusCode !== 201) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`);
  const id = (uploaded.json() as { import: { id: string } }).import.id;

  started = performance.now();
  const commit = await app.inject({
    method: "POST",
    url: `/api/client-imports/${id}/commit`,
    headers: { ...headers, cookie },
    payload: { duplicates: "update" },
  });
  const commitAnswer = performance.now() - started;
  if (commit.statusCode !== 202) throw new Error(`commit: ${commit.statusCode} ${commit.body}`);
  let state: { status: string; progress: number; counts: object };
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = (await app.inject({ method: "GET", url: `/api/client-imports/${id}`, headers: { cookie } })).json();
  } while (state.status === "queued" || state.status === "running");
  const committed = performance.now() - started;

  started = performance.now();
  const undo = await app.inject({
    method: "POST",
    url: `/api/client-imports/${id}/undo`,
    headers: { ...headers, cookie },
  });
  const undoAnswer = performance.now() - started;
  if (undo.statusCode !== 202) throw new Error(`undo: ${undo.statusCode} ${undo.body}`);
  let undoing: { status: string; undo: object };
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    undoing = (await app.inject({ method: "GET", url: `/api/client-imports/${id}`, headers: { cookie } })).json();
  } while (undoing.status === "undoing");
  const undone = performance.now() - started;

  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `${ROWS} rows (${(file.length / 1024 / 1024).toFixed(2)} MB), firm of ${EXISTING} clients, Node ${process.versions.node}`,
  );
  console.log(`upload and preview:  ${seconds(preview)}`);
  console.log(`commit answered:     ${seconds(commitAnswer)}`);
  console.log(`commit until done:   ${seconds(committed)} (${state.status}, ${JSON.stringify(state.counts)})`);
  console.log(`undo answered:       ${seconds(undoAnswer)}`);
  console.log(`undo until done:     ${seconds(undone)} (${undoing.status}, ${JSON.stringify(undoing.undo)})`);
  await app.close();
  await jobs.stop(5_000);
  await database.close();
  await owner.close();
} finally {
  await embedded.stop();
}
