import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../tests/temp-dir";
import { buildApp } from "../../app";
import { loadConfig } from "../config";
import { newSealingKey } from "../sealed-secrets";
import { connectDatabase } from "./database";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { migrateDatabase } from "./migrate";

describe("a database restart", () => {
  const dataDir = makeTempDir();
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("is survived without restarting the app: 503 while it is down, then back to normal", async () => {
    let server = await startEmbeddedPostgres({ dataDir });
    const database = connectDatabase({ url: server.url, poolSize: 3 });
    await migrateDatabase(server.url);
    const app = await buildApp({
      config: loadConfig({
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATABASE_URL: server.url,
      }),
      database,
    });
    const health = async () => (await app.inject({ method: "GET", url: "/api/health" })).statusCode;
    try {
      expect(await health()).toBe(200);
      await server.stop();
      expect(await health()).toBe(503);
      server = await startEmbeddedPostgres({ dataDir });
      expect(await health()).toBe(200);
    } finally {
      await app.close();
      await database.close();
      await server.stop();
    }
  });
});
