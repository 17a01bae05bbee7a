import { listAuditEvents, recordAudit, verifyAuditChain } from "../src/server/features/audit-trail/audit-trail.service";
import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { insertFirm, insertUser } from "../src/server/seed/factories";
import { auditEventsQuerySchema } from "../src/shared/reports";
import { makeTempDir } from "../tests/temp-dir";

/*
 * The audit trail of a busy firm (docs/design/audit-trail-and-settings.md): how long verification takes and how much memory
 * it holds, and what a page of the list costs under each filter, deep in the trail included.
 * Run: npx tsx bench/audit-trail.bench.ts (AUDIT_EVENTS=1000000 for a million; appending them
 * through recordAudit, as the app does, takes a while).
 */
const EVENTS = Number(process.env.AUDIT_EVENTS ?? 100_000);
const ROUNDS = 20;

const embedded = await startEmbeddedPostgres({ dataDir: makeTempDir() });
try {
  await migrateDatabase(embedded.url);
  const database = connectDatabase({ url: embedded.url, poolSize: 2 });
  const { db } = database;
  const firm = await insertFirm(db, { name: "Busy Trail", timeZone: "America/New_York" });
  const people = [await insertUser(db, { firmId: firm.id, role: "admin" }), await insertUser(db, { firmId: firm.id })];
  // A small firm beside it, so the big firm's rows are not the whole table.
  await insertFirm(db, { name: "Quiet Trail" });

  const started = Date.now();
  const entityIds = Array.from({ length: 500 }, () => crypto.randomUUID());
  for (let done = 0; done < EVENTS; ) {
    const batch = Math.min(2_000, EVENTS - done);
    await db.transaction(async (tx) => {
      for (let n = 0; n < batch; n++) {
        const index = done + n;
        await recordAudit(
          tx,
          {
            firmId: firm.id,
            userId: index % 3 === 0 ? null : (people[index % 2]?.id ?? null),
            ip: "203.0.113.10",
            userAgent: "Bench/1.0",
          },
          index % 4 === 0
            ? {
                action: "client.updated",
                entityType: "client",
                entityId: entityIds[index % entityIds.length] ?? "",
                before: { name: `Client ${index}` },
                after: { name: `Client ${index}b`, phone: undefined },
              }
            : {
                action: "task.created",
                entityType: "task",
                entityId: crypto.randomUUID(),
                after: { name: `Task ${index}`, dueDate: null },
              },
        );
      }
    });
    done += batch;
  }
  console.log(`${EVENTS.toLocaleString("en-US")} events appended in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await database.pool.query("vacuum analyze audit_events");

  // Verification: time, and the heap it holds at most while walking (sampled as it goes).
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 5);
  const verifyStart = performance.now();
  const verification = await verifyAuditChain(db, firm.id);
  const verifyMs = performance.now() - verifyStart;
  clearInterval(sampler);
  console.log(
    `verify: ${JSON.stringify(verification)} in ${(verifyMs / 1000).toFixed(2)} s ` +
      `(${((verifyMs * 1000) / EVENTS).toFixed(1)} µs per event), heap at most ` +
      `${((heapPeak - heapBefore) / 1024 / 1024).toFixed(1)} MB above the start`,
  );

  const actor = {
    sessionId: "",
    userId: people[0]?.id ?? "",
    firmId: firm.id,
    role: "admin" as const,
    username: "",
    ip: null,
    userAgent: null,
  };
  const deep = Math.floor(EVENTS / 2);
  const cursor = Buffer.from(JSON.stringify(["a", deep])).toString("base64url");
  const cases: Record<string, Record<string, string>> = {
    "newest page": {},
    "entity=client": { entity: "client" },
    "entityId (one client)": { entityId: entityIds[8] ?? "" },
    userId: { userId: people[1]?.id ?? "" },
    "from/to (today)": { from: today(), to: today() },
    [`cursor at seq ${deep.toLocaleString("en-US")}`]: { cursor },
    [`entity=task, cursor at seq ${deep.toLocaleString("en-US")}`]: { entity: "task", cursor },
  };
  for (const [what, raw] of Object.entries(cases)) {
    const query = auditEventsQuerySchema.parse(raw);
    const times: number[] = [];
    let rows = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      rows = (await listAuditEvents({ db, actor, query })).events.length;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(ROUNDS / 2)] ?? 0;
    const p95 = times[Math.floor(ROUNDS * 0.95)] ?? 0;
    console.log(`list ${what}: ${rows} rows, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  }
  await database.close();
} finally {
  await embedded.stop();
}

function today(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
}
