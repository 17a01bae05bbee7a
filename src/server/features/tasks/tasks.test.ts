import { createHash } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents, clients, tasks } from "../../platform/db/schema";
import { insertClient, insertFirm, insertTask, insertTaskTemplate, insertUser } from "../../seed/factories";
import { createRandom } from "../../seed/random";
import { drawSignature } from "../../seed/signature-image";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

const random = createRandom(2026);
/** A signature as the pad sends it: a drawn stroke on a transparent 400 x 128 PNG. */
const signature = (name = "Dana Birch") => drawSignature(name, random).dataUrl;
const pngDataUrl = (image: PNG) => `data:image/png;base64,${PNG.sync.write(image).toString("base64")}`;
/** The pad submitted without drawing: fully transparent. */
const blankSignature = () => pngDataUrl(new PNG({ width: 400, height: 128 }));
/** Random pixels do not compress: about 360 KB of PNG, over the 256 KB limit and under the body limit. */
function oversizedSignature() {
  const noise = createRandom(9);
  const image = new PNG({ width: 300, height: 300 });
  for (let index = 0; index < image.data.length; index++) image.data[index] = noise.int(0, 255);
  return pngDataUrl(image);
}

type ListedTask = { id: string; name: string; status: string; clientId: string; clientName: string };

