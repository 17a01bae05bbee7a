import { describe, expect, it } from "vitest";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import {
  activityTasksLimit,
  reportDays,
  type UserActivity,
  type UserReport,
  userActivitySchema,
} from "../../../shared/reports";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";

const day = 86_400_000;

describe("GET /api/users/:id/activity", () => {
  const ctx = useTestApp();

  /**
   * A firm whose `user` has two live clients and one archived one assigned, has signed off work on
   * a client that is not theirs, and whose colleagues signed work on the user's clients. Every
   * figure below is worked out by hand from it.
   */
  async function seedProfileFirm() {
    const { db } = ctx.database;
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * day);
    const firm = await insertFirm(db, { name: "Profile Firm" });
    const superAdmin = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const admin = await insertUser(db, { firmId: firm.id, role: "admin" });
    const subject = await insertUser(db, { firmId: firm.id, role: "user" });
    const colleague = await insertUser(db, { firmId: firm.id, role: "user" });
    const alpha = await insertClient(db, { firmId: firm.id, name: "Alpha Bookkeeping", industry: "Accounting" });
    const beta = await insertClient(db, {
      firmId: firm.id,
      name: "Beta Legal",
      industry: "Legal",
      status: "prospect",
    });
    const other = await insertClient(db, { firmId: firm.id, name: "Gamma Other" });
    const archived = await insertClient(db, { firmId: firm.id, name: "Delta Archived", archivedAt: ago(1) });
    await insertUserClients(db, { firmId: firm.id, userId: subject.id, clientIds: [alpha.id, beta.id, archived.id] });
    const task = (clientId: string, values: Omit<Parameters<typeof insertTask>[1], "firmId" | "clientId">) =>
      insertTask(db, { firmId: firm.id, clientId, ...values });
    // Completed: what the user signed off in the range, on any client.
    const t1 = await task(alpha.id, { name: "T1", createdAt: ago(10), completed: { by: subject, at: ago(6) } }); // 4 days
    const t7 = await task(other.id, { name: "T7", createdAt: ago(8), completed: { by: subject, at: ago(1) } }); // 7 days
    const t9 = await task(archived.id, { name: "T9", createdAt: ago(9), completed: { by: subject, at: ago(2) } }); // 7 days
    // Signed 40 days ago: in the 90-day range, not in the 30-day one.
    const t8 = await task(beta.id, { name: "T8", createdAt: ago(42), completed: { by: subject, at: ago(40) } }); // 2 days
    // Open on the assigned live clients: pending or overdue, whatever the range.
    const t3 = await task(alpha.id, { name: "T3", createdAt: ago(4), dueDate: new Date(now + 5 * day) }); // pending
    const t4 = await task(alpha.id, { name: "T4", createdAt: ago(4), dueDate: ago(2) }); // overdue
    const t5 = await task(beta.id, { name: "T5", createdAt: ago(3) }); // pending, no due date
    // Not the user's: others' sign-offs on their clients, open work elsewhere or on an archived client.
    await task(alpha.id, {
      name: "signed by a colleague",
      createdAt: ago(5),
      completed: { by: colleague, at: ago(3) },
    });
    await task(beta.id, {
      name: "signed by the owner",
      createdAt: ago(20),
      completed: { by: superAdmin, at: ago(19) },
    });
    await task(other.id, { name: "not theirs, overdue", createdAt: ago(8), dueDate: ago(1) });
    await task(other.id, { name: "not theirs, done", createdAt: ago(8), completed: { by: colleague, at: ago(2) } });
    await task(archived.id, { name: "archived pending", createdAt: ago(2) });
    return {
      firm,
      superAdmin,
      admin,
      subject,
      colleague,
      alpha,
      beta,
      other,
      archived,
      tasks: { t1, t3, t4, t5, t7, t8, t9 },
    };
  }

  it("S-UPROF-02 S-UPROF-03 S-UPROF-04 S-UPROF-06 S-UPROF-07 S-UPROF-10 S-CONST-28 counts the user's sign-offs of the range and the open work of their clients, exactly", async () => {
    const world = await seedProfileFirm();
    const owner = await signIn(ctx.app, world.superAdmin);
    const response = await owner.get(`/api/users/${world.subject.id}/activity`);
    expect(response.status, response.text).toBe(200);
    const activity = userActivitySchema.parse(response.body);
    expect(activity.user).toEqual({
      id: world.subject.id,
      username: world.subject.username,
      fullName: world.subject.fullName,
      email: world.subject.email,
      role: "user",
      disabled: false,
      createdAt: world.subject.createdAt.toISOString(),
    });
    expect(activity.range).toMatchObject({ days: 30, timeZone: "UTC" });
    // The last 30 days: completed T1, T7 and T9 (on the archived client: still the user's own
    // work); pending T3 (due later) and T5 (no due date); overdue T4. Rate 3/6 = 50 %.
    // Average (4 + 7 + 7) / 3 = 6 days.
    expect(activity.totals).toEqual({
      total: 6,
      completed: 3,
      pending: 2,
      overdue: 1,
      completionRate: 50,
      averageCompletionDays: 6,
    });
    // The audit order: completed first, newest completion first; then by due date, none last.
    const { t1, t3, t4, t5, t7, t9 } = world.tasks;
    expect(activity.tasks.map((task) => task.id)).toEqual([t7.id, t9.id, t1.id, t3.id, t4.id, t5.id]);
    expect(activity.tasks.map((task) => task.status)).toEqual([
      "completed",
      "completed",
      "completed",
      "pending",
      "overdue",
      "pending",
    ]);
    expect(activity.tasks[0]).toEqual({
      id: t7.id,
      name: "T7",
      status: "completed",
      priority: "medium",
      dueDate: null,
      createdAt: t7.createdAt.toISOString(),
      completedAt: t7.completedAt?.toISOString(),
      printedName: world.subject.fullName,
      client: { id: world.other.id, name: "Gamma Other" },
    });
    expect(activity.tasks[4]).toMatchObject({ name: "T4", dueDate: t4.dueDate?.toISOString(), printedName: null });
    expect(activity.assignedClients).toEqual([
      { id: world.alpha.id, name: "Alpha Bookkeeping", industry: "Accounting", status: "active" },
      { id: world.beta.id, name: "Beta Legal", industry: "Legal", status: "prospect" },
    ]);
    expect(response.text).not.toMatch(/signature|argon2|password/i);

    // 90 days take T8 in as well: 4 of 7, (4 + 7 + 7 + 2) / 4 = 5 days; the open work is the same.
    const longer = await owner.get(`/api/users/${world.subject.id}/activity?days=90`);
    expect(longer.body.range.days).toBe(90);
    expect(longer.body.totals).toEqual({
      total: 7,
      completed: 4,
      pending: 2,
      overdue: 1,
      completionRate: 57,
      averageCompletionDays: 5,
    });
    expect(longer.body.tasks.map((task: { id: string }) => task.id)).toContain(world.tasks.t8.id);
  });

  it("the range is one of the user audit's: anything else is a 400 with the same message", async () => {
    const world = await seedProfileFirm();
    const owner = await signIn(ctx.app, world.superAdmin);
    for (const query of ["days=14", "days=", "days=30&days=90", "format=csv"]) {
      const response = await owner.get(`/api/users/${world.subject.id}/activity?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.code, query).toBe("VALIDATION_FAILED");
    }
    expect((await owner.get(`/api/users/${world.subject.id}/activity?days=14`)).body.message).toContain(
      "days must be 7, 30, 90 or 365",
    );
  });

  it("S-CONST-28 rounds the rate and the average half up, and answers null with nothing to divide", async () => {
    const { db } = ctx.database;
    const firm = await insertFirm(db);
    const admin = await insertUser(db, { firmId: firm.id, role: "admin" });
    const subject = await insertUser(db, { firmId: firm.id, role: "user" });
    const idle = await insertUser(db, { firmId: firm.id, role: "user" });
    const client = await insertClient(db, { firmId: firm.id });
    const empty = await insertClient(db, { firmId: firm.id });
    await insertUserClients(db, { firmId: firm.id, userId: subject.id, clientIds: [client.id] });
    await insertUserClients(db, { firmId: firm.id, userId: idle.id, clientIds: [empty.id] });
    const now = Date.now();
    // 2 of 3 completed: 66.7 % -> 67. Days 1.25 and 1.75: mean 1.5 -> 2.
    await insertTask(db, {
      firmId: firm.id,
      clientId: client.id,
      createdAt: new Date(now - 3 * day),
      completed: { by: subject, at: new Date(now - 1.75 * day) },
    });
    await insertTask(db, {
      firmId: firm.id,
      clientId: client.id,
      createdAt: new Date(now - 2 * day),
      completed: { by: subject, at: new Date(now - 0.25 * day) },
    });
    await insertTask(db, { firmId: firm.id, clientId: client.id });
    const browser = await signIn(ctx.app, admin);
    const rounded = await browser.get(`/api/users/${subject.id}/activity`);
    expect(rounded.body.totals).toEqual({
      total: 3,
      completed: 2,
      pending: 1,
      overdue: 0,
      completionRate: 67,
      averageCompletionDays: 2,
    });
    // No tasks at all: zero counts, no rate and no average (the UI shows "—").
    const none = await browser.get(`/api/users/${idle.id}/activity`);
    expect(none.status).toBe(200);
    expect(none.body.totals).toEqual({
      total: 0,
      completed: 0,
      pending: 0,
      overdue: 0,
      completionRate: null,
      averageCompletionDays: null,
    });
    expect(none.body.tasks).toEqual([]);
    expect(none.body.assignedClients).toHaveLength(1);
  });

  it(`S-UPROF-07 lists the newest ${activityTasksLimit} tasks while the counts stay exact`, async () => {
    const { db, pool } = ctx.database;
    const firm = await insertFirm(db);
    const admin = await insertUser(db, { firmId: firm.id, role: "admin" });
    const subject = await insertUser(db, { firmId: firm.id, role: "user" });
    const client = await insertClient(db, { firmId: firm.id });
    await insertUserClients(db, { firmId: firm.id, userId: subject.id, clientIds: [client.id] });
    // 205 pending tasks, task g created g hours ago with no due date: the newest are g = 1..200.
    await pool.query(
      `insert into tasks (id, firm_id, client_id, name, status, created_at)
       select gen_random_uuid(), $1, $2, 'Bulk ' || g, 'pending', now() - g * interval '1 hour'
       from generate_series(1, 205) g`,
      [firm.id, client.id],
    );
    const browser = await signIn(ctx.app, admin);
    const response = await browser.get(`/api/users/${subject.id}/activity`);
    expect(response.status).toBe(200);
    expect(response.body.totals).toMatchObject({ total: 205, pending: 205, completed: 0, completionRate: 0 });
    expect(response.body.tasks).toHaveLength(activityTasksLimit);
    expect(response.body.tasks[0].name).toBe("Bulk 1");
    expect(response.body.tasks.at(-1).name).toBe("Bulk 200");
  });

  it("S-ROLE-16 S-ROLE-19 a user sees only their own activity; another firm's or an unknown user is a 404", async () => {
    const world = await seedProfileFirm();
    const other = await seedProfileFirm();
    const self = await signIn(ctx.app, world.subject);
    expect((await self.get(`/api/users/${world.subject.id}/activity`)).status).toBe(200);
    const peeking = await signIn(ctx.app, world.colleague);
    const refused = await peeking.get(`/api/users/${world.subject.id}/activity`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: "FORBIDDEN",
      message: "Your role (user) allows you to see only your own activity",
    });
    const admin = await signIn(ctx.app, world.admin);
    expect((await admin.get(`/api/users/${world.subject.id}/activity`)).body.totals.total).toBe(6);
    for (const id of [other.subject.id, "0190f3c2-1111-7000-8000-000000000000", "not-a-uuid"]) {
      const response = await admin.get(`/api/users/${id}/activity`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: "User not found", code: "NOT_FOUND" });
    }
    // A user asking about another firm's user is told 404 too, not 403: no hint it exists.
    expect((await self.get(`/api/users/${other.subject.id}/activity`)).status).toBe(404);
    const anonymous = await ctx.app.inject({ method: "GET", url: `/api/users/${world.subject.id}/activity` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("S-EDGE-03 one definition of a user's work", () => {
  const ctx = useTestApp();

  /**
   * Two clients shared by Sam and a colleague, Cleo, who signed other tasks on them; open work on
   * both clients; and Nina, who joined today with the same clients and has signed nothing.
   */
  async function seedTeam() {
    const { db } = ctx.database;
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * day);
    const firm = await insertFirm(db, { timeZone: "America/Los_Angeles" });
    const owner = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const sam = await insertUser(db, { firmId: firm.id, role: "user", fullName: "Sam Signer", createdAt: ago(400) });
    const cleo = await insertUser(db, {
      firmId: firm.id,
      role: "user",
      fullName: "Cleo Colleague",
      createdAt: ago(400),
    });
    const nina = await insertUser(db, { firmId: firm.id, role: "user", fullName: "Nina New" });
    const north = await insertClient(db, { firmId: firm.id, name: "North Dental" });
    const south = await insertClient(db, { firmId: firm.id, name: "South Legal" });
    for (const user of [sam, cleo, nina]) {
      await insertUserClients(db, { firmId: firm.id, userId: user.id, clientIds: [north.id, south.id] });
    }
    const task = (clientId: string, values: Omit<Parameters<typeof insertTask>[1], "firmId" | "clientId">) =>
      insertTask(db, { firmId: firm.id, clientId, ...values });
    // Sam: 2 days ago (1 day's work), 20 days ago (3 days), 60 days ago (5 days), 200 days ago (9 days).
    await task(north.id, { createdAt: ago(3), completed: { by: sam, at: ago(2) } });
    await task(south.id, { createdAt: ago(23), completed: { by: sam, at: ago(20) } });
    await task(north.id, { createdAt: ago(65), completed: { by: sam, at: ago(60) } });
    await task(south.id, { createdAt: ago(209), completed: { by: sam, at: ago(200) } });
    // Cleo signs more on the same clients: none of it is Sam's or Nina's.
    for (const daysAgo of [1, 4, 15, 45, 100]) {
      await task(daysAgo % 2 ? north.id : south.id, {
        createdAt: ago(daysAgo + 1),
        completed: { by: cleo, at: ago(daysAgo) },
      });
    }
    // Open work on the clients: two pending (one undated), one overdue.
    await task(north.id, { createdAt: ago(5), dueDate: ago(-10) });
    await task(south.id, { createdAt: ago(5) });
    await task(south.id, { createdAt: ago(5), dueDate: ago(1) });
    return { owner, sam, cleo, nina };
  }

  /** What both screens show of a user's work, from each answer. */
  const fromProfile = (activity: UserActivity) => ({
    completed: activity.totals.completed,
    pending: activity.totals.pending,
    overdue: activity.totals.overdue,
    averageCompletionDays: activity.totals.averageCompletionDays,
    assignedClients: activity.assignedClients.length,
  });
  const fromReport = (report: UserReport) => ({
    completed: report.tasksCompleted,
    pending: report.pendingTasks,
    overdue: report.overdueTasks,
    averageCompletionDays: report.averageCompletionDays,
    assignedClients: report.user.assignedClients,
  });

  it("S-EDGE-03 the profile and the user audit give the same figures for every range: the user's sign-offs and their clients' open work", async () => {
    const team = await seedTeam();
    const owner = await signIn(ctx.app, team.owner);
    const expected = {
      sam: {
        7: { completed: 1, averageCompletionDays: 1 },
        30: { completed: 2, averageCompletionDays: 2 },
        90: { completed: 3, averageCompletionDays: 3 },
        365: { completed: 4, averageCompletionDays: 5 },
      },
      cleo: {
        7: { completed: 2, averageCompletionDays: 1 },
        30: { completed: 3, averageCompletionDays: 1 },
        90: { completed: 4, averageCompletionDays: 1 },
        365: { completed: 5, averageCompletionDays: 1 },
      },
      nina: {
        7: { completed: 0, averageCompletionDays: null },
        30: { completed: 0, averageCompletionDays: null },
        90: { completed: 0, averageCompletionDays: null },
        365: { completed: 0, averageCompletionDays: null },
      },
    } as const;
    for (const who of ["sam", "cleo", "nina"] as const) {
      for (const days of reportDays) {
        const profile = await owner.get(`/api/users/${team[who].id}/activity?days=${days}`);
        const report = await owner.get(`/api/reports/users/${team[who].id}?days=${days}`);
        expect(profile.status).toBe(200);
        expect(report.status).toBe(200);
        const figures = fromProfile(profile.body as UserActivity);
        expect(figures, `${who}, ${days} days`).toEqual(fromReport(report.body as UserReport));
        // Everyone shares the two clients, so the open work is the same for all three.
        expect(figures, `${who}, ${days} days`).toEqual({
          ...expected[who][days],
          pending: 2,
          overdue: 1,
          assignedClients: 2,
        });
        // The completions the profile lists are exactly the report's (the newest 10 of them).
        const listed = (profile.body as UserActivity).tasks.filter((task) => task.status === "completed");
        expect(listed.map((task) => task.id).slice(0, 10)).toEqual(
          (report.body as UserReport).recentCompletions.map((completion) => completion.taskId),
        );
      }
    }
  });

  it("S-EDGE-03 a user created today who signed nothing has completed nothing, whoever worked on their clients", async () => {
    const team = await seedTeam();
    const nina = await signIn(ctx.app, team.nina);
    const profile = (await nina.get(`/api/users/${team.nina.id}/activity?days=365`)).body as UserActivity;
    expect(profile.totals).toEqual({
      total: 3,
      completed: 0,
      pending: 2,
      overdue: 1,
      completionRate: 0,
      averageCompletionDays: null,
    });
    expect(profile.tasks.every((task) => task.status !== "completed")).toBe(true);
    const report = (await nina.get(`/api/reports/users/${team.nina.id}?days=365`)).body as UserReport;
    expect(report.tasksCompleted).toBe(0);
    expect(report.recentCompletions).toEqual([]);
  });
});
