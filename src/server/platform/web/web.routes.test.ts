import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../tests/temp-dir";
import { useTestApp } from "../../../../tests/test-app";

// A stand-in for `vite build` output: an index.html and a hashed asset.
const clientDir = makeTempDir();
fs.mkdirSync(path.join(clientDir, "assets"));
fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><div id=root></div>");
fs.writeFileSync(path.join(clientDir, "assets", "index-Bx7Kq2.js"), "console.log('app')");
// A larger file with the brotli copy scripts/precompress.ts writes at build time.
const bigScript = `console.log("${"tendwell ".repeat(300)}")`;
fs.writeFileSync(path.join(clientDir, "assets", "big-C9x.js"), bigScript);
fs.writeFileSync(path.join(clientDir, "assets", "big-C9x.js.br"), brotliCompressSync(bigScript));

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
    for (const url of ["/dashboard", "/client/0190f3c2-1111-7000-8000-000000000000", "/no/such/page?x=1"]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.body).toContain("<div id=root>");
    }
  });

  it("leaves / to the server-rendered landing page for a visitor (src/server/site, decision 0022)", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Structure That Strengthens Retention");
    expect(response.body).not.toContain("<div id=root></div>");
  });

  it("sends the precompressed brotli copy to a browser that accepts it, the plain file otherwise", async () => {
    const compressed = await ctx.app.inject({
      method: "GET",
      url: "/assets/big-C9x.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(compressed.rawPayload).toString("utf8")).toBe(bigScript);
    const plain = await ctx.app.inject({ method: "GET", url: "/assets/big-C9x.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(bigScript);
  });

  it("S-FUZZ-07 a path longer than the file system takes is an API's or an asset's JSON 404 and a page's index.html, never a 403", async () => {
    const long = "a".repeat(5_000);
    for (const url of [
      `/api/calendar-feeds/${long}.ics`,
      `/api/clients/${long}`,
      `/api/${long}`,
      `/assets/${long}.js`,
    ]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url.slice(0, 30)).toBe(404);
      expect(response.json(), url.slice(0, 30)).toMatchObject({ code: "NOT_FOUND" });
      expect(response.json().message.length, url.slice(0, 30)).toBeLessThan(300);
    }
    const page = await ctx.app.inject({ method: "GET", url: `/clients/${long}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<div id=root>");
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
