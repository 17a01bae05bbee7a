import fs from "node:fs";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { readBlogContent, syncBlogPosts } from "../src/server/features/blog/blog-content";
import { connectDatabase } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { APP_ROLE, asUser, ensureRoles, grantAppRole, OWNER_ROLE } from "../src/server/platform/db/roles";
import { projectPaths } from "../src/server/platform/paths";
import { makeTempDir } from "./temp-dir";
import { databaseUrl, type TestDatabaseServer, testDatabasePrefix } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseServer: TestDatabaseServer;
  }
}

/**
 * One PostgreSQL server for the run: the one TEST_DATABASE_URL names, or an embedded one in a
 * temporary folder. A template database is migrated once; each test file clones it.
 */
export default async function setup(project: TestProject) {
  // A malformed post fails here, before any server is started.
  readBlogContent(projectPaths.blogContent);
  const externalUrl = process.env.TEST_DATABASE_URL;
  const tempDir = externalUrl ? undefined : makeTempDir();
  const embedded = tempDir
    ? await startEmbeddedPostgres({
        dataDir: tempDir,
        database: "postgres",
        // A throwaway cluster: durability buys nothing here and costs seconds.
        settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: "300" },
      })
    : undefined;
  const adminUrl = externalUrl ?? embedded?.url ?? "";
  const prefix = testDatabasePrefix();
  const server: TestDatabaseServer = { adminUrl, template: `${prefix}template`, prefix };

  // The roles the app runs with (decision 0033): the template's tables belong to the owner, which
  // migrates them and grants the app role its rights; every clone keeps both.
  await ensureRoles(adminUrl);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${admin.escapeIdentifier(server.template)} owner ${OWNER_ROLE}`);
  const ownerUrl = asUser(databaseUrl(adminUrl, server.template), OWNER_ROLE);
  await migrateDatabase(ownerUrl);
  await grantAppRole(ownerUrl, APP_ROLE);
  // The blog's posts, as at start (docs/design/blog-content.md): every test database has them.
  const template = connectDatabase({ url: ownerUrl, poolSize: 1 });
  try {
    await syncBlogPosts(template.db, projectPaths.blogContent);
  } finally {
    await template.close();
  }
  project.provide("testDatabaseServer", server);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
      `${prefix}%`,
    ]);
    for (const { datname } of rows) {
      await admin.query(`drop database if exists ${admin.escapeIdentifier(datname)} with (force)`);
    }
    await admin.end();
    await embedded?.stop();
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  };
}
