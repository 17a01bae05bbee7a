import type { DatabaseHandle } from "../platform/db/database";
import { companyProfile, insertFirm, insertUser, insertUserClients } from "./factories";
import { createRandom } from "./random";
import { drawSignature } from "./signature-image";

/**
 * A firm of `size.clients` clients and `size.tasks` tasks spread evenly over them: about 60 % signed off over
 * the past three years, 5 % overdue, the rest pending (half with a due date to come, half with
 * none). The `user` is assigned 25 clients. Written in bulk by PostgreSQL itself; used by
 * `npm run bench:scale` and by the browser tests of large firms.
 */
export async function seedLargeFirm(
  database: DatabaseHandle,
  size: { clients: number; tasks: number },
  logins: Partial<Record<"superAdmin" | "user", { username: string; password: string }>> = {},
) {
  const random = createRandom(7);
  const firm = await insertFirm(database.db, { name: "Large Firm", plan: "enterprise" });
  const superAdmin = await insertUser(database.db, {
    firmId: firm.id,
    role: "super_admin",
    random,
    ...logins.superAdmin,
  });
  const user = await insertUser(database.db, { firmId: firm.id, role: "user", random, ...logins.user });
  const profiles = Array.from({ length: size.clients }, () => companyProfile(random));
  const { rows } = await database.pool.query<{ id: string }>(
    `insert into clients (id, firm_id, name, industry, status, email, phone, address)
     select gen_random_uuid(), $1, p.name || ' ' || p.n, p.industry,
            (array['active','active','active','active','active','active','active','active','inactive','prospect'])[1 + p.n % 10],
            'office' || p.n || '@example.com', '(555) 010-' || lpad((p.n % 10000)::text, 4, '0'), p.n || ' Main Street'
     from unnest($2::text[], $3::text[]) with ordinality as p(name, industry, n)
     returning id`,
    [firm.id, profiles.map((profile) => profile.name), profiles.map((profile) => profile.industry)],
  );
  const clientIds = rows.map((row) => row.id);
  // Every task's foreign key to its client is checked by a lookup in clients, and a connection
  // keeps the plan it first chose. Planned on the statistics of a table that held only the demo
  // firm's 36 clients, that lookup read all 10,000 clients for each task: 2 ms a task, 100 s for
  // the e2e firm's 100,000. Ten thousand new rows are the statistics' business before the tasks.
  await database.pool.query("analyze clients");
  await insertUserClients(database.db, { firmId: firm.id, userId: user.id, clientIds: clientIds.slice(0, 25) });
  const signature = drawSignature(superAdmin.fullName, random);
  // In slices, as many at once as the pool has connections: each PostgreSQL backend writes its
  // rows and indexes on a core of its own. With one "now" for all, the rows are those of one
  // statement over the whole series. The count trigger at each statement's end locks the firm
  // (decision 0036), so the slices' counting takes turns.
  const now = new Date();
  const slice = 50_000;
  const firsts = Array.from({ length: Math.ceil(size.tasks / slice) }, (_, index) => index * slice);
  let written = 0;
  const writeSlices = async () => {
    for (let first = firsts.shift(); first !== undefined; first = firsts.shift()) {
      await database.pool.query(
        `insert into tasks (id, firm_id, client_id, name, description, priority, status, due_date, created_at,
                            completed_at, completed_by, printed_name, signature, signature_sha256)
         select gen_random_uuid(), $1, ($2::uuid[])[1 + g % cardinality($2::uuid[])],
                (array['Monthly bank reconciliation','Quarterly estimated tax review','Annual engagement letter renewal',
                       'Payroll filing check','Board pack preparation'])[1 + g % 5],
                'Recurring work for the client, with the checklist the firm agreed.',
                (array['low','medium','high'])[1 + g % 3],
                case when g % 20 < 12 then 'completed' else 'pending' end,
                case when g % 20 < 12 then $9::timestamptz - (g % 1095) * interval '1 day'
                     when g % 20 = 12 then $9::timestamptz - (1 + g % 60) * interval '1 day'
                     when g % 20 < 17 then $9::timestamptz + (1 + g % 90) * interval '1 day' end,
                $9::timestamptz - (g % 1095 + 10) * interval '1 day',
                case when g % 20 < 12 then $9::timestamptz - (g % 1095) * interval '1 day' + interval '3 hours' end,
                case when g % 20 < 12 then $3::uuid end,
                case when g % 20 < 12 then $4 end,
                case when g % 20 < 12 then $5 end,
                case when g % 20 < 12 then $6 end
         from generate_series($7::int, $8::int) as g`,
        [
          firm.id,
          clientIds,
          superAdmin.id,
          superAdmin.fullName,
          signature.dataUrl,
          signature.sha256,
          first,
          Math.min(first + slice, size.tasks) - 1,
          now,
        ],
      );
      written += Math.min(first + slice, size.tasks) - first;
      console.error(`tasks: ${written.toLocaleString("en")}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, database.pool.options.max ?? 1) }, writeSlices));
  return { firm, superAdmin, user };
}
