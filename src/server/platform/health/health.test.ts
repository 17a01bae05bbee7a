import net from "node:net";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../../../../tests/log-capture";
import { useTestApp } from "../../../../tests/test-app";
import { buildApp } from "../../app";
import { loadConfig } from "../config";
import { connectDatabase } from "../db/database";
import * as schema from "../db/schema";
import { newSealingKey } from "../sealed-secrets";

describe("GET /api/health", () => {
  const ctx = useTestApp();

  it("answers ok after checking the database", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: "ok" });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers 503 with the error convention when the database is unreachable", async () => {
    // A pool aimed at a database that does not exist: every query fails.
    const url = new URL(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:1/none");
    url.pathname = "/tendwell_no_such_database";
    const database = connectDatabase({ url: url.toString(), poolSize: 1 });
    const app = await buildApp({
      config: loadConfig({
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATABASE_URL: url.toString(),
      }),
      database,
    });
    try {
      const response = await app.inject({ method: "GET", url: "/api/health" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: "The database is unreachable", code: "SERVICE_UNAVAILABLE" });
    } finally {
      await app.close();
      await database.close();
    }
  });

  it("S-OUTAGE-02 answers 503 with Retry-After when the pool's connect times out, warning once", async () => {
    // A hung database: the server accepts connections and never answers them.
    const sockets: net.Socket[] = [];
    const hung = net.createServer((socket) => sockets.push(socket.on("error", () => {})));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const { port } = hung.address() as net.AddressInfo;
    const url = `postgresql://postgres@127.0.0.1:${port}/tendwell`;
    const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 300 });
    const { lines, logger } = captureLogs("warn");
    const app = await buildApp({
      config: loadConfig({
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATABASE_URL: url,
      }),
      database: { db: drizzle(pool, { schema }), pool, close: () => pool.end() },
      logger,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await app.inject({ method: "GET", url: "/api/health" });
        expect(response.statusCode).toBe(503);
        expect(response.headers["retry-after"]).toBe("5");
        expect(response.json()).toEqual({ message: "The database is unreachable", code: "SERVICE_UNAVAILABLE" });
      }
      // The tracker's own check times out as well before it warns.
      for (let waited = 0; lines.length === 0 && waited < 3_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(lines.map((line) => [line.level, line.msg])).toEqual([
        [40, "database unreachable: Connection terminated due to connection timeout"],
      ]);
    } finally {
      await app.close();
      await pool.end();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });
});
