import { beforeAll, describe, expect, it } from "vitest";
import { floorStatements } from "../bench/floor-statements";
import { seedLargeFirm } from "../src/server/seed/large-firm";
import { signIn } from "./fixtures";
import { useTestApp } from "./test-app";

/*
 * The client and task searches read trigram indexes (decision 0036). A firm of 10,000 clients
 * and 50,000 tasks is enough for PostgreSQL to tell a search that matches few rows
 * from one that matches many; `npm run bench:scale` checks the same plans at 10,000 and 1,000,000.
 * The plans come from the very statements the app prepares (bench/floor-statements.ts, which
 * tests/prepared-statements.test.ts keeps equal to them).
 */
describe("search plans at a large firm", () => {
  // One connection, so pg_prepared_statements shows every plan the app's statements had.
  const ctx = useTestApp({ poolSize: 1 });
  let large: Awaited<ReturnType<typeof seedLargeFirm>>;
  beforeAll(async () => {
    large = await seedLargeFirm(ctx.database, { clients: 10_000, tasks: 50_000 });
    // What autovacuum does after a bulk insert: the GIN indexes' pending entries are merged, and
    // the planner has the statistics of the new rows.
    await ctx.database.pool.query("vacuum analyze clients, tasks");
  }, 120_000);

  async function planOf(statement: "clients_page" | "tasks_page", term: string): Promise<string> {
    const pattern = `%${term}%`;
    const firm = large.firm.id;
    const values =
      statement === "clients_page"
        ? [firm, false, null, null, pattern, pattern, pattern, pattern, null, null, null, null, null, 51]
        : [
            firm,
            ...["-infinity", "-infinity", "infinity", "infinity", "infinity", "ffffffff-ffff-ffff-ffff-ffffffffffff"],
            ...[null, null, null, new Date(), null, new Date()],
            ...[pattern, pattern, pattern, firm, pattern],
            ...[null, null, 51],
          ];
    const { rows } = await ctx.database.pool.query<{ "QUERY PLAN": string }>(
      `explain ${floorStatements[statement]}`,
      values,
    );
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  }

  it("S-SCALE-04 a search that matches one client or nothing is read from the trigram indexes, never by walking the firm's clients or tasks", async () => {
    // The seeded clients' names end in their number: 1217 names one client; nothing is called xylophone.
    for (const term of ["1217", "xylophone"]) {
      const clientPlan = await planOf("clients_page", term);
      expect(clientPlan, term).toContain("clients_search_idx");
      expect(clientPlan, term).not.toMatch(/Seq Scan/);
      const taskPlan = await planOf("tasks_page", term);
      expect(taskPlan, term).toContain("tasks_search_idx");
      expect(taskPlan, term).not.toMatch(/Seq Scan on (clients|tasks)/);
    }
  });

  it("S-SCALE-04 the searches still find clients by name and tasks by their client's name, through the API", async () => {
    const client = await signIn(ctx.app, large.superAdmin);
    const clients = await client.get("/api/clients?limit=50&q=1217");
    expect(clients.status).toBe(200);
    expect(clients.body).toHaveLength(1);
    expect(clients.body[0].name).toMatch(/ 1217$/);
    const tasks = await client.get("/api/tasks?limit=50&q=1217");
    expect(tasks.status).toBe(200);
    expect(tasks.body.length).toBe(5);
    expect(new Set(tasks.body.map((task: { clientId: string }) => task.clientId))).toEqual(
      new Set([clients.body[0].id]),
    );
    expect((await client.get("/api/tasks?limit=50&q=xylophone")).body).toEqual([]);
  });

  it("S-SCALE-04 the list statements are planned for each request's values, so a search gets its own plan however often the lists ran before", async () => {
    const client = await signIn(ctx.app, large.superAdmin);
    for (let round = 0; round < 12; round++) {
      expect((await client.get("/api/tasks?limit=50")).status).toBe(200);
      expect((await client.get("/api/clients?limit=50")).status).toBe(200);
    }
    expect((await client.get("/api/tasks?limit=50&q=xylophone")).status).toBe(200);
    expect((await client.get("/api/clients?limit=50&q=xylophone")).status).toBe(200);
    const { rows } = await ctx.appDatabase.pool.query(
      "select name, generic_plans from pg_prepared_statements where name in ('tasks_page', 'clients_page') order by name",
    );
    expect(rows).toEqual([
      { name: "clients_page", generic_plans: "0" },
      { name: "tasks_page", generic_plans: "0" },
    ]);
  });
});
