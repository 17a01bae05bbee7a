import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../../tests/test-app";
import { insertClient, insertFirm, insertTask, insertUser } from "../../seed/factories";

/*
 * client_task_counts is kept by statement triggers on tasks (migration 0004) and the dashboard
 * trusts it, so after any sequence of writes it must equal what counting the tasks gives.
 */
describe("per-client task counts", () => {
  const ctx = useTestApp();

  const counted = async (firmId: string) =>
    (
      await ctx.database.pool.query<{ client_id: string; total: number; completed: number }>(
        `select client_id, count(*)::int as total, (count(*) filter (where status = 'completed'))::int as completed
         from tasks where firm_id = $1 group by client_id order by client_id`,
        [firmId],
      )
    ).rows;
  const kept = async (firmId: string) =>
    (
      await ctx.database.pool.query<{ client_id: string; total: number; completed: number }>(
        "select client_id, total, completed from client_task_counts where firm_id = $1 and total > 0 order by client_id",
        [firmId],
      )
    ).rows;

  const operation = fc.oneof(
    fc.record({ kind: fc.constant("insert" as const), client: fc.nat(2), count: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant("complete" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("rename" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), client: fc.nat(2) }),
    fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("deleteClientTasks" as const), client: fc.nat(2) }),
  );

  it("equal a fresh count after any sequence of inserts, completions, edits, moves and deletes", async () => {
    const db = ctx.database.db;
    const pool = ctx.database.pool;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 12 }), async (operations) => {
        const firm = await insertFirm(db);
        const owner = await insertUser(db, { firmId: firm.id, role: "super_admin" });
        const clientIds: string[] = [];
        for (let index = 0; index < 3; index++) clientIds.push((await insertClient(db, { firmId: firm.id })).id);
        const clientAt = (index: number) => clientIds[index % clientIds.length] ?? "";
        const taskAt = async (pick: number) => {
          const { rows } = await pool.query<{ id: string }>("select id from tasks where firm_id = $1 order by id", [
            firm.id,
          ]);
          return rows.length === 0 ? undefined : rows[pick % rows.length]?.id;
        };
        for (const step of operations) {
          if (step.kind === "insert") {
            // One statement for several rows, as the scheduler and client creation write them.
            await pool.query(
              `insert into tasks (id, firm_id, client_id, name) select gen_random_uuid(), $1, $2, 'Bulk ' || g
               from generate_series(1, $3::int) as g`,
              [firm.id, clientAt(step.client), step.count],
            );
            await insertTask(db, { firmId: firm.id, clientId: clientAt(step.client), completed: { by: owner } });
            continue;
          }
          if (step.kind === "deleteClientTasks") {
            await pool.query("delete from tasks where firm_id = $1 and client_id = $2", [
              firm.id,
              clientAt(step.client),
            ]);
            continue;
          }
          const taskId = await taskAt(step.pick);
          if (!taskId) continue;
          if (step.kind === "complete") {
            await pool.query(
              `update tasks set status = 'completed', completed_at = now(), completed_by = $2, printed_name = 'Signer',
                 signature = 'data:image/png;base64,AA==', signature_sha256 = 'x'
               where id = $1 and status = 'pending'`,
              [taskId, owner.id],
            );
          } else if (step.kind === "rename") {
            await pool.query("update tasks set name = name || '!' where id = $1", [taskId]);
          } else if (step.kind === "move") {
            await pool.query("update tasks set client_id = $2 where id = $1", [taskId, clientAt(step.client)]);
          } else {
            await pool.query("delete from tasks where id = $1", [taskId]);
          }
        }
        expect(await kept(firm.id)).toEqual(await counted(firm.id));
      }),
      { numRuns: 40 },
    );
  });

  it("leave with the client when a client is deleted for good", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db);
    const client = await insertClient(db, { firmId: firm.id });
    await insertTask(db, { firmId: firm.id, clientId: client.id });
    expect(await kept(firm.id)).toEqual([{ client_id: client.id, total: 1, completed: 0 }]);
    await ctx.database.pool.query("delete from tasks where client_id = $1", [client.id]);
    await ctx.database.pool.query("delete from clients where id = $1", [client.id]);
    const { rows } = await ctx.database.pool.query("select * from client_task_counts where client_id = $1", [
      client.id,
    ]);
    expect(rows).toEqual([]);
  });
});
