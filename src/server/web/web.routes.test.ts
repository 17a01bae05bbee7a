import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../tests/temp-dir";
import { useTestApp } from "../../../tests/test-app";

// A stand-in for `vite build` output: an index.html and a hashed asset.
const clientDir = makeTempDir();
fs.mkdirSync(path.join(clientDir, "assets"));
fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><div id=root></div>");
fs.writeFileSync(path.join(clientDir, "assets", "index-Bx7Kq2.js"), "console.log('app')");

describe("serving the built React app", () => {
  const ctx = useTestApp({ clientDir });
  afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }));

  it("serves hashed assets with a year-long immutable cache", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/assets/index-Bx7Kq2.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("console.log('app')");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("answers every other page path with index.html, never cached", async () => {
    for (const url of ["/", "/dashboard", "/client/0190f3c2-1111-7000-8000-000000000000", "/no/such/page?x=1"]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.body).toContain("<div id=root>");
    }
  });

  it("answers a missing asset with 404 rather than the page", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/assets/index-old.js" });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("NOT_FOUND");
  });

  it("keeps unknown API paths as JSON 404s", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/clients-typo" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "No API route GET /api/clients-typo", code: "NOT_FOUND" });
  });

  it("sends the security headers: strict CSP, no framing, no sniffing", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/dashboard" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});
