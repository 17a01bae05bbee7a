import { AsyncLocalStorage } from "node:async_hooks";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { currentScope, type FirmScope, scopeSettings } from "./firm-scope";
import * as schema from "./schema";

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export type DatabaseHandle = {
  db: Database;
  pool: pg.Pool;
  close: () => Promise<void>;
};

export function connectDatabase(options: { url: string; poolSize: number }): DatabaseHandle {
  const pool = new FirmScopedPool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server (a database restart) must not crash the app; the pool
  // drops it and the next query gets a fresh connection (platform/db/availability.ts logs the outage).
  pool.on("error", () => {});
  // A checked-out client (a transaction's) has no listener of the pool's: losing its server must
  // not crash the app either. Its query fails with the error, and the pool drops it on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzle(pool, { schema });
  // Each transaction ends with the mark its caller's code asked for, if any (markingEachCommit).
  const transaction = db.transaction.bind(db);
  db.transaction = (work, config) =>
    transaction(async (tx) => {
      const result = await work(tx);
      await beforeCommit.getStore()?.(tx);
      return result;
    }, config);
  return { db, pool, close: () => pool.end() };
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Either the database or an open transaction: what services and factories write through. */
export type DbExecutor = Database | Transaction;

const beforeCommit = new AsyncLocalStorage<(tx: Transaction) => Promise<unknown>>();

/**
 * Runs `work` so that every transaction it opens on the database (not the savepoints nested in
 * one) runs `mark` as its last statement before it commits: a write that must be atomic with
 * whatever the work commits, without the services knowing of it. An Idempotency-Key uses it to
 * record that its create happened (tenancy/idempotency.ts).
 */
export const markingEachCommit = <T>(mark: (tx: Transaction) => Promise<unknown>, work: () => T): T =>
  beforeCommit.run(mark, work);

/** The firm scope each pooled connection last had its settings set for ("" for none yet). */
const appliedScope = new WeakMap<pg.PoolClient, string>();

const scopeKey = (scope: Exclude<FirmScope, { kind: "any" }>) => scopeSettings(scope).join("/");

/**
 * A pool whose connections act in the firm scope of the code that takes them (firm-scope.ts):
 * before a connection runs a query or opens a transaction, its `tendwell.*` settings are set for
 * that scope. The settings live for the connection's session, so a connection already set for the
 * same scope (a firm's requests one after another) costs no extra round trip; one that served
 * another firm costs one `set_config` statement.
 */
class FirmScopedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    // Read now, in the caller's context: the pool may hand over the connection from another.
    const scope = currentScope();
    const scoped = super.connect().then(async (client) => {
      try {
        await applyScope(client, scope);
        return client;
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
    });
    if (!callback) return scoped;
    scoped.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  }
}

async function applyScope(client: pg.PoolClient, scope: FirmScope): Promise<void> {
  if (scope.kind === "any") return;
  const key = scopeKey(scope);
  // A new connection has neither setting, which is the same as no firm.
  if ((appliedScope.get(client) ?? scopeKey({ kind: "no-firm" })) === key) return;
  await client.query({
    name: "set_firm_scope",
    text: "select set_config('tendwell.firm_id', $1, false), set_config('tendwell.all_firms', $2, false)",
    values: scopeSettings(scope),
  });
  appliedScope.set(client, key);
}
