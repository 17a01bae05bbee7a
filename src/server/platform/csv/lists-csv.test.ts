import { beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../../tests/csv-parse";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import type { ClientSummary } from "../../../shared/clients";
import { firmDateFormat } from "../../../shared/dates";
import type { TaskListItem } from "../../../shared/tasks";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";
import { tasks } from "../db/schema";

const DAY = 86_400_000;
/** The fixture firm is on UTC; S-EDGE-09's tests (exports.test.ts) take a firm elsewhere. */
const formatDate = firmDateFormat("UTC");
const date = (iso: string | null) => (iso === null ? "" : formatDate(iso));

describe("CSV of the client and task lists", () => {
  const ctx = useTestApp();
  type World = Awaited<ReturnType<typeof seed>>;
  let world: World;

  async function seed() {
    const db = ctx.database.db;
    const firm = await insertFirm(db);
    const owner = await insertUser(db, { firmId: firm.id, role: "super_admin", fullName: "Olga Owner" });
    const staff = await insertUser(db, { firmId: firm.id, role: "user" });
    const formula = await insertClient(db, { firmId: firm.id, name: "=cmd|' /C calc'!A0", industry: "Retail" });
    const big = await insertClient(db, { firmId: firm.id, name: "Big, Busy Co", industry: "Retail" });
    const other = await insertClient(db, { firmId: firm.id, name: "Other Co", industry: "Nonprofit" });
    await insertUserClients(db, { firmId: firm.id, userId: staff.id, clientIds: [big.id, formula.id] });
    // More tasks than one CSV page (500), so the download walks several pages of the list's cursor.
    const now = Date.now();
    await db.insert(tasks).values(
      Array.from({ length: 1_203 }, (_, i) => ({
        firmId: firm.id,
        clientId: big.id,
        name: i === 0 ? "@SUM(A1:A9)" : `Task ${i}`,
        priority: (["low", "medium", "high"] as const)[i % 3],
        status: "pending" as const,
        dueDate: i % 10 === 0 ? null : new Date(now + (i % 10 < 7 ? -1 : 1) * (i + 1) * 60_000),
        createdAt: new Date(now - (i % 50) * DAY),
      })),
    );
    await insertTask(db, { firmId: firm.id, clientId: other.id, name: "Other's task", completed: { by: owner } });
    return { firm, owner, staff, formula, big, other };
  }

  beforeAll(async () => {
    world = await seed();
  });

  /** Every page of a JSON list, through its cursor. */
  async function allPages<T>(client: Awaited<ReturnType<typeof signIn>>, url: string): Promise<T[]> {
    const rows: T[] = [];
    let cursor: string | undefined;
    do {
      const response = await client.get(
        `${url}${url.includes("?") ? "&" : "?"}limit=500${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(response.status).toBe(200);
      rows.push(...(response.body as T[]));
      cursor = response.headers["x-next-cursor"] as string | undefined;
    } while (cursor);
    return rows;
  }

  it("GET /api/clients?format=csv: the caller's clients with the list's filters, parsed back equal to the JSON list, formulas neutralised", async () => {
    const staff = await signIn(ctx.app, world.staff);
    const response = await staff.get("/api/clients?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="clients-all-(\d{4}-\d{2}-\d{2})\.csv"; filename\*=UTF-8''clients-all-\1\.csv$/,
    );
    const rows = parseCsv(response.text);
    expect(rows[0]).toEqual([
      "Name",
      "Industry",
      "Status",
      "Email",
      "Phone",
      "Address",
      "Created",
      "Archived",
      "Tasks",
      "Completed",
      "Pending",
      "Overdue",
      "Health",
    ]);
    const json = (await staff.get("/api/clients")).body as ClientSummary[];
    expect(json.map((client) => client.id).sort()).toEqual([world.big.id, world.formula.id].sort());
    const neutral = (text: string | null) => (text === null ? "" : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    expect(rows.slice(1)).toEqual(
      json.map((client) => [
        neutral(client.name),
        neutral(client.industry),
        client.status,
        neutral(client.email),
        neutral(client.phone),
        neutral(client.address),
        date(client.createdAt),
        date(client.archivedAt),
        String(client.taskCounts.total),
        String(client.taskCounts.completed),
        String(client.taskCounts.pending),
        String(client.taskCounts.overdue),
        neutral(client.health.label),
      ]),
    );
    expect(rows.map((row) => row[0])).toContain("'=cmd|' /C calc'!A0");
    // The search filter applies too.
    const owner = await signIn(ctx.app, world.owner);
    const searched = parseCsv((await owner.get("/api/clients?q=other&format=csv")).text);
    expect(searched.slice(1).map((row) => row[0])).toEqual(["Other Co"]);
  });

  it("GET /api/tasks?format=csv walks every page: all 1,203 of a client's tasks, in the list's order, with the status filter", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const response = await owner.request("GET", "/api/tasks", undefined, { accept: "text/csv" });
    expect(response.status).toBe(200);
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="tasks-all-(\d{4}-\d{2}-\d{2})\.csv"; filename\*=UTF-8''tasks-all-\1\.csv$/,
    );
    const rows = parseCsv(response.text);
    expect(rows[0]).toEqual([
      "Task",
      "Client",
      "Status",
      "Priority",
      "Due date",
      "Created",
      "Completed",
      "Completed at (UTC)",
      "Printed name",
      "Signed by",
    ]);
    const json = await allPages<TaskListItem>(owner, "/api/tasks");
    expect(json).toHaveLength(1_204);
    const neutral = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    expect(rows.slice(1)).toEqual(
      json.map((task) => [
        neutral(task.name),
        neutral(task.clientName),
        task.status,
        task.priority,
        date(task.dueDate),
        date(task.createdAt),
        date(task.completedAt),
        task.completedAt ?? "",
        task.printedName ?? "",
        task.completedByUser?.fullName ?? "",
      ]),
    );
    expect(rows.map((row) => row[0])).toContain("'@SUM(A1:A9)");

    const overdue = parseCsv((await owner.get("/api/tasks?status=overdue&format=csv")).text).slice(1);
    const overdueJson = await allPages<TaskListItem>(owner, "/api/tasks?status=overdue");
    expect(overdue.map((row) => row[0])).toEqual(overdueJson.map((task) => neutral(task.name)));
    expect(overdue.every((row) => row[2] === "overdue")).toBe(true);
    expect(overdue.length).toBeGreaterThan(500);

    // A user sees only the tasks of assigned clients.
    const staff = await signIn(ctx.app, world.staff);
    const mine = parseCsv((await staff.get("/api/tasks?format=csv&q=other")).text).slice(1);
    expect(mine).toEqual([]);
  });

  it("a CSV download refuses limit and cursor, and a bad format, with a 400", async () => {
    const owner = await signIn(ctx.app, world.owner);
    for (const url of ["/api/tasks?format=csv&limit=5", "/api/clients?format=csv&limit=5", "/api/tasks?format=xls"]) {
      const response = await owner.get(url);
      expect(response.status, url).toBe(400);
      expect(response.body.code).toBeDefined();
    }
    expect((await owner.get("/api/clients?format=csv&cursor=abc")).body).toEqual({
      message: "limit and cursor do not apply to a CSV download",
      code: "BAD_REQUEST",
    });
  });
});
