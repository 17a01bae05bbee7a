import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { apiClient } from "../../tests/api-client";
import { seedFirm, signIn } from "../../tests/fixtures";
import { useTestApp } from "../../tests/test-app";
import { createTestDatabase } from "../../tests/test-database";
import { buildApp } from "./app";
import { loadConfig } from "./platform/config";
import { connectDatabase } from "./platform/db/database";
import { newSealingKey } from "./platform/sealed-secrets";

/** A GET over the given agent, so a test chooses which connection it goes on. */
function get(agent: http.Agent, url: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on("error", reject);
  });
}

describe("closing the app", () => {
  it("lets in-flight requests finish and refuses new ones, in the JSON error convention", async () => {
    const created = await createTestDatabase();
    const database = connectDatabase({ url: created.url, poolSize: 2 });
    const app = await buildApp({
      config: loadConfig({
        MFA_ENCRYPTION_KEY: newSealingKey().text,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATABASE_URL: created.url,
      }),
      database,
    });
    let started: () => void = () => {};
    const requestStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get("/api/test/slow", { config: { access: "public" } }, async () => {
      started();
      await sleep(400);
      return { finished: true };
    });
    // Holds the close in its hooks, after the app has begun closing and before it stops listening.
    let releaseClose: () => void = () => {};
    const closeHeld = new Promise<void>((resolve) => {
      releaseClose = resolve;
    });
    app.addHook("preClose", async () => closeHeld);
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // A keep-alive connection opened before the close, idle when it begins.
      expect((await get(keepAlive, `${base}/api/health`)).status).toBe(200);
      const inFlight = fetch(`${base}/api/test/slow`);
      await requestStarted;
      const closing = app.close();
      // While the close hooks run, a new connection is refused at once...
      await vi.waitFor(() => expect(app.server.listening).toBe(false));
      await expect(fetch(`${base}/api/health`)).rejects.toThrow();
      // ...and the one already open is not cut under a request: the request gets a 503, and the
      // connection closes after that answer.
      const late = await get(keepAlive, `${base}/api/health`);
      expect(late.status).toBe(503);
      expect(late.headers.connection).toBe("close");
      expect(JSON.parse(late.body)).toEqual({
        message: "The server is shutting down. Please try again in a moment.",
        code: "SERVICE_UNAVAILABLE",
      });
      releaseClose();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ finished: true });
      expect(response.headers.get("connection")).toBe("close");
      await closing;
      await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    } finally {
      keepAlive.destroy();
      await database.close();
      await created.drop();
    }
  });
});

describe("API answers", () => {
  const ctx = useTestApp();

  it("are never stored by a browser or a proxy, errors included", async () => {
    const { users } = await seedFirm(ctx.database.db, "No Store");
    const browser = await signIn(ctx.app, users.admin);
    for (const response of [
      await browser.get("/api/auth/me"),
      await browser.get("/api/users"),
      await apiClient(ctx.app).get("/api/auth/me"),
      await browser.get("/api/no-such-route"),
    ]) {
      expect(response.headers["cache-control"]).toBe("no-store");
    }
  });
});
