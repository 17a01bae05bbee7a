import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../tests/test-app";
import { createLogger } from "./logger";

const lines: Record<string, unknown>[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

describe("logging", () => {
  const ctx = useTestApp({
    logger: createLogger({ env: "test", logLevel: "info" }, capture),
    extend: (app) => {
      app.post("/api/test/log-body", { config: { access: "public" } }, async (request) => {
        request.log.info({ body: request.body }, "body received");
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
});
