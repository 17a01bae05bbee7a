import pg from "pg";
import { JOBS_SCHEMA } from "../jobs/job-queue";

/*
 * Least privilege in PostgreSQL (decision 0033). Two roles, neither a superuser:
 *
 *   the owner (tendwell_owner on the embedded database) owns the tables, functions and triggers:
 *     the migrations run as it, and it grants the app role what the app needs;
 *   the app (tendwell_app) owns nothing: it may read and change the rows of the tenant tables,
 *     only add to and read the audit trail, only read the blog, and run no DDL. Row-level
 *     security applies to it (migration 0011): it sees only the firm it acts for.
 *
 * With DATABASE_URL the operator makes both roles (docs/operations.md says how); on the embedded
 * database the app makes them at every start, as the superuser the cluster was created with.
 */

export const OWNER_ROLE = "tendwell_owner";
export const APP_ROLE = "tendwell_app";

/** The same connection string as another user (no password: the embedded socket trusts its users). */
export function asUser(url: string, user: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = "";
  return parsed.toString();
}

/** The role a connection string logs in as. */
export const userOf = (url: string): string => decodeURIComponent(new URL(url).username);

/**
 * Makes the owner and app roles on a cluster where `superuserUrl` is a superuser, if they are
 * missing. Roles belong to the whole cluster, so two processes may race to make one: the loser's
 * "already exists" is not an error.
 */
export async function ensureRoles(superuserUrl: string): Promise<void> {
  await withClient(superuserUrl, async (client) => {
    for (const role of [OWNER_ROLE, APP_ROLE]) {
      try {
        await client.query(
          `do $$ begin
             if not exists (select 1 from pg_roles where rolname = '${role}') then
               create role ${role} login nosuperuser nocreatedb nocreaterole;
             end if;
           end $$`,
        );
      } catch (error) {
        // 42710: duplicate_object; 23505: two creators hit the catalog's unique index at once.
        const code = (error as { code?: string }).code;
        if (code !== "42710" && code !== "23505") throw error;
      }
    }
  });
}

/**
 * Hands the embedded database and everything in it to the owner role, as the superuser. A data
 * directory made before the roles existed has its tables owned by the superuser; this moves them
 * over without touching a row, and does nothing once they have moved. The app role may not make
 * temporary tables either.
 */
export async function handOverToOwner(superuserUrl: string, database: string): Promise<void> {
  await withClient(superuserUrl, async (client) => {
    const name = client.escapeIdentifier(database);
    await client.query(`alter database ${name} owner to ${OWNER_ROLE}`);
    await client.query(`revoke temporary on database ${name} from public`);
    await client.query(`do $$
      declare item record;
      begin
        for item in
          select n.oid::regnamespace as name from pg_namespace n
          where n.nspname in ('drizzle', '${JOBS_SCHEMA}') and n.nspowner <> '${OWNER_ROLE}'::regrole
        loop execute format('alter schema %s owner to ${OWNER_ROLE}', item.name); end loop;
        -- Tables (a partition too: it does not follow its parent), views and free-standing
        -- sequences (a column's own sequence follows its table).
        for item in
          select c.oid::regclass as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname in ('public', 'drizzle', '${JOBS_SCHEMA}') and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
            and c.relowner <> '${OWNER_ROLE}'::regrole
            and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass
                            and d.objid = c.oid and d.refobjid <> c.oid
                            and (d.deptype = 'i' or (d.deptype = 'a' and c.relkind = 'S')))
        loop execute format('alter table %s owner to ${OWNER_ROLE}', item.name); end loop;
        for item in
          select p.oid::regprocedure as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname in ('public', '${JOBS_SCHEMA}') and p.proowner <> '${OWNER_ROLE}'::regrole
        loop execute format('alter function %s owner to ${OWNER_ROLE}', item.name); end loop;
        -- The job queue's enum types (a table's own row type follows its table).
        for item in
          select t.oid::regtype as name from pg_type t join pg_namespace n on n.oid = t.typnamespace
          where n.nspname = '${JOBS_SCHEMA}' and t.typtype in ('e', 'd') and t.typowner <> '${OWNER_ROLE}'::regrole
        loop execute format('alter type %s owner to ${OWNER_ROLE}', item.name); end loop;
      end $$`);
  });
}

/** Whether a connection string's role may create schemas in its database (as its owner may). */
export async function mayCreateIn(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ may: boolean }>(
      "select has_database_privilege(current_database(), 'CREATE') as may",
    );
    return rows[0]?.may === true;
  });
}

