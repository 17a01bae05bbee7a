import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { currentCommitMark, currentScope, type FirmScope, scopeSettings } from "./firm-scope";
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
      await (currentCommitMark() as ((tx: Transaction) => Promise<unknown>) | undefined)?.(tx);
      return result;
    }, config);
  return { db, pool, close: () => pool.end() };
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Either the database or an open transaction: what services and factories write through. */
export type DbExecutor = Database | Transaction;

/** The firm scope each pooled connection last had its settings set for (none: a new connection, no firm). */
const appliedScope = new WeakMap<pg.PoolClient, string>();

/** A scope as one string: the firm's id, "*" for all firms, "" for none (a new connection's). */
const scopeKey = (scope: Exclude<FirmScope, { kind: "any" }>) =>
  scope.kind === "firm" ? scope.firmId : scope.kind === "all-firms" ? "*" : "";

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * A pool whose connections act in the firm scope of the code that takes them (firm-scope.ts):
 * before a connection runs a query or opens a transaction, its `tendwell.*` settings are set for
 * that scope. The settings live for the connection's session, so a connection already set for the
 * same scope (a firm's requests one after another) costs no extra round trip; one that served
 * another firm costs one `set_config` statement. It works on pg-pool's callbacks, as `pool.query`
 * does, so a connection that needs no setting is handed over without a promise in between.
 */
class FirmScopedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    // Read now, in the caller's context: the pool may hand over the connection from another.
    const scope = currentScope();
    if (callback) {
      this.connectInScope(scope, callback);
      return undefined;
    }
    return new Promise((resolve, reject) =>
      this.connectInScope(scope, (error, client) => (client ? resolve(client) : reject(error))),
    );
  }

  private connectInScope(scope: FirmScope, callback: ConnectCallback): void {
    super.connect((error, client, done) => {
      if (error || !client) return callback(error ?? new Error("the pool gave no connection"), undefined, done);
      if (scope.kind === "any") return callback(undefined, client, done);
      const key = scopeKey(scope);
      if ((appliedScope.get(client) ?? "") === key) return callback(undefined, client, done);
      client.query(
        {
          name: "set_firm_scope",
          text: "select set_config('tendwell.firm_id', $1, false), set_config('tendwell.all_firms', $2, false)",
          values: scopeSettings(scope),
        },
        (queryError: Error | null) => {
          if (queryError) {
            client.release(queryError);
            return callback(queryError, undefined, () => {});
          }
          appliedScope.set(client, key);
          callback(undefined, client, done);
        },
      );
    });
  }
}
