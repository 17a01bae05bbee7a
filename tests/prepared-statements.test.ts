import { and, asc, DrizzleQueryError, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import { floorStatements } from "../bench/floor-statements";
import type { Database } from "../src/server/platform/db/database";
import { preparedStatement, preparedStatementNames } from "../src/server/platform/db/prepared";
import { tasks, users } from "../src/server/platform/db/schema";
import { insertTask } from "../src/server/seed/factories";
import { apiClient } from "./api-client";
import { type SeededFirm, seedFirm, signIn } from "./fixtures";
import { useTestApp } from "./test-app";

/*
 * The fast path (decision 0008): the reads every screen makes run as named prepared statements,
 * parsed once per connection. With a pool of one connection every query of the app runs on one
 * PostgreSQL session, whose pg_prepared_statements shows what was prepared and how often each
 * statement has run since.
 */
type Prepared = { name: string; statement: string; executions: number };

describe("prepared statements", () => {
  const ctx = useTestApp({ poolSize: 1 });
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });

  async function prepared(): Promise<Map<string, Prepared>> {
    const { rows } = await ctx.appDatabase.pool.query<Prepared>(
      "select name, statement, (generic_plans + custom_plans)::int as executions from pg_prepared_statements",
    );
    return new Map(rows.map((row) => [row.name, row]));
  }
  const executions = async (name: string) => (await prepared()).get(name)?.executions ?? 0;

  it("the session lookup and the hot reads run prepared, once per request each", async () => {
    const client = await signIn(ctx.app, world.users.admin);
    const before = await prepared();
    for (let round = 0; round < 3; round++) {
      expect((await client.get("/api/users")).status).toBe(200);
      expect((await client.get("/api/auth/me")).status).toBe(200);
      expect((await apiClient(ctx.app).get("/api/health")).status).toBe(200);
    }
    const after = await prepared();
    const ran = (name: string) => (after.get(name)?.executions ?? 0) - (before.get(name)?.executions ?? 0);
    expect(ran("session_by_token")).toBe(6);
    expect(ran("users_of_firm")).toBe(3);
    expect(ran("current_user_by_id")).toBe(3);
    expect(ran("health_check")).toBe(3);
  });

  it("the screens' reads run prepared: clients, a client, the dashboard, tasks, templates, the library, the firm", async () => {
    const client = await signIn(ctx.app, world.users.admin);
    const before = await prepared();
    const reads = [
      "/api/clients",
      `/api/clients/${world.assignedClient.id}`,
      "/api/dashboard",
      "/api/tasks",
      `/api/tasks?clientId=${world.assignedClient.id}`,
      "/api/tasks/overdue?limit=5",
      "/api/task-templates",
      "/api/template-library",
      "/api/firm",
    ];
    for (const url of reads) expect((await client.get(url)).status, url).toBe(200);
    const after = await prepared();
    const ran = (name: string) => (after.get(name)?.executions ?? 0) - (before.get(name)?.executions ?? 0);
    expect(ran("session_by_token")).toBe(reads.length);
    for (const name of [
      "clients_page",
      "task_counts_of_clients",
      "client_by_id",
      "contacts_of_client",
      "tasks_of_client",
      "team_of_client",
      "dashboard_counts",
      "tasks_page",
      "tasks_page_of_client",
      "overdue_tasks",
      "overdue_count",
      "templates_of_firm",
      "library_marks_of_firm",
      "firm_by_id",
    ]) {
      expect(ran(name), name).toBe(1);
    }
  });

  it("S-SCALE-12 a user's client and task lists are read from their assignments, a super admin's from the firm's, with the dashboard and bell to match", async () => {
    const counts = async (client: Awaited<ReturnType<typeof signIn>>) => {
      const before = await prepared();
      for (const url of [
        "/api/clients?limit=50",
        "/api/tasks?limit=50",
        "/api/dashboard",
        "/api/tasks/overdue?limit=20",
      ]) {
        expect((await client.get(url)).status, url).toBe(200);
      }
      const after = await prepared();
      const ran = (name: string) => (after.get(name)?.executions ?? 0) - (before.get(name)?.executions ?? 0);
      return Object.fromEntries(
        [
          "clients_page",
          "clients_page_of_user",
          "tasks_page",
          "tasks_page_of_user",
          "dashboard_counts",
          "dashboard_counts_of_user",
          "overdue_count",
          "overdue_count_of_user",
        ].map((name) => [name, ran(name)]),
      );
    };
    expect(await counts(await signIn(ctx.app, world.users.user))).toEqual({
      clients_page: 0,
      clients_page_of_user: 1,
      tasks_page: 0,
      tasks_page_of_user: 1,
      dashboard_counts: 0,
      dashboard_counts_of_user: 1,
      overdue_count: 0,
      overdue_count_of_user: 1,
    });
    expect(await counts(await signIn(ctx.app, world.users.super_admin))).toEqual({
      clients_page: 1,
      clients_page_of_user: 0,
      tasks_page: 1,
      tasks_page_of_user: 0,
      dashboard_counts: 1,
      dashboard_counts_of_user: 0,
      overdue_count: 1,
      overdue_count_of_user: 0,
    });
  });

  it("the reports' reads, the profile's activity, the task list's CSV download and a signature's image run prepared, once per request each", async () => {
    const client = await signIn(ctx.app, world.users.admin);
    const signed = await insertTask(ctx.database.db, {
      firmId: world.firm.id,
      clientId: world.assignedClient.id,
      completed: { by: world.users.admin },
    });
    const before = await prepared();
    const reads = [
      `/api/reports/clients/${world.assignedClient.id}`,
      `/api/reports/users/${world.users.user.id}?days=90`,
      `/api/users/${world.users.user.id}/activity?days=90`,
      "/api/tasks?format=csv",
      `/api/tasks?format=csv&clientId=${world.assignedClient.id}`,
      `/api/tasks/${signed.id}/signature`,
    ];
    for (const url of reads) expect((await client.get(url)).status, url).toBe(200);
    const after = await prepared();
    const ran = (name: string) => (after.get(name)?.executions ?? 0) - (before.get(name)?.executions ?? 0);
    for (const name of [
      "report_client_head",
      "report_client_figures",
      "report_client_history",
      "report_user_head",
      "report_user_figures",
      "report_user_completions",
      "user_work_range",
      "user_work_signed_off",
      "user_work_tasks",
      "tasks_page",
      "tasks_page_of_client",
      "signature_of_task",
    ]) {
      expect(ran(name), name).toBe(1);
    }
    // The user's open work is one statement for both screens: the report's and the profile's.
    expect(ran("user_work_open")).toBe(2);
  });

  it("the public blog's reads run prepared, once per request each (docs/design/blog-content.md)", async () => {
    const before = await prepared();
    const anonymous = apiClient(ctx.app);
    expect((await anonymous.get("/api/blog")).status).toBe(200);
    expect((await anonymous.get("/api/blog/client-onboarding-first-30-days")).status).toBe(200);
    expect((await anonymous.get("/api/blog/no-such-post")).status).toBe(404);
    const after = await prepared();
    const ran = (name: string) => (after.get(name)?.executions ?? 0) - (before.get(name)?.executions ?? 0);
    expect(ran("blog_posts_published")).toBe(1);
    expect(ran("blog_post_by_slug")).toBe(2);
  });

  it("a session unused for a minute is touched by a prepared statement", async () => {
    const client = await signIn(ctx.app, world.users.user);
    await ctx.database.pool.query("update sessions set last_seen_at = now() - interval '2 minutes'");
    const before = await executions("session_touch");
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect(await executions("session_touch")).toBe(before + 1);
    // Touched now, so the next request writes nothing.
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect(await executions("session_touch")).toBe(before + 1);
  });

  it("the benchmark's floor sends exactly the SQL Tendwell prepares", async () => {
    const texts = await prepared();
    // One comparison of every statement, so a failure shows each text that moved at once.
    const sent = Object.fromEntries(Object.keys(floorStatements).map((name) => [name, texts.get(name)?.statement]));
    expect(sent).toEqual(floorStatements);
  });

  it("a prepared read's rows are the ones drizzle maps: keys in order, nulls, dates and mapped expressions", async () => {
    await insertTask(ctx.database.db, {
      firmId: world.firm.id,
      clientId: world.assignedClient.id,
      completed: { by: world.users.admin },
    });
    await insertTask(ctx.database.db, { firmId: world.firm.id, clientId: world.assignedClient.id, dueDate: null });
    const build = (db: Database) =>
      db
        .select({
          id: tasks.id,
          name: tasks.name,
          status: tasks.status,
          dueDate: tasks.dueDate,
          completedAt: tasks.completedAt,
          completedBy: tasks.completedBy,
          version: tasks.version,
          signed: sql<boolean>`${tasks.signatureSha256} is not null`,
          firmTasks: sql<number>`count(*) over ()`.mapWith(Number),
          label: sql<string>`upper(${tasks.priority}::text)`.as("label"),
        })
        .from(tasks)
        .where(eq(tasks.firmId, sql.placeholder("firmId")))
        .orderBy(asc(tasks.id));
    const statement = preparedStatement("test_row_mapping", build);
    const ours = await statement(ctx.database.db).execute({ firmId: world.firm.id });
    const drizzles = await build(ctx.database.db).execute({ firmId: world.firm.id });
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect(ours).toEqual(drizzles);
    expect(ours.map((row) => Object.keys(row))).toEqual(drizzles.map((row) => Object.keys(row)));
    expect(ours.some((row) => row.completedAt instanceof Date)).toBe(true);
    expect(ours.some((row) => row.completedAt === null && row.dueDate === null)).toBe(true);
    expect(ours.every((row) => typeof row.firmTasks === "number" && row.firmTasks === ours.length)).toBe(true);
  });

  it("a prepared read's nested objects are the ones drizzle maps, and a left-joined table's keeps drizzle's mapping", async () => {
    const completer = alias(users, "completer");
    const build = (db: Database) =>
      db
        .select({
          signed: sql<boolean>`${tasks.signatureSha256} is not null`,
          task: { id: tasks.id, dueDate: tasks.dueDate, completedAt: tasks.completedAt, version: tasks.version },
          completerName: completer.fullName,
          completer: { id: completer.id, createdAt: completer.createdAt },
        })
        .from(tasks)
        .leftJoin(completer, and(eq(completer.firmId, tasks.firmId), eq(completer.id, tasks.completedBy)))
        .where(eq(tasks.firmId, sql.placeholder("firmId")))
        .orderBy(asc(tasks.id));
    const withoutJoin = (db: Database) =>
      db
        .select({ task: { id: tasks.id, dueDate: tasks.dueDate }, name: tasks.name, more: { version: tasks.version } })
        .from(tasks)
        .where(eq(tasks.firmId, sql.placeholder("firmId")))
        .orderBy(asc(tasks.id));
    const values = { firmId: world.firm.id };
    const nestedRows = await preparedStatement(
      "test_nested_rows_of_one_table",
      withoutJoin,
    )(ctx.database.db).execute(values);
    expect(nestedRows.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(nestedRows)).toBe(JSON.stringify(await withoutJoin(ctx.database.db).execute(values)));
    expect(nestedRows.every((row) => row.task.dueDate === null || row.task.dueDate instanceof Date)).toBe(true);
    const joined = await preparedStatement("test_nested_joined", build)(ctx.database.db).execute(values);
    expect(joined).toEqual(await build(ctx.database.db).execute(values));
    expect(joined.some((row) => row.completer === null)).toBe(true);
    expect(joined.some((row) => row.completer?.createdAt instanceof Date)).toBe(true);
  });

  it("a prepared read that fails rejects as drizzle's does: a DrizzleQueryError caused by PostgreSQL's error", async () => {
    const build = (db: Database) =>
      db
        .select({ id: tasks.id, ratio: sql<number>`1 / (${tasks.version} - ${tasks.version})` })
        .from(tasks)
        .where(eq(tasks.firmId, sql.placeholder("firmId")));
    const values = { firmId: world.firm.id };
    const ours = await preparedStatement(
      "test_failing_read",
      build,
    )(ctx.database.db)
      .execute(values)
      .catch((error: unknown) => error);
    const drizzles = await build(ctx.database.db)
      .execute(values)
      .catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(DrizzleQueryError);
    expect(drizzles).toBeInstanceOf(DrizzleQueryError);
    expect((ours as DrizzleQueryError).cause).toMatchObject({ code: "22012" });
    expect((ours as DrizzleQueryError).query).toBe((drizzles as DrizzleQueryError).query);
  });

  it("two statements cannot share a name", () => {
    const [taken] = preparedStatementNames();
    expect(taken).toBeDefined();
    expect(() => preparedStatement(taken ?? "", (db) => db.select().from(world.firm as never))).toThrow(
      /Two prepared statements are named/,
    );
  });
});
