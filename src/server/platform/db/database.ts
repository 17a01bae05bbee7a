import { sql } from "drizzle-orm";
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
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** Either the database or an open transaction: what services and factories write through. */
export type DbExecutor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Serialises one firm's writers until the transaction ends. FOR NO KEY UPDATE, not FOR UPDATE:
 * a transaction that has inserted a row referencing the firm holds a KEY SHARE lock on it, and
 * FOR UPDATE would wait on other writers' KEY SHARE locks while they wait on ours (a deadlock).
 */
export async function lockFirm(tx: DbExecutor, firmId: string): Promise<void> {
  await tx.execute(sql`select 1 from firms where id = ${firmId} for no key update`);
}
