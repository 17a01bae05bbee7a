import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../../../tests/log-capture";
import { useTestApp } from "../../../tests/test-app";

const { lines, logger } = captureLogs("info");

describe("logging", () => {
  const ctx = useTestApp({
    logger,
    extend: (app) => {
      app.post("/api/test/log-body", { config: { access: "public" } }, async (request) => {
        request.log.info({ body: request.body }, "body received");
        return { ok: true };
      });
      app.post("/api/test/failing-query", { config: { access: "public" } }, async () => {
        // A real failed query with a secret among its values: Drizzle repeats them in its error.
        await ctx.database.db.execute(sql`select ${"$argon2id$v=19$SECRET-HASH"}::text, 1 / 0`);
        return { ok: true };
      });
    },
  });

  it("tags every line of a request with its id, the one sent back in x-request-id", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
    const requestId = response.headers["x-request-id"];
    const tagged = lines.filter((line) => line.reqId === requestId);
    expect(tagged.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
  });

  it("never writes passwords, tokens, signatures or cookies", async () => {
    const secrets = {
      username: "olivia",
      password: "hunter2-correct-horse",
      newPassword: "battery-staple-99",
      token: "3f9a1c0b7e",
      signature: "data:image/png;base64,iVBORw0KGgoSECRET",
    };
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/test/log-body",
      payload: secrets,
      headers: { cookie: "tendwell_session=very-secret-cookie", authorization: "Bearer abc.def" },
    });
    expect(response.statusCode).toBe(200);
    const text = JSON.stringify(lines);
    expect(text).toContain('"username":"olivia"');
    for (const secret of [...Object.values(secrets).slice(1), "very-secret-cookie", "abc.def"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("finds secrets at any depth, and in the top-level fields of a line", async () => {
    const payload = {
      client: { contacts: [{ name: "Ann", credentials: { password: "deep-secret-1", token: "deep-token-2" } }] },
    };
    await ctx.app.inject({ method: "POST", url: "/api/test/log-body", payload });
    ctx.app.log.info({ password: "top-level-secret-3", user: "olivia" }, "a line with fields");
    const text = JSON.stringify(lines);
    expect(text).toContain('"name":"Ann"');
    expect(text).toContain('"user":"olivia"');
    for (const secret of ["deep-secret-1", "deep-token-2", "top-level-secret-3"]) expect(text).not.toContain(secret);
  });

  it("logs a failed query without the values it was given", async () => {
    const response = await ctx.app.inject({ method: "POST", url: "/api/test/failing-query", payload: {} });
    expect(response.statusCode).toBe(500);
    const failure = lines.find((line) => line.reqId === response.headers["x-request-id"] && line.level === 50);
    expect(JSON.stringify(failure)).toContain("Failed query");
    expect(JSON.stringify(lines)).not.toContain("SECRET-HASH");
  });
});
