import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../../tests/test-app";
import { buildApp } from "../../app";
import { loadConfig } from "../config";
import { connectDatabase } from "../db/database";

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
      config: loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: url.toString() }),
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
});
