import { eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../tests/test-app";
import { connectDatabase } from "../platform/db/database";
import { recurringSchedules, tasks } from "../platform/db/schema";
import { insertClient, insertFirm, insertTaskTemplate, insertUser } from "../seed/factories";
import { startScheduler } from "./scheduler";

type LogLine = { level: number; msg: string; [key: string]: unknown };

/** A real pino logger that keeps its lines, to see what the job reports. */
function recordingLogger() {
  const lines: LogLine[] = [];
  const log = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { log, lines };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the scheduler");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the scheduler job", () => {
  const ctx = useTestApp();
  const db = () => ctx.database.db;

  /** A monthly schedule that began 40 days ago and has no task yet, as after downtime. */
  async function scheduleNeedingWork(): Promise<string> {
    const firm = await insertFirm(db());
    const user = await insertUser(db(), { firmId: firm.id, role: "super_admin" });
    const client = await insertClient(db(), { firmId: firm.id });
    const template = await insertTaskTemplate(db(), { firmId: firm.id, createdBy: user.id, frequency: "monthly" });
    const [row] = await db()
      .insert(recurringSchedules)
      .values({
        firmId: firm.id,
        clientId: client.id,
        templateId: template.id,
        frequency: "monthly",
        startsAt: new Date(Date.now() - 40 * 86_400_000),
      })
      .returning({ id: recurringSchedules.id });
    if (row === undefined) throw new Error("no schedule");
    return row.id;
  }

  const taskCount = async (scheduleId: string) =>
    (await db().select({ id: tasks.id }).from(tasks).where(eq(tasks.scheduleId, scheduleId))).length;

  it("runs at start and then every interval, logging at info what a run created", async () => {
    const first = await scheduleNeedingWork();
    const { log, lines } = recordingLogger();
    const stop = startScheduler({ db: db(), log, intervalMs: 25 });
    try {
      await until(async () => (await taskCount(first)) >= 2);
      await until(() => lines.some((line) => line.msg === "scheduler: created recurring tasks"));
      const second = await scheduleNeedingWork();
      await until(async () => (await taskCount(second)) >= 2);
    } finally {
      await stop();
    }
    const created = lines.filter((line) => line.msg === "scheduler: created recurring tasks");
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(created[0]).toMatchObject({ level: 30, ran: true, schedules: 1 });
    // The runs in between created nothing and said nothing above debug.
    expect(lines.filter((line) => line.level >= 30)).toEqual(created);
  });

  it("warns when a run fails and keeps going; stop waits for the run in progress", async () => {
    const url = ctx.database.pool.options.connectionString;
    if (url === undefined) throw new Error("the test pool has no connection string");
    const closed = connectDatabase({ url, poolSize: 1 });
    await closed.close();
    const { log, lines } = recordingLogger();
    const stop = startScheduler({ db: closed.db, log, intervalMs: 20 });
    await until(() => lines.filter((line) => line.msg === "scheduler failed; retrying next round").length >= 2);
    await stop();
    expect(lines.find((line) => line.level === 40)).toMatchObject({
      err: expect.objectContaining({ message: expect.any(String) }),
    });
  });
});