/** The embedded database's two roles, made (or brought up to date) by its superuser: their URLs. */
export async function embeddedRoleUrls(superuserUrl: string): Promise<{ owner: string; app: string }> {
  await ensureRoles(superuserUrl);
  await handOverToOwner(superuserUrl, decodeURIComponent(new URL(superuserUrl).pathname.slice(1)));
  return { owner: asUser(superuserUrl, OWNER_ROLE), app: asUser(superuserUrl, APP_ROLE) };
}

/**
 * What the app role may do, granted by the owner after the migrations (every start, so a table a
 * new migration adds is granted too). Grants are additive, so the narrower tables are revoked
 * back down after the broad grant.
 */
export async function grantAppRole(ownerUrl: string, appRole: string): Promise<void> {
  await withClient(ownerUrl, async (client) => {
    const role = client.escapeIdentifier(appRole);
    await client.query(`grant usage on schema public to ${role}`);
    await client.query(`grant select, insert, update, delete on all tables in schema public to ${role}`);
    await client.query(`grant usage, select on all sequences in schema public to ${role}`);
    // The audit trail is evidence: the app adds to it and reads it, never changes or removes it.
    await client.query(`revoke update, delete, truncate on audit_events from ${role}`);
    // So is the due-date log of tasks that follow a statutory rule (migration 0031).
    await client.query(`revoke update, delete, truncate on task_due_date_changes from ${role}`);
    // A disaster relief stays as recorded: the tasks it moved name it in their logs (migration 0032).
    await client.query(`revoke update, delete, truncate on disaster_reliefs from ${role}`);
    // A firm's verified audit checkpoint only moves forward (a trigger refuses setting it back); a
    // delete followed by an insert would set it back all the same, so the app may not delete it.
    await client.query(`revoke delete, truncate on audit_checkpoints from ${role}`);
    // The blog's posts are loaded from content/blog at start, by the owner.
    await client.query(`revoke insert, update, delete, truncate on blog_posts from ${role}`);
    // The searches' views read the firm's rows as the owner (migration 0020): reading only. Written
    // through, a view would check no policy on what it writes.
    await client.query(`revoke insert, update, delete, truncate on firm_clients, firm_tasks from ${role}`);
    // Signing in asks which firm a username belongs to before any firm is known (migration 0014).
    await client.query(`grant execute on function firm_of_username(text) to ${role}`);
    // Signing in by passkey alone asks which firm the passkey belongs to (migration 0023).
    await client.query(`grant execute on function firm_of_passkey(text) to ${role}`);
    // A calendar app's fetch of a feed asks which firm the feed's secret belongs to (migration 0024).
    await client.query(`grant execute on function firm_of_calendar_feed(text) to ${role}`);
    // The mail delivery's messages waiting in every firm (migration 0025).
    await client.query(`grant execute on function mail_due(timestamptz, integer) to ${role}`);
    // The firms whose morning reminders are due (migration 0026).
    await client.query(`grant execute on function firms_due_for_morning_mail(timestamptz, integer) to ${role}`);
    // A Stripe event's firm (migration 0014).
    await client.query(`grant execute on function firm_of_stripe_subscription(text, text) to ${role}`);
    // The recurrence scheduler's firms to work through (migration 0015), and the firms whose open
    // rule tasks' dates were worked out on an older version of the rules or calendars (0032).
    await client.query(`grant execute on function firms_with_schedules_due(timestamptz) to ${role}`);
    await client.query(`grant execute on function firms_with_stale_due_dates(text[], text[]) to ${role}`);
    // Housekeeping's purges of what expired in every firm (migration 0014).
    await client.query(`grant execute on function purge_expired_sessions(timestamptz, timestamptz) to ${role}`);
    await client.query(`grant execute on function purge_expired_idempotency_keys(timestamptz) to ${role}`);
    // ...and of the mail settled longer ago than the outbox keeps it (migration 0029).
    await client.query(`grant execute on function purge_settled_mail(timestamptz) to ${role}`);
    // The job queue's rows (pg-boss, installed by the owner): the app sends, takes and settles jobs,
    // through its tables and functions, and changes none of them.
    await client.query(`grant usage on schema ${JOBS_SCHEMA} to ${role}`);
    await client.query(`grant select, insert, update, delete on all tables in schema ${JOBS_SCHEMA} to ${role}`);
    await client.query(`grant usage, select on all sequences in schema ${JOBS_SCHEMA} to ${role}`);
    await client.query(`grant execute on all functions in schema ${JOBS_SCHEMA} to ${role}`);
    // So that an instance started with the app's URL alone can tell whether the migrations ran.
    await client.query(`grant usage on schema drizzle to ${role}`);
    await client.query(`grant select on drizzle.__drizzle_migrations to ${role}`);
  });
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
