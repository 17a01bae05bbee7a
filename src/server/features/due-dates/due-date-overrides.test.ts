import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../../tests/csv-parse";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { assignRule } from "../../../../tests/rule-schedules";
import { useTestApp } from "../../../../tests/test-app";
import { usStateCodes } from "../../../shared/due-dates";
import { auditEvents, clients, disasterReliefs, firms, taskDueDateChanges, tasks } from "../../platform/db/schema";
import { insertClient, insertRuleTask, insertTask } from "../../seed/factories";
import { materializeSchedules } from "../schedules/schedules.service";
import { recomputeStaleDueDates } from "./due-date-versions";

/*
 * What moves a rule task's due day besides its rule (decision 0053): a person with the right, with
 * a reason; a disaster relief the firm records; a new version of the rules or calendars. Each
 * moves exactly the tasks it should, once, and says so in the due-date log.
 */
describe("statutory due dates moved by hand, by disaster relief and by a new calendar version", () => {
  const ctx = useTestApp();
  const db = () => ctx.database.db;
  let world: SeededFirm;
  let other: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(db(), "Override Firm");
    other = await seedFirm(db(), "Elsewhere Firm");
    await db().update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, world.firm.id));
  });

  const logOf = (taskId: string) =>
    db()
      .select()
      .from(taskDueDateChanges)
      .where(eq(taskDueDateChanges.taskId, taskId))
      .orderBy(asc(taskDueDateChanges.changedAt), asc(taskDueDateChanges.id));
  const taskRow = async (id: string) => {
    const [row] = await db().select().from(tasks).where(eq(tasks.id, id));
    if (!row) throw new Error(`no task ${id}`);
    return row;
  };
  /** A rule task of a new client of `firm` in `state` (null for a UK client). */
  async function ruleTask(options: { firm?: SeededFirm; state?: string | null; ruleId?: string; periodEnd?: string }) {
    const { firm = world, state = "FL", ruleId, periodEnd } = options;
    const client = await insertClient(db(), {
      firmId: firm.firm.id,
      jurisdiction: state === null ? "UK" : "US",
      state,
    });
    const task = await insertRuleTask(db(), {
      firmId: firm.firm.id,
      clientId: client.id,
      ...(ruleId ? { ruleId } : {}),
      ...(periodEnd ? { periodEnd } : {}),
    });
    return { clientId: client.id, task };
  }

  const helene = {
    name: "Hurricane Helene (FL-2027-01)",
    states: ["FL", "NC"],
    windowStart: "2027-04-01",
    windowEnd: "2027-06-30",
    newDueOn: "2027-07-15",
    sourceUrl: "https://www.irs.gov/newsroom/tax-relief-in-disaster-situations",
  };

  it("S-DUE-25 a person with the right moves a rule task's due day with a reason: logged (MANUAL) and audited once; the rule's dates stay shown", async () => {
    const { task } = await ruleTask({ state: "GA" });
    const admin = await signIn(ctx.app, world.users.admin);
    const moved = await admin.post(`/api/tasks/${task.id}/due-date`, {
      dueOn: "2027-05-03",
      reason: "Client's records arrive late; partner agreed to file on 3 May",
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ statutoryDueOn: "2027-04-15", dueOn: "2027-05-03", override: "MANUAL" });
    expect(moved.body.log.at(-1)).toMatchObject({
      field: "due",
      from: "2027-04-15",
      to: "2027-05-03",
      reason: "MANUAL",
      note: "Client's records arrive late; partner agreed to file on 3 May",
      changedBy: { id: world.users.admin.id, fullName: world.users.admin.fullName },
    });
    // The task falls due at the end of 3 May in the firm's zone (New York, summer time).
    expect((await taskRow(task.id)).dueDate).toEqual(new Date("2027-05-04T03:59:59.999Z"));
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, task.id), eq(auditEvents.action, "task.due_date_changed")));
    expect(events).toHaveLength(1);
    expect(events[0]?.after).toMatchObject({ dueOn: "2027-05-03" });

    // Once an extension is filed, the change moves the extended day.
    const filed = await admin.post(`/api/tasks/${task.id}/extension`);
    expect(filed.body).toMatchObject({ extendedDueOn: "2027-10-15", override: null });
    const again = await admin.post(`/api/tasks/${task.id}/due-date`, { dueOn: "2027-11-01", reason: "Agreed" });
    expect(again.body).toMatchObject({ dueOn: "2027-05-03", extendedDueOn: "2027-11-01", override: "MANUAL" });
    expect(again.body.log.at(-1)).toMatchObject({ field: "extended", from: "2027-10-15", to: "2027-11-01" });
  });

  it("S-DUE-25 a manual change needs the right, a reason, a real day after the period and a rule task; refused, nothing changes", async () => {
    const { task } = await ruleTask({ state: "GA" });
    const admin = await signIn(ctx.app, world.users.admin);
    const user = await signIn(ctx.app, world.users.user);
    const outsider = await signIn(ctx.app, other.users.super_admin);
    const path = `/api/tasks/${task.id}/due-date`;
    expect((await user.post(path, { dueOn: "2027-05-03", reason: "Because" })).status).toBe(403);
    expect((await outsider.post(path, { dueOn: "2027-05-03", reason: "Because" })).status).toBe(404);
    const refusals: [unknown, string][] = [
      [{ dueOn: "2027-05-03" }, "reason is required: say why the date changes"],
      [{ dueOn: "2027-05-03", reason: "   " }, "reason is required: say why the date changes"],
      [{ dueOn: "2027-02-30", reason: "Because" }, "dueOn must be a real date written YYYY-MM-DD"],
      [{ dueOn: "2026-12-31", reason: "Because" }, "dueOn must be after the period it is for ends (2026-12-31)"],
      [{ dueOn: "2040-01-01", reason: "Because" }, "dueOn must be within 5 years of the statutory date"],
      [{ dueOn: "2027-04-15", reason: "Because" }, "The task is already due on that day"],
    ];
    for (const [body, message] of refusals) {
      const refused = await admin.post(path, body);
      expect([refused.status, refused.body.issues?.[0]?.message]).toEqual([400, message]);
    }
    const ordinary = await insertTask(db(), { firmId: world.firm.id, clientId: world.clients[0]?.id ?? "" });
    const noRule = await admin.post(`/api/tasks/${ordinary.id}/due-date`, { dueOn: "2027-05-03", reason: "Because" });
    expect([noRule.status, noRule.body.message]).toEqual([
      409,
      "This task follows no statutory due-date rule: change its due date by editing the task",
    ]);
    expect(await taskRow(task.id)).toMatchObject({ dueOn: "2027-04-15", dueOverride: null, dueDate: task.dueDate });
    expect(await logOf(task.id)).toHaveLength(0);
  });

  it("S-DUE-26 recording a disaster relief moves exactly the open tasks of clients in the covered states whose due day falls in the window, each logged once", async () => {
    const covered = await ruleTask({ state: "FL" });
    const extendedEarlier = await ruleTask({ state: "NC", periodEnd: "2026-09-30", ruleId: "us-1065" });
    const signedOff = await ruleTask({ state: "FL" });
    await db()
      .update(tasks)
      .set({
        status: "completed",
        completedAt: new Date(),
        completedBy: world.users.admin.id,
        printedName: "Avery Admin",
        signature: "data:image/png;base64,AA==",
        signatureSha256: "00",
      })
      .where(eq(tasks.id, signedOff.task.id));
    const elsewhere = await ruleTask({ state: "GA" });
    const later = await ruleTask({ state: "FL", periodEnd: "2027-12-31" });
    const british = await ruleTask({ state: null, ruleId: "uk-ct600", periodEnd: "2026-03-31" });
    const otherFirm = await ruleTask({ firm: other, state: "FL" });
    const admin = await signIn(ctx.app, world.users.admin);
    // The September-year-end partnership's return (due 15 Dec 2026) had an extension to 15 Jun 2027.
    const filed = await admin.post(`/api/tasks/${extendedEarlier.task.id}/extension`);
    expect(filed.body.extendedDueOn).toBe("2027-06-15");

    const recorded = await admin.post("/api/disaster-reliefs", helene);
    expect(recorded.status, recorded.text).toBe(201);
    expect(recorded.body).toMatchObject({
      tasksMoved: 2,
      relief: { ...helene, jurisdiction: "US", createdBy: { id: world.users.admin.id } },
    });
    expect(await taskRow(covered.task.id)).toMatchObject({
      statutoryDueOn: "2027-04-15",
      dueOn: "2027-07-15",
      dueOverride: "DISASTER_RELIEF",
      dueDate: new Date("2027-07-16T03:59:59.999Z"),
    });
    expect((await taskRow(covered.task.id)).dueExplanation?.at(-1)).toBe(
      "postponed to Thu 15 Jul 2027 by disaster relief (IRC 7508A): Hurricane Helene (FL-2027-01)",
    );
    expect(await logOf(covered.task.id)).toEqual([
      expect.objectContaining({
        field: "due",
        fromOn: "2027-04-15",
        toOn: "2027-07-15",
        reason: "DISASTER_RELIEF",
        note: helene.name,
        sourceUrl: helene.sourceUrl,
      }),
    ]);
    expect(await taskRow(extendedEarlier.task.id)).toMatchObject({ dueOn: "2026-12-15", extendedDueOn: "2027-07-15" });
    for (const untouched of [signedOff, elsewhere, later, british, otherFirm]) {
      expect(await taskRow(untouched.task.id)).toMatchObject({ dueOn: untouched.task.dueOn, dueOverride: null });
      expect(await logOf(untouched.task.id)).toHaveLength(0);
    }

    // The same relief recorded again finds nothing left in its window.
    const twice = await admin.post("/api/disaster-reliefs", helene);
    expect(twice.body.tasksMoved).toBe(0);
    expect(await logOf(covered.task.id)).toHaveLength(1);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, world.firm.id), eq(auditEvents.action, "disaster_relief.recorded")));
    expect(events.map((event) => event.after)).toEqual([
      expect.objectContaining({ tasksMoved: 2 }),
      expect.objectContaining({ tasksMoved: 0 }),
    ]);
  });

  it("S-DUE-26 a relief already recorded postpones the tasks the scheduler makes later, logged after the rule's date", async () => {
    const firm = await seedFirm(db(), "Relief Scheduler Firm");
    const admin = await signIn(ctx.app, firm.users.admin);
    expect((await admin.post("/api/disaster-reliefs", helene)).status).toBe(201);
    const client = await insertClient(db(), { firmId: firm.firm.id, jurisdiction: "US", state: "NC" });
    const scheduleId = await assignRule(db(), {
      firm,
      clientId: client.id,
      ruleId: "us-1040",
      now: "2027-02-10T15:00:00Z",
    });
    const [made] = await db().select().from(tasks).where(eq(tasks.scheduleId, scheduleId));
    if (!made) throw new Error("no task made");
    expect(made).toMatchObject({ statutoryDueOn: "2027-04-15", dueOn: "2027-07-15", dueOverride: "DISASTER_RELIEF" });
    expect((await logOf(made.id)).map((row) => [row.field, row.fromOn, row.toOn, row.reason])).toEqual([
      ["statutory", null, "2027-04-15", "RULE"],
      ["due", null, "2027-04-15", "RULE"],
      ["due", "2027-04-15", "2027-07-15", "DISASTER_RELIEF"],
    ]);
  });

  it("S-DUE-26 S-FUZZ-06 recording a relief needs the right and a sound window; refused, nothing is recorded; a firm sees only its own; reliefs stay as recorded", async () => {
    const firm = await seedFirm(db(), "Relief Rules Firm");
    const admin = await signIn(ctx.app, firm.users.admin);
    const user = await signIn(ctx.app, firm.users.user);
    expect((await user.post("/api/disaster-reliefs", helene)).status).toBe(403);
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ windowEnd: "2027-03-01" }, "windowEnd", "windowEnd must be on or after windowStart"],
      [
        { newDueOn: "2027-06-30" },
        "newDueOn",
        "newDueOn must be after windowEnd: it is the day the postponed deadlines fall due",
      ],
      [{ windowStart: "2027-02-30" }, "windowStart", "windowStart must be a real date written YYYY-MM-DD"],
      // Outside the years a request's dates may fall in: refused before the database (year 0 was a 500).
      [{ windowStart: "0000-01-01" }, "windowStart", "windowStart must be a day of the years 1900 to 2200"],
      [{ windowEnd: "9999-12-31" }, "windowEnd", "windowEnd must be a day of the years 1900 to 2200"],
      [{ newDueOn: "2201-01-01" }, "newDueOn", "newDueOn must be a day of the years 1900 to 2200"],
      [{ states: ["FL", "XX"] }, "states", "XX is not a US state's two-letter code"],
      [{ states: [] }, "states", "states must name at least one state"],
      [{ windowStart: "2024-01-01" }, "windowEnd", "A relief's window must be at most two years long"],
      [{ sourceUrl: "http://example.com" }, "sourceUrl", "sourceUrl must be the https address of the announcement"],
      [{ name: "" }, "name", "name is required, such as the IRS notice's title"],
      [{ ruleIds: ["us-1040", "uk-ct600"] }, "ruleIds", "uk-ct600 is not a US deadline's rule"],
      [{ ruleIds: [] }, "ruleIds", "ruleIds must name at least one rule, or be left out for every deadline"],
    ];
    for (const [change, field, message] of refusals) {
      const refused = await admin.post("/api/disaster-reliefs", { ...helene, ...change });
      expect([refused.status, refused.body.issues?.[0]?.path, refused.body.issues?.[0]?.message]).toEqual([
        400,
        [field],
        message,
      ]);
    }
    expect((await admin.get("/api/disaster-reliefs")).body).toEqual([]);
    expect((await admin.post("/api/disaster-reliefs", helene)).status).toBe(201);
    const listed = await user.get("/api/disaster-reliefs");
    expect(listed.body).toEqual([expect.objectContaining({ name: helene.name, states: ["FL", "NC"] })]);
    const outsider = await signIn(ctx.app, other.users.super_admin);
    expect((await outsider.get("/api/disaster-reliefs")).body).not.toContainEqual(
      expect.objectContaining({ id: listed.body[0].id }),
    );
    const refusal = { cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }) };
    await expect(
      db().execute(sql`update disaster_reliefs set new_due_on = '2030-01-01' where firm_id = ${firm.firm.id}`),
    ).rejects.toMatchObject(refusal);
    await expect(
      ctx.appDatabase.db.execute(sql`delete from disaster_reliefs where firm_id = ${firm.firm.id}`),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "42501" }) });
    expect(await db().select().from(disasterReliefs).where(eq(disasterReliefs.firmId, firm.firm.id))).toHaveLength(1);
  });

  it("S-DUE-27 a new version of the rules or calendars works out again exactly the open tasks worked out on an older one, each change logged once", async () => {
    const old = "rules 2025.1, us-irs 2025.1";
    // Worked out before DC Emancipation Day was held: 15 April 2028 is a Saturday, so the old
    // calendar gave Monday 17 April; today's gives Tuesday 18 April.
    const moves = await ruleTask({ state: "GA", periodEnd: "2027-12-31" });
    const same = await ruleTask({ state: "GA", periodEnd: "2026-12-31" });
    const current = await ruleTask({ state: "GA", periodEnd: "2027-12-31" });
    const handSet = await ruleTask({ state: "GA", periodEnd: "2027-12-31" });
    const done = await ruleTask({ state: "GA", periodEnd: "2027-12-31" });
    await db()
      .update(tasks)
      .set({ dueOn: "2028-04-17", dueDate: new Date("2028-04-17T23:59:59.999Z"), dueDatesVersion: old })
      .where(inArray(tasks.id, [moves.task.id, done.task.id]));
    await db().update(tasks).set({ dueDatesVersion: old }).where(eq(tasks.id, same.task.id));
    await db().update(tasks).set({ dueOn: "2028-04-17" }).where(eq(tasks.id, current.task.id));
    await db()
      .update(tasks)
      .set({ dueOn: "2028-05-01", dueOverride: "MANUAL", dueDatesVersion: old })
      .where(eq(tasks.id, handSet.task.id));
    await db()
      .update(tasks)
      .set({
        status: "completed",
        completedAt: new Date(),
        completedBy: world.users.admin.id,
        printedName: "Avery Admin",
        signature: "data:image/png;base64,AA==",
        signatureSha256: "00",
      })
      .where(eq(tasks.id, done.task.id));

    const first = await recomputeStaleDueDates(ctx.appDatabase.db);
    expect(first.tasks).toBeGreaterThanOrEqual(3);
    expect(await taskRow(moves.task.id)).toMatchObject({
      dueOn: "2028-04-18",
      dueDate: new Date("2028-04-19T03:59:59.999Z"),
      dueDatesVersion: expect.not.stringMatching(old),
    });
    expect(await logOf(moves.task.id)).toEqual([
      expect.objectContaining({
        field: "due",
        fromOn: "2028-04-17",
        toOn: "2028-04-18",
        reason: "CALENDAR_VERSION",
        changedBy: null,
      }),
    ]);
    expect(await taskRow(same.task.id)).toMatchObject({
      dueOn: "2027-04-15",
      dueDatesVersion: current.task.dueDatesVersion,
    });
    expect(await logOf(same.task.id)).toHaveLength(0);
    expect(await taskRow(handSet.task.id)).toMatchObject({ dueOn: "2028-05-01", dueOverride: "MANUAL" });
    expect(await logOf(handSet.task.id)).toHaveLength(0);
    // A task already on the current version, and a signed-off one, are not looked at.
    expect(await taskRow(current.task.id)).toMatchObject({ dueOn: "2028-04-17" });
    expect(await taskRow(done.task.id)).toMatchObject({ dueOn: "2028-04-17", dueDatesVersion: old });

    const second = await recomputeStaleDueDates(ctx.appDatabase.db);
    expect(second).toEqual({ firms: 0, tasks: 0, datesMoved: 0 });
    expect(await logOf(moves.task.id)).toHaveLength(1);
  });

  it("S-DUE-27 a UK payment's clear-by day is logged when a new calendar version moves it", async () => {
    const { task } = await ruleTask({ state: null, ruleId: "uk-ct-payment", periodEnd: "2026-03-31" });
    // 1 January 2027 is a Friday and a bank holiday: the payment clears by Thursday 31 December.
    expect(task).toMatchObject({ dueOn: "2027-01-01", clearByOn: "2026-12-31" });
    await db()
      .update(tasks)
      .set({ clearByOn: "2027-01-01", dueDatesVersion: "rules 2025.1, uk-eaw 2025.1" })
      .where(eq(tasks.id, task.id));
    await recomputeStaleDueDates(ctx.appDatabase.db);
    expect(await logOf(task.id)).toEqual([
      expect.objectContaining({
        field: "clear_by",
        fromOn: "2027-01-01",
        toOn: "2026-12-31",
        reason: "CALENDAR_VERSION",
      }),
    ]);
    const [client] = await db().select().from(clients).where(eq(clients.id, task.clientId));
    expect(client?.jurisdiction).toBe("UK");
  });

  it("S-DUE-30 the client audit carries each rule task's due-date log, in JSON and in its CSV", async () => {
    const firm = await seedFirm(db(), "Report Log Firm");
    const client = await insertClient(db(), { firmId: firm.firm.id, jurisdiction: "US", state: "FL" });
    const task = await insertRuleTask(db(), { firmId: firm.firm.id, clientId: client.id });
    const admin = await signIn(ctx.app, firm.users.admin);
    expect(
      (await admin.post(`/api/tasks/${task.id}/due-date`, { dueOn: "2027-05-03", reason: "Records late" })).status,
    ).toBe(200);
    const report = await admin.get(`/api/reports/clients/${client.id}?days=30`);
    expect(report.status).toBe(200);
    const row = report.body.history.find((entry: { id: string }) => entry.id === task.id);
    expect(row.dueDateChanges).toEqual([
      {
        field: "due",
        from: "2027-04-15",
        to: "2027-05-03",
        reason: "MANUAL",
        note: "Records late",
        sourceUrl: null,
        changedBy: firm.users.admin.fullName,
        changedAt: expect.any(String),
      },
    ]);
    const csv = await admin.get(`/api/reports/clients/${client.id}?days=30&format=csv`);
    const [header, line] = parseCsv(csv.text);
    expect(header?.at(-1)).toBe("Due date changes");
    expect(line?.at(-1)).toBe("Due date: 2027-04-15 → 2027-05-03 (changed by hand: Records late)");
  });

  it("S-DUE-20 S-DUE-26 the scheduler's Form 1040 dates for tax years 2015 to 2027 are the IRS's, with the 2020 and 2021 postponements recorded as reliefs; the 2021 one, for Form 1040 only, leaves estimated tax alone (IRS Publication 509, 2016-2025 editions; Notices 2020-23 and 2021-21)", async () => {
    const firm = await seedFirm(db(), "Thirteen Years Firm");
    await db().update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, firm.firm.id));
    const admin = await signIn(ctx.app, firm.users.admin);
    const allStates = usStateCodes;
    const covid = await admin.post("/api/disaster-reliefs", {
      name: "COVID-19 emergency (IRS Notice 2020-23)",
      states: allStates,
      windowStart: "2020-04-01",
      windowEnd: "2020-07-14",
      newDueOn: "2020-07-15",
      sourceUrl: "https://www.irs.gov/pub/irs-drop/n-20-23.pdf",
    });
    expect(covid.status, covid.text).toBe(201);
    const filing2021 = await admin.post("/api/disaster-reliefs", {
      name: "Individual filing postponed to 17 May 2021 (IRS Notice 2021-21)",
      states: allStates,
      ruleIds: ["us-1040"],
      windowStart: "2021-04-15",
      windowEnd: "2021-05-16",
      newDueOn: "2021-05-17",
      sourceUrl: "https://www.irs.gov/pub/irs-drop/n-21-21.pdf",
    });
    expect(filing2021.body.relief.ruleIds).toEqual(["us-1040"]);
    const client = await insertClient(db(), { firmId: firm.firm.id, jurisdiction: "US", state: "NY" });
    const assign = (ruleId: string) =>
      assignRule(db(), { firm, clientId: client.id, ruleId, now: "2016-02-01T15:00:00Z" });
    const returns = await assign("us-1040");
    const estimates = await assign("us-1040-es-q1");
    await materializeSchedules(db(), { now: new Date("2028-01-02T15:00:00Z") });
    const dueOf = async (scheduleId: string) =>
      (await db().select().from(tasks).where(eq(tasks.scheduleId, scheduleId)).orderBy(asc(tasks.periodEnd))).map(
        (task) => [task.periodEnd?.slice(0, 4), task.statutoryDueOn, task.dueOn],
      );
    expect(await dueOf(returns)).toEqual([
      ["2015", "2016-04-15", "2016-04-18"], // Emancipation Day, Friday 15 April
      ["2016", "2017-04-15", "2017-04-18"], // a Saturday; Emancipation Day observed Monday 17 April
      ["2017", "2018-04-15", "2018-04-17"], // a Sunday; Emancipation Day observed Monday 16 April
      ["2018", "2019-04-15", "2019-04-15"],
      ["2019", "2020-04-15", "2020-07-15"], // Notice 2020-23
      ["2020", "2021-04-15", "2021-05-17"], // Notice 2021-21
      ["2021", "2022-04-15", "2022-04-18"], // Emancipation Day observed Friday 15 April
      ["2022", "2023-04-15", "2023-04-18"], // a Saturday; Emancipation Day observed Monday 17 April
      ["2023", "2024-04-15", "2024-04-15"],
      ["2024", "2025-04-15", "2025-04-15"],
      ["2025", "2026-04-15", "2026-04-15"],
      ["2026", "2027-04-15", "2027-04-15"],
      ["2027", "2028-04-15", "2028-04-18"], // a Saturday; Emancipation Day observed Monday 17 April
    ]);
    // The first installment of estimated tax is due inside its year: its task is made when the
    // year begins. The 2020 one moved with Notice 2020-23; the 2021 one was not postponed.
    expect(await dueOf(estimates)).toEqual([
      ["2016", "2016-04-15", "2016-04-18"],
      ["2017", "2017-04-15", "2017-04-18"],
      ["2018", "2018-04-15", "2018-04-17"],
      ["2019", "2019-04-15", "2019-04-15"],
      ["2020", "2020-04-15", "2020-07-15"],
      ["2021", "2021-04-15", "2021-04-15"],
      ["2022", "2022-04-15", "2022-04-18"],
      ["2023", "2023-04-15", "2023-04-18"],
      ["2024", "2024-04-15", "2024-04-15"],
      ["2025", "2025-04-15", "2025-04-15"],
      ["2026", "2026-04-15", "2026-04-15"],
      ["2027", "2027-04-15", "2027-04-15"],
      ["2028", "2028-04-15", "2028-04-18"],
    ]);
  });

  it("S-DUE-36 a client's new state works out its open statutory tasks again at once: Patriots' Day moves a Massachusetts filing, each change logged once (RULE, by whoever changed the client); a day set by hand or by a disaster relief stays", async () => {
    const client = await insertClient(db(), { firmId: world.firm.id, jurisdiction: "US", state: "NY" });
    const filing = await insertRuleTask(db(), { firmId: world.firm.id, clientId: client.id, periodEnd: "2010-12-31" });
    const handSet = await insertRuleTask(db(), { firmId: world.firm.id, clientId: client.id, periodEnd: "2011-12-31" });
    await db().update(tasks).set({ dueOn: "2012-05-01", dueOverride: "MANUAL" }).where(eq(tasks.id, handSet.id));
    expect(filing.dueOn).toBe("2011-04-18");
    const admin = await signIn(ctx.app, world.users.admin);
    const moved = await admin.patch(`/api/clients/${client.id}`, { state: "MA" });
    expect(moved.status, moved.text).toBe(200);
    expect(await taskRow(filing.id)).toMatchObject({
      dueOn: "2011-04-19",
      dueDate: new Date("2011-04-20T03:59:59.999Z"),
    });
    expect(await logOf(filing.id)).toEqual([
      expect.objectContaining({
        field: "due",
        fromOn: "2011-04-18",
        toOn: "2011-04-19",
        reason: "RULE",
        note: "The client's state is now MA",
        changedBy: world.users.admin.id,
      }),
    ]);
    expect(await taskRow(handSet.id)).toMatchObject({ dueOn: "2012-05-01", dueOverride: "MANUAL" });
    expect(await logOf(handSet.id)).toEqual([]);
    // Renaming the client moves nothing; another state moves it back, logged once more.
    await admin.patch(`/api/clients/${client.id}`, { name: "Bay State Holdings" });
    expect(await logOf(filing.id)).toHaveLength(1);
    await admin.patch(`/api/clients/${client.id}`, { state: "NY" });
    expect((await logOf(filing.id)).map((row) => [row.fromOn, row.toOn])).toEqual([
      ["2011-04-18", "2011-04-19"],
      ["2011-04-19", "2011-04-18"],
    ]);

    // A day a disaster relief set stays too: recorded for New York, the relief postpones a filing
    // there; the client's move to Massachusetts leaves the postponed day and logs nothing more.
    const relieved = await insertClient(db(), { firmId: world.firm.id, jurisdiction: "US", state: "NY" });
    const postponed = await insertRuleTask(db(), {
      firmId: world.firm.id,
      clientId: relieved.id,
      periodEnd: "2013-12-31",
    });
    expect(postponed.dueOn).toBe("2014-04-15");
    const relief = await admin.post("/api/disaster-reliefs", {
      name: "Winter storm (NY-2014-01)",
      states: ["NY"],
      ruleIds: ["us-1040"],
      windowStart: "2014-04-01",
      windowEnd: "2014-05-31",
      newDueOn: "2014-07-15",
      sourceUrl: "https://www.irs.gov/newsroom/tax-relief-in-disaster-situations",
    });
    expect(relief.status, relief.text).toBe(201);
    expect(await taskRow(postponed.id)).toMatchObject({ dueOn: "2014-07-15", dueOverride: "DISASTER_RELIEF" });
    expect((await logOf(postponed.id)).map((row) => row.reason)).toEqual(["DISASTER_RELIEF"]);
    expect((await admin.patch(`/api/clients/${relieved.id}`, { state: "MA" })).status).toBe(200);
    expect(await taskRow(postponed.id)).toMatchObject({ dueOn: "2014-07-15", dueOverride: "DISASTER_RELIEF" });
    expect((await logOf(postponed.id)).map((row) => row.reason)).toEqual(["DISASTER_RELIEF"]);
  });
});
