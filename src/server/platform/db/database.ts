import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type CommitMark, type FirmScope, registerHandle, type ScopedHandles } from "./firm-scope";
import * as schema from "./schema";

/** A database handle: drizzle over connections set for one firm scope (platform/db/firm-scope.ts). */
export type Database = NodePgDatabase<typeof schema> & { $client: QueryClient };

/** What a handle's statements run on: the pool, or the pool setting each connection's scope. */
export type QueryClient = {
  query: (config: pg.QueryConfig, values?: unknown[]) => Promise<pg.QueryResult>;
  connect: () => Promise<pg.PoolClient>;
};

export type DatabaseHandle = {
  /** The database acting in no firm: it sees no tenant row until inFirm says whose. */
  db: Database;
  /** The connections themselves, for statements that read no table (health, availability). */
  pool: pg.Pool;
  close: () => Promise<void>;
};

/** Firms whose handles are kept (with their prepared statements) before the oldest is dropped. */
const KEPT_FIRM_HANDLES = 1_000;

export function connectDatabase(options: { url: string; poolSize: number }): DatabaseHandle {
  const pool = new ScopingPool({
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

  const handleOver = (client: QueryClient): Database =>
    registerHandle(drizzle(client as pg.Pool, { schema }) as Database, handles);
  // A firm's handle is kept, so its prepared statements are built once (platform/db/prepared.ts).
  const firms = new Map<string, Database>();
  const handles: ScopedHandles = {
    scoped: (scope: FirmScope) => {
      if (scope.kind === "no-firm") return noFirm;
      if (scope.kind === "any") return anyScope;
      let firm = firms.get(scope.firmId);
      if (firm === undefined) {
        if (firms.size >= KEPT_FIRM_HANDLES) firms.delete(firms.keys().next().value as string);
        firm = handleOver(new ScopedPool(pool, scope));
        firms.set(scope.firmId, firm);
      }
      return firm;
    },
    client: (scope: FirmScope) => (scope.kind === "any" ? pool : new ScopedPool(pool, scope)),
    marking: (db: Database, mark: CommitMark) => {
      const marked = handleOver(db.$client);
      const transaction = marked.transaction.bind(marked);
      marked.transaction = (work, config) =>
        transaction(async (tx) => {
          const result = await work(tx);
          await (mark as (tx: Transaction) => Promise<unknown>)(tx);
          return result;
        }, config);
      return marked;
    },
  };
  const noFirm = handleOver(new ScopedPool(pool, { kind: "no-firm" }));
  const anyScope = handleOver(pool);
  return { db: noFirm, pool, close: () => pool.end() };
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Either the database or an open transaction: what services and factories write through. */
export type DbExecutor = Database | Transaction;

/** The firm scope each pooled connection last had its setting set for (none: a new connection, no firm). */
const appliedScope = new WeakMap<pg.PoolClient, string>();

/** A scope as its tendwell.firm_id setting: the firm's id, or "" for none (a new connection's). */
const scopeKey = (scope: Exclude<FirmScope, { kind: "any" }>) => (scope.kind === "firm" ? scope.firmId : "");

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * The pool, which can also hand over a connection set for a firm scope: its `tendwell.firm_id`
 * setting is set for that scope before it runs anything. The setting lives for the connection's session,
 * so a connection already set for the same scope (a firm's requests one after another) costs no
 * extra round trip; one that served another firm costs one `set_config` statement. It works on
 * pg-pool's callbacks, so a connection that needs no setting is handed over without a promise in
 * between. Its own connect and query set nothing: they run in whatever scope a connection has.
 */
class ScopingPool extends pg.Pool {
  connectInScope(scope: FirmScope, callback: ConnectCallback): void {
    super.connect((error, client, done) => {
      if (error || !client) return callback(error ?? new Error("the pool gave no connection"), undefined, done);
      if (scope.kind === "any") return callback(undefined, client, done);
      const key = scopeKey(scope);
      if ((appliedScope.get(client) ?? "") === key) return callback(undefined, client, done);
      client.query(
        {
          name: "set_firm_scope",
          text: "select set_config('tendwell.firm_id', $1, false)",
          values: [key],
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

/** pg takes values beside a query's config as beside its text, though its types name only the text. */
type QueryWithCallback = (
  config: pg.QueryConfig,
  values: unknown[] | undefined,
  callback: (error: Error | null, result: pg.QueryResult) => void,
) => void;

/**
 * What drizzle runs a scoped handle's statements on: the pool, with each connection set for one
 * scope. drizzle treats a client whose class is named like a pool as one, taking a connection of
 * its own for each transaction.
 */
class ScopedPool implements QueryClient {
  constructor(
    private readonly pool: ScopingPool,
    private readonly scope: FirmScope,
  ) {}

  connect(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) =>
      this.pool.connectInScope(this.scope, (error, client) => (client ? resolve(client) : reject(error))),
    );
  }

  /** As pg-pool's own: a connection for one statement, released (and dropped, on an error) after it. */
  query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) =>
      this.pool.connectInScope(this.scope, (error, client, release) => {
        if (!client) return reject(error);
        (client.query as QueryWithCallback).call(client, config, values, (queryError, result) => {
          release(queryError ?? undefined);
          if (queryError) reject(queryError);
          else resolve(result);
        });
      }),
    );
  }
}
