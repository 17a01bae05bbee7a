import Fastify, { type RouteShorthandOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../platform/config";
import type { Database } from "../../platform/db/database";
import { registerAccessControl } from "./access-control";

/** Each route states its rule as it registers; a route that breaks the rules stops the app from starting. */
describe("access rules at registration", () => {
  async function registering(method: "GET" | "POST", url: string, options: RouteShorthandOptions) {
    const app = Fastify();
    const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: "postgresql://unused/none" });
    try {
      // The guard reaches the database only when a request arrives; none does here.
      await registerAccessControl(app, { db: {} as Database, config });
      app.route({ method, url, ...options, handler: async () => ({}) });
      await app.ready();
    } finally {
      await app.close();
    }
  }

  it("an API route without an access rule is refused", async () => {
    await expect(registering("GET", "/api/unguarded", {})).rejects.toThrow(
      "Route GET /api/unguarded declares no access rule (config.access)",
    );
  });

  it("a webhook must be public: it has no session", async () => {
    await expect(registering("POST", "/api/hook", { config: { access: "signedIn", webhook: true } })).rejects.toThrow(
      "a webhook skips the session, so it must be public",
    );
  });

  it("a route outside the API may not change state: it would escape the origin check", async () => {
    await expect(registering("POST", "/form", {})).rejects.toThrow("Route POST /form changes state outside /api/");
    await expect(registering("GET", "/page", {})).resolves.toBeUndefined();
    await expect(registering("POST", "/api/ok", { config: { access: "signedIn" } })).resolves.toBeUndefined();
  });
});
