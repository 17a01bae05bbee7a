import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents, clients, contacts, firms, recurringSchedules, tasks } from "../../platform/db/schema";
import { insertClient, insertFirm, insertTask, insertTaskTemplate, insertUser } from "../../seed/factories";
import { materializeSchedules } from "../schedules/schedules.service";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECOND = 1000;

describe("clients API", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  const admin = () => signIn(ctx.app, world.users.admin);
  const db = () => ctx.database.db;

  async function countRows() {
    const [[c], [k], [t], [a]] = await Promise.all([
      db().select({ n: count() }).from(clients),
      db().select({ n: count() }).from(contacts),
      db().select({ n: count() }).from(tasks),
      db().select({ n: count() }).from(auditEvents),
    ]);
    return { clients: c?.n, contacts: k?.n, tasks: t?.n, audit: a?.n };
  }

  it("S-API-12 S-API-36 S-STATE-08 POST /api/clients returns the created client with a server-made id; status defaults to active", async () => {
    const client = await admin();
    const response = await client.post("/api/clients", { name: "  Acme Holdings  ", industry: "Manufacturing" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: "Acme Holdings",
      industry: "Manufacturing",
      address: null,
      phone: null,
      email: null,
      status: "active",
      archivedAt: null,
      contacts: [],
      tasks: [],
      team: [],
      health: { level: "good", label: "No tasks" },
    });
    expect(response.body.id).toMatch(uuid);
  });

  it("S-API-09 GET /api/clients returns the firm's client list, each with its status", async () => {
    const firm = (await insertFirm(db())).id;
    const owner = await insertUser(db(), { firmId: firm, role: "admin" });
    const stored = [
      await insertClient(db(), { firmId: firm, name: "Status Active", status: "active" }),
      await insertClient(db(), { firmId: firm, name: "Status Inactive", status: "inactive" }),
      await insertClient(db(), { firmId: firm, name: "Status Prospect", status: "prospect" }),
    ];
    const response = await (await signIn(ctx.app, owner)).get("/api/clients");
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(
      response.body.map((row: { id: string; name: string; status: string }) => [row.id, row.name, row.status]),
    ).toEqual(stored.map((row) => [row.id, row.name, row.status]));
    for (const row of response.body) {
      expect(row).toMatchObject({
        industry: expect.any(String),
        email: expect.any(String),
        taskCounts: { total: 0, pending: 0, overdue: 0, completed: 0 },
        health: { level: "good", label: "No tasks" },
      });
    }
  });

  it("S-API-35 error answers are JSON {message, code, issues?} with a 4xx status", async () => {
    const client = await admin();
    const expectJsonError = (response: { status: number; headers: Record<string, unknown>; body: unknown }) => {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
    };
    const invalid = await client.post("/api/clients", { name: "", email: "nope", status: "closed" });
    expectJsonError(invalid);
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body).sort()).toEqual(["code", "issues", "message"]);
    expect(invalid.body).toMatchObject({ code: "VALIDATION_FAILED", message: "Company name is required" });
    expect(invalid.body.issues).toEqual(
      expect.arrayContaining([
        { path: ["name"], message: "Company name is required" },
        { path: ["email"], message: "Invalid email address" },
        { path: ["status"], message: "Invalid enum value" },
      ]),
    );
    const others = [
      await apiClient(ctx.app).post("/api/clients", { name: "Anonymous" }),
      await (await signIn(ctx.app, world.users.user)).post("/api/clients", { name: "Not Allowed" }),
      await client.get("/api/clients/01934c8e-0000-7000-8000-000000000000"),
    ];
    expect(others.map((response) => response.status)).toEqual([401, 403, 404]);
    for (const response of others) {
      expectJsonError(response);
      expect(Object.keys(response.body).sort()).toEqual(["code", "message"]);
      expect(response.body.message).toEqual(expect.any(String));
      expect(response.body.code).toMatch(/^[A-Z_]+$/);
    }
  });

  it("S-VAL-09 S-VAL-10 S-VAL-11 S-VAL-12 S-VAL-28 the client form's rules and messages, and nothing written on refusal", async () => {
    const client = await admin();
    const before = await countRows();
    const refusals: [unknown, string][] = [
      [{ name: "" }, "Company name is required"],
      [{ name: "   " }, "Company name is required"],
      [{ industry: "Law" }, "Company name is required"],
      [{ name: "Acme", email: "foo@" }, "Invalid email address"],
      [{ name: "Acme", status: "closed" }, "Invalid enum value"],
      [{ name: "Acme", primaryContact: { name: " " } }, "Contact name is required"],
      [{ name: "Acme", primaryContact: { name: "Ann", email: "x@" } }, "Invalid email address"],
      [{ name: "Acme", firmId: world.firm.id }, 'Unrecognized key: "firmId"'],
    ];
    for (const [body, message] of refusals) {
      const response = await client.post("/api/clients", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_FAILED", message });
    }
    expect(await countRows()).toEqual(before);
    const minimal = await client.post("/api/clients", { name: "Only A Name", email: "" });
    expect(minimal.status).toBe(201);
    expect(minimal.body.email).toBeNull();
  });

  it("S-VAL-27 generic messages for fields without their own: Required, Invalid enum value", async () => {
    const client = await admin();
    const missing = await client.post("/api/contacts", { name: "Ann" });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toContainEqual({ path: ["clientId"], message: "clientId must be a client id" });
    const badEnum = await client.post("/api/clients", { name: "Acme", status: "CLOSED" });
    expect(badEnum.body.issues).toEqual([{ path: ["status"], message: "Invalid enum value" }]);
  });

  it("creates the client, its primary contact and a pending task per template in one request", async () => {
    const client = await admin();
    const first = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      name: "Kick-off call",
    });
    const second = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      name: "Engagement letter",
      priority: "high",
    });
    const response = await client.post("/api/clients", {
      name: "Birch & Co",
      status: "prospect",
      primaryContact: { name: "Dana Birch", title: "Owner", email: "dana@birch.example.com" },
      templateIds: [second.id, first.id],
    });
    expect(response.status).toBe(201);
    expect(response.body.contacts).toEqual([
      expect.objectContaining({ name: "Dana Birch", title: "Owner", isPrimary: true, phone: null }),
    ]);
    // S-STATE-13: tasks from templates at client creation start pending with no due date.
    expect(
      response.body.tasks.map((task: { name: string; status: string; dueDate: null; templateId: string }) => [
        task.name,
        task.status,
        task.dueDate,
        task.templateId,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["Engagement letter", "pending", null, second.id],
        ["Kick-off call", "pending", null, first.id],
      ]),
    );
    expect(response.body.health).toEqual({ level: "warning", label: "2 pending task(s)" });
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, response.body.id), eq(auditEvents.action, "client.created")));
    expect(event?.after).toMatchObject({
      name: "Birch & Co",
      primaryContact: "Dana Birch",
      templateIds: [second.id, first.id],
    });
  });

  it("S-CNEW-21 S-STATE-13 a recurring template becomes a schedule whose current period's task is due at its end", async () => {
    const monthly = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      name: "Monthly bank reconciliation",
      frequency: "monthly",
    });
    const once = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      name: "Onboarding call",
    });
    const response = await (await admin()).post("/api/clients", {
      name: "Recurring Ltd",
      templateIds: [monthly.id, once.id],
    });
    expect(response.status).toBe(201);
    const now = new Date();
    const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - 1);
    const byName = Object.fromEntries(
      response.body.tasks.map((task: { name: string; dueDate: string | null; status: string }) => [task.name, task]),
    );
    expect(byName["Monthly bank reconciliation"]).toMatchObject({
      status: "pending",
      dueDate: monthEnd.toISOString(),
      templateId: monthly.id,
    });
    expect(byName["Onboarding call"]).toMatchObject({ status: "pending", dueDate: null, templateId: once.id });
    expect(response.body.tasks).toHaveLength(2);
  });

  it("a restored client's schedules resume with the current period, not with every period missed", async () => {
    const weekly = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      name: "Weekly status email",
      frequency: "weekly",
    });
    const session = await admin();
    const created = await session.post("/api/clients", { name: "Paused Partners", templateIds: [weekly.id] });
    const id = created.body.id as string;
    expect((await session.delete(`/api/clients/${id}`)).status).toBe(204);
    // Pretend the client sat in the archive for ten weeks, its schedule untouched.
    await db()
      .update(recurringSchedules)
      .set({
        materializedUntil: new Date(Date.now() - 70 * 86_400_000),
        startsAt: new Date(Date.now() - 80 * 86_400_000),
      })
      .where(eq(recurringSchedules.clientId, id));
    await db().delete(tasks).where(eq(tasks.clientId, id));
    expect((await session.post(`/api/clients/${id}/restore`)).status).toBe(200);
    await materializeSchedules(db());
    const detail = await session.get(`/api/clients/${id}`);
    expect(detail.body.tasks).toHaveLength(1);
    expect(detail.body.tasks[0]).toMatchObject({ name: "Weekly status email", status: "pending" });
    expect(new Date(detail.body.tasks[0].dueDate).getTime()).toBeGreaterThan(Date.now());
  });

  it("atomic creation: a step that fails late leaves no client, contact, task or audit event behind", async () => {
    const client = await admin();
    const template = await insertTaskTemplate(db(), { firmId: world.firm.id, createdBy: world.users.admin.id });
    const before = await countRows();
    const response = await client.post("/api/clients", {
      name: "Half Made Ltd",
      primaryContact: { name: "Pat Half" },
      templateIds: [template.id, "01934c8e-0000-7000-8000-000000000000"],
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Task template not found", code: "NOT_FOUND" });
    expect(await countRows()).toEqual(before);
  });

  it("S-STATE-15 S-STATE-16 S-STATE-17 S-STATE-18 health from real tasks, and the overdue boundary to the second", async () => {
    const firm = world.firm.id;
    const now = Date.now();
    const none = await insertClient(db(), { firmId: firm, name: "Vitals None" });
    const overdue = await insertClient(db(), { firmId: firm, name: "Vitals Overdue" });
    await insertTask(db(), { firmId: firm, clientId: overdue.id, dueDate: new Date(now - 5 * SECOND) });
    await insertTask(db(), { firmId: firm, clientId: overdue.id, dueDate: new Date(now - 86_400 * SECOND) });
    await insertTask(db(), { firmId: firm, clientId: overdue.id, dueDate: new Date(now + 3600 * SECOND) });
    const pending = await insertClient(db(), { firmId: firm, name: "Vitals Pending" });
    await insertTask(db(), { firmId: firm, clientId: pending.id, dueDate: new Date(now + 5 * SECOND) });
    const done = await insertClient(db(), { firmId: firm, name: "Vitals Done" });
    await insertTask(db(), { firmId: firm, clientId: done.id, completed: { by: world.users.admin } });

    const list = (await (await admin()).get("/api/clients?q=vitals")).body as {
      name: string;
      health: unknown;
      taskCounts: unknown;
    }[];
    expect(list.map((row) => [row.name, row.health])).toEqual([
      ["Vitals Done", { level: "good", label: "All tasks complete" }],
      ["Vitals None", { level: "good", label: "No tasks" }],
      ["Vitals Overdue", { level: "critical", label: "2 overdue task(s)" }],
      ["Vitals Pending", { level: "warning", label: "1 pending task(s)" }],
    ]);
    expect(list.find((row) => row.name === "Vitals Overdue")?.taskCounts).toEqual({
      total: 3,
      pending: 1,
      overdue: 2,
      completed: 0,
    });
    // The detail derives each task's status with the same rule.
    const detail = await (await admin()).get(`/api/clients/${overdue.id}`);
    expect(detail.body.tasks.map((task: { status: string }) => task.status).sort()).toEqual([
      "overdue",
      "overdue",
      "pending",
    ]);
    expect(detail.body.health).toEqual({ level: "critical", label: "2 overdue task(s)" });
    expect(none.id).toMatch(uuid);
  });

  it("S-API-10 S-CDET-06 S-CDET-07 S-CDET-10 S-CDET-15 the detail has the client's fields, contacts (primary first), tasks with their signer, and team", async () => {
    const firm = world.firm.id;
    const created = await insertClient(db(), { firmId: firm, name: "Detail Partners" });
    await ctx.database.db.insert(contacts).values([
      { firmId: firm, clientId: created.id, name: "Zed Second", isPrimary: false },
      { firmId: firm, clientId: created.id, name: "Amy First", isPrimary: true },
    ]);
    const signed = await insertTask(db(), {
      firmId: firm,
      clientId: created.id,
      completed: { by: world.users.admin },
    });
    const response = await (await signIn(ctx.app, world.users.super_admin)).get(`/api/clients/${created.id}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(
      expect.arrayContaining([
        "id",
        "name",
        "industry",
        "address",
        "phone",
        "email",
        "status",
        "contacts",
        "tasks",
        "team",
      ]),
    );
    expect(response.body.contacts.map((contact: { name: string }) => contact.name)).toEqual([
      "Amy First",
      "Zed Second",
    ]);
    expect(response.body.tasks).toEqual([
      expect.objectContaining({
        id: signed.id,
        status: "completed",
        completedBy: world.users.admin.id,
        completedByUser: {
          id: world.users.admin.id,
          fullName: world.users.admin.fullName,
          username: world.users.admin.username,
        },
        printedName: world.users.admin.fullName,
        signature: expect.stringMatching(/^\/api\/tasks\/[0-9a-f-]{36}\/signature\?v=[0-9a-f]{64}$/),
        signatureSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect(response.body.team).toEqual([]);
    const assigned = await (await admin()).get(`/api/clients/${world.assignedClient.id}`);
    expect(assigned.body.team).toEqual([
      {
        id: world.users.user.id,
        username: world.users.user.username,
        fullName: world.users.user.fullName,
        role: "user",
      },
    ]);
  });

  it("S-API-11 S-ROLE-19 an unknown id, a malformed one and another firm's are all 404 Client not found", async () => {
    const other = await insertFirm(db());
    const foreign = await insertClient(db(), { firmId: other.id });
    const client = await admin();
    for (const id of [foreign.id, "01934c8e-0000-7000-8000-000000000000", "not-an-id"]) {
      const response = await client.get(`/api/clients/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.body).toEqual({ message: "Client not found", code: "NOT_FOUND" });
    }
  });

  it("S-CLIST-03 S-CLIST-04 S-CLIST-05 search by name, industry or status, ignoring case; % and _ are plain text", async () => {
    const firm = world.firm.id;
    await insertClient(db(), { firmId: firm, name: "Searchable Acme", industry: "Hospitality Searchable" });
    await insertClient(db(), { firmId: firm, name: "Searchable Beta", industry: "Retail", status: "prospect" });
    await insertClient(db(), { firmId: firm, name: "Searchable 100% Gamma", industry: "Retail" });
    const client = await admin();
    const names = async (query: string) =>
      ((await client.get(`/api/clients?${query}`)).body as { name: string }[]).map((row) => row.name);
    expect(await names("q=SEARCHABLE ACME")).toEqual(["Searchable Acme"]);
    expect(await names("q=hospitality searchable")).toEqual(["Searchable Acme"]);
    expect(await names("q=searchable&status=prospect")).toEqual(["Searchable Beta"]);
    expect(await names("q=PROSPECT")).toContain("Searchable Beta");
    expect(await names("q=100%25")).toEqual(["Searchable 100% Gamma"]);
    expect(await names("q=searchable_")).toEqual([]);
  });

  it("pages with limit and cursor in name order, keyset-style, the next cursor in x-next-cursor", async () => {
    const firm = (await insertFirm(db())).id;
    const owner = await insertUser(db(), { firmId: firm, role: "admin" });
    for (const name of ["Delta", "Alpha", "Echo", "Charlie", "Bravo"]) await insertClient(db(), { firmId: firm, name });
    const client = await signIn(ctx.app, owner);
    const seen: string[] = [];
    let url = "/api/clients?limit=2";
    for (let page = 0; page < 5; page++) {
      const response = await client.get(url);
      expect(response.status).toBe(200);
      seen.push(...response.body.map((row: { name: string }) => row.name));
      const next = response.headers["x-next-cursor"];
      if (!next) break;
      url = `/api/clients?limit=2&cursor=${next}`;
    }
    expect(seen).toEqual(["Alpha", "Bravo", "Charlie", "Delta", "Echo"]);
    const bad = await client.get("/api/clients?limit=2&cursor=bm9wZQ");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("The cursor is not one this list gave out");
  });

  it("refuses a well-formed cursor whose key the list never gave out (not a uuid, NUL, a lone surrogate) with 400, never a 500", async () => {
    const client = await admin();
    const cursorOf = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString("base64url");
    const someId = "0b8f2c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d";
    for (const key of [
      ["Acme", "-".repeat(36)],
      ["Acme", "0000000000000000000000000000000000-0"],
      ["Acme", someId.toUpperCase().replace(/-/g, "0")],
      ["Ac\u0000me", someId],
      ["\ud800", someId],
      ["Acme", someId, "extra"],
      [42, someId],
    ]) {
      const response = await client.get(`/api/clients?limit=2&cursor=${cursorOf(key)}`);
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(response.body).toEqual({ message: "The cursor is not one this list gave out", code: "BAD_REQUEST" });
    }
    const valid = await client.get(`/api/clients?limit=2&cursor=${cursorOf(["Acme", someId])}`);
    expect(valid.status).toBe(200);
  });

  it("S-ROLE-07 S-ROLE-08 a user sees only their assigned clients and cannot create or change any", async () => {
    const user = await signIn(ctx.app, world.users.user);
    const list = await user.get("/api/clients");
    expect(list.body.map((row: { id: string }) => row.id)).toEqual([world.assignedClient.id]);
    const other = world.clients[1];
    expect((await user.get(`/api/clients/${other?.id}`)).status).toBe(404);
    expect((await user.get(`/api/clients/${world.assignedClient.id}`)).status).toBe(200);
    const create = await user.post("/api/clients", { name: "Not Allowed" });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({
      message: "Your role (user) does not allow you to create or edit clients and contacts",
      code: "FORBIDDEN",
    });
  });

  it("PATCH changes only the fields given and is audited", async () => {
    const created = await insertClient(db(), { firmId: world.firm.id, name: "Patchable", phone: "555" });
    const client = await admin();
    const response = await client.patch(`/api/clients/${created.id}`, { status: "inactive", email: "" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "Patchable", phone: "555", status: "inactive", email: null });
    const nothing = await client.patch(`/api/clients/${created.id}`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe("Nothing to change");
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.id), eq(auditEvents.action, "client.updated")));
    expect(event?.before).toEqual({ status: "active", email: created.email });
    expect(event?.after).toEqual({ status: "inactive", email: null });
  });

  it("DELETE archives: gone from lists, readable, listed with archived=true, restored by POST restore", async () => {
    const created = await insertClient(db(), { firmId: world.firm.id, name: "Archivable" });
    await insertTask(db(), { firmId: world.firm.id, clientId: created.id, completed: { by: world.users.admin } });
    const client = await admin();
    expect((await client.delete(`/api/clients/${created.id}`)).status).toBe(204);
    const ids = async (query = "") =>
      ((await client.get(`/api/clients${query}`)).body as { id: string }[]).map((row) => row.id);
    expect(await ids()).not.toContain(created.id);
    expect(await ids("?archived=true")).toContain(created.id);
    const archived = await client.get(`/api/clients/${created.id}`);
    expect(archived.body.archivedAt).not.toBeNull();
    expect(archived.body.tasks).toHaveLength(1);
    const restored = await client.post(`/api/clients/${created.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.archivedAt).toBeNull();
    expect(await ids()).toContain(created.id);
  });

  it("purge: super admin only, refused for a client with signed-off work, removes one without", async () => {
    const firm = world.firm.id;
    const signed = await insertClient(db(), { firmId: firm, name: "Has Evidence" });
    await insertTask(db(), { firmId: firm, clientId: signed.id, completed: { by: world.users.admin } });
    const empty = await insertClient(db(), { firmId: firm, name: "Typo Client" });
    await insertTask(db(), { firmId: firm, clientId: empty.id });
    const asAdmin = await (await admin()).delete(`/api/clients/${empty.id}?purge=true`);
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body.message).toBe("Your role (admin) does not allow you to delete clients for good");
    const owner = await signIn(ctx.app, world.users.super_admin);
    const refused = await owner.delete(`/api/clients/${signed.id}?purge=true`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/signed-off tasks/);
    expect((await owner.delete(`/api/clients/${empty.id}?purge=true`)).status).toBe(204);
    expect((await owner.get(`/api/clients/${empty.id}`)).status).toBe(404);
    const [left] = await db().select({ n: count() }).from(tasks).where(eq(tasks.clientId, empty.id));
    expect(left?.n).toBe(0);
  });

  it("refuses a client beyond the plan's limit with 403 naming the plan", async () => {
    const firm = await insertFirm(db(), { plan: "starter" });
    const owner = await insertUser(db(), { firmId: firm.id, role: "super_admin" });
    await ctx.database.db
      .insert(clients)
      .values(Array.from({ length: 100 }, (_, index) => ({ firmId: firm.id, name: `Client ${index}` })));
    const response = await (await signIn(ctx.app, owner)).post("/api/clients", { name: "One Too Many" });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      message: "Your Starter plan allows up to 100 clients. Upgrade to add more.",
      code: "FORBIDDEN",
    });
    await ctx.database.db.update(firms).set({ plan: "enterprise" }).where(eq(firms.id, firm.id));
    expect((await (await signIn(ctx.app, owner)).post("/api/clients", { name: "Now Fine" })).status).toBe(201);
  });

  it("S-EDGE-04 GET /api/clients/name-matches finds the firm's clients of a name, ignoring case and surrounding spaces, archived ones too", async () => {
    const firm = (await insertFirm(db())).id;
    const owner = await insertUser(db(), { firmId: firm, role: "admin" });
    const live = await insertClient(db(), { firmId: firm, name: "Harbor & Lane LLP" });
    const archived = await insertClient(db(), {
      firmId: firm,
      name: "HARBOR & LANE llp",
      archivedAt: new Date("2026-01-05T10:00:00Z"),
    });
    await insertClient(db(), { firmId: firm, name: "Harbor & Lane" });
    // Another firm's client of the same name never counts.
    await insertClient(db(), { firmId: world.firm.id, name: "Harbor & Lane LLP" });
    const session = await signIn(ctx.app, owner);
    const matches = await session.get(`/api/clients/name-matches?name=${encodeURIComponent("  harbor & lane llp ")}`);
    expect(matches.status).toBe(200);
    // Live ones first, then archived ones, each saying which it is.
    expect(matches.body).toEqual([
      { id: live.id, name: "Harbor & Lane LLP", status: "active", archivedAt: null },
      { id: archived.id, name: "HARBOR & LANE llp", status: "active", archivedAt: "2026-01-05T10:00:00.000Z" },
    ]);
    // An exact name, not a search: neither a part of it nor a pattern matches.
    for (const name of ["Harbor", "Harbor & Lane L", "Harbor & Lane%", "harbor_&_lane_llp"]) {
      const none = await session.get(`/api/clients/name-matches?name=${encodeURIComponent(name)}`);
      expect(none.status, name).toBe(200);
      expect(none.body, name).toEqual([]);
    }
  });

  it("S-EDGE-04 name-matches refuses a missing, blank or overlong name with the create's messages, and shows a user only their assigned clients", async () => {
    const session = await admin();
    for (const [query, message] of [
      ["", "Company name is required"],
      ["?name=%20%20", "Company name is required"],
      [`?name=${"x".repeat(201)}`, "Company name must be at most 200 characters"],
      ["?name=Acme&q=Acme", 'Unrecognized key: "q"'],
    ] as const) {
      const response = await session.get(`/api/clients/name-matches${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.code, query).toBe("VALIDATION_FAILED");
      expect(response.body.message, query).toBe(message);
    }
    const user = await signIn(ctx.app, world.users.user);
    const other = world.clients[1];
    if (!other) throw new Error("the seeded firm has three clients");
    const ask = (name: string) => user.get(`/api/clients/name-matches?name=${encodeURIComponent(name)}`);
    expect((await ask(world.assignedClient.name)).body).toEqual([
      expect.objectContaining({ id: world.assignedClient.id }),
    ]);
    expect((await ask(other.name)).body).toEqual([]);
  });

  it("refuses anonymous callers with 401", async () => {
    expect((await apiClient(ctx.app).get("/api/clients")).status).toBe(401);
  });
});
