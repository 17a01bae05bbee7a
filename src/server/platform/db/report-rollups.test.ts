import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../../tests/test-app";
import { type ReportDays, reportDays, userReportClientsListed } from "../../../shared/reports";
import { getUserReport } from "../../features/reports/user-report.service";
import { userWork } from "../../features/reports/user-work";
import { insertClient, insertFirm, insertUser } from "../../seed/factories";
import type { Actor } from "../../tenancy/actor";
import { inFirm, rawInFirm } from "./firm-scope";

/*
 * The user report's kept sign-offs (decision 0041): per user, local day and priority
 * (user_completion_days), and per report window and client as of a day (user_report_windows,
 * user_report_clients), kept by triggers on tasks, clients and firms and moved forward a day at a
 * time by the reports themselves. The report and the profile trust them, so after any sequence of
 * writes, zone changes and days passing, they must equal a fresh count of the sign-offs, and the
 * report must answer what counting its range's sign-offs answers. Everything runs as the app's
 * own role, under row-level security.
 */
describe("kept sign-offs of the user report", () => {
  const ctx = useTestApp();
  const HOUR = 3_600_000;
  const owner = async <Row>(text: string, values: unknown[]) =>
    (await ctx.database.pool.query(text, values)).rows as Row[];

  const daysCounted = (firmId: string) =>
    owner(
      `select t.completed_by as user_id, (t.completed_at at time zone f.time_zone)::date::text as day, t.priority,
              count(*)::int as completed, (count(*) filter (where t.completed_at <= t.due_date))::int as on_time,
              count(t.due_date)::int as with_due, sum(extract(epoch from (t.completed_at - t.created_at)))::text as seconds
       from tasks t join firms f on f.id = t.firm_id
       where t.firm_id = $1 and t.completed_by is not null
       group by 1, 2, 3 order by 1, 2, 3`,
      [firmId],
    );
  const daysKept = (firmId: string) =>
    owner(
      `select user_id, day::text as day, priority, completed, on_time, with_due, seconds::text as seconds
       from user_completion_days where firm_id = $1 order by 1, 2, 3`,
      [firmId],
    );
  /** Each window's clients for the days [as_of - days + 1, as_of - 1], counted from the sign-offs. */
  const windowsCounted = (firmId: string) =>
    owner(
      `select w.user_id, w.days, t.client_id, cl.name as client_name, count(*)::int as completed,
              (count(*) filter (where t.completed_at <= t.due_date))::int as on_time, count(t.due_date)::int as with_due
       from user_report_windows w
       join firms f on f.id = w.firm_id
       join tasks t on t.firm_id = w.firm_id and t.completed_by = w.user_id
         and (t.completed_at at time zone f.time_zone)::date between w.as_of - w.days + 1 and w.as_of - 1
       join clients cl on cl.firm_id = t.firm_id and cl.id = t.client_id
       where w.firm_id = $1
       group by 1, 2, 3, 4 order by 1, 2, 3`,
      [firmId],
    );
  const windowsKept = (firmId: string) =>
    owner(
      `select user_id, days, client_id, client_name, completed, on_time, with_due
       from user_report_clients where firm_id = $1 order by 1, 2, 3`,
      [firmId],
    );
  const servedCounted = (firmId: string) =>
    owner(
      `select w.user_id, w.days, (select count(*) from user_report_clients k
                                  where k.firm_id = w.firm_id and k.user_id = w.user_id and k.days = w.days)::int as served
       from user_report_windows w where w.firm_id = $1 order by 1, 2`,
      [firmId],
    );
  const servedKept = (firmId: string) =>
    owner("select user_id, days, clients_served as served from user_report_windows where firm_id = $1 order by 1, 2", [
      firmId,
    ]);

  /** The user report's figures counted from the range's sign-offs, as the report answered them before 0041. */
  const reportCounted = async (firmId: string, userId: string, days: ReportDays, now: Date) => {
    const [row] = await owner<Record<string, unknown>>(
      `with f as (select time_zone as tz,
                         (date_trunc('day', $3::timestamptz at time zone time_zone) - ($4::int - 1) * interval '1 day')
                           at time zone time_zone as range_from
                  from firms where id = $1),
       c as (select t.*, cl.name as client_name,
                    date_trunc(case when $4::int <= 30 then 'day' else 'week' end, t.completed_at at time zone f.tz)::date as bucket
             from tasks t cross join f join clients cl on cl.firm_id = t.firm_id and cl.id = t.client_id
             where t.firm_id = $1 and t.completed_by = $2 and t.completed_at >= f.range_from and t.completed_at <= $3),
       per_client as (select client_id, client_name, count(*)::int as completed,
                             count(*) filter (where completed_at <= due_date) as on_time, count(due_date) as with_due
                      from c group by client_id, client_name)
       select (select count(*) from c)::int as "tasksCompleted",
              (select case when count(due_date) = 0 then null
                      else round(100.0 * count(*) filter (where completed_at <= due_date) / count(due_date))::int end from c) as "onTimeRate",
              (select count(*) from per_client)::int as "clientsServed",
              (select case when count(*) = 0 then null
                      else greatest(0, round(sum(extract(epoch from (completed_at - created_at))) / count(*) / 86400))::int end
               from c) as "averageCompletionDays",
              (select json_agg(json_build_object('priority', p.priority, 'completed', count,
                                                 'onTimeRate', case when with_due = 0 then null else round(100.0 * on_time / with_due)::int end)
                               order by p.ord)
               from unnest(array['low', 'medium', 'high']) with ordinality as p(priority, ord)
               cross join lateral (select count(*)::int as count, count(*) filter (where completed_at <= due_date) as on_time,
                                          count(due_date) as with_due from c where c.priority = p.priority) x) as "byPriority",
              (select coalesce(json_agg(json_build_object('client', json_build_object('id', client_id, 'name', client_name),
                                                          'completed', completed,
                                                          'onTimeRate', case when with_due = 0 then null else round(100.0 * on_time / with_due)::int end)
                                        order by completed desc, client_name, client_id), '[]')
               from (select * from per_client order by completed desc, client_name, client_id limit ${userReportClientsListed}) x) as "byClient",
              (select json_agg(json_build_object('start', b.start, 'completed', (select count(*) from c where c.bucket = b.start),
                                                 'onTime', (select count(*) from c where c.bucket = b.start and completed_at <= due_date),
                                                 'late', (select count(*) from c where c.bucket = b.start and completed_at > due_date))
                               order by b.start)
               from f, generate_series(date_trunc(case when $4::int <= 30 then 'day' else 'week' end, f.range_from at time zone f.tz),
                                       date_trunc(case when $4::int <= 30 then 'day' else 'week' end, $3::timestamptz at time zone f.tz),
                                       case when $4::int <= 30 then interval '1 day' else interval '1 week' end) as g
               cross join lateral (select g::date as start) b) as series`,
      [firmId, userId, now, days],
    );
    return row;
  };

  const zones = ["UTC", "America/New_York", "Pacific/Auckland"];
  // Hours before the day the run is on (some after it, none after now): most near it, around its
  // windows' edges, some a year back.
  const ago = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -72, max: 24 * 14 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 24 * 100 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 24 * 400 }) },
  );
  const due = fc.option(fc.integer({ min: -24 * 30, max: 24 * 30 }), { nil: null });
  const priority = fc.constantFrom("low", "medium", "high");
  // Weighted toward what moves the windows: sign-offs of the last weeks changed after a report.
  const operation = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("signOff" as const),
        user: fc.nat(1),
        client: fc.nat(3),
        count: fc.integer({ min: 1, max: 3 }),
        ago,
        due,
        priority,
      }),
    },
    fc.record({ kind: fc.constant("open" as const), client: fc.nat(3) }),
    fc.record({ kind: fc.constant("complete" as const), pick: fc.nat(), user: fc.nat(1), ago }),
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("reopen" as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("signer" as const), pick: fc.nat(), user: fc.nat(1) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("redate" as const), pick: fc.nat(), ago }) },
    fc.record({ kind: fc.constant("due" as const), pick: fc.nat(), due }),
    fc.record({ kind: fc.constant("priority" as const), pick: fc.nat(), priority }),
    fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), client: fc.nat(3) }),
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
    fc.record({
      kind: fc.constant("rename" as const),
      client: fc.nat(3),
      name: fc.constantFrom("Ash", "Birch", "Cedar"),
    }),
    fc.record({ kind: fc.constant("archive" as const), client: fc.nat(3), archived: fc.boolean() }),
    fc.record({ kind: fc.constant("zone" as const), zone: fc.constantFrom(...zones) }),
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant("nextDays" as const), days: fc.integer({ min: 1, max: 40 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("read" as const),
        user: fc.nat(1),
        days: fc.constantFrom(...reportDays),
      }),
    },
  );

  /** The firm's local day `back` days before today, its last instant (or now, for today), and today. */
  const dayOf = async (firmId: string, back: number) => {
    const [row] = await owner<{ end_at: Date; today: string }>(
      `select least(now(), ((((now() at time zone time_zone)::date - $2::int + 1)::timestamp) at time zone time_zone)
                           - interval '1 millisecond') as end_at,
              ((now() at time zone time_zone)::date - $2::int)::text as today
       from firms where id = $1`,
      [firmId, back],
    );
    if (!row) throw new Error("no firm");
    return row;
  };

  it("S-SCALE-14 equal a fresh count of the sign-offs, and the report and profile answer what counting the range gives, after any writes, zone changes and days passing", async () => {
    const db = ctx.database.db;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 60 }),
        fc.array(operation, { maxLength: 14 }),
        async (zone, startBack, operations) => {
          const firm = await insertFirm(db, { timeZone: zone });
          const users = [
            await insertUser(db, { firmId: firm.id, role: "super_admin" }),
            await insertUser(db, { firmId: firm.id, role: "user" }),
          ];
          const clientIds: string[] = [];
          for (const name of ["Ash", "Birch", "Ash", "Dogwood"]) {
            clientIds.push((await insertClient(db, { firmId: firm.id, name })).id);
          }
          const actor = { firmId: firm.id, userId: users[0]?.id, role: "super_admin" } as Actor;
          const appDb = inFirm(ctx.appDatabase.db, firm.id);
          const write = (text: string, values: unknown[]) =>
            rawInFirm(ctx.appDatabase.db, firm.id).$client.query({ text, values });
          const userAt = (index: number) => users[index % users.length]?.id ?? "";
          const clientAt = (index: number) => clientIds[index % clientIds.length] ?? "";
          const taskAt = async (pick: number, where: string) => {
            const rows = await owner<{ id: string }>(
              `select id from tasks where firm_id = $1 and ${where} order by id`,
              [firm.id],
            );
            return rows.length === 0 ? undefined : rows[pick % rows.length]?.id;
          };
          let back = startBack;
          const at = (hoursAgo: number) =>
            new Date(Math.min(Date.now(), Date.now() - (back * 24 + hoursAgo) * HOUR) - 1000);
          const dueAt = (hours: number | null) => (hours === null ? null : new Date(Date.now() + hours * HOUR));

          const read = async (userIndex: number, days: ReportDays) => {
            const day = await dayOf(firm.id, back);
            const userId = userAt(userIndex);
            const report = await getUserReport({ db: appDb, actor, userId, days, now: day.end_at });
            expect(report).toMatchObject((await reportCounted(firm.id, userId, days, day.end_at)) ?? {});
            const work = await userWork({ db: appDb, firmId: firm.id, userId, days, now: day.end_at });
            expect([work.totals.completed, work.totals.averageCompletionDays]).toEqual([
              report.tasksCompleted,
              report.averageCompletionDays,
            ]);
            expect(await daysKept(firm.id)).toEqual(await daysCounted(firm.id));
            expect(await windowsKept(firm.id)).toEqual(await windowsCounted(firm.id));
            expect(await servedKept(firm.id)).toEqual(await servedCounted(firm.id));
          };

          // Windows exist from the start (a report was read), so the writes below change them.
          for (const [index, hoursAgo] of [2, 30, 200, 700].entries()) {
            await write(
              `insert into tasks (id, firm_id, client_id, name, status, created_at, completed_at, completed_by, printed_name,
                                  signature, signature_sha256)
               values (gen_random_uuid(), $1, $2, 'Earlier', 'completed', $3::timestamptz - interval '2 days', $3, $4,
                       'Signer', 'data:image/png;base64,AA==', 'x')`,
              [firm.id, clientAt(index), at(hoursAgo), userAt(index)],
            );
          }
          await read(0, 30);
          await read(1, 7);
          for (const step of operations) {
            switch (step.kind) {
              case "signOff":
                // One statement for several rows, as a bulk write would.
                await write(
                  `insert into tasks (id, firm_id, client_id, name, priority, status, due_date, created_at, completed_at,
                                      completed_by, printed_name, signature, signature_sha256)
                   select gen_random_uuid(), $1, $2, 'Done ' || g, $3, 'completed', $4, $5::timestamptz - g * interval '5 hours',
                          $5, $6, 'Signer', 'data:image/png;base64,AA==', 'x'
                   from generate_series(1, $7::int) as g`,
                  [
                    firm.id,
                    clientAt(step.client),
                    step.priority,
                    dueAt(step.due),
                    at(step.ago),
                    userAt(step.user),
                    step.count,
                  ],
                );
                continue;
              case "open":
                await write(
                  "insert into tasks (id, firm_id, client_id, name) values (gen_random_uuid(), $1, $2, 'Open')",
                  [firm.id, clientAt(step.client)],
                );
                continue;
              case "rename":
                await write("update clients set name = $2 where id = $1", [clientAt(step.client), step.name]);
                continue;
              case "archive":
                await write(`update clients set archived_at = ${step.archived ? "now()" : "null"} where id = $1`, [
                  clientAt(step.client),
                ]);
                continue;
              case "zone":
                await write("update firms set time_zone = $2 where id = $1", [firm.id, step.zone]);
                continue;
              case "nextDays":
                back = Math.max(0, back - step.days);
                continue;
              case "read":
                await read(step.user, step.days);
                continue;
            }
            const signed = step.kind !== "complete" && step.kind !== "move" && step.kind !== "delete";
            const taskId = await taskAt(step.pick, signed ? "completed_by is not null" : "true");
            if (!taskId) continue;
            if (step.kind === "complete") {
              await write(
                `update tasks set status = 'completed', completed_at = $3, completed_by = $2, printed_name = 'Signer',
                   signature = 'data:image/png;base64,AA==', signature_sha256 = 'x'
                 where id = $1 and status = 'pending'`,
                [taskId, userAt(step.user), at(step.ago)],
              );
            } else if (step.kind === "reopen") {
              await write(
                `update tasks set status = 'pending', completed_at = null, completed_by = null, printed_name = null,
                   signature = null, signature_sha256 = null where id = $1`,
                [taskId],
              );
            } else if (step.kind === "signer") {
              await write("update tasks set completed_by = $2 where id = $1", [taskId, userAt(step.user)]);
            } else if (step.kind === "redate") {
              await write("update tasks set completed_at = $2 where id = $1", [taskId, at(step.ago)]);
            } else if (step.kind === "due") {
              await write("update tasks set due_date = $2 where id = $1", [taskId, dueAt(step.due)]);
            } else if (step.kind === "priority") {
              await write("update tasks set priority = $2 where id = $1", [taskId, step.priority]);
            } else if (step.kind === "move") {
              await write("update tasks set client_id = $2 where id = $1", [taskId, clientAt(step.client)]);
            } else {
              await write("delete from tasks where id = $1", [taskId]);
            }
          }
          await read(0, 365);
          // Today, after whatever day the run read last.
          back = 0;
          for (const days of reportDays) {
            await read(0, days);
            await read(1, days);
          }
        },
      ),
      { numRuns: 60 },
    );
    // Sixty runs of up to twenty reports each: longer than a test's default 30 s on a busy machine.
  }, 180_000);

  /** A UTC firm whose user signed off at the given instants, and its report as of `now` checked against the count. */
  async function zoneChangeWorld(now: Date, instants: Date[]) {
    const db = ctx.database.db;
    const firm = await insertFirm(db, { timeZone: "UTC" });
    const user = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const client = await insertClient(db, { firmId: firm.id });
    const actor = { firmId: firm.id, userId: user.id, role: "super_admin" } as Actor;
    const appDb = inFirm(ctx.appDatabase.db, firm.id);
    const write = (text: string, values: unknown[]) =>
      rawInFirm(ctx.appDatabase.db, firm.id).$client.query({ text, values });
    for (const instant of instants) {
      await write(
        `insert into tasks (id, firm_id, client_id, name, status, created_at, completed_at, completed_by, printed_name,
                            signature, signature_sha256)
         values (gen_random_uuid(), $1, $2, 'Done', 'completed', $3::timestamptz - interval '1 day', $3, $4, 'Signer',
                 'data:image/png;base64,AA==', 'x')`,
        [firm.id, client.id, instant, user.id],
      );
    }
    const check = async () => {
      const report = await getUserReport({ db: appDb, actor, userId: user.id, days: 7, now });
      expect(report).toMatchObject((await reportCounted(firm.id, user.id, 7, now)) ?? {});
      expect(await daysKept(firm.id)).toEqual(await daysCounted(firm.id));
      expect(await windowsKept(firm.id)).toEqual(await windowsCounted(firm.id));
      return report;
    };
    return { firm, check, write };
  }

  it("S-SCALE-14 today's sign-offs lift a client from below the window's top 20 into the answer's, and a client new today counts as served", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db, { timeZone: "UTC" });
    const user = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const actor = { firmId: firm.id, userId: user.id, role: "super_admin" } as Actor;
    const appDb = inFirm(ctx.appDatabase.db, firm.id);
    const write = (text: string, values: unknown[]) =>
      rawInFirm(ctx.appDatabase.db, firm.id).$client.query({ text, values });
    const signOff = async (clientId: string, count: number, at: Date) =>
      write(
        `insert into tasks (id, firm_id, client_id, name, status, created_at, completed_at, completed_by, printed_name,
                            signature, signature_sha256)
         select gen_random_uuid(), $1, $2, 'Done ' || g, 'completed', $3::timestamptz - interval '1 day', $3, $4, 'Signer',
                'data:image/png;base64,AA==', 'x'
         from generate_series(1, $5::int) as g`,
        [firm.id, clientId, at, user.id, count],
      );
    const clientIds: string[] = [];
    for (let index = 0; index < 26; index++) {
      clientIds.push((await insertClient(db, { firmId: firm.id, name: `Client ${index}` })).id);
    }
    // Before today: client i has 25 - i sign-offs (the last one none).
    for (const [index, clientId] of clientIds.slice(0, 25).entries()) {
      await signOff(clientId, 25 - index, new Date(Date.now() - 30 * HOUR));
    }
    const check = async () => {
      const now = new Date();
      const report = await getUserReport({ db: appDb, actor, userId: user.id, days: 7, now });
      expect(report).toMatchObject((await reportCounted(firm.id, user.id, 7, now)) ?? {});
      return report;
    };
    expect((await check()).clientsServed).toBe(25);
    // Today: 30 more on the 25th (1 kept, below the top 20) and 2 on the one with none before.
    await signOff(clientIds[24] ?? "", 30, new Date(Date.now() - 1000));
    await signOff(clientIds[25] ?? "", 2, new Date(Date.now() - 1000));
    const report = await check();
    expect(report.clientsServed).toBe(26);
    expect(report.byClient[0]?.client.id).toBe(clientIds[24]);
  });

  it("S-SCALE-14 count the local days again when the firm's zone changes, and remake the report windows", async () => {
    // Ten days ago at noon UTC, 7:00 in New York: the same local date in both zones, so the
    // windows made in UTC would be read as they are in New York if the change left them.
    const noon = new Date(`${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);
    const day = 86_400_000;
    // 01:00 UTC six days before: inside the 7-day window in UTC, the evening before it in New York.
    const early = new Date(noon.getTime() - 6 * day - 11 * 3_600_000);
    const world = await zoneChangeWorld(noon, [early, new Date(noon.getTime() - 2 * day)]);
    expect((await world.check()).tasksCompleted).toBe(2);
    await world.write("update firms set time_zone = 'America/New_York' where id = $1", [world.firm.id]);
    expect((await world.check()).tasksCompleted).toBe(1);
  });

  it("S-SCALE-14 the comparison finds a sign-off edited without the maintenance", async () => {
    const noon = new Date(`${new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);
    const world = await zoneChangeWorld(new Date(noon.getTime() + 2 * 86_400_000), [noon]);
    await world.check();
    // The same edit of a past sign-off, with the trigger that keeps the rollups turned off.
    const connection = await ctx.database.pool.connect();
    try {
      await connection.query("begin");
      await connection.query("alter table tasks disable trigger tasks_sign_offs_update");
      await connection.query("update tasks set completed_at = completed_at - interval '1 day' where firm_id = $1", [
        world.firm.id,
      ]);
      const counted = async <Row>(text: string) => (await connection.query(text, [world.firm.id])).rows as Row[];
      const days = `select (t.completed_at at time zone 'UTC')::date::text as day from tasks t where t.firm_id = $1`;
      const kept = "select day::text as day from user_completion_days where firm_id = $1";
      expect(await counted(kept)).not.toEqual(await counted(days));
    } finally {
      await connection.query("rollback");
      connection.release();
    }
  });
});
