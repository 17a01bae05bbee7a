import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type Database, type DatabaseHandle } from "../src/server/platform/db/database";
import { inFirm, rawInFirm } from "../src/server/platform/db/firm-scope";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import {
  APP_ROLE,
  asUser,
  ensureRoles,
  grantAppRole,
  handOverToOwner,
  OWNER_ROLE,
} from "../src/server/platform/db/roles";
import { auditEvents, clients } from "../src/server/platform/db/schema";
import { projectPaths } from "../src/server/platform/paths";
import { newSealingKey } from "../src/server/platform/sealed-secrets";
import { insertClient } from "../src/server/seed/factories";
import { spawnApp } from "./app-process";
import { type SeededFirm, seedFirm, signIn } from "./fixtures";
import { sqlFailure } from "./sql-failure";
import { useTestApp } from "./test-app";
import { createEmptyDatabase } from "./test-database";

/*
 * Least privilege (decision 0033): the app connects as a role that owns nothing and is no
 * superuser, and row-level security shows it only the firm it acts for. Each refusal here is
 * PostgreSQL's own, as the app role, not the services' scoping.
 */

const INSUFFICIENT_PRIVILEGE = "42501";
const execFileAsync = promisify(execFile);

describe("the app's database role", () => {
  const ctx = useTestApp();
  let firmA: SeededFirm;
  let firmB: SeededFirm;
  let app: DatabaseHandle;
  beforeAll(async () => {
    firmA = await seedFirm(ctx.database.db, "Firm A");
    firmB = await seedFirm(ctx.database.db, "Firm B");
    app = ctx.appDatabase;
  });

  it("S-PRIV-01 is no superuser, cannot create roles or databases, and owns no table, function or schema", async () => {
    const [role] = (
      await app.pool.query(
        "select rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, current_user from pg_roles where rolname = current_user",
      )
    ).rows;
    expect(role).toEqual({
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolbypassrls: false,
      current_user: APP_ROLE,
    });
    const owned = await ctx.database.pool.query(
      `select (select count(*) from pg_class where relowner = $1::regrole)::int
            + (select count(*) from pg_proc where proowner = $1::regrole)::int
            + (select count(*) from pg_namespace where nspowner = $1::regrole)::int as owned`,
      [APP_ROLE],
    );
    expect(owned.rows[0]?.owned).toBe(0);
  });

  it("S-PRIV-02 runs no DDL: it cannot create, alter or drop a table, nor truncate one", async () => {
    const db = inFirm(app.db, firmA.firm.id);
    expect(await sqlFailure(() => db.execute(sql`create table intruder (id int)`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlFailure(() => db.execute(sql`alter table clients add column intruder int`))).toBe(
      INSUFFICIENT_PRIVILEGE,
    );
    expect(await sqlFailure(() => db.execute(sql`drop table user_clients`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlFailure(() => db.execute(sql`truncate clients cascade`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(
      await sqlFailure(() => db.execute(sql`create function intruder() returns int language sql as 'select 1'`)),
    ).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it("S-PRIV-03 may add to the audit trail and read it, but never change or remove an event, and may not write the blog", async () => {
    const client = await signIn(ctx.app, firmA.users.super_admin);
    expect((await client.patch(`/api/clients/${firmA.clients[0]?.id}`, { phone: "555-0100" })).status).toBe(200);
    const db = inFirm(app.db, firmA.firm.id);
    const events = await db.select({ id: auditEvents.id }).from(auditEvents);
    expect(events.length).toBeGreaterThan(0);
    expect(await sqlFailure(() => db.update(auditEvents).set({ action: "forged" }))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlFailure(() => db.delete(auditEvents))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlFailure(() => db.execute(sql`truncate audit_events`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlFailure(() => db.execute(sql`delete from blog_posts`))).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it("S-PRIV-04 a query that forgets its firm filter sees only the firm it acts for, and none when it acts for no firm", async () => {
    const names = async (db: Database) =>
      (await db.select({ firmId: clients.firmId }).from(clients)).map((row) => row.firmId);
    const seenByA = await names(inFirm(app.db, firmA.firm.id));
    expect(seenByA.length).toBe(firmA.clients.length);
    expect(new Set(seenByA)).toEqual(new Set([firmA.firm.id]));
    const seenByB = await names(inFirm(app.db, firmB.firm.id));
    expect(new Set(seenByB)).toEqual(new Set([firmB.firm.id]));
    expect(await names(app.db)).toEqual([]);
    // The all-firms setting of earlier versions opens nothing any more.
    const opened = await inFirm(app.db, firmA.firm.id).transaction(async (tx) => {
      await tx.execute(sql`select set_config('tendwell.all_firms', 'on', true)`);
      return (await tx.select({ firmId: clients.firmId }).from(clients)).map((row) => row.firmId);
    });
    expect(new Set(opened)).toEqual(new Set([firmA.firm.id]));
    // Hand-written SQL with no filter at all, over a join, counts one firm.
    const counted = await inFirm(app.db, firmA.firm.id).execute<{ firms: string[] }>(
      sql`select array_agg(distinct u.firm_id) as firms from users u, clients c, user_clients uc`,
    );
    expect(counted.rows[0]?.firms).toEqual([firmA.firm.id]);
    // So does a raw statement on the connections of a firm not yet known to exist (a session's).
    const raw = await rawInFirm(app.db, firmB.firm.id).$client.query({ text: "select distinct firm_id from clients" });
    expect(raw.rows).toEqual([{ firm_id: firmB.firm.id }]);
  });

  it("S-PRIV-05 cannot write a row into another firm, nor move one there", async () => {
    const db = inFirm(app.db, firmA.firm.id);
    expect(await sqlFailure(() => insertClient(db, { firmId: firmB.firm.id }))).toBe(INSUFFICIENT_PRIVILEGE);
    const moved = await sqlFailure(() =>
      db.execute(sql`update clients set firm_id = ${firmB.firm.id} where firm_id = ${firmA.firm.id}`),
    );
    // Refused by the policy, or by the (firm, id) references that keep a row inside its firm.
    expect(moved).toMatch(/^(42501|23503)$/);
    const deleted = await db.execute(sql`delete from clients where firm_id = ${firmB.firm.id}`);
    expect(deleted.rowCount).toBe(0);
    const [stillThere] = (
      await ctx.database.pool.query("select count(*)::int as n from clients where firm_id = $1", [firmB.firm.id])
    ).rows;
    expect(stillThere?.n).toBe(firmB.clients.length);
  });

  it("S-PRIV-09 learns a username's firm from the database's one function for it, and reads no user outside a firm", async () => {
    const user = firmB.users.admin;
    const firmOf = async (usernameKey: string) =>
      (await app.db.execute<{ firm_id: string | null }>(sql`select firm_of_username(${usernameKey}) as firm_id`))
        .rows[0]?.firm_id;
    expect(await firmOf(user.username.toLowerCase())).toBe(firmB.firm.id);
    expect(await firmOf("nobody-by-this-name")).toBeNull();
    // The function answers a firm's id and nothing else; the user's own row stays behind the policy.
    const direct = await app.db.execute(
      sql`select id from users where lower(username) = ${user.username.toLowerCase()}`,
    );
    expect(direct.rows).toEqual([]);
  });

  it("S-PRIV-06 signs in, finds sessions and serves a firm's screens as the app role, and never another firm's", async () => {
    const client = await signIn(ctx.app, firmB.users.admin);
    const list: { id: string }[] = (await client.get("/api/clients")).body;
    expect(new Set(list.map((row) => row.id))).toEqual(new Set(firmB.clients.map((row) => row.id)));
    expect((await client.get(`/api/clients/${firmA.clients[0]?.id}`)).status).toBe(404);
  });
});

describe("an instance started with the app's role alone", () => {
  it("S-PRIV-08 refuses to start on a database that has not had this version's migrate step, naming it", async () => {
    const empty = await createEmptyDatabase();
    try {
      const app = spawnApp({
        DATABASE_URL: asUser(empty.url, APP_ROLE),
        NODE_ENV: "production",
        MFA_ENCRYPTION_KEY: newSealingKey().text,
      });
      expect(await app.exited).toBe(1);
      expect(app.output()).toMatch(
        /Tendwell could not start: The database lacks \d+ migration\(s\) of this version .*run the migrate step \(npm run db:migrate with DATABASE_OWNER_URL\) first/,
      );
    } finally {
      await empty.drop();
    }
  });
});

describe("a database made before the roles existed", () => {
  let empty: Awaited<ReturnType<typeof createEmptyDatabase>>;
  afterAll(async () => {
    await empty?.drop();
  });

  it("S-PRIV-07 is handed to the owner role without losing a row, and the app role then reads it in its firm", async () => {
    empty = await createEmptyDatabase();
    // As the superuser, the way a data directory of an earlier version was made.
    await migrateDatabase(empty.url);
    const superuser = connectDatabase({ url: empty.url, poolSize: 1 });
    let world: SeededFirm;
    try {
      world = await seedFirm(superuser.db, "Old Firm");
    } finally {
      await superuser.close();
    }
    await ensureRoles(empty.url);
    await handOverToOwner(empty.url, new URL(empty.url).pathname.slice(1));
    const ownerUrl = asUser(empty.url, OWNER_ROLE);
    await migrateDatabase(ownerUrl);
    await grantAppRole(ownerUrl, APP_ROLE);

    const check = new pg.Client({ connectionString: empty.url });
    await check.connect();
    try {
      const notOwned = await check.query(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname in ('public', 'drizzle', 'jobs') and c.relkind in ('r', 'p', 'S', 'v') and c.relowner <> $1::regrole`,
        [OWNER_ROLE],
      );
      expect(notOwned.rows).toEqual([]);
    } finally {
      await check.end();
    }
    const app = connectDatabase({ url: asUser(empty.url, APP_ROLE), poolSize: 1 });
    try {
      const seen = await inFirm(app.db, world.firm.id).select({ id: clients.id }).from(clients);
      expect(seen.length).toBe(world.clients.length);
    } finally {
      await app.close();
    }
  });
});

describe("npm run db:seed with the owner's and the app's URLs", () => {
  let empty: Awaited<ReturnType<typeof createEmptyDatabase>>;
  afterAll(async () => {
    await empty?.drop();
  });

  it("readies the database as the owner and adds the demo firm once, as the app role could not", async () => {
    empty = await createEmptyDatabase();
    await ensureRoles(empty.url);
    await handOverToOwner(empty.url, new URL(empty.url).pathname.slice(1));
    const seed = () => {
      const { DATABASE_URL: _ignored, ...inherited } = process.env;
      return execFileAsync(
        process.execPath,
        ["--import", "tsx", path.join(projectPaths.root, "src/server/seed/seed.cli.ts")],
        {
          cwd: projectPaths.root,
          env: {
            ...inherited,
            DATABASE_URL: asUser(empty.url, APP_ROLE),
            DATABASE_OWNER_URL: asUser(empty.url, OWNER_ROLE),
            LOG_LEVEL: "warn",
          },
        },
      );
    };
    expect((await seed()).stdout).toContain("Created the demo firm.");
    expect((await seed()).stdout).toContain("The demo firm is already there; nothing changed.");
    const check = new pg.Client({ connectionString: empty.url });
    await check.connect();
    try {
      expect((await check.query("select count(*)::int as n from firms")).rows).toEqual([{ n: 1 }]);
    } finally {
      await check.end();
    }
  }, 60_000);
});
