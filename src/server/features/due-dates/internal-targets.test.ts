import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { assignRule } from "../../../../tests/rule-schedules";
import { useTestApp } from "../../../../tests/test-app";
import { firms, tasks } from "../../platform/db/schema";
import { insertClient, insertRuleTask, insertTask } from "../../seed/factories";
import { civilDate, dayAt, endOfDay, parseCivilDate } from "./civil-date";
import { dueDateRule } from "./due-date-rules";
import { targetDayFor } from "./internal-targets";

/*
 * A firm's internal target (decision 0053): statutory work falls due for the firm a number of
 * business days before its due date, and overdue, health and the lists follow that.
 */
describe("internal targets", () => {
  const rule = (id: string) => {
    const found = dueDateRule(id);
    if (!found) throw new Error(`no rule ${id}`);
    return found;
  };
  const policy = (days: number | null, closedDays: { date: string; name: string }[] = []) => ({
    internalTargetDays: days,
    closedDays,
  });

  it("S-DUE-31 a target counts business days back from the due day, skipping weekends, the rule's holidays (its jurisdiction's for a rule that moves on none) and the firm's closed days, and never falls before the day the task is made", () => {
    const target = (id: string, due: string, periodEnd: string, days: number | null, closed = [] as string[]) =>
      targetDayFor(
        rule(id),
        parseCivilDate(due) ?? civilDate(2000, 1, 1),
        parseCivilDate(periodEnd) ?? civilDate(2000, 1, 1),
        policy(
          days,
          closed.map((date) => ({ date, name: "Office closed" })),
        ),
      )?.toString() ?? null;
    // Thursday 15 April 2027, ten business days back: Thursday 1 April.
    expect(target("us-1040", "2027-04-15", "2026-12-31", 10)).toBe("2027-04-01");
    // The firm closed on Monday 5 April: one more day back.
    expect(target("us-1040", "2027-04-15", "2026-12-31", 10, ["2027-04-05"])).toBe("2027-03-31");
    // Friday 30 April 2027 (Form 941, first quarter): DC Emancipation Day, Friday 16 April, is passed over.
    expect(target("us-941", "2027-04-30", "2027-03-31", 10)).toBe("2027-04-15");
    // A UK company's Corporation Tax payment skips England's bank holidays (Easter 2027: 26 and 29 March).
    expect(target("uk-ct-payment", "2027-04-01", "2026-06-30", 5)).toBe("2027-03-23");
    // Accounts to Companies House move on no calendar, yet a target skips England's bank holidays:
    // due Thursday 31 December 2026, 5 days back over Christmas (25th, and the 28th for Boxing
    // Day) and the firm's closed Christmas Eve is Monday 21 December, not Wednesday 23rd.
    expect(target("uk-ch-accounts", "2026-12-31", "2026-03-31", 5, ["2026-12-24"])).toBe("2026-12-21");
    // PAYE for the month to 5 May is due 22 May; twenty business days before would be in April,
    // before the task is made on 6 May, so the target is 6 May.
    expect(target("uk-paye-monthly", "2027-05-22", "2027-05-05", 20)).toBe("2027-05-06");
    expect(target("us-1040", "2027-04-15", "2026-12-31", null)).toBeNull();
  });

  describe("through the API", () => {
    const ctx = useTestApp();
    const db = () => ctx.database.db;
    let world: SeededFirm;
    beforeAll(async () => {
      world = await seedFirm(db(), "Target Firm");
      await db().update(firms).set({ timeZone: "America/Chicago" }).where(eq(firms.id, world.firm.id));
    });

    /** Today's date in the firm's zone, moved by `days`. */
    const fromToday = (days: number) => dayAt(new Date(), "America/Chicago").add({ days });

    it("S-DUE-32 with a target set, a statutory task falls due for the firm on its target day: overdue, client health, the client audit and the dashboard follow it, and its dates say so; cleared, it falls due on its due day again", async () => {
      const client = await insertClient(db(), { firmId: world.firm.id, jurisdiction: "US", state: "TX" });
      const task = await insertRuleTask(db(), { firmId: world.firm.id, clientId: client.id });
      // Due in ten days: thirty business days before that has passed, so with the target it is overdue.
      const dueOn = fromToday(10);
      await db()
        .update(tasks)
        .set({
          periodStart: fromToday(-150).toString(),
          periodEnd: fromToday(-60).toString(),
          statutoryDueOn: dueOn.toString(),
          dueOn: dueOn.toString(),
          dueDate: endOfDay(dueOn, "America/Chicago"),
        })
        .where(eq(tasks.id, task.id));
      const ordinary = await insertTask(db(), {
        firmId: world.firm.id,
        clientId: client.id,
        dueDate: endOfDay(dueOn, "America/Chicago"),
      });
      const owner = await signIn(ctx.app, world.users.super_admin);
      const overdueIds = async () =>
        ((await owner.get("/api/tasks/overdue")).body as { id: string }[]).map((entry) => entry.id);
      const health = async () => (await owner.get(`/api/clients/${client.id}`)).body;
      expect(await overdueIds()).not.toContain(task.id);
      expect((await health()).taskCounts.overdue).toBe(0);
      const dashboardBefore = (await owner.get("/api/dashboard")).body;

      const firm = await owner.get("/api/firm");
      const set = await owner.request(
        "PATCH",
        "/api/firm",
        { internalTargetDays: 30 },
        { "If-Match": `"${firm.body.version}"` },
      );
      expect(set.status, set.text).toBe(200);
      expect(set.body).toMatchObject({ internalTargetDays: 30, closedDays: [] });
      const [row] = await db().select().from(tasks).where(eq(tasks.id, task.id));
      const targetOn = parseCivilDate(row?.targetOn ?? "");
      if (!targetOn) throw new Error("no target set");
      expect(row?.dueDate).toEqual(endOfDay(targetOn, "America/Chicago"));
      expect(targetOn.toString() < fromToday(0).toString()).toBe(true);
      expect(await overdueIds()).toContain(task.id);
      expect(await overdueIds()).not.toContain(ordinary.id);
      expect((await health()).taskCounts.overdue).toBe(1);
      expect((await health()).health.level).toBe("critical");
      const report = (await owner.get(`/api/reports/clients/${client.id}?days=30`)).body;
      expect(report.overdueTasks).toBe(1);
      expect(report.history.find((entry: { id: string }) => entry.id === task.id)?.status).toBe("overdue");
      const dashboardAfter = (await owner.get("/api/dashboard")).body;
      expect(dashboardAfter.tasks.overdue).toBe(dashboardBefore.tasks.overdue + 1);
      const dates = (await owner.get(`/api/tasks/${task.id}/due-dates`)).body;
      expect(dates).toMatchObject({ dueOn: dueOn.toString(), targetOn: targetOn.toString(), internalTargetDays: 30 });
      // The due-date log records dates of the obligation, not the firm's target.
      expect(dates.log).toEqual([]);

      const cleared = await owner.request(
        "PATCH",
        "/api/firm",
        { internalTargetDays: null },
        { "If-Match": `"${set.body.version}"` },
      );
      expect(cleared.status).toBe(200);
      const [back] = await db().select().from(tasks).where(eq(tasks.id, task.id));
      expect(back).toMatchObject({ targetOn: null, dueDate: endOfDay(dueOn, "America/Chicago") });
      expect(await overdueIds()).not.toContain(task.id);
    });

    it("S-DUE-33 the scheduler makes a statutory task due on the firm's target day, skipping the firm's closed days", async () => {
      const firm = await seedFirm(db(), "Scheduled Target Firm");
      await db()
        .update(firms)
        .set({ internalTargetDays: 10, closedDays: [{ date: "2027-04-05", name: "Spring closure" }] })
        .where(eq(firms.id, firm.firm.id));
      const client = await insertClient(db(), { firmId: firm.firm.id, jurisdiction: "US", state: "GA" });
      const scheduleId = await assignRule(db(), {
        firm,
        clientId: client.id,
        ruleId: "us-1040",
        now: "2027-02-10T15:00:00Z",
      });
      const [made] = await db().select().from(tasks).where(eq(tasks.scheduleId, scheduleId));
      expect(made).toMatchObject({
        dueOn: "2027-04-15",
        targetOn: "2027-03-31",
        dueDate: endOfDay(civilDate(2027, 3, 31), "UTC"),
      });
    });

    it("S-DUE-34 S-FUZZ-06 the target and closed days are the super admin's to set; a bad value is a 400 that changes nothing", async () => {
      const firm = await seedFirm(db(), "Target Rules Firm");
      const owner = await signIn(ctx.app, firm.users.super_admin);
      const admin = await signIn(ctx.app, firm.users.admin);
      const version = (await owner.get("/api/firm")).body.version;
      const ifMatch = { "If-Match": `"${version}"` };
      expect((await admin.request("PATCH", "/api/firm", { internalTargetDays: 10 }, ifMatch)).status).toBe(403);
      const refusals: [Record<string, unknown>, (string | number)[], string][] = [
        [
          { internalTargetDays: 0 },
          ["internalTargetDays"],
          "The internal target is a number of business days from 1 to 60, or none",
        ],
        [
          { internalTargetDays: 61 },
          ["internalTargetDays"],
          "The internal target is a number of business days from 1 to 60, or none",
        ],
        [{ internalTargetDays: 2.5 }, ["internalTargetDays"], "The internal target is a whole number of business days"],
        [
          { closedDays: [{ date: "2027-02-30", name: "Nope" }] },
          ["closedDays", 0, "date"],
          "2027-02-30 is not a real date",
        ],
        [
          { closedDays: [{ date: "0000-01-01", name: "Year zero" }] },
          ["closedDays", 0, "date"],
          "date must be a day of the years 1900 to 2200",
        ],
        [
          { closedDays: [{ date: "9999-12-31", name: "Far off" }] },
          ["closedDays", 0, "date"],
          "date must be a day of the years 1900 to 2200",
        ],
        [
          {
            closedDays: [
              { date: "2027-12-24", name: "Eve" },
              { date: "2027-12-24", name: "Again" },
            ],
          },
          ["closedDays", 1, "date"],
          "2027-12-24 is listed twice",
        ],
        [{ closedDays: [{ date: "2027-12-24", name: " " }] }, ["closedDays", 0, "name"], "Name the closed day"],
      ];
      for (const [body, path, message] of refusals) {
        const refused = await owner.request("PATCH", "/api/firm", body, ifMatch);
        expect([refused.status, refused.body.issues?.[0]?.path, refused.body.issues?.[0]?.message]).toEqual([
          400,
          path,
          message,
        ]);
      }
      const kept = (await owner.get("/api/firm")).body;
      expect(kept).toMatchObject({ internalTargetDays: null, closedDays: [], version });
      const closed = await owner.request(
        "PATCH",
        "/api/firm",
        {
          closedDays: [
            { date: "2027-12-24", name: "Christmas Eve" },
            { date: "2027-07-05", name: "Summer closure" },
          ],
        },
        ifMatch,
      );
      expect(closed.body.closedDays).toEqual([
        { date: "2027-07-05", name: "Summer closure" },
        { date: "2027-12-24", name: "Christmas Eve" },
      ]);
      expect(closed.body.version).toBe(version + 1);
    });
  });
});
