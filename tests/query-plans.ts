import { fillPlaceholders } from "drizzle-orm";
import type pg from "pg";
import { clientSearchStatement } from "../src/server/features/clients/client-list.service";
import { taskSearchStatements } from "../src/server/features/tasks/task-list.service";
import type { Database } from "../src/server/platform/db/database";
import { containsPattern } from "../src/server/platform/db/search";

export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
};

/** Every node of the plan EXPLAIN (FORMAT JSON) answered in `rows`, the root first. */
export function planNodes(rows: { "QUERY PLAN": [{ Plan: PlanNode }] }[]): PlanNode[] {
  const [explained] = rows[0]?.["QUERY PLAN"] ?? [];
  if (!explained) throw new Error("no plan");
  const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
  return nodesOf(explained.Plan);
}

/**
 * The plan of a drizzle statement for `values` (by placeholder name), in `firmId`'s scope, on a
 * connection of `pool`: every node, the root first. With `analyze`, the statement runs.
 */
export async function planOf(
  pool: pg.Pool,
  firmId: string,
  statement: { getQuery: () => { sql: string; params: unknown[] } },
  values: Record<string, unknown>,
  options: { analyze?: boolean } = {},
): Promise<PlanNode[]> {
  const query = statement.getQuery();
  const connection = await pool.connect();
  try {
    await connection.query("select set_config('tendwell.firm_id', $1, false)", [firmId]);
    const { rows } = await connection.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `explain (format json${options.analyze ? ", analyze" : ""}) ${query.sql}`,
      fillPlaceholders(query.params, values),
    );
    return planNodes(rows);
  } finally {
    await connection.query("discard all");
    connection.release();
  }
}

/**
 * The plans of the firm's searches for a word, as the app runs them: the client page, the ids of
 * the clients whose names match, and the task page (given those ids). For the search test and
 * the scale bench.
 */
export function searchPlans(pool: pg.Pool, db: Database, firmId: string) {
  const plan = (statement: Parameters<typeof planOf>[2], values: Record<string, unknown>) =>
    planOf(pool, firmId, statement, values);
  return {
    clientPage: (term: string) =>
      plan(clientSearchStatement(db), {
        firmId,
        archived: false,
        status: null,
        pattern: containsPattern(term),
        afterName: null,
        afterId: null,
        limit: 51,
      }),
    clientsNamed: (term: string) =>
      plan(taskSearchStatements.clientsNamed(db), { firmId, pattern: containsPattern(term) }),
    taskPage: (term: string, matchingClients: string[]) =>
      plan(taskSearchStatements.page(db), {
        firmId,
        status: null,
        lowestCompleted: "-infinity",
        lowestDue: "-infinity",
        now: new Date(),
        pattern: containsPattern(term),
        matchingClients,
        manyClientsMatch: false,
        afterCompleted: "infinity",
        afterDue: "infinity",
        afterCreated: "infinity",
        afterId: "ffffffff-ffff-ffff-ffff-ffffffffffff",
        limit: 51,
      }),
  };
}

export const indexesOf = (nodes: PlanNode[]) => nodes.map((node) => node["Index Name"]).filter(Boolean);
export const sequentialScanNodes = (nodes: PlanNode[]) => nodes.filter((node) => node["Node Type"] === "Seq Scan");
