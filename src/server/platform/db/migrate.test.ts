import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyDatabase } from "../../../../tests/test-database";
import { migrateDatabase } from "./migrate";

const tenantTables = [
  "users",
  "sessions",
  "clients",
  "contacts",
  "task_templates",
  "recurring_schedules",
  "tasks",
  "task_due_date_changes",
  "disaster_reliefs",
  "user_clients",
  "audit_events",
  "audit_checkpoints",
  "client_task_counts",
  "firm_work_counts",
  "pending_due_counts",
  "user_completion_days",
  "user_report_windows",
  "user_report_clients",
];

describe("migrations", () => {
  let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  it("apply to an empty database, and again as a no-op, even from several instances at once", async () => {
    await Promise.all([migrateDatabase(database.url), migrateDatabase(database.url)]);
    await migrateDatabase(database.url);
    const { rows } = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
    );
    expect(rows.map((row) => row.table_name)).toEqual([
      "audit_checkpoints",
      "audit_events",
      "billing_setups",
      "blog_posts",
      "calendar_feeds",
      "client_import_changes",
      "client_import_mappings",
      "client_import_rows",
      "client_imports",
      "client_task_counts",
      "clients",
      "contacts",
      "disaster_reliefs",
      "firm_work_counts",
      "firms",
      "idempotency_keys",
      "login_failures",
      "mail_outbox",
      "morning_mail_runs",
      "notification_preferences",
      "pending_due_counts",
      "recovery_codes",
      "recurring_schedules",
      "sessions",
      "stripe_events",
      "task_due_date_changes",
      "task_templates",
      "tasks",
      "user_clients",
      "user_completion_days",
      "user_devices",
      "user_factors",
      "user_report_clients",
      "user_report_windows",
      "users",
      "webauthn_challenges",
    ]);
  });

  it("give every tenant table a NOT NULL firm_id and lead its secondary indexes with it", async () => {
    for (const table of tenantTables) {
      const column = await client.query(
        "select is_nullable from information_schema.columns where table_name = $1 and column_name = 'firm_id'",
        [table],
      );
      expect(column.rows, table).toEqual([{ is_nullable: "NO" }]);
      const indexes = await client.query<{ indexname: string; indexdef: string }>(
        "select indexname, indexdef from pg_indexes where tablename = $1 and indexname not like '%_pkey' and indexname <> $2",
        [table, `${table}_token_hash_unique`],
      );
      const ledByOther = indexes.rows.filter(
        (index) => !/\(firm_id[,)]/.test(index.indexdef) && !index.indexname.endsWith("_expires_at_idx"),
      );
      // users' global username/e-mail uniqueness is deliberate (S-USERS-12, decision 0005); so are
      // the searches' trigram indexes, whose scans a leading firm would make dearer (decision 0040).
      expect(
        ledByOther
          .map((index) => index.indexname)
          .filter((name) => !/^users_(username|email)_key$/.test(name) && !/^(clients|tasks)_search_idx$/.test(name)),
        table,
      ).toEqual([]);
    }
  });

  it("enforce the enums, the completion rule and cross-firm references in the database itself", async () => {
    const firm = async (name: string) =>
      (
        await client.query<{ id: string }>(
          "insert into firms (id, name, plan, trial_ends_at) values (gen_random_uuid(), $1, 'starter', now() + interval '14 days') returning id",
          [name],
        )
      ).rows[0]?.id;
    const firmA = await firm("A");
    const firmB = await firm("B");
    await expect(
      client.query("insert into firms (id, name, plan, trial_ends_at) values (gen_random_uuid(), 'x', 'gold', now())"),
    ).rejects.toThrow(/firms_plan_check/);

    const clientA = (
      await client.query<{ id: string }>(
        "insert into clients (id, firm_id, name) values (gen_random_uuid(), $1, 'Acme') returning id",
        [firmA],
      )
    ).rows[0]?.id;
    await expect(
      client.query("insert into clients (id, firm_id, name, status) values (gen_random_uuid(), $1, 'x', 'lost')", [
        firmA,
      ]),
    ).rejects.toThrow(/clients_status_check/);
    // A contact of firm B may not point at firm A's client.
    await expect(
      client.query("insert into contacts (id, firm_id, client_id, name) values (gen_random_uuid(), $1, $2, 'Eve')", [
        firmB,
        clientA,
      ]),
    ).rejects.toThrow(/contacts_client_fk/);
    // A completed task must carry its whole sign-off.
    await expect(
      client.query(
        "insert into tasks (id, firm_id, client_id, name, status, completed_at) values (gen_random_uuid(), $1, $2, 'x', 'completed', now())",
        [firmA, clientA],
      ),
    ).rejects.toThrow(/tasks_completion_check/);
  });

  it("make audit events append-only", async () => {
    const firmId = (
      await client.query<{ id: string }>(
        "insert into firms (id, name, plan, trial_ends_at) values (gen_random_uuid(), 'Audit', 'starter', now()) returning id",
      )
    ).rows[0]?.id;
    await client.query(
      "insert into audit_events (id, firm_id, seq, action, entity_type, hash) values (gen_random_uuid(), $1, 1, 'firm.created', 'firm', 'h1')",
      [firmId],
    );
    await expect(client.query("update audit_events set action = 'x'")).rejects.toThrow(/append-only/);
    await expect(client.query("delete from audit_events")).rejects.toThrow(/append-only/);
    await expect(client.query("truncate audit_events cascade")).rejects.toThrow(/append-only/);
  });
});
