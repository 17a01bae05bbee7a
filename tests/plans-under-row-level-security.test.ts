import { beforeAll, describe, expect, it } from "vitest";
import { floorStatements } from "../bench/floor-statements";
import { userReportStatements } from "../src/server/features/reports/user-report.service";
import { userWorkStatements } from "../src/server/features/reports/user-work";
import { insertClient, insertTask } from "../src/server/seed/factories";
import { type SeededFirm, seedFirm } from "./fixtures";
import { type PlanNode, planNodes } from "./query-plans";
import { useTestApp } from "./test-app";

/*
 * Under row-level security PostgreSQL uses a query's condition as an index condition only when it
 * knows the condition cannot leak a row (decision 0039). These plans are taken as the app's own
 * role, in a firm, with generic plans (as prepared statements run after their fifth execution),
 * and with sequential scans, bitmap scans and sorts priced out, so each asks what the indexes
 * can do rather than what this small firm's statistics prefer. The texts are the app's own
 * (tests/prepared-statements.test.ts checks the floor's are the very ones it prepares).
 */
describe("plans as the app role, under row-level security", () => {
  const ctx = useTestApp({ poolSize: 1 });
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
    const client = await insertClient(ctx.database.db, { firmId: world.firm.id });
    for (let day = 1; day <= 5; day++) {
      await insertTask(ctx.database.db, {
        firmId: world.firm.id,
        clientId: client.id,
        dueDate: new Date(Date.now() - day * 86_400_000),
      });
      await insertTask(ctx.database.db, {
        firmId: world.firm.id,
        clientId: client.id,
        completed: { by: world.users.admin },
      });
    }
  });

  async function planOf(text: string, values: unknown[]): Promise<PlanNode[]> {
    const connection = await ctx.appDatabase.pool.connect();
    try {
      await connection.query("select set_config('tendwell.firm_id', $1, false)", [world.firm.id]);
      for (const setting of [
        "plan_cache_mode = force_generic_plan",
        "enable_seqscan = off",
        "enable_bitmapscan = off",
        "enable_sort = off",
      ]) {
        await connection.query(`set ${setting}`);
      }
      await connection.query(`prepare probe as ${text}`);
      // EXECUTE takes its values as literals, not bound parameters.
      const literal = (value: unknown) =>
        value === null
          ? "null"
          : typeof value === "number"
            ? String(value)
            : connection.escapeLiteral(value instanceof Date ? value.toISOString() : String(value));
      const { rows } = await connection.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        `explain (format json) execute probe(${values.map(literal).join(", ")})`,
      );
      return planNodes(rows);
    } finally {
      await connection.query("discard all");
      connection.release();
    }
  }

  it("S-SCALE-10 the task audit list seeks its index from a cursor and a status's start, never walking the firm's tasks", async () => {
    const now = new Date();
    // The pending tasks' first page: the walk starts where pending work begins in the order.
    const nodes = await planOf(floorStatements.tasks_page, [
      world.firm.id,
      "-infinity",
      "-infinity",
      "-infinity",
      "infinity",
      "infinity",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "pending",
      "pending",
      "pending",
      now,
      "pending",
      now,
      51,
    ]);
    const scan = nodes.find((node) => node["Relation Name"] === "tasks");
    expect(scan?.["Index Name"]).toBe("tasks_firm_id_audit_order_idx");
    // Both bounds, the cursor's and the status's lowest key, are conditions of the index.
    expect(scan?.["Index Cond"]).toMatch(/>= ROW\(\$2, \$3\).*< ROW\(/s);
  });

  it("S-SCALE-10 the bell reads its oldest overdue tasks in index order, with no sort of the firm's overdue work", async () => {
    const nodes = await planOf(floorStatements.overdue_tasks, [world.firm.id, new Date(), null, null, 20]);
    const scan = nodes.find((node) => node["Relation Name"] === "tasks");
    expect(scan?.["Index Name"]).toBe("tasks_firm_id_status_due_date_created_at_id_idx");
    expect(scan?.["Index Cond"]).toContain("due_date <");
    expect(nodes.filter((node) => /Sort/.test(node["Node Type"]))).toEqual([]);
  });

  it("S-SCALE-15 the user report and the profile read kept days by their key's range and only today's sign-offs, and the breakdown's top clients from their index", async () => {
    const now = new Date();
    const [bounds] = (
      await ctx.database.pool.query<{ first_day: string; today: string; today_from: Date; range_from: Date }>(
        `select ((now() at time zone 'UTC')::date - 364)::text as first_day, (now() at time zone 'UTC')::date::text as today,
                date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' as today_from,
                (date_trunc('day', now() at time zone 'UTC') - interval '364 days') at time zone 'UTC' as range_from`,
      )
    ).rows;
    if (!bounds) throw new Error("no bounds");
    const user = world.users.admin.id;
    const kept = [world.firm.id, user, bounds.first_day, bounds.today, bounds.today_from, now];
    const readsKeptDays = (nodes: PlanNode[]) => {
      const days = nodes.find((node) => node["Relation Name"] === "user_completion_days");
      expect(days?.["Index Name"]).toBe("user_completion_days_pkey");
      expect(days?.["Index Cond"]).toMatch(/day >= .*day < /s);
    };
    // Today's sign-offs, and no other, are read from the sign-offs index: both ends are its conditions.
    const readsToday = (nodes: PlanNode[]) => {
      const scans = nodes.filter((node) => node["Relation Name"] === "tasks");
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) {
        expect(scan["Index Name"]).toBe("tasks_firm_id_completed_by_sign_offs_idx");
        expect(scan["Index Cond"]).toMatch(/completed_at >= .*completed_at <= /s);
      }
    };
    const figures = await planOf(userReportStatements.report_user_figures ?? "", [
      ...kept,
      bounds.range_from,
      "UTC",
      "week",
    ]);
    readsKeptDays(figures);
    readsToday(figures);
    const profile = await planOf(userWorkStatements.user_work_signed_off ?? "", kept);
    readsKeptDays(profile);
    readsToday(profile);
    const clients = await planOf(userReportStatements.report_user_clients ?? "", [
      world.firm.id,
      user,
      365,
      bounds.today,
      bounds.today_from,
      now,
    ]);
    readsToday(clients);
    expect(clients.map((node) => node["Index Name"])).toContain("user_report_clients_top_idx");
  });
});
