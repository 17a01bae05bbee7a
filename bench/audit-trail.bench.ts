import { eq } from "drizzle-orm";
import {
  hashAuditEvent,
  listAuditEvents,
  type StoredFields,
  verifyAuditChain,
  verifyAuditSlice,
} from "../src/server/features/audit-trail/audit-trail.service";
import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { auditEvents, firms } from "../src/server/platform/db/schema";
import { insertFirm, insertUser } from "../src/server/seed/factories";
import { auditEventsQuerySchema, auditVerifySliceMax } from "../src/shared/reports";
import { makeTempDir } from "../tests/temp-dir";

/*
 * The audit trail of a busy firm (docs/design/audit-trail-and-settings.md): how long verification takes and how much memory
 * it holds (the first check, which walks the whole chain; the quick check from the checkpoint it
 * leaves, with nothing new and with a day's worth of new events; the full re-verification in
 * slices), and what a page of the list costs under each filter, deep in the trail included.
 * Run: npx tsx bench/audit-trail.bench.ts (AUDIT_EVENTS=1000000 for a million).
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
  /*
   * Appends `count` events numbered on from `offset`, exactly as recordAudit would chain and hash
   * them (hashAuditEvent, each linked to the previous hash), but 1,000 rows an INSERT and the head
   * set once at the end: recordAudit's four round trips an event took 14 ms each on this busy
   * machine, over an hour for 300,000. Verification reads the rows the same whichever wrote them.
   */
  let tail: { seq: number; hash: string | null; createdAt: number } = { seq: 0, hash: null, createdAt: 0 };
  async function append(offset: number, count: number) {
    for (let done = 0; done < count; ) {
      const batch = Math.min(1_000, count - done);
      const rows: (StoredFields & { hash: string })[] = [];
      for (let n = 0; n < batch; n++) {
        const index = offset + done + n;
        const update = index % 4 === 0;
        const fields: StoredFields = {
          firmId: firm.id,
          seq: tail.seq + 1,
          actorUserId: index % 3 === 0 ? null : (people[index % 2]?.id ?? null),
          action: update ? "client.updated" : "task.created",
          entityType: update ? "client" : "task",
          entityId: update ? (entityIds[index % entityIds.length] ?? null) : crypto.randomUUID(),
          before: update ? { name: `Client ${index}` } : null,
          after: update ? { name: `Client ${index}b` } : { name: `Task ${index}`, dueDate: null },
          ip: "203.0.113.10",
          userAgent: "Bench/1.0",
          createdAt: new Date(Math.max(Date.now(), tail.createdAt)),
          prevHash: tail.hash,
        };
        const hash = hashAuditEvent(fields);
        rows.push({ ...fields, hash });
        tail = { seq: fields.seq, hash, createdAt: fields.createdAt.getTime() };
      }
      await db.insert(auditEvents).values(rows);
      done += batch;
    }
    await db.update(firms).set({ auditHeadSeq: tail.seq, auditHeadHash: tail.hash }).where(eq(firms.id, firm.id));
  }
  await append(0, EVENTS);
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
    `first check (the whole chain, then the checkpoint): ${JSON.stringify(verification)} in ${(verifyMs / 1000).toFixed(2)} s ` +
      `(${((verifyMs * 1000) / EVENTS).toFixed(1)} µs per event), heap at most ` +
      `${((heapPeak - heapBefore) / 1024 / 1024).toFixed(1)} MB above the start`,
  );

  // The quick check from the checkpoint: nothing new, then after each of a few bursts of new events.
  const quick = async (what: string) => {
    const times: number[] = [];
    let answer = verification;
    for (let round = 0; round < ROUNDS; round++) {
      const start = performance.now();
      answer = await verifyAuditChain(db, firm.id);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `quick check, ${what}: intact ${answer.intact}, events ${answer.events}, from ${answer.from}; ` +
        `p50 ${(times[Math.floor(ROUNDS / 2)] ?? 0).toFixed(1)} ms, p95 ${(times[Math.floor(ROUNDS * 0.95)] ?? 0).toFixed(1)} ms`,
    );
  };
  await quick("nothing new");
  for (const burst of [1_000, 10_000]) {
    await append(tail.seq, burst);
    const start = performance.now();
    const answer = await verifyAuditChain(db, firm.id);
    console.log(
      `quick check after ${burst.toLocaleString("en-US")} new events: events ${answer.events}, from ${answer.from}, ` +
        `${(performance.now() - start).toFixed(1)} ms`,
    );
  }

  // The full re-verification, slice by slice as the screen drives it.
  const fullStart = performance.now();
  let slowestSlice = 0;
  let slices = 0;
  let last = verification;
  for (let after = 0; ; ) {
    const start = performance.now();
    last = await verifyAuditSlice(db, firm.id, after, auditVerifySliceMax);
    slowestSlice = Math.max(slowestSlice, performance.now() - start);
    slices += 1;
    if (!last.intact || last.next === null) break;
    after = last.next;
  }
  console.log(
    `full re-verification: intact ${last.intact}, events ${last.events}, ${slices} slices of ` +
      `${auditVerifySliceMax.toLocaleString("en-US")} in ${((performance.now() - fullStart) / 1000).toFixed(2)} s, ` +
      `the slowest ${slowestSlice.toFixed(0)} ms`,
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
