import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents, clients, firms, recurringSchedules, taskDueDateChanges, tasks } from "../../platform/db/schema";
import { insertClient, insertTask, insertTaskTemplate } from "../../seed/factories";
import { createRandom } from "../../seed/random";
import { drawSignature } from "../../seed/signature-image";
import { createSchedule, materializeSchedules } from "../schedules/schedules.service";

/*
 * Tasks that follow a statutory due-date rule (decision 0053): the scheduler makes each period's
 * task the day after the period ends, with its dates and their reasons, and logs each date; the
 * task's dates are read and an extension filed through the API.
 */
describe("tasks that follow a statutory rule", () => {
  const ctx = useTestApp();
  const db = () => ctx.database.db;
  let world: SeededFirm;
  let other: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(db(), "Statutory Firm");
    other = await seedFirm(db(), "Other Firm");
    await db().update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, world.firm.id));
  });

  /** A US client of the firm with a template following `ruleId`, assigned at `now`. */
  async function assigned(ruleId: string, now: string, clientValues: Partial<typeof clients.$inferInsert> = {}) {
    const client = await insertClient(db(), { firmId: world.firm.id, jurisdiction: "US", ...clientValues });
    const template = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.super_admin.id,
      name: `Return under ${ruleId}`,
      frequency: "annually",
      dueDateRule: ruleId,
    });
    const { scheduleId } = await createSchedule(db(), {
      firmId: world.firm.id,
      clientId: client.id,
      templateId: template.id,
      frequency: "annually",
      createdBy: null,
      now: new Date(now),
    });
    return { clientId: client.id, templateId: template.id, scheduleId };
  }

  const tasksOf = (scheduleId: string) =>
    db().select().from(tasks).where(eq(tasks.scheduleId, scheduleId)).orderBy(asc(tasks.periodEnd));
  const logOf = (taskId: string) =>
    db()
      .select()
      .from(taskDueDateChanges)
      .where(eq(taskDueDateChanges.taskId, taskId))
      .orderBy(asc(taskDueDateChanges.changedAt), asc(taskDueDateChanges.field));

  it("S-DUE-20 a period's task is made the day after it ends in the firm's time zone, due at the end of its due day there, with its dates and reasons, each date logged once", async () => {
    // Assigned on 10 February 2027: the 2026 return is still due (15 April), so it is made at once.
    const { scheduleId } = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [first] = await tasksOf(scheduleId);
    expect(first).toMatchObject({
      dueDateRule: "us-1040",
      periodStart: "2026-01-01",
      periodEnd: "2026-12-31",
      statutoryDueOn: "2027-04-15",
      dueOn: "2027-04-15",
      clearByOn: null,
      extendedDueOn: null,
      dueDate: new Date("2027-04-16T03:59:59.999Z"),
      status: "pending",
      createdBy: null,
    });
    expect(first?.dueDatesVersion).toMatch(/^rules \S+, us-irs \S+$/);
    const app = ctx.appDatabase.db;
    // 31 December 2027, 11 pm in New York: the year has not ended there yet.
    expect((await materializeSchedules(app, { now: new Date("2028-01-01T04:00:00Z") })).tasksCreated).toBe(0);
    // Midnight in New York: the 2027 return's task, due on Tuesday 18 April 2028.
    expect((await materializeSchedules(app, { now: new Date("2028-01-01T05:00:00Z") })).tasksCreated).toBe(1);
    expect((await materializeSchedules(app, { now: new Date("2028-01-02T05:00:00Z") })).tasksCreated).toBe(0);
    const made = await tasksOf(scheduleId);
    expect(made.map((task) => [task.periodEnd, task.statutoryDueOn, task.dueOn])).toEqual([
      ["2026-12-31", "2027-04-15", "2027-04-15"],
      ["2027-12-31", "2028-04-15", "2028-04-18"],
    ]);
    const second = made[1];
    if (!second) throw new Error("no second task");
    expect(second.dueDate).toEqual(new Date("2028-04-19T03:59:59.999Z"));
    expect(second.dueExplanation).toEqual(
      expect.arrayContaining(["15 Apr 2028 is a Saturday", "16 Apr 2028 is a Sunday", "due Tue 18 Apr 2028"]),
    );
    const [schedule] = await db().select().from(recurringSchedules).where(eq(recurringSchedules.id, scheduleId));
    expect(schedule).toMatchObject({
      rulePeriodEnd: "2027-12-31",
      // Next: the day after 2028 ends, in New York.
      materializedUntil: new Date("2029-01-01T05:00:00Z"),
    });
    for (const task of made) {
      const log = await logOf(task.id);
      expect(
        log.map(({ field, fromOn, toOn, reason, ruleId, changedBy }) => ({
          field,
          fromOn,
          toOn,
          reason,
          ruleId,
          changedBy,
        })),
      ).toEqual([
        { field: "due", fromOn: null, toOn: task.dueOn, reason: "RULE", ruleId: "us-1040", changedBy: null },
        {
          field: "statutory",
          fromOn: null,
          toOn: task.statutoryDueOn,
          reason: "RULE",
          ruleId: "us-1040",
          changedBy: null,
        },
      ]);
    }
  });

  it("S-DUE-20 a schedule assigned after the latest deadline passed makes nothing until the next period ends", async () => {
    const { scheduleId } = await assigned("us-1040", "2026-11-29T15:00:00Z");
    expect(await tasksOf(scheduleId)).toEqual([]);
    const [schedule] = await db().select().from(recurringSchedules).where(eq(recurringSchedules.id, scheduleId));
    expect(schedule).toMatchObject({
      rulePeriodEnd: "2025-12-31",
      materializedUntil: new Date("2027-01-01T05:00:00Z"),
    });
  });

  it("S-DUE-20 a client's new year end and a template's new rule are picked up at the scheduler's next run", async () => {
    // Assigned (in the past, so the scheduler's real "now" is later) after the 2025 return was due.
    const { scheduleId, clientId, templateId } = await assigned("us-1120", "2026-11-01T15:00:00Z", {
      fiscalYearEnd: "12-31",
    });
    expect(await tasksOf(scheduleId)).toEqual([]);
    const superAdmin = await signIn(ctx.app, world.users.super_admin);
    const changed = await superAdmin.patch(`/api/clients/${clientId}`, { fiscalYearEnd: "06-30" });
    expect(changed.status, changed.text).toBe(200);
    const scheduleOf = async () => {
      const [row] = await db().select().from(recurringSchedules).where(eq(recurringSchedules.id, scheduleId));
      if (!row) throw new Error("no schedule");
      return row;
    };
    expect((await scheduleOf()).materializedUntil?.getTime()).toBeLessThanOrEqual(Date.now());
    await materializeSchedules(ctx.appDatabase.db, { now: new Date() });
    // The year that ended on 31 December 2025 is followed by a short one to 30 June 2026.
    const [short] = await tasksOf(scheduleId);
    expect(short).toMatchObject({ periodStart: "2026-01-01", periodEnd: "2026-06-30", statutoryDueOn: "2026-10-15" });

    const template = await superAdmin.get("/api/task-templates");
    const current = template.body.find((each: { id: string }) => each.id === templateId);
    const cleared = await superAdmin.put(`/api/task-templates/${templateId}`, {
      name: current.name,
      description: current.description,
      priority: current.priority,
      frequency: "annually",
      dueDateRule: null,
    });
    expect(cleared.status, cleared.text).toBe(200);
    const afresh = await scheduleOf();
    expect(afresh.rulePeriodEnd).toBeNull();
    expect(afresh.materializedUntil?.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("S-DUE-21 GET /api/tasks/{id}/due-dates answers the rule, period, dates, explanation and log; a task without a rule answers rule null; another firm's task and an unassigned user's are 404", async () => {
    const { scheduleId, clientId } = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [task] = await tasksOf(scheduleId);
    if (!task) throw new Error("no task");
    const superAdmin = await signIn(ctx.app, world.users.super_admin);
    const answer = await superAdmin.get(`/api/tasks/${task.id}/due-dates`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      rule: { id: "us-1040", name: "Form 1040: U.S. individual income tax return" },
      period: { start: "2026-01-01", end: "2026-12-31" },
      statutoryDueOn: "2027-04-15",
      dueOn: "2027-04-15",
      clearByOn: null,
      extendedDueOn: null,
      extension: null,
      extensionBy: "Form 4868",
    });
    expect(answer.body.explanation.at(-1)).toBe("extended due Fri 15 Oct 2027");
    expect(answer.body.log).toEqual([
      expect.objectContaining({ field: "statutory", from: null, to: "2027-04-15", reason: "RULE", changedBy: null }),
      expect.objectContaining({ field: "due", from: null, to: "2027-04-15", reason: "RULE", changedBy: null }),
    ]);

    const ordinary = await insertTask(db(), { firmId: world.firm.id, clientId, createdBy: world.users.admin.id });
    expect((await superAdmin.get(`/api/tasks/${ordinary.id}/due-dates`)).body).toMatchObject({
      rule: null,
      explanation: [],
      log: [],
    });

    const outsider = await signIn(ctx.app, other.users.super_admin);
    const hidden = await outsider.get(`/api/tasks/${task.id}/due-dates`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ code: "NOT_FOUND", message: "Task not found" });
    // The `user` holds only the firm's first seeded client, not this one.
    const user = await signIn(ctx.app, world.users.user);
    expect((await user.get(`/api/tasks/${task.id}/due-dates`)).status).toBe(404);
    expect((await superAdmin.get("/api/tasks/not-a-uuid/due-dates")).status).toBe(404);
  });

  it("S-DUE-22 filing an extension moves the task to the extended date, keeps the original shown, logs and audits it once; a second filing, a rule without one and another firm are refused", async () => {
    const { scheduleId } = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [task] = await tasksOf(scheduleId);
    if (!task) throw new Error("no task");
    const admin = await signIn(ctx.app, world.users.admin);
    const outsider = await signIn(ctx.app, other.users.super_admin);
    expect((await outsider.post(`/api/tasks/${task.id}/extension`)).status).toBe(404);

    const filed = await admin.post(`/api/tasks/${task.id}/extension`);
    expect(filed.status).toBe(200);
    expect(filed.body).toMatchObject({
      dueOn: "2027-04-15",
      extendedDueOn: "2027-10-15",
      extension: { filedBy: { id: world.users.admin.id, fullName: world.users.admin.fullName } },
    });
    expect(filed.body.log.at(-1)).toMatchObject({
      field: "extended",
      from: null,
      to: "2027-10-15",
      reason: "EXTENSION",
      note: "Form 4868",
      changedBy: { id: world.users.admin.id },
    });
    const [after] = await db().select().from(tasks).where(eq(tasks.id, task.id));
    expect(after?.dueDate).toEqual(new Date("2027-10-16T03:59:59.999Z"));
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, task.id), eq(auditEvents.action, "task.extension_filed")));
    expect(events).toHaveLength(1);
    expect(events[0]?.after).toMatchObject({ extendedDueOn: "2027-10-15" });

    const again = await admin.post(`/api/tasks/${task.id}/extension`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("An extension is already filed for this task");
    expect(await logOf(task.id)).toHaveLength(3);

    // Form 941 has no extension of time to file.
    const quarterly = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.super_admin.id,
      frequency: "quarterly",
      dueDateRule: "us-941",
    });
    const payroll = await insertClient(db(), { firmId: world.firm.id });
    const { scheduleId: payrollSchedule } = await createSchedule(db(), {
      firmId: world.firm.id,
      clientId: payroll.id,
      templateId: quarterly.id,
      frequency: "quarterly",
      createdBy: null,
      now: new Date("2027-04-10T15:00:00Z"),
    });
    const [form941] = await tasksOf(payrollSchedule);
    if (!form941) throw new Error("no 941 task");
    const refused = await admin.post(`/api/tasks/${form941.id}/extension`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Form 941: employer's quarterly federal tax return has no extension of time to file",
    );
    expect(await logOf(form941.id)).toHaveLength(2);
  });

  it("S-DUE-22 an extension is refused on a task without a rule, a signed-off task and an archived client's, and nothing changes", async () => {
    const admin = await signIn(ctx.app, world.users.admin);
    const ordinary = await insertTask(db(), { firmId: world.firm.id, clientId: world.clients[1]?.id ?? "" });
    const noRule = await admin.post(`/api/tasks/${ordinary.id}/extension`);
    expect([noRule.status, noRule.body.message]).toEqual([
      409,
      "This task follows no statutory due-date rule, so it has no extension to file",
    ]);

    const { scheduleId } = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [signedOff] = await tasksOf(scheduleId);
    if (!signedOff) throw new Error("no task");
    const signing = await admin.patch(`/api/tasks/${signedOff.id}/complete`, {
      printedName: "Avery Admin",
      signature: drawSignature("Avery Admin", createRandom(3)).dataUrl,
    });
    expect(signing.status, signing.text).toBe(200);
    const completed = await admin.post(`/api/tasks/${signedOff.id}/extension`);
    expect([completed.status, completed.body.message]).toEqual([409, "This task is signed off and cannot be changed"]);

    const archived = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [archivedTask] = await tasksOf(archived.scheduleId);
    if (!archivedTask) throw new Error("no task");
    await db().update(clients).set({ archivedAt: new Date() }).where(eq(clients.id, archived.clientId));
    const refused = await admin.post(`/api/tasks/${archivedTask.id}/extension`);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      "This client is archived. Restore it before changing its tasks.",
    ]);
    for (const id of [signedOff.id, archivedTask.id]) {
      const [task] = await db().select().from(tasks).where(eq(tasks.id, id));
      expect(task).toMatchObject({ extendedDueOn: null, extensionFiledAt: null });
      expect(await logOf(id)).toHaveLength(2);
    }
  });

  it("S-DUE-22 a rule task's due date is not edited like an ordinary task's: PATCH refuses it and changes nothing", async () => {
    const { scheduleId } = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [task] = await tasksOf(scheduleId);
    if (!task) throw new Error("no task");
    const admin = await signIn(ctx.app, world.users.admin);
    const refused = await admin.patch(`/api/tasks/${task.id}`, { dueDate: "2027-05-01T12:00:00.000Z" });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      expect.objectContaining({
        path: ["dueDate"],
        message:
          "This task's due date follows a statutory rule: it moves when an extension is filed, not by editing the task",
      }),
    ]);
    const renamed = await admin.patch(`/api/tasks/${task.id}`, { name: "Form 1040 for 2026" });
    expect(renamed.status).toBe(200);
    const [after] = await db().select().from(tasks).where(eq(tasks.id, task.id));
    expect(after).toMatchObject({ name: "Form 1040 for 2026", dueDate: task.dueDate, dueOn: "2027-04-15" });
  });

  it("S-DUE-23 the due-date log cannot be changed or removed, not even by the tables' owner", async () => {
    const { scheduleId } = await assigned("us-1040", "2027-02-10T15:00:00Z");
    const [task] = await tasksOf(scheduleId);
    if (!task) throw new Error("no task");
    const refusal = { cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }) };
    await expect(
      db().execute(sql`update task_due_date_changes set to_on = '2030-01-01' where task_id = ${task.id}`),
    ).rejects.toMatchObject(refusal);
    await expect(db().execute(sql`delete from task_due_date_changes where task_id = ${task.id}`)).rejects.toMatchObject(
      refusal,
    );
    // The app's role may not even ask.
    await expect(
      ctx.appDatabase.db.execute(sql`delete from task_due_date_changes where task_id = ${task.id}`),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "42501" }) });
    expect(await logOf(task.id)).toHaveLength(2);
  });
});
