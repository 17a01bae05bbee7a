import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, apiClient } from "./api-client";
import { type SeededFirm, seedFirm, signIn } from "./fixtures";
import { makeTempDir } from "./temp-dir";
import { useTestApp } from "./test-app";

/*
 * The exact headers of each kind of answer, pinned: the fast path (decision 0008) sets them its
 * own way, and users must not see a difference. Values that change per request (date, request
 * id, rate-limit counters, lengths) are checked for their presence and form only.
 */

/** A page's and a file's: helmet's, with the app's CSP. */
const securityHeaders = {
  "content-security-policy":
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};
/** An API answer's: nothing a browser could render, run, frame, sniff, keep or share (decision 0042). */
const apiHeaders = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "content-type": "application/json; charset=utf-8",
  "x-ratelimit-limit": "1000000",
};
const varying = ["date", "connection", "content-length", "x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset"];

/** The headers, with the varying ones checked for their form and then left out. */
function stableHeaders(response: ApiResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!varying.includes(name)) headers[name] = String(value);
  }
  expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  if (response.text.length > 0)
    expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.text));
  return headers;
}

const clientDir = makeTempDir();
fs.mkdirSync(path.join(clientDir, "assets"));
fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><div id=root></div>");
fs.writeFileSync(path.join(clientDir, "assets", "index-Bx7Kq2.js"), "console.log('app')");

describe("response headers", () => {
  const ctx = useTestApp({ clientDir });
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }));

  it("a public API answer", async () => {
    const response = await apiClient(ctx.app).get("/api/billing/config");
    expect(response.status).toBe(200);
    expect(stableHeaders(response)).toEqual(apiHeaders);
    expect(Number(response.headers["x-ratelimit-remaining"])).toBeLessThan(1_000_000);
    expect(Number(response.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
  });

  it("the health check: an API answer that the rate limit does not count", async () => {
    const response = await apiClient(ctx.app).get("/api/health");
    expect(response.status).toBe(200);
    const { "x-ratelimit-limit": _counted, ...uncounted } = apiHeaders;
    expect(stableHeaders(response)).toEqual(uncounted);
    expect(response.headers["x-ratelimit-remaining"]).toBeUndefined();
  });

  it("a signed-in API read", async () => {
    const client = await signIn(ctx.app, world.users.admin);
    for (const url of ["/api/users", "/api/auth/me"]) {
      const response = await client.get(url);
      expect(response.status, url).toBe(200);
      expect(stableHeaders(response), url).toEqual(apiHeaders);
    }
    // One editable resource also says its version (S-SAFE-01).
    const user = await client.get(`/api/users/${world.users.user.id}`);
    expect(stableHeaders(user)).toEqual({ ...apiHeaders, etag: `"${user.body.version}"` });
  });

  it("sign-in sets the session cookie, its readable companion and the device cookie, nothing else extra", async () => {
    const response = await apiClient(ctx.app).post("/api/auth/login", {
      username: world.users.user.username,
      password: world.users.user.password,
    });
    expect(response.status).toBe(200);
    const { "set-cookie": _cookies, ...rest } = stableHeaders(response);
    expect(rest).toEqual(apiHeaders);
    expect(response.headers["set-cookie"]).toEqual([
      expect.stringMatching(
        /^tendwell_session=[0-9a-f-]{36}\.[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/,
      ),
      "tendwell_signed_in=1; Max-Age=43200; Path=/; SameSite=Lax",
      expect.stringMatching(/^tendwell_device=[\w-]{43}; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax$/),
    ]);
  });

  it("refusals: 401, 403, 404, 400", async () => {
    const user = await signIn(ctx.app, world.users.user);
    const answers = [
      await apiClient(ctx.app).get("/api/auth/me"),
      await user.post("/api/users", { username: "x" }),
      await apiClient(ctx.app).get("/api/no-such-route"),
      await user.post("/api/auth/change-password", { nope: 1 }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 403, 404, 400]);
    for (const answer of answers) expect(stableHeaders(answer)).toEqual(apiHeaders);
  });

  it("a page and an asset", async () => {
    const page = await apiClient(ctx.app).get("/dashboard");
    expect(stableHeaders(page)).toEqual({
      ...securityHeaders,
      "accept-ranges": "bytes",
      "cache-control": "no-cache",
      "content-type": "text/html; charset=utf-8",
      etag: expect.stringMatching(/^W\/"/),
      "last-modified": expect.any(String),
      // Files may be sent precompressed (decision 0022), so caches keep encodings apart.
      vary: "accept-encoding",
    });
    const asset = await apiClient(ctx.app).get("/assets/index-Bx7Kq2.js");
    expect(stableHeaders(asset)).toEqual({
      ...securityHeaders,
      "accept-ranges": "bytes",
      "cache-control": "public, max-age=31536000, immutable",
      "content-type": "application/javascript; charset=utf-8",
      etag: expect.stringMatching(/^W\/"/),
      "last-modified": expect.any(String),
      vary: "accept-encoding",
    });
  });
});
