import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { APP_ROLE, asUser } from "../src/server/platform/db/roles";

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

/**
 * A fresh, migrated database of its own, cloned from the run's template in milliseconds: `url`
 * connects as the server's superuser (for fixtures, which see every firm), `appUrl` as the app's
 * own role (decision 0033), which is what the app under test connects as.
 */
export async function createTestDatabase(): Promise<{ url: string; appUrl: string; drop: () => Promise<void> }> {
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
  const url = databaseUrl(server.adminUrl, name);
  return {
    url,
    appUrl: asUser(url, APP_ROLE),
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
