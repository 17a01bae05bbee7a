import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export type TestDatabaseServer = {
  /** A connection string to an existing database on the test server, used to create others. */
  adminUrl: string;
  /** The migrated database each test file clones. */
  template: string;
  /** Every database of this run starts with it, so teardown finds them all. */
  prefix: string;
};

export const testDatabasePrefix = () => `tendwell_t${randomBytes(3).toString("hex")}_`;

/** The same server as `url`, another database. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** A fresh, migrated database of its own, cloned from the run's template in milliseconds. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = inject("testDatabaseServer");
  const name = `${server.prefix}${randomBytes(6).toString("hex")}`;
  await withAdmin(server.adminUrl, async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(
          `create database ${admin.escapeIdentifier(name)} template ${admin.escapeIdentifier(server.template)}`,
        );
        return;
      } catch (error) {
        // 55006: another file is cloning the template this instant; wait and retry.
        if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  });
  return {
    url: databaseUrl(server.adminUrl, name),
    drop: () =>
      withAdmin(server.adminUrl, async (admin) => {
        await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
      }),
  };
}

/** An empty database with no tables at all, for testing migrations themselves. */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = inject("testDatabaseServer");
  const name = `${server.prefix}${randomBytes(6).toString("hex")}`;
  await withAdmin(server.adminUrl, (admin) => admin.query(`create database ${admin.escapeIdentifier(name)}`));
  return {
    url: databaseUrl(server.adminUrl, name),
    drop: () =>
      withAdmin(server.adminUrl, async (admin) => {
        await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
      }),
  };
}

async function withAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
