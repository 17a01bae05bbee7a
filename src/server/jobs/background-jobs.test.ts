import { eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../tests/test-app";
import { CLIENT_IMPORT_JOB, CLIENT_IMPORT_UNDO_JOB } from "../features/client-import/client-import.service";
import { connectDatabase } from "../platform/db/database";
import { recurringSchedules, tasks } from "../platform/db/schema";
import { newSealingKey } from "../platform/sealed-secrets";
import { insertClient, insertFirm, insertTaskTemplate, insertUser } from "../seed/factories";
import { backgroundJobs, DELIVER_MAIL, HOUSEKEEPING, MORNING_MAIL, RECURRING_WORK } from "./background-jobs";

type LogLine = { level: number; msg: string; [key: string]: unknown };

/** A real pino logger that keeps its lines, to see what the job reports. */
function recordingLogger() {
  const lines: LogLine[] = [];
  const log = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { log, lines };
}

describe("the background jobs", () => {
  const ctx = useTestApp();
  const db = () => ctx.database.db;

  /**
   * The moment the runs below work at: mid-month, so that 40 days back is the month before (from
   * the 1st to about the 9th of a month it would be two months back, and there would be three).
   */
  const now = new Date("2026-03-20T12:00:00Z");

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
        startsAt: new Date(now.getTime() - 40 * 86_400_000),
      })
      .returning({ id: recurringSchedules.id });
    if (row === undefined) throw new Error("no schedule");
    return row.id;
  }

  const taskCount = async (scheduleId: string) =>
    (await db().select({ id: tasks.id }).from(tasks).where(eq(tasks.scheduleId, scheduleId))).length;

  const kindsFor = (database: ReturnType<typeof connectDatabase>["db"], log: pino.Logger) =>
    backgroundJobs({
      db: database,
      config: ctx.config,
      log,
      mail: undefined,
      key: newSealingKey().key,
      clock: () => now,
    });
  const recurringWork = (database: ReturnType<typeof connectDatabase>["db"], log: pino.Logger) => {
    const kind = kindsFor(database, log).find((candidate) => candidate.name === RECURRING_WORK);
    if (kind === undefined) throw new Error("no recurring-work kind");
    return kind;
  };

  it("S-JOB-06 recurring work: a run makes every period's task begun, logs at info what it made, and a repeated run makes nothing", async () => {
    const first = await scheduleNeedingWork();
    const { log, lines } = recordingLogger();
    const kind = recurringWork(db(), log);
    await kind.run({});
    expect(await taskCount(first)).toBe(2);
    const created = lines.filter((line) => line.msg === "scheduler: created recurring tasks");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ level: 30, ran: true, schedules: 1 });
    // A crash after the work but before the job was marked done runs it again: nothing twice.
    await kind.run({});
    expect(await taskCount(first)).toBe(2);
    expect(lines.filter((line) => line.level >= 30)).toEqual(created);
  });

  it("S-JOB-06 recurring work, mail delivery, the morning reminders and housekeeping recur for the whole installation; an import's commit and undo run when queued", () => {
    const { log } = recordingLogger();
    expect(kindsFor(db(), log).map(({ name, cron, policy }) => ({ name, cron, policy }))).toEqual([
      { name: RECURRING_WORK, cron: "*/5 * * * *", policy: "stately" },
      { name: DELIVER_MAIL, cron: "* * * * *", policy: "stately" },
      { name: MORNING_MAIL, cron: "*/15 * * * *", policy: "stately" },
      { name: CLIENT_IMPORT_JOB, cron: undefined, policy: "standard" },
      { name: CLIENT_IMPORT_UNDO_JOB, cron: undefined, policy: "standard" },
      { name: HOUSEKEEPING, cron: "*/15 * * * *", policy: "stately" },
    ]);
  });

  it("a run that fails rejects, so that the queue tries it again", async () => {
    const url = ctx.database.pool.options.connectionString;
    if (url === undefined) throw new Error("the test pool has no connection string");
    const closed = connectDatabase({ url, poolSize: 1 });
    await closed.close();
    const { log } = recordingLogger();
    await expect(recurringWork(closed.db, log).run({})).rejects.toThrow();
  });
});
