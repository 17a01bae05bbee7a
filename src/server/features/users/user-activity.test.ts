import { describe, expect, it } from "vitest";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { activityTasksLimit, userActivitySchema } from "../../../shared/reports";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";

const day = 86_400_000;

describe("GET /api/users/:id/activity", () => {
  const ctx = useTestApp();

  /**
   * A firm whose `user` has two live clients and one archived one assigned, and has signed off
   * work on a client that is not theirs. Every figure below is worked out by hand from it.
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
    // On assigned clients: every task counts, whoever signed it off.
    const t1 = await task(alpha.id, { name: "T1", createdAt: ago(10), completed: { by: subject, at: ago(6) } }); // 4 days
    const t2 = await task(alpha.id, { name: "T2", createdAt: ago(5), completed: { by: colleague, at: ago(3) } }); // 2 days
    const t3 = await task(alpha.id, { name: "T3", createdAt: ago(4), dueDate: new Date(now + 5 * day) }); // pending
    const t4 = await task(alpha.id, { name: "T4", createdAt: ago(4), dueDate: ago(2) }); // overdue
    const t5 = await task(beta.id, { name: "T5", createdAt: ago(3) }); // pending, no due date
    const t6 = await task(beta.id, { name: "T6", createdAt: ago(20), completed: { by: superAdmin, at: ago(19.5) } }); // 0.5 days
    // Elsewhere: only what the user signed off.
    const t7 = await task(other.id, { name: "T7", createdAt: ago(8), completed: { by: subject, at: ago(1) } }); // 7 days
    await task(other.id, { name: "not theirs, overdue", createdAt: ago(8), dueDate: ago(1) });
    await task(other.id, { name: "not theirs, done", createdAt: ago(8), completed: { by: colleague, at: ago(2) } });
    // An archived client leaves the profile, with its tasks.
    await task(archived.id, { name: "archived pending", createdAt: ago(2) });
    await task(archived.id, { name: "archived done", createdAt: ago(9), completed: { by: subject, at: ago(2) } });
    return { firm, superAdmin, admin, subject, colleague, alpha, beta, other, tasks: { t1, t2, t3, t4, t5, t6, t7 } };
  }

  it("S-UPROF-02 S-UPROF-03 S-UPROF-04 S-UPROF-06 S-UPROF-07 S-UPROF-10 S-CONST-28 counts the assigned clients' tasks and the user's own sign-offs, exactly", async () => {
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
    // 7 tasks: T1-T6 on Alpha and Beta, T7 signed off on Gamma. Completed T1, T2, T6, T7;
    // pending T3 (due later) and T5 (no due date); overdue T4. Rate 4/7 = 57.1 %.
    // Average (4 + 2 + 0.5 + 7) / 4 = 3.375 days, rounded 3.
    expect(activity.totals).toEqual({
      total: 7,
      completed: 4,
      pending: 2,
      overdue: 1,
      completionRate: 57,
      averageCompletionDays: 3,
    });
    // The audit order: completed first, newest completion first; then by due date, none last.
    const { t1, t2, t3, t4, t5, t6, t7 } = world.tasks;
    expect(activity.tasks.map((task) => task.id)).toEqual([t7.id, t2.id, t1.id, t6.id, t3.id, t4.id, t5.id]);
    expect(activity.tasks.map((task) => task.status)).toEqual([
      "completed",
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
    expect(activity.tasks[5]).toMatchObject({ name: "T4", dueDate: t4.dueDate?.toISOString(), printedName: null });
    expect(activity.assignedClients).toEqual([
      { id: world.alpha.id, name: "Alpha Bookkeeping", industry: "Accounting", status: "active" },
      { id: world.beta.id, name: "Beta Legal", industry: "Legal", status: "prospect" },
    ]);
    expect(response.text).not.toMatch(/signature|argon2|password/i);
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
      completed: { by: admin, at: new Date(now - 1.75 * day) },
    });
    await insertTask(db, {
      firmId: firm.id,
      clientId: client.id,
      createdAt: new Date(now - 2 * day),
      completed: { by: admin, at: new Date(now - 0.25 * day) },
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
    expect((await admin.get(`/api/users/${world.subject.id}/activity`)).body.totals.total).toBe(7);
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
