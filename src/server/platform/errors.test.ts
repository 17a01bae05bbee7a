import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureLogs } from "../../../tests/log-capture";
import { useTestApp } from "../../../tests/test-app";
import { AppError } from "./errors";

const echoBody = z.object({ name: z.string().min(1, "Name is required") });

describe("the JSON error convention", () => {
  const ctx = useTestApp({
    extend: (app) => {
      app.post(
        "/api/test/echo",
        { config: { access: "public" }, schema: { body: echoBody } },
        async (request) => request.body,
      );
      app.get("/api/test/conflict", { config: { access: "public" } }, async () => {
        throw new AppError("CONFLICT", "Username is already taken");
      });
      app.get("/api/test/crash", { config: { access: "public" } }, async () => {
        throw new Error("secret internal detail");
      });
    },
  });

  const post = (payload: string, contentType = "application/json") =>
    ctx.app.inject({ method: "POST", url: "/api/test/echo", payload, headers: { "content-type": contentType } });

  it("answers unknown /api paths with a 404 JSON error, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const response = await ctx.app.inject({ method, url: "/api/no/such/thing?x=1" });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ message: `No API route ${method} /api/no/such/thing`, code: "NOT_FOUND" });
    }
  });

  it("answers an unknown API path in JSON even when it is percent-encoded", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/%61pi/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "No API route GET /%61pi/no-such-thing", code: "NOT_FOUND" });
  });

  it("S-FUZZ-07 answers what Node's HTTP parser refuses (an address or headers over 16 KB, bytes that are not HTTP) in the same convention", async () => {
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    const address = ctx.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    /** Sends `request` as raw bytes, and reads the answer until the server closes the connection. */
    const raw = (request: string) =>
      new Promise<{ status: number; headers: string; body: unknown }>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString();
        });
        socket.on("error", reject);
        socket.on("close", () => {
          const [head = "", body = ""] = text.split("\r\n\r\n");
          resolve({ status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body: JSON.parse(body) });
        });
      });
    const longUrl = await raw(`GET /api/clients?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const longHeader = await raw(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${"b".repeat(20_000)}\r\n\r\n`);
    for (const answer of [longUrl, longHeader]) {
      expect(answer.status).toBe(431);
      expect(answer.body).toEqual({
        message: "The request's address and headers are too long",
        code: "HEADERS_TOO_LARGE",
      });
      expect(answer.headers).toContain("content-type: application/json; charset=utf-8");
      expect(answer.headers).toContain("x-content-type-options: nosniff");
    }
    const garbage = await raw("NOT HTTP AT ALL\r\n\r\n");
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({ message: "The request is not HTTP the server can read", code: "BAD_REQUEST" });
  });

  it("answers malformed JSON with 400 MALFORMED_JSON", async () => {
    const response = await post('{"name": "unterminated');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "The request body is not valid JSON", code: "MALFORMED_JSON" });
  });

  it("answers an empty JSON body with 400", async () => {
    const response = await post("");
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("MALFORMED_JSON");
  });

  it("answers schema failures with 400, the schema's message and the field issues", async () => {
    const response = await post(JSON.stringify({ name: "" }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: "Name is required",
      code: "VALIDATION_FAILED",
      issues: [{ path: ["name"], message: "Name is required" }],
    });
  });

  it("answers a body that is not JSON, such as a cross-site form's, with 415", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const response = await post("name=x", contentType);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({ message: "Unsupported content type", code: "UNSUPPORTED_MEDIA_TYPE" });
    }
  });

  it("answers an oversized body with 413", async () => {
    const response = await post(JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: "The request body is too large", code: "PAYLOAD_TOO_LARGE" });
  });

  it("maps an AppError's code to its status", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/test/conflict" });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: "Username is already taken", code: "CONFLICT" });
  });

  it("answers an unexpected failure with 500 and no internal detail", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/test/crash" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: "Something went wrong on our side", code: "INTERNAL" });
    expect(response.body).not.toContain("secret");
  });

  it("answers URLs the router cannot read with the same convention", async () => {
    const bad = await ctx.app.inject({ method: "GET", url: "/api/users/%" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: "The URL is not valid", code: "BAD_REQUEST" });
    const long = await ctx.app.inject({ method: "GET", url: `/api/users/${"a".repeat(300)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json().code).toBe("NOT_FOUND");
  });

  it("refuses NUL characters anywhere in a body before they reach the database", async () => {
    for (const payload of ['{"name":"a\\u0000b"}', '{"name":"ok","x\\u0000":1}']) {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: "Text must not contain NUL characters (U+0000)",
        code: "BAD_REQUEST",
      });
    }
  });

  it("gives Fastify's own 400s the generic BAD_REQUEST code", async () => {
    const response = await ctx.app.inject({ method: "QUERY" as "GET", url: "/api/test/echo", payload: "{}" });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("BAD_REQUEST");
  });
});

describe("errors that mean the database is unreachable", () => {
  // A pool whose server is gone: its Unix socket does not exist, as when PostgreSQL is stopped.
  const gone = new pg.Pool({ host: path.join(os.tmpdir(), "tendwell-no-such-socket-dir"), user: "postgres" });
  afterAll(() => gone.end());
  const { lines, logger } = captureLogs("info");
  const ctx = useTestApp({
    logger,
    extend: (app) => {
      app.get("/api/test/database-gone", { config: { access: "public" } }, async () => {
        await drizzle(gone).execute(sql`select 1`);
      });
      app.get("/api/test/query-bug", { config: { access: "public" } }, async () => {
        await ctx.database.db.execute(sql`select no_such_column`);
      });
    },
  });
  const errorLines = () => lines.filter((line) => (line.level as number) >= 50);
  const warnLines = () => lines.filter((line) => line.level === 40).map((line) => line.msg);

  it("S-OUTAGE-01 S-OUTAGE-03 answer 503 with Retry-After and log no error", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await ctx.app.inject({ method: "GET", url: "/api/test/database-gone" });
      expect(response.statusCode).toBe(503);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.headers["retry-after"]).toBe("5");
      expect(response.json()).toEqual({
        message: "The database is unreachable; please try again in a few seconds",
        code: "SERVICE_UNAVAILABLE",
      });
    }
    expect(errorLines()).toEqual([]);
    // The app's own database answers the tracker's check, so this is no outage to warn about.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warnLines()).toEqual([]);
  });

  it("S-OUTAGE-03 a query bug is still a 500 logged as an error", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/test/query-bug" });
    expect(response.statusCode).toBe(500);
    expect(response.headers["retry-after"]).toBeUndefined();
    expect(response.json()).toEqual({ message: "Something went wrong on our side", code: "INTERNAL" });
    expect(errorLines().map((line) => line.msg)).toEqual(["request failed"]);
  });
});
