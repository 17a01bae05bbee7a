import { and, count, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { templateLibrary } from "../../../shared/template-library";
import { auditEvents, firms, recurringSchedules, tasks, taskTemplates } from "../../platform/db/schema";
import { insertFirm, insertTask, insertTaskTemplate, insertUser } from "../../seed/factories";

describe("task templates API", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  const db = () => ctx.database.db;
  const as = (role: "super_admin" | "admin" | "user") => signIn(ctx.app, world.users[role]);
  const body = { name: "Quarterly review", description: "Review the quarter with the client.", priority: "high" };

  it("S-API-18 S-API-19 S-ROLE-20 POST creates a template; createdBy is the session's user whatever the body says", async () => {
    const response = await (await as("admin")).post("/api/task-templates", {
      ...body,
      frequency: "quarterly",
      isRecurring: true,
      createdBy: world.users.super_admin.id,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: "Quarterly review",
      priority: "high",
      frequency: "quarterly",
      isRecurring: true,
      createdBy: world.users.admin.id,
    });
    const list = await (await as("user")).get("/api/task-templates");
    expect(list.status).toBe(200);
    expect(list.body.find((template: { id: string }) => template.id === response.body.id)).toEqual(response.body);
    expect(Object.keys(response.body)).toEqual(
      expect.arrayContaining([
        "id",
        "name",
        "description",
        "priority",
        "isRecurring",
        "frequency",
        "createdBy",
        "createdAt",
      ]),
    );
  });

  it("S-STATE-19 S-STATE-20 S-STATE-21 one frequency list; none means one-time; yearly is stored as annually", async () => {
    const session = await as("admin");
    const made = async (extra: object) => (await session.post("/api/task-templates", { ...body, ...extra })).body;
    expect(await made({ frequency: "none", isRecurring: true })).toMatchObject({ frequency: null, isRecurring: false });
    expect(await made({ frequency: "" })).toMatchObject({ frequency: null, isRecurring: false });
    expect(await made({})).toMatchObject({ frequency: null, isRecurring: false, priority: "high" });
    expect(await made({ frequency: "yearly" })).toMatchObject({ frequency: "annually", isRecurring: true });
    for (const frequency of ["daily", "weekly", "monthly", "quarterly", "annually"]) {
      expect(await made({ frequency })).toMatchObject({ frequency, isRecurring: true });
    }
    const bad = await session.post("/api/task-templates", { ...body, frequency: "fortnightly" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Frequency must be daily, weekly, monthly, quarterly or annually (or none)");
  });

  it("S-VAL-16 S-VAL-17 S-VAL-18 S-VAL-19 name and description required, priority low/medium/high, default medium", async () => {
    const session = await as("admin");
    const refused = async (extra: object) => (await session.post("/api/task-templates", { ...body, ...extra })).body;
    expect(await refused({ name: " " })).toMatchObject({ code: "VALIDATION_FAILED", message: "Name is required" });
    expect(await refused({ description: "" })).toMatchObject({ message: "Description is required" });
    expect(await refused({ priority: "urgent" })).toMatchObject({ message: "Invalid enum value" });
    const { priority: _omitted, ...withoutPriority } = body;
    expect((await session.post("/api/task-templates", withoutPriority)).body.priority).toBe("medium");
  });

  it("S-API-20 S-STATE-22 S-ROLE-12 PUT replaces the template (super admin only); unchecking recurring makes it one-time", async () => {
    const template = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      frequency: "monthly",
    });
    const change = {
      name: "Renamed",
      description: "New words.",
      priority: "low",
      frequency: "monthly",
      isRecurring: false,
    };
    const asAdmin = await (await as("admin")).put(`/api/task-templates/${template.id}`, change);
    expect(asAdmin.status).toBe(403);
    const response = await (await as("super_admin")).put(`/api/task-templates/${template.id}`, change);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "Renamed", priority: "low", frequency: null, isRecurring: false });
  });

  it("S-API-21 DELETE hides the template, ends its schedules and keeps its tasks (without the link)", async () => {
    const template = await insertTaskTemplate(db(), {
      firmId: world.firm.id,
      createdBy: world.users.admin.id,
      frequency: "weekly",
    });
    const [schedule] = await db()
      .insert(recurringSchedules)
      .values({
        firmId: world.firm.id,
        clientId: world.assignedClient.id,
        templateId: template.id,
        frequency: "weekly",
        startsAt: new Date(),
      })
      .returning();
    const task = await insertTask(db(), {
      firmId: world.firm.id,
      clientId: world.assignedClient.id,
      templateId: template.id,
    });
    const owner = await as("super_admin");
    expect((await (await as("admin")).delete(`/api/task-templates/${template.id}`)).status).toBe(403);
    expect((await owner.delete(`/api/task-templates/${template.id}`)).status).toBe(204);
    const list = await owner.get("/api/task-templates");
    expect(list.body.map((row: { id: string }) => row.id)).not.toContain(template.id);
    const [ended] = await db()
      .select()
      .from(recurringSchedules)
      .where(eq(recurringSchedules.id, schedule?.id ?? ""));
    expect(ended?.endedAt).not.toBeNull();
    const [kept] = await db().select().from(tasks).where(eq(tasks.id, task.id));
    expect(kept?.templateId).toBeNull();
    expect((await owner.delete(`/api/task-templates/${template.id}`)).status).toBe(404);
  });

  it("S-ROLE-10 S-ROLE-11 every role reads templates; a user cannot create one", async () => {
    expect((await (await as("user")).get("/api/task-templates")).status).toBe(200);
    const refused = await (await as("user")).post("/api/task-templates", body);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Your role (user) does not allow you to create task templates");
  });

  it("custom templates beyond the plan's limit are refused; library templates do not count", async () => {
    const firm = await insertFirm(db(), { plan: "starter" });
    const owner = await insertUser(db(), { firmId: firm.id, role: "super_admin" });
    for (let index = 0; index < 20; index++) {
      await insertTaskTemplate(db(), { firmId: firm.id, createdBy: owner.id, name: `Custom ${index}` });
    }
    const session = await signIn(ctx.app, owner);
    const refused = await session.post("/api/task-templates", body);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Your Starter plan allows up to 20 custom templates. Upgrade to add more.");
    expect((await session.post("/api/template-library/monthly-bank-reconciliation/add")).status).toBe(201);
    await db().update(firms).set({ plan: "enterprise" }).where(eq(firms.id, firm.id));
    expect((await session.post("/api/task-templates", body)).status).toBe(201);
  });

  it("the library: at least 50 templates, added once each, into the firm's own list", async () => {
    const session = await as("admin");
    const library = await session.get("/api/template-library");
    expect(library.status).toBe(200);
    expect(library.body.length).toBeGreaterThanOrEqual(50);
    expect(library.body.length).toBe(templateLibrary.length);
    const entry = library.body.find((item: { key: string }) => item.key === "conflict-check-new-matter");
    expect(entry).toMatchObject({ name: "Conflict check for new matter", category: "legal", added: false });
    const added = await session.post("/api/template-library/conflict-check-new-matter/add");
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: "Conflict check for new matter",
      libraryKey: "conflict-check-new-matter",
      createdBy: world.users.admin.id,
      frequency: entry.frequency,
    });
    const again = await session.post("/api/template-library/conflict-check-new-matter/add");
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This template is already in your templates");
    const after = await session.get("/api/template-library");
    expect(after.body.find((item: { key: string }) => item.key === entry.key).added).toBe(true);
    for (const key of ["no-such-template", "Bad_Key", "..%2F"]) {
      const missing = await session.post(`/api/template-library/${key}/add`);
      expect(missing.status, key).toBe(404);
      expect(missing.body).toEqual({ message: "Library template not found", code: "NOT_FOUND" });
    }
    expect((await (await as("user")).post("/api/template-library/lease-renewal-follow-up/add")).status).toBe(403);
  });

  it("S-EDGE-05 the library marks an entry whose name one of the firm's own templates has, ignoring case and spaces", async () => {
    const firm = (await insertFirm(db(), { plan: "enterprise" })).id;
    const owner = await insertUser(db(), { firmId: firm, role: "super_admin" });
    const session = await signIn(ctx.app, owner);
    const [first, second] = templateLibrary;
    if (!first || !second) throw new Error("the library has templates");
    const entryOf = async (key: string) =>
      ((await session.get("/api/template-library")).body as { key: string; added: boolean; nameInUse: boolean }[]).find(
        (entry) => entry.key === key,
      );
    expect(await entryOf(first.key)).toMatchObject({ added: false, nameInUse: false });
    // Another firm's template of that name never counts.
    await insertTaskTemplate(db(), { firmId: world.firm.id, createdBy: world.users.admin.id, name: first.name });
    expect(await entryOf(first.key)).toMatchObject({ added: false, nameInUse: false });
    const own = await session.post("/api/task-templates", { ...body, name: `  ${first.name.toUpperCase()} ` });
    expect(own.status).toBe(201);
    expect(await entryOf(first.key)).toMatchObject({ added: false, nameInUse: true });
    // Adding it anyway is allowed; the entry is then added, and its own copy does not count as another.
    expect((await session.post(`/api/template-library/${first.key}/add`)).status).toBe(201);
    expect(await entryOf(first.key)).toMatchObject({ added: true, nameInUse: true });
    expect((await session.delete(`/api/task-templates/${own.body.id}`)).status).toBe(204);
    expect(await entryOf(first.key)).toMatchObject({ added: true, nameInUse: false });
    // Renaming a template to a library entry's name marks that entry; a deleted one does not.
    const renamed = await session.post("/api/task-templates", { ...body, name: "Something else" });
    expect(await entryOf(second.key)).toMatchObject({ nameInUse: false });
    await session.put(`/api/task-templates/${renamed.body.id}`, { ...body, name: second.name });
    expect(await entryOf(second.key)).toMatchObject({ nameInUse: true });
  });

  it("every change is audited and a refused one writes nothing", async () => {
    const session = await as("admin");
    const [before] = await db().select({ n: count() }).from(auditEvents);
    await session.post("/api/task-templates", { ...body, name: "" });
    const [unchanged] = await db().select({ n: count() }).from(auditEvents);
    expect(unchanged).toEqual(before);
    const created = await session.post("/api/task-templates", body);
    const events = await db()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, created.body.id));
    expect(events).toEqual([{ action: "template.created" }]);
    const [live] = await db()
      .select({ n: count() })
      .from(taskTemplates)
      .where(and(eq(taskTemplates.id, created.body.id), isNull(taskTemplates.deletedAt)));
    expect(live?.n).toBe(1);
  });
});
