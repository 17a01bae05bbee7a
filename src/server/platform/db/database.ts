import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export type DatabaseHandle = {
  db: Database;
  pool: pg.Pool;
  close: () => Promise<void>;
};

export function connectDatabase(options: {
  url: string;
  poolSize: number;
  onError?: (error: Error) => void;
}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server (a database restart) must not crash the app; the pool
  // drops it and the next query gets a fresh connection.
  pool.on("error", (error) => options.onError?.(error));
  // A checked-out client (a transaction's) has no listener of the pool's: losing its server must
  // not crash the app either. Its query fails with the error, and the pool drops it on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** Either the database or an open transaction: what services and factories write through. */
export type DbExecutor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];