describe("tasks API", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  const db = () => ctx.database.db;
  const admin = () => signIn(ctx.app, world.users.admin);
  const firmId = () => world.firm.id;
  const at = <T>(items: T[], index: number): T => {
    const item = items[index];
    if (item === undefined) throw new Error(`no item ${index}`);
    return item;
  };

  async function countRows() {
    const [[t], [a]] = await Promise.all([
      db().select({ n: count() }).from(tasks),
      db().select({ n: count() }).from(auditEvents),
    ]);
    return { tasks: t?.n, audit: a?.n };
  }

  async function storedTask(id: string) {
    const [row] = await db().select().from(tasks).where(eq(tasks.id, id));
    if (!row) throw new Error(`task ${id} is not stored`);
    return row;
  }

  async function eventsOf(id: string, action: string) {
    return db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, action)));
  }

  // -----------------------------------------------------------------------------------------
  // Create

  it("S-API-16 POST /api/tasks {name, description, priority, clientId, status: pending, dueDate: null} creates a pending task with null dueDate", async () => {
    const client = await admin();
    const response = await client.post("/api/tasks", {
      name: "  Year-end close  ",
      description: "Close the books for the year",
      priority: "high",
      clientId: world.assignedClient.id,
      status: "pending",
      dueDate: null,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(uuid),
      clientId: world.assignedClient.id,
      templateId: null,
      name: "Year-end close",
      description: "Close the books for the year",
      priority: "high",
      status: "pending",
      dueDate: null,
      createdAt: expect.any(String),
      completedAt: null,
      completedBy: null,
      completedByUser: null,
      printedName: null,
      signature: null,
      signatureSha256: null,
      version: 1,
    });
    const stored = await storedTask(response.body.id);
    expect(stored).toMatchObject({ firmId: firmId(), createdBy: world.users.admin.id, status: "pending" });
    const [event] = await eventsOf(response.body.id, "task.created");
    expect(event?.actorUserId).toBe(world.users.admin.id);
    expect(event?.after).toEqual({
      clientId: world.assignedClient.id,
      name: "Year-end close",
      description: "Close the books for the year",
      priority: "high",
      dueDate: null,
      templateId: null,
    });
  });

  it("POST /api/tasks defaults: priority medium, status pending, no due date, no description; a due date and a template are kept", async () => {
    const client = await admin();
    const minimal = await client.post("/api/tasks", { name: "Call the client", clientId: world.assignedClient.id });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ priority: "medium", status: "pending", dueDate: null, description: null });
    const template = await insertTaskTemplate(db(), { firmId: firmId(), createdBy: world.users.admin.id });
    const due = new Date(Date.now() + 7 * DAY);
    const full = await client.post("/api/tasks", {
      name: "From a template",
      description: "",
      clientId: world.assignedClient.id,
      dueDate: due.toISOString().replace("Z", "+00:00"),
      templateId: template.id,
    });
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({ templateId: template.id, dueDate: due.toISOString(), description: null });
  });

  it("POST /api/tasks refusals carry clear messages and write nothing", async () => {
    const client = await admin();
    const other = await insertFirm(db());
    const foreignClient = await insertClient(db(), { firmId: other.id });
    const deletedTemplate = await insertTaskTemplate(db(), {
      firmId: firmId(),
      createdBy: world.users.admin.id,
      deletedAt: new Date(),
    });
    const clientId = world.assignedClient.id;
    const before = await countRows();
    const refusals: [unknown, number, string][] = [
      [{ clientId }, 400, "Name is required"],
      [{ name: "", clientId }, 400, "Name is required"],
      [{ name: "   ", clientId }, 400, "Name is required"],
      [{ name: "x".repeat(201), clientId }, 400, "Name must be at most 200 characters"],
      [{ name: "Ok", description: "x".repeat(2001), clientId }, 400, "Description must be at most 2000 characters"],
      [{ name: "Ok", clientId, priority: "urgent" }, 400, "Invalid enum value"],
      [
        { name: "Ok", clientId, status: "completed" },
        400,
        "A new task is pending; complete it with a signature afterwards",
      ],
      [
        { name: "Ok", clientId, status: "overdue" },
        400,
        "A new task is pending; complete it with a signature afterwards",
      ],
      [
        { name: "Ok", clientId, dueDate: "tomorrow" },
        400,
        "Due date must be an ISO 8601 date and time with an offset, or null",
      ],
      [
        { name: "Ok", clientId, dueDate: "2026-01-01T00:00:00" },
        400,
        "Due date must be an ISO 8601 date and time with an offset, or null",
      ],
      [
        { name: "Ok", clientId, dueDate: "0000-01-01T00:00:00Z" },
        400,
        "Due date must be between the years 1900 and 2200",
      ],
      [
        { name: "Ok", clientId, dueDate: "2201-01-01T00:00:00Z" },
        400,
        "Due date must be between the years 1900 and 2200",
      ],
      [{ name: "Ok" }, 400, "clientId must be a client id"],
      [{ name: "Ok", clientId: "nope" }, 400, "clientId must be a client id"],
      [{ name: "Ok", clientId, createdBy: world.users.super_admin.id }, 400, 'Unrecognized key: "createdBy"'],
      [{ name: "Ok", clientId, firmId: other.id }, 400, 'Unrecognized key: "firmId"'],
      [{ name: "Ok", clientId: foreignClient.id }, 404, "Client not found"],
      [{ name: "Ok", clientId: "01934c8e-0000-7000-8000-000000000000" }, 404, "Client not found"],
      [{ name: "Ok", clientId, templateId: deletedTemplate.id }, 404, "Task template not found"],
      [{ name: "Ok", clientId, templateId: "01934c8e-0000-7000-8000-000000000000" }, 404, "Task template not found"],
    ];
    for (const [body, status, message] of refusals) {
      const response = await client.post("/api/tasks", body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.message, JSON.stringify(body)).toBe(message);
    }
    const foreignTemplate = await insertTaskTemplate(db(), {
      firmId: other.id,
      createdBy: (await insertUser(db(), { firmId: other.id, role: "admin" })).id,
    });
    const withForeignTemplate = await client.post("/api/tasks", {
      name: "Ok",
      clientId,
      templateId: foreignTemplate.id,
    });
    expect(withForeignTemplate.body).toEqual({ message: "Task template not found", code: "NOT_FOUND" });
    expect(await countRows()).toEqual(before);
  });

  it("POST /api/tasks for an archived client is refused: it would sit outside every list", async () => {
    const archived = await insertClient(db(), { firmId: firmId(), name: "Gone Ltd", archivedAt: new Date() });
    const client = await admin();
    const before = await countRows();
    const response = await client.post("/api/tasks", { name: "Too late", clientId: archived.id });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      message: "This client is archived. Restore it before adding tasks.",
      code: "CONFLICT",
    });
    expect(await countRows()).toEqual(before);
  });

  it("S-ROLE-09 a user creates and completes tasks only on clients assigned to them; admins and super admins on any", async () => {
    const user = await signIn(ctx.app, world.users.user);
    const unassigned = at(world.clients, 1);
    const before = await countRows();
    const refused = await user.post("/api/tasks", { name: "Not mine", clientId: unassigned.id });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: "Client not found", code: "NOT_FOUND" });
    const foreignTask = await insertTask(db(), { firmId: firmId(), clientId: unassigned.id });
    const after = await countRows();
    for (const response of [
      await user.patch(`/api/tasks/${foreignTask.id}/complete`, { signature: signature(), printedName: "Me" }),
      await user.patch(`/api/tasks/${foreignTask.id}`, { name: "Renamed" }),
      await user.delete(`/api/tasks/${foreignTask.id}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: "Task not found", code: "NOT_FOUND" });
    }
    expect((await storedTask(foreignTask.id)).status).toBe("pending");
    expect(await countRows()).toEqual({ ...after });
    expect(after.tasks).toBe((before.tasks ?? 0) + 1);

    const created = await user.post("/api/tasks", { name: "Mine", clientId: world.assignedClient.id });
    expect(created.status).toBe(201);
    const completed = await user.patch(`/api/tasks/${created.body.id}/complete`, {
      signature: signature(world.users.user.fullName),
      printedName: world.users.user.fullName,
    });
    expect(completed.status).toBe(200);
    expect(completed.body.completedBy).toBe(world.users.user.id);
    for (const role of ["admin", "super_admin"] as const) {
      const staff = await signIn(ctx.app, world.users[role]);
      const task = await staff.post("/api/tasks", { name: `By ${role}`, clientId: unassigned.id });
      expect(task.status, role).toBe(201);
      const done = await staff.patch(`/api/tasks/${task.body.id}/complete`, {
        signature: signature(),
        printedName: role,
      });
      expect(done.status, role).toBe(200);
    }
  });

  // -----------------------------------------------------------------------------------------
  // Reads

  it("S-API-14 GET /api/tasks returns tasks with id, name, description, priority, status, clientId, dueDate, createdAt, completedAt, completedBy, signature, templateId", async () => {
    const client = await insertClient(db(), { firmId: firmId(), name: "Fields Check Co" });
    const signed = await insertTask(db(), {
      firmId: firmId(),
      clientId: client.id,
      name: "Signed one",
      completed: { by: world.users.admin },
    });
    const response = await (await admin()).get(`/api/tasks?clientId=${client.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: signed.id,
        clientId: client.id,
        clientName: "Fields Check Co",
        templateId: null,
        name: "Signed one",
        description: signed.description,
        priority: "medium",
        status: "completed",
        dueDate: null,
        createdAt: signed.createdAt.toISOString(),
        completedAt: signed.completedAt?.toISOString(),
        completedBy: world.users.admin.id,
        completedByUser: {
          id: world.users.admin.id,
          fullName: world.users.admin.fullName,
          username: world.users.admin.username,
        },
        printedName: world.users.admin.fullName,
        // The image's address, never the image (docs/decisions/0035).
        signature: `/api/tasks/${signed.id}/signature?v=${signed.signatureSha256}`,
        signatureSha256: signed.signatureSha256,
        version: signed.version,
      },
    ]);
    // Where it was signed from stays on the server.
    expect(Object.keys(response.body[0])).not.toContain("completedIp");
  });

  it("S-STATE-10 overdue is derived, to the second: due 1 s ago is overdue, due in 5 s is pending; stored status stays pending", async () => {
    const client = await insertClient(db(), { firmId: firmId(), name: "Boundary Ltd" });
    const now = Date.now();
    const past = await insertTask(db(), {
      firmId: firmId(),
      clientId: client.id,
      name: "Due a second ago",
      dueDate: new Date(now - SECOND),
    });
    const soon = await insertTask(db(), {
      firmId: firmId(),
      clientId: client.id,
      name: "Due in five seconds",
      dueDate: new Date(now + 5 * SECOND),
    });
    const api = await admin();
    const list = (await api.get(`/api/tasks?clientId=${client.id}`)).body as ListedTask[];
    expect(Object.fromEntries(list.map((task) => [task.name, task.status]))).toEqual({
      "Due a second ago": "overdue",
      "Due in five seconds": "pending",
    });
    const overdue = (await api.get("/api/tasks/overdue")).body as ListedTask[];
    expect(overdue.map((task) => task.id)).toContain(past.id);
    expect(overdue.map((task) => task.id)).not.toContain(soon.id);
    expect(
      (await api.get(`/api/tasks?clientId=${client.id}&status=overdue`)).body.map((t: ListedTask) => t.id),
    ).toEqual([past.id]);
    expect(
      (await api.get(`/api/tasks?clientId=${client.id}&status=pending`)).body.map((t: ListedTask) => t.id),
    ).toEqual([soon.id]);
    expect((await storedTask(past.id)).status).toBe("pending");
    const done = await api.patch(`/api/tasks/${past.id}/complete`, { signature: signature(), printedName: "Ann Lee" });
    expect(done.body.status).toBe("completed");
    expect((await storedTask(past.id)).status).toBe("completed");
    expect((await api.get("/api/tasks/overdue")).body.map((task: ListedTask) => task.id)).not.toContain(past.id);
  });

  it("S-API-15 GET /api/tasks/overdue returns only non-completed tasks whose dueDate is before now, each with clientId, oldest due first", async () => {
    const firm = await seedFirm(db(), "Overdue Firm");
    const [first, second] = [at(firm.clients, 0), at(firm.clients, 1)];
    const archived = await insertClient(db(), { firmId: firm.firm.id, name: "Archived Co", archivedAt: new Date() });
    const now = Date.now();
    const task = (clientId: string, name: string, dueDate: Date | null, done = false) =>
      insertTask(db(), {
        firmId: firm.firm.id,
        clientId,
        name,
        dueDate,
        ...(done ? { completed: { by: firm.users.admin } } : {}),
      });
    await task(first.id, "Week late", new Date(now - 7 * DAY));
    await task(second.id, "Day late", new Date(now - DAY));
    await task(first.id, "Hour late", new Date(now - HOUR));
    await task(first.id, "Future", new Date(now + DAY));
    await task(first.id, "No due date", null);
    await task(first.id, "Late but signed off", new Date(now - 2 * DAY), true);
    await task(archived.id, "Late for an archived client", new Date(now - 3 * DAY));

    const response = await (await signIn(ctx.app, firm.users.admin)).get("/api/tasks/overdue");
    expect(response.status).toBe(200);
    expect(response.body.map((row: ListedTask) => [row.name, row.status, row.clientId, row.clientName])).toEqual([
      ["Week late", "overdue", first.id, first.name],
      ["Day late", "overdue", second.id, second.name],
      ["Hour late", "overdue", first.id, first.name],
    ]);
    // A user sees the overdue work of their assigned clients only (the first one).
    const mine = await (await signIn(ctx.app, firm.users.user)).get("/api/tasks/overdue");
    expect(mine.body.map((row: ListedTask) => row.name)).toEqual(["Week late", "Hour late"]);
    expect(mine.headers["x-total-count"]).toBeUndefined();

    // The bell asks for the oldest few and how many there are, so a firm far behind stays cheap.
    const firstTwo = await (await signIn(ctx.app, firm.users.admin)).get("/api/tasks/overdue?limit=2");
    expect(firstTwo.body.map((row: ListedTask) => row.name)).toEqual(["Week late", "Day late"]);
    expect(firstTwo.headers["x-total-count"]).toBe("3");
    const myFirst = await (await signIn(ctx.app, firm.users.user)).get("/api/tasks/overdue?limit=1");
    expect(myFirst.body.map((row: ListedTask) => row.name)).toEqual(["Week late"]);
    expect(myFirst.headers["x-total-count"]).toBe("2");
  });

  describe("GET /api/tasks: order, filters, search, pages and visibility", () => {
    let firm: SeededFirm;
    const expected: string[] = [];
    beforeAll(async () => {
      firm = await seedFirm(db(), "List Firm");
      const alpha = await insertClient(db(), { firmId: firm.firm.id, name: "Orchard Alpha" });
      const beta = await insertClient(db(), { firmId: firm.firm.id, name: "Orchard Beta 100%" });
      const archived = await insertClient(db(), {
        firmId: firm.firm.id,
        name: "Orchard Archived",
        archivedAt: new Date(),
      });
      const now = Date.now();
      const add = async (
        name: string,
        values: {
          clientId?: string;
          dueDate?: Date | null;
          createdAt?: Date;
          completedAt?: Date;
          description?: string;
        },
      ) => {
        const { completedAt, ...rest } = values;
        const row = await insertTask(db(), {
          firmId: firm.firm.id,
          clientId: alpha.id,
          name,
          dueDate: null,
          description: `Work item ${name}`,
          ...rest,
          ...(completedAt ? { completed: { by: firm.users.admin, at: completedAt } } : {}),
        });
        return row;
      };
      await add("C1 signed an hour ago", { completedAt: new Date(now - HOUR), dueDate: new Date(now + DAY) });
      await add("C2 signed two hours ago", { completedAt: new Date(now - 2 * HOUR) });
      await add("C3 signed half an hour ago", { completedAt: new Date(now - HOUR / 2), clientId: beta.id });
      await add("P1 due in two days", {
        dueDate: new Date(now + 2 * DAY),
        createdAt: new Date(now - 10 * 60 * SECOND),
      });
      await add("P2 overdue by a day", { dueDate: new Date(now - DAY), clientId: beta.id });
      await add("P3 no due date", { createdAt: new Date(now - 60 * SECOND) });
      const tieDue = new Date(now + 2 * DAY);
      const tieCreated = new Date(now - 5 * 60 * SECOND);
      const p4 = await add("P4 due in two days, created later", { dueDate: tieDue, createdAt: tieCreated });
      const p6 = await add("P6 same keys as P4", { dueDate: tieDue, createdAt: tieCreated });
      await add("P5 no due date, created earlier", { createdAt: new Date(now - 20 * 60 * SECOND) });
      // Created by the database's clock (microseconds), which a JS Date cannot hold.
      await add("P7 no due date, created now", {});
      await add("P8 no due date, created just after", { description: "Underscore_and 100% literal" });
      await add("Archived client's task", { clientId: archived.id });
      // Equal keys: the greater id first.
      const [tieFirst, tieSecond] = [p4, p6].sort((a, b) => (a.id > b.id ? -1 : 1)).map((row) => row.name);
      expected.push(
        "C3 signed half an hour ago",
        "C1 signed an hour ago",
        "C2 signed two hours ago",
        tieFirst ?? "",
        tieSecond ?? "",
        "P1 due in two days",
        "P2 overdue by a day",
        "P8 no due date, created just after",
        "P7 no due date, created now",
        "P3 no due date",
        "P5 no due date, created earlier",
      );
      // The user of this firm is assigned to its first seeded client, which has none of these tasks.
      await insertTask(db(), { firmId: firm.firm.id, clientId: firm.assignedClient.id, name: "Assigned work" });
      await db().update(clients).set({ name: "Zeta Assigned" }).where(eq(clients.id, firm.assignedClient.id));
    });
    const names = async (query = "") => {
      const response = await (await signIn(ctx.app, firm.users.admin)).get(`/api/tasks${query}`);
      expect(response.status, query).toBe(200);
      return (response.body as ListedTask[]).map((task) => task.name).filter((name) => name !== "Assigned work");
    };

    it("orders completed first (newest completion first), then due date descending with none last, then newest created, then id", async () => {
      expect(await names()).toEqual(expected);
    });

    it("filters by status: completed, overdue, and pending meaning pending and not overdue", async () => {
      expect(await names("?status=completed")).toEqual(expected.filter((name) => name.startsWith("C")));
      expect(await names("?status=overdue")).toEqual(["P2 overdue by a day"]);
      expect(await names("?status=pending")).toEqual(
        expected.filter((name) => name.startsWith("P") && !name.startsWith("P2")),
      );
      const bad = await (await signIn(ctx.app, firm.users.admin)).get("/api/tasks?status=late");
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe("Invalid enum value");
    });

    it("searches task name, description and client name ignoring case; % and _ are plain text", async () => {
      expect(await names("?q=c2%20SIGNED")).toEqual(["C2 signed two hours ago"]);
      expect(await names("?q=work%20ITEM%20p3")).toEqual(["P3 no due date"]);
      expect(await names("?q=orchard%20beta")).toEqual(["C3 signed half an hour ago", "P2 overdue by a day"]);
      expect(await names("?q=100%25")).toEqual([
        "C3 signed half an hour ago",
        "P2 overdue by a day",
        "P8 no due date, created just after",
      ]);
      expect(await names("?q=underscore_and")).toEqual(["P8 no due date, created just after"]);
      expect(await names("?q=underscore%25and")).toEqual([]);
      expect(await names("?q=p_%20")).toEqual([]);
      expect(await names("?q=beta&status=overdue")).toEqual(["P2 overdue by a day"]);
    });

    it("leaves archived clients' tasks out, unless their client is asked for by id", async () => {
      expect(await names("?q=archived")).toEqual([]);
      const [archived] = await db().select().from(clients).where(eq(clients.name, "Orchard Archived"));
      expect(await names(`?clientId=${archived?.id}`)).toEqual(["Archived client's task"]);
    });

    it("pages with limit and cursor in the same order, keyset-style, the next cursor in x-next-cursor", async () => {
      const api = await signIn(ctx.app, firm.users.admin);
      for (const [limit, filter] of [
        [1, ""],
        [2, ""],
        [3, ""],
        [2, "&status=pending"],
        [1, "&q=orchard%20beta"],
      ] as const) {
        const seen: string[] = [];
        let url = `/api/tasks?limit=${limit}${filter}`;
        for (let page = 0; page < 30; page++) {
          const response = await api.get(url);
          expect(response.status).toBe(200);
          expect(response.body.length).toBeLessThanOrEqual(limit);
          seen.push(...response.body.map((row: ListedTask) => row.name));
          const next = response.headers["x-next-cursor"];
          if (!next) break;
          url = `/api/tasks?limit=${limit}${filter}&cursor=${next}`;
        }
        expect(
          seen.filter((name) => name !== "Assigned work"),
          `limit ${limit}${filter}`,
        ).toEqual(await names(filter ? `?${filter.slice(1)}` : ""));
      }
      const all = await api.get("/api/tasks?limit=500");
      expect(all.headers["x-next-cursor"]).toBeUndefined();
      for (const cursor of [
        "bm9wZQ",
        Buffer.from(JSON.stringify(["1e9", null, "1", "01934c8e-0000-7000-8000-000000000000"])).toString("base64url"),
        Buffer.from(JSON.stringify([null, null, "1; drop table tasks", "x"])).toString("base64url"),
      ]) {
        const bad = await api.get(`/api/tasks?limit=2&cursor=${cursor}`);
        expect(bad.status, cursor).toBe(400);
        expect(bad.body).toEqual({ message: "The cursor is not one this list gave out", code: "BAD_REQUEST" });
      }
      for (const limit of ["0", "501", "1.5", "many"]) {
        expect((await api.get(`/api/tasks?limit=${limit}`)).status, limit).toBe(400);
      }
    });

    it("without limit answers the largest page, 500, with the cursor of the rest: never a firm's whole table", async () => {
      const big = await seedFirm(db(), "Busy Firm");
      await ctx.database.pool.query(
        `insert into tasks (id, firm_id, client_id, name, due_date)
         select gen_random_uuid(), $1, $2, 'Bulk ' || g, now() + g * interval '1 minute' from generate_series(1, 501) as g`,
        [big.firm.id, big.clients[1]?.id],
      );
      const api = await signIn(ctx.app, big.users.admin);
      const first = await api.get("/api/tasks");
      expect(first.body).toHaveLength(500);
      expect(first.body[0].name).toBe("Bulk 501");
      const rest = await api.get(`/api/tasks?cursor=${first.headers["x-next-cursor"]}`);
      expect(rest.body.map((row: ListedTask) => row.name)).toEqual(["Bulk 1"]);
      expect(rest.headers["x-next-cursor"]).toBeUndefined();
    });

    it("S-ROLE-07 a user lists only the tasks of clients assigned to them", async () => {
      const user = await signIn(ctx.app, firm.users.user);
      const mine = await user.get("/api/tasks");
      expect(mine.body.map((row: ListedTask) => [row.name, row.clientName])).toEqual([
        ["Assigned work", "Zeta Assigned"],
      ]);
      const [alpha] = await db().select().from(clients).where(eq(clients.name, "Orchard Alpha"));
      expect((await user.get(`/api/tasks?clientId=${alpha?.id}`)).body).toEqual([]);
      expect((await user.get("/api/tasks?q=orchard")).body).toEqual([]);
    });
  });

  // -----------------------------------------------------------------------------------------
  // Change and delete

  it("PATCH /api/tasks/:id changes only the fields given of a pending task, audited with before and after", async () => {
    const due = new Date(Date.now() + DAY);
    const task = await insertTask(db(), {
      firmId: firmId(),
      clientId: world.assignedClient.id,
      name: "Draft letter",
      priority: "low",
      dueDate: due,
    });
    const client = await admin();
    const response = await client.patch(`/api/tasks/${task.id}`, { name: " Final letter ", priority: "high" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: task.id,
      name: "Final letter",
      priority: "high",
      dueDate: due.toISOString(),
      description: task.description,
      status: "pending",
    });
    const [event] = await eventsOf(task.id, "task.updated");
    expect(event?.before).toEqual({ name: "Draft letter", priority: "low" });
    expect(event?.after).toEqual({ name: "Final letter", priority: "high" });
    const cleared = await client.patch(`/api/tasks/${task.id}`, { dueDate: null, description: "" });
    expect(cleared.body).toMatchObject({ dueDate: null, description: null, name: "Final letter" });

    const before = await countRows();
    for (const [body, message] of [
      [{}, "Nothing to change"],
      [{ name: "" }, "Name is required"],
      [{ status: "completed" }, 'Unrecognized key: "status"'],
      [{ clientId: at(world.clients, 1).id }, 'Unrecognized key: "clientId"'],
      [{ dueDate: "soon" }, "Due date must be an ISO 8601 date and time with an offset, or null"],
    ] as const) {
      const refused = await client.patch(`/api/tasks/${task.id}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toBe(message);
    }
    expect(await countRows()).toEqual(before);
  });

  it("PATCH and DELETE of a signed-off task are 409 and change nothing; DELETE of a pending one is 204 and audited", async () => {
    const signed = await insertTask(db(), {
      firmId: firmId(),
      clientId: world.assignedClient.id,
      completed: { by: world.users.admin },
    });
    const client = await signIn(ctx.app, world.users.super_admin);
    const before = await countRows();
    const change = await client.patch(`/api/tasks/${signed.id}`, { name: "Rewritten history" });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({ message: "This task is signed off and cannot be changed", code: "CONFLICT" });
    const removal = await client.delete(`/api/tasks/${signed.id}`);
    expect(removal.status).toBe(409);
    expect(removal.body).toEqual({ message: "This task is signed off and cannot be deleted", code: "CONFLICT" });
    expect(await countRows()).toEqual(before);
    expect(await storedTask(signed.id)).toEqual(signed);

    const pending = await insertTask(db(), { firmId: firmId(), clientId: world.assignedClient.id, name: "Mistake" });
    const deleted = await client.delete(`/api/tasks/${pending.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(await db().select().from(tasks).where(eq(tasks.id, pending.id))).toEqual([]);
    const [event] = await eventsOf(pending.id, "task.deleted");
    expect(event?.before).toMatchObject({ clientId: world.assignedClient.id, name: "Mistake" });
    const again = await client.delete(`/api/tasks/${pending.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "Task not found", code: "NOT_FOUND" });
  });

  it("S-EDGE-10 an archived client's pending work cannot be changed, deleted or signed off until the client is restored", async () => {
    const archived = await insertClient(db(), { firmId: firmId(), name: "Shelved Ltd", archivedAt: new Date() });
    const pending = await insertTask(db(), { firmId: firmId(), clientId: archived.id, name: "Left open" });
    const signed = await insertTask(db(), {
      firmId: firmId(),
      clientId: archived.id,
      name: "Signed before archiving",
      completed: { by: world.users.admin },
    });
    const client = await signIn(ctx.app, world.users.super_admin);
    const before = await countRows();

    const refusals = [
      [await client.patch(`/api/tasks/${pending.id}`, { name: "Quietly renamed" }), "changing its tasks"],
      [await client.delete(`/api/tasks/${pending.id}`), "deleting its tasks"],
      [
        await client.patch(`/api/tasks/${pending.id}/complete`, { signature: signature(), printedName: "Ann Lee" }),
        "signing off its tasks",
      ],
    ] as const;
    for (const [response, doing] of refusals) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        message: `This client is archived. Restore it before ${doing}.`,
        code: "CONFLICT",
      });
    }
    expect(await countRows()).toEqual(before);
    expect(await storedTask(pending.id)).toEqual(pending);
    // The signed evidence stays readable.
    const detail = await client.get(`/api/clients/${archived.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.tasks.find((task: { id: string }) => task.id === signed.id)).toMatchObject({
      status: "completed",
      signatureSha256: signed.signatureSha256,
    });
    expect((await client.get(`/api/tasks/${signed.id}/signature`)).status).toBe(200);

    expect((await client.post(`/api/clients/${archived.id}/restore`)).status).toBe(200);
    const completed = await client.patch(`/api/tasks/${pending.id}/complete`, {
      signature: signature(),
      printedName: "Ann Lee",
    });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ id: pending.id, status: "completed", printedName: "Ann Lee" });
  });

  // -----------------------------------------------------------------------------------------
  // Completion

  it("S-API-17 S-STATE-09 S-ROLE-20 PATCH /api/tasks/:id/complete signs the task off; completedBy comes from the session, not the body", async () => {
    const task = await insertTask(db(), { firmId: firmId(), clientId: world.assignedClient.id, name: "Sign me" });
    const drawn = drawSignature("Ann Lee", random);
    const client = apiClient(ctx.app, { ip: "198.51.100.7", userAgent: "Signing Browser/1.0" });
    const signedIn = await client.post("/api/auth/login", {
      username: world.users.admin.username,
      password: world.users.admin.password,
    });
    expect(signedIn.status).toBe(200);
    const response = await client.patch(`/api/tasks/${task.id}/complete`, {
      // The app's client sends the printed name here; a forger might send another user's id.
      completedBy: world.users.super_admin.id,
      signature: drawn.dataUrl,
      printedName: "  Ann Lee  ",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: task.id,
      status: "completed",
      completedBy: world.users.admin.id,
      completedByUser: {
        id: world.users.admin.id,
        fullName: world.users.admin.fullName,
        username: world.users.admin.username,
      },
      printedName: "Ann Lee",
      signature: `/api/tasks/${task.id}/signature?v=${drawn.sha256}`,
      signatureSha256: drawn.sha256,
    });
    const completedAt = Date.parse(response.body.completedAt);
    expect(Math.abs(completedAt - Date.now())).toBeLessThan(60 * SECOND);

    const stored = await storedTask(task.id);
    const decoded = Buffer.from(drawn.dataUrl.slice("data:image/png;base64,".length), "base64");
    expect(stored).toMatchObject({
      status: "completed",
      completedBy: world.users.admin.id,
      printedName: "Ann Lee",
      signature: drawn.dataUrl,
      signatureSha256: createHash("sha256").update(decoded).digest("hex"),
      completedIp: "198.51.100.7",
      completedUserAgent: "Signing Browser/1.0",
    });
    expect(stored.signatureSha256).toBe(drawn.sha256);
    expect(stored.completedAt?.getTime()).toBe(completedAt);

    const events = await eventsOf(task.id, "task.completed");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: world.users.admin.id, ip: "198.51.100.7" });
    expect(events[0]?.after).toEqual({
      clientId: world.assignedClient.id,
      completedAt: response.body.completedAt,
      completedBy: world.users.admin.id,
      printedName: "Ann Lee",
      signatureSha256: drawn.sha256,
    });
    expect(JSON.stringify(events[0])).not.toContain(drawn.dataUrl.slice(22, 80));
  });

  it("S-VAL-24 S-VAL-25 completion refusals: blank, missing or non-PNG signature, oversized, no printed name; nothing written", async () => {
    const task = await insertTask(db(), { firmId: firmId(), clientId: world.assignedClient.id, name: "Refuse me" });
    const client = await admin();
    const good = signature();
    const refusals: [unknown, string][] = [
      [{ signature: blankSignature(), printedName: "Ann Lee" }, "Please provide a signature"],
      [{ signature: "", printedName: "Ann Lee" }, "Please provide a signature"],
      [{ printedName: "Ann Lee" }, "Please provide a signature"],
      [{ signature: null, printedName: "Ann Lee" }, "Please provide a signature"],
      [{ signature: "data:image/png;base64,", printedName: "Ann Lee" }, "Please provide a signature"],
      [
        { signature: good.replace("image/png", "image/jpeg"), printedName: "Ann Lee" },
        "The signature must be a PNG image",
      ],
      [{ signature: "https://example.com/signature.png", printedName: "Ann Lee" }, "The signature must be a PNG image"],
      [
        {
          signature: `data:image/png;base64,${Buffer.from("not an image at all").toString("base64")}`,
          printedName: "A",
        },
        "The signature must be a PNG image",
      ],
      [{ signature: oversizedSignature(), printedName: "Ann Lee" }, "The signature is too large (at most 256 KB)"],
      [{ signature: good, printedName: "" }, "Name is required"],
      [{ signature: good, printedName: "   " }, "Name is required"],
      [{ signature: good }, "Name is required"],
      [{ signature: good, printedName: "x".repeat(201) }, "Name must be at most 200 characters"],
      [{ signature: good, printedName: "Ann", completedAt: "2020-01-01T00:00:00Z" }, 'Unrecognized key: "completedAt"'],
    ];
    const before = await countRows();
    for (const [body, message] of refusals) {
      const response = await client.patch(`/api/tasks/${task.id}/complete`, body);
      const what = JSON.stringify(body).slice(0, 120);
      expect(response.status, what).toBe(400);
      expect(response.body.code, what).toBe("VALIDATION_FAILED");
      expect(response.body.message, what).toBe(message);
    }
    expect(await countRows()).toEqual(before);
    expect(await storedTask(task.id)).toEqual(task);
  });

  it("completing a completed task is 409 and keeps the first sign-off", async () => {
    const task = await insertTask(db(), { firmId: firmId(), clientId: world.assignedClient.id });
    const client = await admin();
    const first = await client.patch(`/api/tasks/${task.id}/complete`, {
      signature: signature(),
      printedName: "First",
    });
    expect(first.status).toBe(200);
    const signed = await storedTask(task.id);
    // Signing in is audited itself, so the second signer signs in before the count.
    const owner = await signIn(ctx.app, world.users.super_admin);
    const before = await countRows();
    const second = await owner.patch(`/api/tasks/${task.id}/complete`, {
      signature: signature(),
      printedName: "Second",
    });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ message: "This task is already completed", code: "CONFLICT" });
    expect(await countRows()).toEqual(before);
    expect(await storedTask(task.id)).toEqual(signed);
  });

  it("two concurrent completions of one task: exactly one 200 and one 409, one sign-off and one audit event", async () => {
    for (let round = 0; round < 3; round++) {
      const task = await insertTask(db(), { firmId: firmId(), clientId: world.assignedClient.id });
      const [one, two] = await Promise.all([admin(), signIn(ctx.app, world.users.super_admin)]);
      if (!one || !two) throw new Error("no session");
      const responses = await Promise.all([
        one.patch(`/api/tasks/${task.id}/complete`, { signature: signature(), printedName: "Admin" }),
        two.patch(`/api/tasks/${task.id}/complete`, { signature: signature(), printedName: "Owner" }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const winner = responses.find((response) => response.status === 200);
      const stored = await storedTask(task.id);
      expect(stored.completedBy).toBe(winner?.body.completedBy);
      expect(stored.printedName).toBe(winner?.body.printedName);
      expect(await eventsOf(task.id, "task.completed")).toHaveLength(1);
    }
  });

  // -----------------------------------------------------------------------------------------
  // Tenancy and ids

  it("S-ROLE-19 another firm's task, an unknown id and a malformed one are all 404 Task not found, and nothing changes", async () => {
    const other = await seedFirm(db(), "Other Firm");
    const foreign = await insertTask(db(), { firmId: other.firm.id, clientId: other.assignedClient.id });
    const client = await admin();
    const before = await countRows();
    for (const id of [foreign.id, "01934c8e-0000-7000-8000-000000000000", "not-an-id"]) {
      for (const response of [
        await client.patch(`/api/tasks/${id}`, { name: "Mine now" }),
        await client.delete(`/api/tasks/${id}`),
        await client.patch(`/api/tasks/${id}/complete`, { signature: signature(), printedName: "Intruder" }),
      ]) {
        expect(response.status, id).toBe(404);
        expect(response.body).toEqual({ message: "Task not found", code: "NOT_FOUND" });
      }
    }
    expect(await countRows()).toEqual(before);
    expect(await storedTask(foreign.id)).toEqual(foreign);
    // Nor does it show up in this firm's lists.
    const ids = (await client.get("/api/tasks")).body.map((row: ListedTask) => row.id);
    expect(ids).not.toContain(foreign.id);
    expect((await client.get(`/api/tasks?clientId=${other.assignedClient.id}`)).body).toEqual([]);
  });

  describe("GET /api/tasks/:id/signature", () => {
    const pngOf = (dataUrl: string) => Buffer.from(dataUrl.slice("data:image/png;base64,".length), "base64");

    it("S-SCALE-01 S-TAUD-14 answers the signed PNG, byte for byte, at the address the task's answers give; lists carry no image", async () => {
      const signed = await insertTask(db(), {
        firmId: firmId(),
        clientId: world.assignedClient.id,
        name: "Signed with an image",
        completed: { by: world.users.admin },
      });
      const client = await admin();
      const listed = (await client.get(`/api/tasks?clientId=${world.assignedClient.id}`)).body.find(
        (task: { id: string }) => task.id === signed.id,
      );
      const detail = (await client.get(`/api/clients/${world.assignedClient.id}`)).body.tasks.find(
        (task: { id: string }) => task.id === signed.id,
      );
      const one = (await client.get(`/api/tasks/${signed.id}`)).body;
      for (const task of [listed, detail, one]) {
        expect(task).toMatchObject({
          signature: `/api/tasks/${signed.id}/signature?v=${signed.signatureSha256}`,
          signatureSha256: signed.signatureSha256,
        });
      }
      const list = await client.get(`/api/tasks?clientId=${world.assignedClient.id}`);
      expect(list.text).not.toContain("base64");

      const image = await client.get(one.signature);
      expect(image.status).toBe(200);
      expect(image.headers["content-type"]).toBe("image/png");
      expect(image.raw.equals(pngOf(signed.signature ?? ""))).toBe(true);
      expect(createHash("sha256").update(image.raw).digest("hex")).toBe(signed.signatureSha256);
      expect(PNG.sync.read(image.raw).width).toBe(400);
    });

    it("S-SCALE-02 is kept privately for a year at its hashed address, revalidated without it, and 304 for a matching If-None-Match", async () => {
      const signed = await insertTask(db(), {
        firmId: firmId(),
        clientId: world.assignedClient.id,
        completed: { by: world.users.admin },
      });
      const client = await admin();
      const etag = `"${signed.signatureSha256}"`;
      const hashed = await client.get(`/api/tasks/${signed.id}/signature?v=${signed.signatureSha256}`);
      expect(hashed.status).toBe(200);
      expect(hashed.headers["cache-control"]).toBe("private, max-age=31536000, immutable");
      expect(hashed.headers.etag).toBe(etag);
      const bare = await client.get(`/api/tasks/${signed.id}/signature`);
      expect(bare.status).toBe(200);
      expect(bare.headers["cache-control"]).toBe("private, no-cache");
      expect(bare.headers.etag).toBe(etag);
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const again = await client.request("GET", `/api/tasks/${signed.id}/signature`, undefined, {
          "if-none-match": ifNoneMatch,
        });
        expect(again.status, ifNoneMatch).toBe(304);
        expect(again.raw.length).toBe(0);
      }
      for (const ifNoneMatch of ['"other"', "not a tag"]) {
        const again = await client.request("GET", `/api/tasks/${signed.id}/signature`, undefined, {
          "if-none-match": ifNoneMatch,
        });
        expect(again.status, ifNoneMatch).toBe(200);
      }
    });

    it("S-SCALE-01 S-ROLE-19 follows the task's access rules: another firm's, an unassigned client's for a user, a pending task's, another hash's and a malformed one's are refused", async () => {
      const other = await seedFirm(db(), "Signature Elsewhere");
      const foreign = await insertTask(db(), {
        firmId: other.firm.id,
        clientId: other.assignedClient.id,
        completed: { by: other.users.admin },
      });
      const unassigned = await insertClient(db(), { firmId: firmId(), name: "Not Theirs Ltd" });
      const notTheirs = await insertTask(db(), {
        firmId: firmId(),
        clientId: unassigned.id,
        completed: { by: world.users.admin },
      });
      const theirs = await insertTask(db(), {
        firmId: firmId(),
        clientId: world.assignedClient.id,
        completed: { by: world.users.admin },
      });
      const pendingTask = await insertTask(db(), { firmId: firmId(), clientId: world.assignedClient.id });
      const notFound = { message: "Signature not found", code: "NOT_FOUND" };

      const user = await signIn(ctx.app, world.users.user);
      expect((await user.get(`/api/tasks/${theirs.id}/signature`)).status).toBe(200);
      expect((await user.get(`/api/tasks/${notTheirs.id}/signature`)).body).toEqual(notFound);
      const staff = await admin();
      expect((await staff.get(`/api/tasks/${notTheirs.id}/signature`)).status).toBe(200);
      for (const path of [
        `/api/tasks/${foreign.id}/signature`,
        `/api/tasks/${foreign.id}/signature?v=${foreign.signatureSha256}`,
        `/api/tasks/${pendingTask.id}/signature`,
        `/api/tasks/${theirs.id}/signature?v=${foreign.signatureSha256}`,
        "/api/tasks/01934c8e-0000-7000-8000-000000000000/signature",
      ]) {
        const response = await staff.get(path);
        expect(response.status, path).toBe(404);
        expect(response.body, path).toEqual(notFound);
      }
      const malformed = await staff.get("/api/tasks/not-an-id/signature");
      expect(malformed.status).toBe(404);
      expect(malformed.body).toEqual({ message: "Task not found", code: "NOT_FOUND" });
      const badHash = await staff.get(`/api/tasks/${theirs.id}/signature?v=XYZ`);
      expect(badHash.status).toBe(400);
      expect(badHash.body.message).toBe(
        "v must be the signature's SHA-256 in lower-case hex, as the task's signatureSha256",
      );
      expect((await apiClient(ctx.app).get(`/api/tasks/${theirs.id}/signature`)).status).toBe(401);
    });
  });

  it("refuses anonymous callers with 401", async () => {
    const anonymous = apiClient(ctx.app);
    expect((await anonymous.get("/api/tasks")).status).toBe(401);
    expect((await anonymous.get("/api/tasks/overdue")).status).toBe(401);
    expect((await anonymous.post("/api/tasks", { name: "x", clientId: world.assignedClient.id })).status).toBe(401);
  });
});
