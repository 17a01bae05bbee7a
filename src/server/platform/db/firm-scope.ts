import type { Database, QueryClient } from "./database";

/*
 * Row-level security's half in the app (decision 0033). Every tenant table has a policy that
 * shows a connection only the rows of the firm named by its `tendwell.firm_id` setting, or every
 * with none set it shows none. The services already
 * filter every query by firm; this is the second wall, for a query that forgets to.
 *
 * Which firm a query acts for is the database handle it runs on. connectDatabase's `db` acts in no
 * firm and sees no tenant row; `inFirm(db, id)` is the same database acting for one firm (a
 * signed-in request's handler gets it as `request.db`, features/auth/access-control.ts);
 * What must reach across firms goes through a database function that does that one thing, as
 * the tables' owner (migrations 0014 and 0015); the app role itself never sees two firms. A handle is explicit on purpose: carried
 * implicitly (AsyncLocalStorage), the scope cost every promise of the process on Node 20.
 */

export type FirmScope =
  | { kind: "firm"; firmId: string }
  | { kind: "no-firm" }
  /** For statements that read no tenant table (or only through a function that decides itself). */
  | { kind: "any" };

/** A commit mark: a statement added to the end of each transaction; `tx` is the transaction. */
export type CommitMark = (tx: never) => Promise<unknown>;

/** What a handle knows of its database: how to make the same database's handle for another scope. */
export type ScopedHandles = {
  scoped: (scope: FirmScope) => Database;
  client: (scope: FirmScope) => QueryClient;
  marking: (db: Database, mark: CommitMark) => Database;
};

const handlesOf = new WeakMap<Database, ScopedHandles>();

/** Links a handle to its database's others (platform/db/database.ts, for every handle it makes). */
export function registerHandle(db: Database, handles: ScopedHandles): Database {
  handlesOf.set(db, handles);
  return db;
}

function handles(db: Database): ScopedHandles {
  const found = handlesOf.get(db);
  if (!found) throw new Error("not a database handle of connectDatabase (a transaction has no other scope)");
  return found;
}

/** `db`'s database acting for one firm: its queries see that firm's rows only. */
export const inFirm = (db: Database, firmId: string): Database => handles(db).scoped({ kind: "firm", firmId });

/**
 * `db`'s connections acting for one firm, for raw statements (platform/db/prepared.ts's
 * preparedSql) where the firm is not yet known to exist: nothing is made or kept for it, as
 * `inFirm`'s handle is, so a made-up firm id (a forged session cookie's) costs no more than its
 * statement.
 */
export const rawInFirm = (db: Database, firmId: string): { $client: QueryClient } => ({
  $client: handles(db).client({ kind: "firm", firmId }),
});

/** `db`'s database on whatever scope a pooled connection has: for statements that read no tenant row. */
export const inAnyScope = (db: Database): Database => handles(db).scoped({ kind: "any" });

/**
 * `db` (in its scope) with every transaction it opens, not the savepoints nested in one, running
 * `mark` as its last statement before it commits: a write that must be atomic with whatever the
 * request commits, without the services knowing of it. An Idempotency-Key records this way that
 * its create happened (tenancy/idempotency.ts).
 */
export const markingEachCommit = (db: Database, mark: CommitMark): Database => handles(db).marking(db, mark);
