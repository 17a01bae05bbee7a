import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../../tests/test-app";
import { insertClient, insertFirm, insertTask, insertUser } from "../../seed/factories";

/*
 * The kept counts (client_task_counts, firm_work_counts, pending_due_counts) are kept by triggers
 * on tasks and clients (migrations 0004 and 0017) and the dashboard and the bell trust them, so
 * after any sequence of writes each must equal what counting the tasks and clients gives.
 */
describe("kept task counts", () => {
  const ctx = useTestApp();
  const query = async <Row>(text: string, values: unknown[]) =>
    (await ctx.database.pool.query(text, values)).rows as Row[];

  const counted = (firmId: string) =>
    query(
      `select client_id, count(*)::int as total, (count(*) filter (where status = 'completed'))::int as completed,
              min(due_date) filter (where status = 'pending') as earliest_pending_due
       from tasks where firm_id = $1 group by client_id order by client_id`,
      [firmId],
    );
  const kept = (firmId: string) =>
    query(
      `select client_id, total, completed, earliest_pending_due
       from client_task_counts where firm_id = $1 and total > 0 order by client_id`,
      [firmId],
    );
  const firmCounted = (firmId: string) =>
    query(
      `select (count(*) filter (where c.status = 'active'))::int as clients_active,
              (count(*) filter (where c.status = 'inactive'))::int as clients_inactive,
              (count(*) filter (where c.status = 'prospect'))::int as clients_prospect,
              (select count(*) from tasks t join clients l on l.firm_id = t.firm_id and l.id = t.client_id
               where t.firm_id = $1 and l.archived_at is null)::int as tasks_total,
              (select count(*) from tasks t join clients l on l.firm_id = t.firm_id and l.id = t.client_id
               where t.firm_id = $1 and l.archived_at is null and t.status = 'completed')::int as tasks_completed
       from clients c where c.firm_id = $1 and c.archived_at is null`,
      [firmId],
    );
  const firmKept = (firmId: string) =>
    query(
      `select clients_active, clients_inactive, clients_prospect, tasks_total, tasks_completed
       from firm_work_counts where firm_id = $1`,
      [firmId],
    );
  const dueCounted = (firmId: string) =>
    query(
      `select due_date, sum(tasks)::int as tasks, sum(clients)::int as clients from (
         select t.due_date, count(*) as tasks, 0 as clients
         from tasks t join clients c on c.firm_id = t.firm_id and c.id = t.client_id and c.archived_at is null
         where t.firm_id = $1 and t.status = 'pending' and t.due_date is not null group by t.due_date
         union all
         select e.due_date, 0, count(*) from (
           select min(t.due_date) as due_date
           from tasks t join clients c on c.firm_id = t.firm_id and c.id = t.client_id and c.archived_at is null
           where t.firm_id = $1 and t.status = 'pending' group by t.client_id
         ) as e where e.due_date is not null group by e.due_date
       ) as open_work group by due_date order by due_date`,
      [firmId],
    );
  const dueKept = (firmId: string) =>
    query("select due_date, tasks, clients from pending_due_counts where firm_id = $1 order by due_date", [firmId]);

  // A few due dates, past and to come, so tasks share them and clients' earliest ones move.
  const dueDates = [-40, -3, -1, 2, 30].map((days) => new Date(Date.UTC(2026, 5, 15) + days * 86_400_000));
  const due = fc.option(fc.constantFrom(...dueDates), { nil: null });

  const operation = fc.oneof(
    fc.record({ kind: fc.constant("insert" as const), client: fc.nat(2), count: fc.integer({ min: 1, max: 4 }), due }),
    fc.record({ kind: fc.constant("complete" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("rename" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("due" as const), pick: fc.nat(), due }),
    fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), client: fc.nat(2) }),
    fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("deleteClientTasks" as const), client: fc.nat(2) }),
    fc.record({ kind: fc.constant("archive" as const), client: fc.nat(2) }),
    fc.record({ kind: fc.constant("restore" as const), client: fc.nat(2) }),
    fc.record({
      kind: fc.constant("status" as const),
      client: fc.nat(2),
      status: fc.constantFrom("active", "inactive", "prospect"),
    }),
    fc.record({ kind: fc.constant("addClient" as const), archived: fc.boolean() }),
    fc.record({ kind: fc.constant("deleteClient" as const), client: fc.nat(3) }),
  );

  it("S-SCALE-04 equal a fresh count after any sequence of task and client writes: inserts, sign-offs, due dates, moves, deletes, archiving, restoring, status changes", async () => {
    const db = ctx.database.db;
    const pool = ctx.database.pool;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 14 }), async (operations) => {
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
          switch (step.kind) {
            case "insert":
              // One statement for several rows, as the scheduler and client creation write them.
              await pool.query(
                `insert into tasks (id, firm_id, client_id, name, due_date)
                 select gen_random_uuid(), $1, $2, 'Bulk ' || g, $4 from generate_series(1, $3::int) as g`,
                [firm.id, clientAt(step.client), step.count, step.due],
              );
              await insertTask(db, { firmId: firm.id, clientId: clientAt(step.client), completed: { by: owner } });
              continue;
            case "deleteClientTasks":
              await pool.query("delete from tasks where firm_id = $1 and client_id = $2", [
                firm.id,
                clientAt(step.client),
              ]);
              continue;
            case "archive":
            case "restore":
              await pool.query(
                `update clients set archived_at = ${step.kind === "archive" ? "now()" : "null"} where id = $1`,
                [clientAt(step.client)],
              );
              continue;
            case "status":
              await pool.query("update clients set status = $2 where id = $1", [clientAt(step.client), step.status]);
              continue;
            case "addClient":
              clientIds.push(
                (await insertClient(db, { firmId: firm.id, archivedAt: step.archived ? new Date() : null })).id,
              );
              continue;
            case "deleteClient": {
              // Only a client without tasks can go (tasks_client_fk), as the app deletes one.
              const clientId = clientAt(step.client);
              const { rows } = await pool.query("select 1 from tasks where client_id = $1 limit 1", [clientId]);
              if (rows.length > 0 || clientIds.length === 1) continue;
              await pool.query("delete from user_clients where client_id = $1", [clientId]);
              await pool.query("delete from clients where id = $1", [clientId]);
              clientIds.splice(clientIds.indexOf(clientId), 1);
              continue;
            }
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
          } else if (step.kind === "due") {
            await pool.query("update tasks set due_date = $2 where id = $1", [taskId, step.due]);
          } else if (step.kind === "move") {
            await pool.query("update tasks set client_id = $2 where id = $1", [taskId, clientAt(step.client)]);
          } else {
            await pool.query("delete from tasks where id = $1", [taskId]);
          }
        }
        expect(await kept(firm.id)).toEqual(await counted(firm.id));
        const [firmTotals] = await firmCounted(firm.id);
        expect(await firmKept(firm.id)).toEqual([firmTotals]);
        expect(await dueKept(firm.id)).toEqual(await dueCounted(firm.id));
      }),
      { numRuns: 40 },
    );
  });

  it("S-SCALE-04 take an archived client's work out of the firm's counts, and put it back when it is restored", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db);
    const [kept, other] = [await insertClient(db, { firmId: firm.id }), await insertClient(db, { firmId: firm.id })];
    const [early, late] = [new Date("2026-03-01T00:00:00Z"), new Date("2026-04-01T00:00:00Z")];
    for (const [clientId, dueDate] of [
      [kept.id, late],
      [other.id, early],
      [other.id, late],
    ] as const) {
      await insertTask(db, { firmId: firm.id, clientId, dueDate });
    }
    const before = await dueKept(firm.id);
    expect(before).toEqual([
      { due_date: early, tasks: 1, clients: 1 },
      { due_date: late, tasks: 2, clients: 1 },
    ]);
    await ctx.database.pool.query("update clients set archived_at = now() where id = $1", [other.id]);
    expect(await dueKept(firm.id)).toEqual([{ due_date: late, tasks: 1, clients: 1 }]);
    expect((await firmKept(firm.id))[0]).toMatchObject({ clients_active: 1, tasks_total: 1 });
    await ctx.database.pool.query("update clients set archived_at = null where id = $1", [other.id]);
    expect(await dueKept(firm.id)).toEqual(before);
    expect((await firmKept(firm.id))[0]).toMatchObject({ clients_active: 2, tasks_total: 3 });
  });

  it("leave with the client when a client is deleted for good", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db);
    const client = await insertClient(db, { firmId: firm.id });
    await insertTask(db, { firmId: firm.id, clientId: client.id });
    expect(await kept(firm.id)).toEqual([{ client_id: client.id, total: 1, completed: 0, earliest_pending_due: null }]);
    await ctx.database.pool.query("delete from tasks where client_id = $1", [client.id]);
    await ctx.database.pool.query("delete from clients where id = $1", [client.id]);
    const { rows } = await ctx.database.pool.query("select * from client_task_counts where client_id = $1", [
      client.id,
    ]);
    expect(rows).toEqual([]);
    expect(await firmKept(firm.id)).toEqual([
      { clients_active: 0, clients_inactive: 0, clients_prospect: 0, tasks_total: 0, tasks_completed: 0 },
    ]);
  });
});
