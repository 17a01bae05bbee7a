import { describe, expect, it } from "vitest";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { inFirm } from "../../platform/db/firm-scope";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";
import { getDashboard } from "./dashboard.service";

const SECOND = 1000;

describe("GET /api/dashboard", () => {
  const ctx = useTestApp();

  it("S-DASH-05 S-DASH-06 S-STATE-11 counts clients by status and tasks by derived status, in the caller's scope", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db);
    const owner = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const staff = await insertUser(db, { firmId: firm.id, role: "user" });
    const now = Date.now();
    const active = await insertClient(db, { firmId: firm.id, status: "active" });
    const late = await insertClient(db, { firmId: firm.id, status: "active" });
    const inactive = await insertClient(db, { firmId: firm.id, status: "inactive" });
    await insertClient(db, { firmId: firm.id, status: "prospect" });
    const archived = await insertClient(db, { firmId: firm.id, status: "active", archivedAt: new Date() });
    await insertTask(db, { firmId: firm.id, clientId: active.id, dueDate: new Date(now + 60 * SECOND) });
    await insertTask(db, { firmId: firm.id, clientId: active.id, completed: { by: owner } });
    await insertTask(db, { firmId: firm.id, clientId: late.id, dueDate: new Date(now - 2 * SECOND) });
    await insertTask(db, { firmId: firm.id, clientId: late.id, dueDate: new Date(now - 86_400 * SECOND) });
    await insertTask(db, { firmId: firm.id, clientId: inactive.id, dueDate: new Date(now - 5 * SECOND) });
    await insertTask(db, { firmId: firm.id, clientId: inactive.id });
    // Archived work is out of every figure.
    await insertTask(db, { firmId: firm.id, clientId: archived.id, dueDate: new Date(now - 5 * SECOND) });

    const response = await (await signIn(ctx.app, owner)).get("/api/dashboard");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      clients: { total: 4, active: 2, inactive: 1, prospect: 1, withOverdueTasks: 2 },
      tasks: { total: 6, pending: 2, overdue: 3, completed: 1 },
    });

    await insertUserClients(db, { firmId: firm.id, userId: staff.id, clientIds: [late.id] });
    const mine = await (await signIn(ctx.app, staff)).get("/api/dashboard");
    expect(mine.body).toEqual({
      clients: { total: 1, active: 1, inactive: 0, prospect: 0, withOverdueTasks: 1 },
      tasks: { total: 2, pending: 0, overdue: 2, completed: 0 },
    });
  });

  it("S-SCALE-05 a firm-wide role's dashboard and bell total read the firm's kept counts, and overdue moves with the clock without a write", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db);
    const owner = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const client = await insertClient(db, { firmId: firm.id, status: "active" });
    const now = new Date();
    const soon = new Date(now.getTime() + 60 * SECOND);
    await insertTask(db, { firmId: firm.id, clientId: client.id, dueDate: soon });
    const actor = { firmId: firm.id, userId: owner.id, role: owner.role };
    const appDb = inFirm(ctx.appDatabase.db, firm.id);

    expect((await getDashboard({ db: appDb, actor, now })).tasks).toMatchObject({ pending: 1, overdue: 0 });
    // A minute later the same task is overdue, though nothing was written.
    const later = new Date(soon.getTime() + SECOND);
    expect(await getDashboard({ db: appDb, actor, now: later })).toMatchObject({
      clients: { withOverdueTasks: 1 },
      tasks: { total: 1, pending: 0, overdue: 1 },
    });

    // The answers are the kept rows': changed behind the app's back, the figures follow them.
    await ctx.database.pool.query("update firm_work_counts set tasks_total = tasks_total + 1000 where firm_id = $1", [
      firm.id,
    ]);
    await ctx.database.pool.query(
      "insert into pending_due_counts (firm_id, due_date, tasks, clients) values ($1, now() - interval '1 day', 7, 2)",
      [firm.id],
    );
    const session = await signIn(ctx.app, owner);
    expect((await session.get("/api/dashboard")).body).toMatchObject({
      clients: { withOverdueTasks: 2 },
      tasks: { total: 1001, overdue: 7, pending: 1001 - 7 },
    });
    expect((await session.get("/api/tasks/overdue?limit=20")).headers["x-total-count"]).toBe("7");
  });

  it("a new firm's dashboard is all zeros", async () => {
    const firm = await insertFirm(ctx.database.db);
    const owner = await insertUser(ctx.database.db, { firmId: firm.id, role: "super_admin" });
    const response = await (await signIn(ctx.app, owner)).get("/api/dashboard");
    expect(response.body).toEqual({
      clients: { total: 0, active: 0, inactive: 0, prospect: 0, withOverdueTasks: 0 },
      tasks: { total: 0, pending: 0, overdue: 0, completed: 0 },
    });
  });
});
