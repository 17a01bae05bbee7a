import { beforeAll, describe, expect, it } from "vitest";
import { insertClient } from "../src/server/seed/factories";
import { seedLargeFirm } from "../src/server/seed/large-firm";
import { seedFirm, signIn } from "./fixtures";
import { indexesOf, searchPlans, sequentialScanNodes } from "./query-plans";
import { sqlFailure } from "./sql-failure";
import { useTestApp } from "./test-app";

/*
 * The firm's client and task searches read trigram indexes through the firm's views (decision
 * 0040). A firm of 10,000 clients and 50,000 tasks is enough for PostgreSQL to tell a search that
 * matches a few rows from one that matches many; `npm run bench:scale` takes the same plans at
 * 1,000,000 tasks. The plans are the app's own statements, as the app role, under its policies.
 */
describe("searches at a large firm", () => {
  const ctx = useTestApp();
  let large: Awaited<ReturnType<typeof seedLargeFirm>>;
  beforeAll(async () => {
    large = await seedLargeFirm(ctx.database, { clients: 10_000, tasks: 50_000 });
    // What autovacuum does after a bulk insert: the GIN indexes' pending entries are merged, and
    // the planner has the statistics of the new rows.
    await ctx.database.pool.query("vacuum analyze clients, tasks");
  }, 180_000);

  const plans = () => searchPlans(ctx.appDatabase.pool, ctx.appDatabase.db, large.firm.id);

  it("S-SCALE-11 a search that matches one client or nothing is read from the trigram indexes, never by walking the firm", async () => {
    // The seeded clients' names end in their number: 1217 names one client; nothing is a xylophone.
    const [one] = (
      await ctx.database.pool.query<{ id: string }>(
        "select id from clients where firm_id = $1 and name like '% 1217'",
        [large.firm.id],
      )
    ).rows;
    for (const [term, matching] of [
      ["1217", [one?.id ?? ""]],
      ["xylophone", []],
    ] as const) {
      const clients = await plans().clientPage(term);
      expect(indexesOf(clients), term).toContain("clients_search_idx");
      expect(sequentialScanNodes(clients), term).toEqual([]);
      const named = await plans().clientsNamed(term);
      expect(indexesOf(named), term).toContain("clients_search_idx");
      const tasks = await plans().taskPage(term, [...matching]);
      expect(indexesOf(tasks), term).toContain("tasks_search_idx");
      expect(indexesOf(tasks), term).not.toContain("tasks_firm_id_audit_order_idx");
      expect(sequentialScanNodes(tasks), term).toEqual([]);
    }
  });

  it("S-SCALE-11 a search most tasks match walks the list's order and stops at a page", async () => {
    // A fifth of the seeded tasks are quarterly reviews.
    const tasks = await plans().taskPage("review", []);
    expect(indexesOf(tasks)).toContain("tasks_firm_id_audit_order_idx");
    // One sort only: the page's own rows, once picked (no sort of the matches).
    expect(tasks.filter((node) => node["Node Type"] === "Sort")).toHaveLength(1);
  });

  it("S-SCALE-11 the searches still find clients by name and tasks by their own text or their client's name, through the API", async () => {
    const client = await signIn(ctx.app, large.superAdmin);
    const clients = await client.get("/api/clients?limit=50&q=1217");
    expect(clients.status).toBe(200);
    expect(clients.body).toHaveLength(1);
    expect(clients.body[0].name).toMatch(/ 1217$/);
    const tasks = await client.get("/api/tasks?limit=50&q=1217");
    expect(tasks.status).toBe(200);
    expect(tasks.body).toHaveLength(5);
    expect(new Set(tasks.body.map((task: { clientId: string }) => task.clientId))).toEqual(
      new Set([clients.body[0].id]),
    );
    const reviews = await client.get("/api/tasks?limit=50&q=REVIEW");
    expect(reviews.body).toHaveLength(50);
    for (const task of reviews.body) expect(task.name).toBe("Quarterly estimated tax review");
    expect((await client.get("/api/tasks?limit=50&q=xylophone")).body).toEqual([]);
    expect((await client.get("/api/clients?limit=50&q=xylophone")).body).toEqual([]);
    // More than 500 clients' names hold "stone" and no task's own text does: past that many the
    // client's name is checked on the rows read, not sent as ids, with the same answers.
    const stone = await client.get("/api/tasks?limit=50&q=Stone");
    expect(stone.body).toHaveLength(50);
    for (const task of stone.body) expect(task.clientName.toLowerCase()).toContain("stone");
    expect(stone.headers["x-next-cursor"]).toBeTruthy();
  });

  it("S-SCALE-11 the views hold only the connection's firm, and the app role cannot write through them", async () => {
    const other = await seedFirm(ctx.database.db);
    const theirs = await insertClient(ctx.database.db, { firmId: other.firm.id, name: "Xylophone Makers" });
    // Searched from the large firm, another firm's client is not there.
    const client = await signIn(ctx.app, large.superAdmin);
    expect((await client.get("/api/clients?limit=50&q=xylophone")).body).toEqual([]);
    expect((await client.get("/api/tasks?limit=50&q=xylophone")).body).toEqual([]);
    const connection = await ctx.appDatabase.pool.connect();
    try {
      await connection.query("select set_config('tendwell.firm_id', $1, false)", [large.firm.id]);
      const seen = await connection.query("select id from firm_clients where id = $1 or firm_id = $2", [
        theirs.id,
        other.firm.id,
      ]);
      expect(seen.rows).toEqual([]);
      // Without a firm, nothing at all.
      await connection.query("select set_config('tendwell.firm_id', '', false)");
      expect((await connection.query("select count(*)::int as n from firm_tasks")).rows).toEqual([{ n: 0 }]);
      await connection.query("select set_config('tendwell.firm_id', $1, false)", [other.firm.id]);
      expect(
        await sqlFailure(() => connection.query("update firm_clients set name = 'Moved' where id = $1", [theirs.id])),
      ).toBe("42501");
      expect(await sqlFailure(() => connection.query("delete from firm_tasks"))).toBe("42501");
    } finally {
      await connection.query("discard all");
      connection.release();
    }
  });
});
