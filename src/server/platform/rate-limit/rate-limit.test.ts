import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { captureLogs } from "../../../../tests/log-capture";
import { makeTempDir } from "../../../../tests/temp-dir";
import { useTestApp } from "../../../../tests/test-app";
import { addressKey, MemoryWindows, waitText } from "./rate-limit";

/** A documentation-range IPv6 network of its own (the limiter counts per /64), new on every run. */
const freshAddress = () => `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}::1`;

/** A cheap public read that the limit counts (the health check is not counted: see below). */
const COUNTED = "/api/billing/config";

const clientDir = makeTempDir();
fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><title>Tendwell</title>");
afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }));

describe("the general API rate limit, counted in memory", () => {
  const ctx = useTestApp({ env: { RATE_LIMIT_PER_MINUTE: "3" }, clientDir });

  it("answers the request over the limit with 429, Retry-After and the JSON error convention", async () => {
    const client = apiClient(ctx.app, { ip: "198.51.100.40" });
    for (let n = 1; n <= 3; n++) {
      const response = await client.get(COUNTED);
      expect(response.status).toBe(200);
      expect(response.headers["x-ratelimit-remaining"]).toBe(String(3 - n));
    }
    const refused = await client.get(COUNTED);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: "RATE_LIMITED", message: "Too many requests. Please try again in 1 minute." });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another address has its own count.
    expect((await apiClient(ctx.app, { ip: "198.51.100.41" }).get(COUNTED)).status).toBe(200);
  });

  it("refuses before the access check (429, not 401), and unknown /api paths count too", async () => {
    const client = apiClient(ctx.app, { ip: "198.51.100.42" });
    expect((await client.get("/api/users")).status).toBe(401);
    expect((await client.get("/api/no-such-thing")).status).toBe(404);
    expect((await client.post("/api/auth/login", { username: "nobody", password: "wrong-guess" })).status).toBe(401);
    expect((await client.get("/api/users")).status).toBe(429);
    expect((await client.get("/api/no-such-thing")).status).toBe(429);
  });

  it("counts a percent-encoded API path like the path it decodes to", async () => {
    const client = apiClient(ctx.app, { ip: "198.51.100.45" });
    for (const path of [COUNTED, "/%61pi/billing/config", "/api/%62illing/config"])
      expect((await client.get(path)).status).toBe(200);
    const refused = await client.get("/%61pi/billing/config");
    expect(refused.status).toBe(429);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect((await client.get("/%61pi/no-such-thing")).body.code).toBe("RATE_LIMITED");
  });

  it("never refuses the health check, which balancers probe from a few addresses, nor counts it", async () => {
    const client = apiClient(ctx.app, { ip: "198.51.100.46" });
    for (let n = 1; n <= 5; n++) {
      const response = await client.get("/api/health");
      expect(response.status).toBe(200);
      expect(response.headers["x-ratelimit-remaining"]).toBeUndefined();
    }
    expect((await client.get(COUNTED)).headers["x-ratelimit-remaining"]).toBe("2");
    // Only its own address is left out: anything else under /api counts, as before.
    expect((await client.get("/api/health?probe=1")).headers["x-ratelimit-remaining"]).toBe("1");
  });

  it("leaves the web app's pages and assets alone", async () => {
    const client = apiClient(ctx.app, { ip: "198.51.100.43" });
    for (let n = 1; n <= 5; n++) expect((await client.get("/clients")).status).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)("the general API rate limit, shared through Redis (TEST_REDIS_URL)", () => {
  const env = { RATE_LIMIT_PER_MINUTE: "3", REDIS_URL: redisUrl ?? "" };
  const first = useTestApp({ env });
  const second = useTestApp({ env });

  it("counts one address across app instances, as behind a load balancer", async () => {
    // Until its Redis connection is ready an instance lets requests through uncounted.
    for (const instance of [first, second]) {
      await vi.waitFor(async () => {
        const answer = await apiClient(instance.app, { ip: freshAddress() }).get(COUNTED);
        expect(answer.headers["x-ratelimit-remaining"]).toBeDefined();
      });
    }
    const ip = freshAddress();
    expect((await apiClient(first.app, { ip }).get(COUNTED)).status).toBe(200);
    expect((await apiClient(second.app, { ip }).get(COUNTED)).status).toBe(200);
    expect((await apiClient(first.app, { ip }).get(COUNTED)).status).toBe(200);
    const refused = await apiClient(second.app, { ip }).get(COUNTED);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect((await apiClient(first.app, { ip: freshAddress() }).get(COUNTED)).status).toBe(200);
  });
});

describe("the general API rate limit while Redis is unreachable", () => {
  const { lines, logger } = captureLogs("warn");
  const ctx = useTestApp({
    // Nothing listens on port 1: every Redis command fails at once.
    env: { RATE_LIMIT_PER_MINUTE: "2", REDIS_URL: "redis://127.0.0.1:1" },
    logger,
  });

  it("lets requests through and says so in the log, instead of failing them", async () => {
    const client = apiClient(ctx.app, { ip: "198.51.100.44" });
    for (let n = 1; n <= 4; n++) expect((await client.get(COUNTED)).status).toBe(200);
    // The client reports the refused connection as it happens, not in step with the requests.
    await vi.waitFor(() =>
      expect(lines.some((line) => String(line.msg).startsWith("Redis is unreachable"))).toBe(true),
    );
  });
});

describe("the limiter's parts", () => {
  it("counts a key in a fixed window that opens at its first request and starts again after it ends", () => {
    const windows = new MemoryWindows();
    expect(windows.hit("a", 60_000, 1_000)).toEqual({ count: 1, endsAt: 61_000 });
    expect(windows.hit("a", 60_000, 30_000)).toEqual({ count: 2, endsAt: 61_000 });
    expect(windows.hit("b", 60_000, 30_000)).toEqual({ count: 1, endsAt: 90_000 });
    expect(windows.hit("a", 60_000, 60_999)).toEqual({ count: 3, endsAt: 61_000 });
    expect(windows.hit("a", 60_000, 61_000)).toEqual({ count: 1, endsAt: 121_000 });
  });

  it("forgets the window that opened first when it holds counts for as many keys as it may", () => {
    const windows = new MemoryWindows(2);
    windows.hit("first", 60_000, 0);
    windows.hit("second", 60_000, 1);
    windows.hit("first", 60_000, 2);
    windows.hit("third", 60_000, 3);
    // "first" opened before "second" and is forgotten; "second" and "third" keep their counts.
    expect(windows.hit("second", 60_000, 4).count).toBe(2);
    expect(windows.hit("third", 60_000, 5).count).toBe(2);
    expect(windows.hit("first", 60_000, 6).count).toBe(1);
  });

  it("keys an address by itself, an IPv4-mapped one as IPv4, and an IPv6 one by its /64 network", () => {
    expect(addressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::");
    expect(addressKey("2001:db8:1:2::1")).toBe(addressKey("2001:db8:1:2:ffff::9"));
    expect(addressKey("2001:db8:1:3::1")).not.toBe(addressKey("2001:db8:1:2::1"));
  });

  it("says how long to wait in seconds under a minute and in whole minutes, rounded up, from one", () => {
    expect([1, 37, 59, 60, 61, 599, 600].map(waitText)).toEqual([
      "1 second",
      "37 seconds",
      "59 seconds",
      "1 minute",
      "2 minutes",
      "10 minutes",
      "10 minutes",
    ]);
  });
});
