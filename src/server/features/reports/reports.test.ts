import { beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../../tests/csv-parse";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { firmDateFormat } from "../../../shared/dates";
import type { ClientReport, UserReport } from "../../../shared/reports";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";
import type { Actor } from "../../tenancy/actor";
import { getClientReport } from "./client-report.service";
import { getUserReport } from "./user-report.service";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The UTC calendar date of an instant (the fixture firm is on UTC). */
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** An instant's date as the screens and the CSV downloads show it, on UTC. */
const formatDate = firmDateFormat("UTC");
const shownDate = (iso: string | null) => (iso === null ? "" : formatDate(iso));

describe("reports", () => {
  const ctx = useTestApp();
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY);

  // The hand-computed fixture: a UTC firm, client C with tasks T1..T8 and client D with T9.
  type World = Awaited<ReturnType<typeof seed>>;
  let world: World;

  async function seed() {
    const db = ctx.database.db;
    const firm = await insertFirm(db, { timeZone: "UTC" });
    const admin = await insertUser(db, { firmId: firm.id, role: "admin", fullName: "Alice Admin" });
    const bob = await insertUser(db, { firmId: firm.id, role: "user", fullName: "Bob User" });
    const carol = await insertUser(db, { firmId: firm.id, role: "user", fullName: "Carol Idle" });
    const c = await insertClient(db, { firmId: firm.id, name: 'Cedar, "Quoted" Builders' });
    const d = await insertClient(db, { firmId: firm.id, name: "Delta Dental" });
    const empty = await insertClient(db, { firmId: firm.id, name: "Empty Co" });
    await insertUserClients(db, { firmId: firm.id, userId: bob.id, clientIds: [c.id] });
    const on = { firmId: firm.id, clientId: c.id };
    // 4 days, on time, high
    const t1 = await insertTask(db, {
      ...on,
      name: "T1 reconciliation",
      priority: "high",
      createdAt: ago(10),
      dueDate: ago(5),
      completed: { by: admin, at: ago(6) },
    });
    // 8.5 days, late, low; the name is a formula a spreadsheet would run
    const t2 = await insertTask(db, {
      ...on,
      name: '=HYPERLINK("http://evil.example","T2")',
      priority: "low",
      createdAt: ago(20.5),
      dueDate: ago(15),
      completed: { by: admin, at: ago(12) },
    });
    // 3.5 days, no due date, medium, by bob
    const t3 = await insertTask(db, {
      ...on,
      name: "T3 no due date",
      priority: "medium",
      createdAt: ago(5.5),
      dueDate: null,
      completed: { by: bob, at: ago(2) },
    });
    // overdue now
    const t4 = await insertTask(db, { ...on, name: "T4 overdue", createdAt: ago(3), dueDate: ago(1) });
    // pending, due later
    const t5 = await insertTask(db, {
      ...on,
      name: "T5 pending",
      createdAt: new Date(now - 2 * DAY - HOUR),
      dueDate: ago(-5),
    });
    // 20 days, late, completed 40 days ago: in 90, not in 30 (S-REP-22)
    const t6 = await insertTask(db, {
      ...on,
      name: "T6 forty days ago",
      priority: "high",
      createdAt: ago(60),
      dueDate: ago(45),
      completed: { by: admin, at: ago(40) },
    });
    // out of every range
    await insertTask(db, {
      ...on,
      name: "T7 old",
      createdAt: ago(500),
      dueDate: ago(450),
      completed: { by: admin, at: ago(380) },
    });
    // overdue, created 100 days ago: only in 365
    const t8 = await insertTask(db, { ...on, name: "T8 old overdue", createdAt: ago(100), dueDate: ago(90) });
    // 0.25 days, no due date, on client D
    const t9 = await insertTask(db, {
      firmId: firm.id,
      clientId: d.id,
      name: "T9 quick",
      priority: "medium",
      createdAt: new Date(now - DAY - 6 * HOUR),
      dueDate: null,
      completed: { by: admin, at: ago(1) },
    });
    return { firm, admin, bob, carol, c, d, empty, t1, t2, t3, t4, t5, t6, t8, t9 };
  }

  beforeAll(async () => {
    world = await seed();
  });

  const asAdmin = () => signIn(ctx.app, world.admin);

  it("S-REP-08 S-REP-11 a client's 30-day figures, history and series match the hand-computed fixture", async () => {
    const response = await (await asAdmin()).get(`/api/reports/clients/${world.c.id}?days=30`);
    expect(response.status).toBe(200);
    const report = response.body as ClientReport;
    expect(report.client).toEqual({
      id: world.c.id,
      name: world.c.name,
      industry: world.c.industry,
      status: world.c.status,
    });
    expect(report.range.days).toBe(30);
    expect(report.range.bucket).toBe("day");
    expect(report.range.timeZone).toBe("UTC");
    expect(report.range.from).toBe(`${utcDate(now - 29 * DAY)}T00:00:00.000Z`);
    // T1..T5: 3 of 5 completed = 60 %; T4 overdue; (4 + 8.5 + 3.5) / 3 = 5.33 -> 5 days.
    expect(report.totalTasks).toBe(5);
    expect(report.completedTasks).toBe(3);
    expect(report.completionRate).toBe(60);
    expect(report.overdueTasks).toBe(1);
    expect(report.averageCompletionDays).toBe(5);
    // Newest activity first: T3 (completed 2 days ago), T5 (created 2 days 1 hour ago), T4, T1, T2.
    expect(report.history.map((task) => task.id)).toEqual([
      world.t3.id,
      world.t5.id,
      world.t4.id,
      world.t1.id,
      world.t2.id,
    ]);
    expect(report.history[0]).toEqual({
      id: world.t3.id,
      name: "T3 no due date",
      status: "completed",
      priority: "medium",
      dueDate: null,
      createdAt: ago(5.5).toISOString(),
      completedAt: ago(2).toISOString(),
      printedName: "Bob User",
      completedBy: { id: world.bob.id, fullName: "Bob User" },
      dueDateChanges: [],
    });
    expect(report.history.map((task) => task.status)).toEqual([
      "completed",
      "pending",
      "overdue",
      "completed",
      "completed",
    ]);
    // One bucket per day, oldest first, empty days included.
    expect(report.series).toHaveLength(30);
    expect(report.series[0]?.start).toBe(utcDate(now - 29 * DAY));
    expect(report.series.at(-1)?.start).toBe(utcDate(now));
    const created = new Map<string, number>();
    const completed = new Map<string, number>();
    for (const at of [ago(20.5), ago(10), ago(5.5), ago(3), new Date(now - 2 * DAY - HOUR)]) {
      created.set(utcDate(at.getTime()), (created.get(utcDate(at.getTime())) ?? 0) + 1);
    }
    for (const at of [ago(12), ago(6), ago(2)]) {
      completed.set(utcDate(at.getTime()), (completed.get(utcDate(at.getTime())) ?? 0) + 1);
    }
    for (const point of report.series) {
      expect(point).toEqual({
        start: point.start,
        created: created.get(point.start) ?? 0,
        completed: completed.get(point.start) ?? 0,
      });
    }
  });

  it("S-REP-22 a task completed 40 days ago counts in the 90-day client report, not in the 30-day one", async () => {
    const client = await asAdmin();
    const ninety = (await client.get(`/api/reports/clients/${world.c.id}?days=90`)).body as ClientReport;
    // + T6: 4 of 6 = 66.7 -> 67 %; (4 + 8.5 + 3.5 + 20) / 4 = 9 days.
    expect(ninety).toMatchObject({
      totalTasks: 6,
      completedTasks: 4,
      completionRate: 67,
      overdueTasks: 1,
      averageCompletionDays: 9,
    });
    expect(ninety.history.map((task) => task.id)).toContain(world.t6.id);
    expect(ninety.range.bucket).toBe("week");
    // ISO weeks from the Monday on or before the first day, 7 days apart, up to this week.
    const starts = ninety.series.map((point) => point.start);
    expect(new Date(`${starts[0]}T00:00:00Z`).getUTCDay()).toBe(1);
    expect((starts[0] ?? "") <= utcDate(now - 89 * DAY)).toBe(true);
    expect(utcDate(new Date(`${starts[0]}T00:00:00Z`).getTime() + 7 * DAY) > utcDate(now - 89 * DAY)).toBe(true);
    for (let i = 1; i < starts.length; i++) {
      expect(new Date(`${starts[i]}T00:00:00Z`).getTime() - new Date(`${starts[i - 1]}T00:00:00Z`).getTime()).toBe(
        7 * DAY,
      );
    }
    expect(new Date(`${starts.at(-1)}T00:00:00Z`).getTime()).toBeGreaterThan(now - 7 * DAY);
    expect(ninety.series.reduce((sum, point) => sum + point.created, 0)).toBe(6);
    expect(ninety.series.reduce((sum, point) => sum + point.completed, 0)).toBe(4);

    const year = (await client.get(`/api/reports/clients/${world.c.id}?days=365`)).body as ClientReport;
    // + T8 (created 100 days ago, overdue): 4 of 7 = 57 %; T7 (380 days ago) is out.
    expect(year).toMatchObject({
      totalTasks: 7,
      completedTasks: 4,
      completionRate: 57,
      overdueTasks: 2,
      averageCompletionDays: 9,
    });
    expect(year.series.length).toBeGreaterThanOrEqual(53);
  });

  it("S-REP-13 an empty range: zero counts, null rates and average, empty history, every bucket zero", async () => {
    const report = (await (await asAdmin()).get(`/api/reports/clients/${world.empty.id}?days=7`)).body as ClientReport;
    expect(report).toMatchObject({
      totalTasks: 0,
      completedTasks: 0,
      completionRate: null,
      overdueTasks: 0,
      averageCompletionDays: null,
      history: [],
    });
    expect(report.series).toHaveLength(7);
    expect(report.series.every((point) => point.created === 0 && point.completed === 0)).toBe(true);
  });

  it("S-REP-15 S-REP-16 S-REP-17 S-REP-18 a user's 30-day figures: tasks without a due date are out of the on-time rate, late ones count against it", async () => {
    const response = await (await asAdmin()).get(`/api/reports/users/${world.admin.id}`);
    expect(response.status).toBe(200);
    const report = response.body as UserReport;
    expect(report.user).toEqual({
      id: world.admin.id,
      username: world.admin.username,
      fullName: "Alice Admin",
      email: world.admin.email,
      role: "admin",
      disabled: false,
      createdAt: world.admin.createdAt.toISOString(),
      assignedClients: 0,
    });
    expect(report.range.days).toBe(30);
    // T1 (on time), T2 (late), T9 (no due date): 1 of 2 with a due date = 50 %;
    // (4 + 8.5 + 0.25) / 3 = 4.25 -> 4 days; clients C and D.
    expect(report.tasksCompleted).toBe(3);
    expect(report.onTimeRate).toBe(50);
    expect(report.clientsServed).toBe(2);
    expect(report.averageCompletionDays).toBe(4);
    expect(report.byPriority).toEqual([
      { priority: "low", completed: 1, onTimeRate: 0 },
      { priority: "medium", completed: 1, onTimeRate: null },
      { priority: "high", completed: 1, onTimeRate: 100 },
    ]);
    expect(report.byClient).toEqual([
      { client: { id: world.c.id, name: world.c.name }, completed: 2, onTimeRate: 50 },
      { client: { id: world.d.id, name: "Delta Dental" }, completed: 1, onTimeRate: null },
    ]);
    expect(report.recentCompletions).toEqual([
      {
        taskId: world.t9.id,
        name: "T9 quick",
        client: { id: world.d.id, name: "Delta Dental" },
        priority: "medium",
        dueDate: null,
        createdAt: new Date(now - DAY - 6 * HOUR).toISOString(),
        completedAt: ago(1).toISOString(),
        onTime: null,
      },
      expect.objectContaining({ taskId: world.t1.id, onTime: true }),
      expect.objectContaining({ taskId: world.t2.id, onTime: false }),
    ]);
    expect(report.series).toHaveLength(30);
    const byDay = new Map(report.series.map((point) => [point.start, point]));
    expect(byDay.get(utcDate(now - DAY))).toMatchObject({ completed: 1, onTime: 0, late: 0 });
    expect(byDay.get(utcDate(now - 6 * DAY))).toMatchObject({ completed: 1, onTime: 1, late: 0 });
    expect(byDay.get(utcDate(now - 12 * DAY))).toMatchObject({ completed: 1, onTime: 0, late: 1 });
    expect(report.series.reduce((sum, point) => sum + point.completed, 0)).toBe(3);

    // S-REP-22: with T6 (late, 20 days): 1 of 3 = 33 %; (4 + 8.5 + 0.25 + 20) / 4 = 8.19 -> 8.
    const ninety = (await (await asAdmin()).get(`/api/reports/users/${world.admin.id}?days=90`)).body as UserReport;
    expect(ninety).toMatchObject({ tasksCompleted: 4, onTimeRate: 33, clientsServed: 2, averageCompletionDays: 8 });
  });

  it("S-REP-11 the average is rounded half up: 3.5 days shows 4", async () => {
    const report = (await (await signIn(ctx.app, world.bob)).get(`/api/reports/users/${world.bob.id}`))
      .body as UserReport;
    expect(report).toMatchObject({ tasksCompleted: 1, onTimeRate: null, clientsServed: 1, averageCompletionDays: 4 });
  });

  it("S-REP-21 a user with no completions: zeros, null rates and average, no division error", async () => {
    const response = await (await asAdmin()).get(`/api/reports/users/${world.carol.id}?days=365`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      tasksCompleted: 0,
      onTimeRate: null,
      clientsServed: 0,
      averageCompletionDays: null,
      byPriority: [
        { priority: "low", completed: 0, onTimeRate: null },
        { priority: "medium", completed: 0, onTimeRate: null },
        { priority: "high", completed: 0, onTimeRate: null },
      ],
      byClient: [],
      recentCompletions: [],
    });
    expect((response.body as UserReport).series.every((point) => point.completed === 0)).toBe(true);
  });

  it("S-REP-20 12 completions list the 10 most recent, newest first", async () => {
    const db = ctx.database.db;
    const dave = await insertUser(db, { firmId: world.firm.id, role: "user" });
    const done = [];
    for (let i = 1; i <= 12; i++) {
      done.push(
        await insertTask(db, {
          firmId: world.firm.id,
          clientId: world.d.id,
          name: `Dave ${i}`,
          createdAt: new Date(now - 100 * HOUR),
          completed: { by: dave, at: new Date(now - i * HOUR) },
        }),
      );
    }
    const report = (await (await asAdmin()).get(`/api/reports/users/${dave.id}?days=7`)).body as UserReport;
    expect(report.tasksCompleted).toBe(12);
    expect(report.recentCompletions.map((completion) => completion.taskId)).toEqual(
      done.slice(0, 10).map((task) => task.id),
    );
  });

  it("S-SCALE-13 the breakdown lists the 20 clients with the most completions, ties by name, beside the count of every client served", async () => {
    const db = ctx.database.db;
    const gina = await insertUser(db, { firmId: world.firm.id, role: "user" });
    // "Client 01" has 24 completions, "Client 02" 23, … "Client 20" 5; "Client 00" and "Client 21"
    // also have 5, so the 20th place goes to the first of three by name; two more have 1 each.
    const counts: [string, number][] = Array.from({ length: 20 }, (_, index) => [
      `Client ${String(index + 1).padStart(2, "0")}`,
      24 - index,
    ]);
    counts.push(["Client 00", 5], ["Client 21", 5], ["Client 22", 1], ["Client 23", 1]);
    const served: { id: string; name: string; completed: number }[] = [];
    for (const [name, completed] of counts) {
      served.push({ id: (await insertClient(db, { firmId: world.firm.id, name })).id, name, completed });
    }
    for (const client of served) {
      await ctx.database.pool.query(
        `insert into tasks (id, firm_id, client_id, name, status, created_at, completed_at, completed_by, printed_name, signature, signature_sha256)
         select gen_random_uuid(), $1, $2, 'Done ' || g, 'completed', now() - interval '3 days', now() - interval '2 days',
                $3, 'Gina', 'data:image/png;base64,AA==', 'x'
         from generate_series(1, $4::int) as g`,
        [world.firm.id, client.id, gina.id, client.completed],
      );
    }
    const expected = [...served]
      .sort((a, b) => b.completed - a.completed || (a.name < b.name ? -1 : 1))
      .slice(0, 20)
      .map((client) => ({
        client: { id: client.id, name: client.name },
        completed: client.completed,
        onTimeRate: null,
      }));
    const report = (await (await asAdmin()).get(`/api/reports/users/${gina.id}?days=7`)).body as UserReport;
    expect(report.clientsServed).toBe(24);
    expect(report.tasksCompleted).toBe(served.reduce((sum, client) => sum + client.completed, 0));
    expect(report.byClient).toEqual(expected);
    // The download still has every completion.
    const csv = await (await asAdmin()).get(`/api/reports/users/${gina.id}?days=7&format=csv`);
    expect(parseCsv(csv.text)).toHaveLength(1 + report.tasksCompleted);
  });

  describe("access", () => {
    it("a user reports only on assigned clients: another client is 404, like a missing one", async () => {
      const bob = await signIn(ctx.app, world.bob);
      expect((await bob.get(`/api/reports/clients/${world.c.id}`)).status).toBe(200);
      const refused = await bob.get(`/api/reports/clients/${world.d.id}`);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ message: "Client not found", code: "NOT_FOUND" });
      expect((await bob.get(`/api/reports/clients/${world.d.id}?format=csv`)).status).toBe(404);
    });

    it("a user reports only on themselves: another user is 403", async () => {
      const bob = await signIn(ctx.app, world.bob);
      expect((await bob.get(`/api/reports/users/${world.bob.id}`)).status).toBe(200);
      const refused = await bob.get(`/api/reports/users/${world.admin.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: "You can only view your own user report", code: "FORBIDDEN" });
      expect((await bob.get(`/api/reports/users/${world.admin.id}?format=csv`)).status).toBe(403);
    });

    it("another firm's client or user is 404", async () => {
      const other = await insertFirm(ctx.database.db);
      const owner = await insertUser(ctx.database.db, { firmId: other.id, role: "super_admin" });
      const client = await signIn(ctx.app, owner);
      expect((await client.get(`/api/reports/clients/${world.c.id}`)).body).toEqual({
        message: "Client not found",
        code: "NOT_FOUND",
      });
      expect((await client.get(`/api/reports/users/${world.admin.id}`)).body).toEqual({
        message: "User not found",
        code: "NOT_FOUND",
      });
    });

    it("bad days and format are 400 with the schema's message", async () => {
      const client = await asAdmin();
      const days = await client.get(`/api/reports/clients/${world.c.id}?days=14`);
      expect(days.status).toBe(400);
      expect(days.body.message).toContain("days must be 7, 30, 90 or 365");
      const format = await client.get(`/api/reports/users/${world.admin.id}?format=xlsx`);
      expect(format.status).toBe(400);
      expect(format.body.message).toContain("format must be json or csv");
    });
  });

  describe("range edges in the firm's time zone", () => {
    async function zoneWorld(timeZone: string) {
      const db = ctx.database.db;
      const firm = await insertFirm(db, { timeZone });
      const owner = await insertUser(db, { firmId: firm.id, role: "super_admin" });
      const client = await insertClient(db, { firmId: firm.id });
      const actor = { firmId: firm.id, userId: owner.id, role: "super_admin" } as Actor;
      const complete = (at: string, name: string) =>
        insertTask(db, {
          firmId: firm.id,
          clientId: client.id,
          name,
          createdAt: new Date(new Date(at).getTime() - 30 * DAY),
          completed: { by: owner, at: new Date(at) },
        });
      return { db, owner, client, actor, complete };
    }

    it("America/New_York: the 30-day range starts at local midnight in daylight time; a completion exactly then is in, one a millisecond earlier is out", async () => {
      const zone = await zoneWorld("America/New_York");
      // Now: 2026-11-20 03:00 UTC = 2026-11-19 22:00 EST. Day 1 is 2026-10-21, still EDT (UTC-4).
      const now = new Date("2026-11-20T03:00:00Z");
      await zone.complete("2026-10-21T04:00:00.000Z", "at the start");
      await zone.complete("2026-10-21T03:59:59.999Z", "just before");
      // 2026-11-20 02:00 UTC is still 2026-11-19 locally: today's bucket.
      await zone.complete("2026-11-20T02:00:00.000Z", "late evening");
      const report = await getClientReport({
        db: ctx.database.db,
        actor: zone.actor,
        clientId: zone.client.id,
        days: 30,
        now,
      });
      expect(report.range).toEqual({
        days: 30,
        from: "2026-10-21T04:00:00.000Z",
        to: now.toISOString(),
        timeZone: "America/New_York",
        bucket: "day",
      });
      expect(report.history.map((task) => task.name)).toEqual(["late evening", "at the start"]);
      expect(report.completedTasks).toBe(2);
      expect(report.series[0]).toEqual({ start: "2026-10-21", created: 0, completed: 1 });
      expect(report.series.at(-1)).toEqual({ start: "2026-11-19", created: 0, completed: 1 });
      expect(report.series).toHaveLength(30);

      const user = await getUserReport({
        db: ctx.database.db,
        actor: zone.actor,
        userId: zone.owner.id,
        days: 30,
        now,
      });
      expect(user.tasksCompleted).toBe(2);
      expect(user.recentCompletions.map((completion) => completion.name)).toEqual(["late evening", "at the start"]);
    });

    it("Pacific/Auckland: the 7-day range starts at local midnight (UTC+13), the day before in UTC", async () => {
      const zone = await zoneWorld("Pacific/Auckland");
      // Now: 2026-11-20 10:00 UTC = 2026-11-20 23:00 NZDT. Day 1 is 2026-11-14 = 2026-11-13 11:00 UTC.
      const now = new Date("2026-11-20T10:00:00Z");
      await zone.complete("2026-11-13T11:00:00.000Z", "at the start");
      await zone.complete("2026-11-13T10:59:59.999Z", "just before");
      const report = await getUserReport({
        db: ctx.database.db,
        actor: zone.actor,
        userId: zone.owner.id,
        days: 7,
        now,
      });
      expect(report.range.from).toBe("2026-11-13T11:00:00.000Z");
      expect(report.tasksCompleted).toBe(1);
      expect(report.series.map((point) => point.start)).toEqual([
        "2026-11-14",
        "2026-11-15",
        "2026-11-16",
        "2026-11-17",
        "2026-11-18",
        "2026-11-19",
        "2026-11-20",
      ]);
      expect(report.series[0]).toEqual({ start: "2026-11-14", completed: 1, onTime: 0, late: 0 });
    });
  });

  describe("CSV", () => {
    it("the client report's CSV has one row per history task, parses back, and neutralises formulas", async () => {
      const response = await (await asAdmin()).get(`/api/reports/clients/${world.c.id}?days=30&format=csv`);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      const name = `client-report-Cedar-Quoted-Builders-30d-${utcDate(Date.now())}.csv`;
      expect(response.headers["content-disposition"]).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
      const json = (await (await asAdmin()).get(`/api/reports/clients/${world.c.id}?days=30`)).body as ClientReport;
      const rows = parseCsv(response.text);
      expect(rows[0]).toEqual([
        "Task",
        "Status",
        "Priority",
        "Due date",
        "Created",
        "Completed",
        "Completed at (UTC)",
        "Printed name",
        "Signed by",
        "Due date changes",
      ]);
      expect(rows.slice(1)).toEqual(
        json.history.map((task) => [
          task.name.startsWith("=") ? `'${task.name}` : task.name,
          task.status,
          task.priority,
          shownDate(task.dueDate),
          shownDate(task.createdAt),
          shownDate(task.completedAt),
          task.completedAt ?? "",
          task.printedName ?? "",
          task.completedBy?.fullName ?? "",
          "",
        ]),
      );
      expect(rows.map((row) => row[0])).toContain(`'=HYPERLINK("http://evil.example","T2")`);
    });

    it("the user report's CSV pages through more than 1,000 completions with tied and sub-millisecond times, none lost or repeated", async () => {
      const db = ctx.database.db;
      const frank = await insertUser(db, { firmId: world.firm.id, role: "user" });
      const signed = await insertTask(db, {
        firmId: world.firm.id,
        clientId: world.d.id,
        name: "Bulk 0",
        createdAt: new Date(now - 5 * DAY),
        completed: { by: frank, at: new Date(now - 4 * DAY) },
      });
      // 1,204 more: three share each completion instant (the id breaks the tie), and the instants
      // carry microseconds a JavaScript Date cannot hold.
      await ctx.database.pool.query(
        `insert into tasks (id, firm_id, client_id, name, status, created_at, completed_at, completed_by, printed_name, signature, signature_sha256)
         select gen_random_uuid(), $1, $2, 'Bulk ' || g, 'completed', now() - interval '5 days',
                now() - interval '3 days' + (g / 3) * interval '1 second' + (g % 7) * interval '1 microsecond',
                $3, 'Frank', $4, $5
         from generate_series(1, 1204) as g`,
        [world.firm.id, world.d.id, frank.id, signed.signature, signed.signatureSha256],
      );
      const response = await (await asAdmin()).get(`/api/reports/users/${frank.id}?days=7&format=csv`);
      expect(response.status).toBe(200);
      const names = parseCsv(response.text)
        .slice(1)
        .map((row) => row[0]);
      expect(names).toHaveLength(1205);
      expect(new Set(names)).toEqual(new Set(Array.from({ length: 1205 }, (_, g) => `Bulk ${g}`)));
      expect(names.at(-1)).toBe("Bulk 0");
    });

    it("Accept: text/csv without a format answers CSV; format=json wins over Accept", async () => {
      const client = await asAdmin();
      const csv = await client.request("GET", `/api/reports/users/${world.admin.id}`, undefined, {
        accept: "text/csv",
      });
      expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
      const json = await client.request("GET", `/api/reports/users/${world.admin.id}?format=json`, undefined, {
        accept: "text/csv",
      });
      expect(json.headers["content-type"]).toContain("application/json");
    });

    it("the user report's CSV has one row per completion of the range, not only the 10 recent", async () => {
      const db = ctx.database.db;
      const erin = await insertUser(db, { firmId: world.firm.id, role: "user", username: `erin-${Date.now()}` });
      for (let i = 1; i <= 13; i++) {
        await insertTask(db, {
          firmId: world.firm.id,
          clientId: world.c.id,
          name: i === 1 ? "+cmd|' /C calc'!A0" : `Erin ${i}`,
          createdAt: new Date(now - 50 * HOUR),
          dueDate: i % 2 === 0 ? new Date(now + HOUR) : null,
          completed: { by: erin, at: new Date(now - i * HOUR) },
        });
      }
      const response = await (await asAdmin()).get(`/api/reports/users/${erin.id}?days=7&format=csv`);
      expect(response.status).toBe(200);
      const name = `user-report-${erin.username}-7d-${utcDate(Date.now())}.csv`;
      expect(response.headers["content-disposition"]).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
      const rows = parseCsv(response.text);
      expect(rows[0]).toEqual([
        "Task",
        "Client",
        "Priority",
        "Due date",
        "Created",
        "Completed",
        "Completed at (UTC)",
        "On time",
      ]);
      expect(rows).toHaveLength(14);
      expect(rows[1]).toEqual([
        "'+cmd|' /C calc'!A0",
        world.c.name,
        "medium",
        "",
        shownDate(new Date(now - 50 * HOUR).toISOString()),
        shownDate(new Date(now - HOUR).toISOString()),
        new Date(now - HOUR).toISOString(),
        "",
      ]);
      // Even ones are due in an hour: completed before it, on time.
      expect(rows[2]?.[7]).toBe("yes");
      expect(rows.slice(1).map((row) => row[6])).toEqual(
        Array.from({ length: 13 }, (_, i) => new Date(now - (i + 1) * HOUR).toISOString()),
      );
    });
  });
});
