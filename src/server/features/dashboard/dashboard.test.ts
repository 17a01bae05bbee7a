import { describe, expect, it } from "vitest";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";

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
