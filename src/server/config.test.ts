import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, configVariables, loadConfig } from "./config";
import { projectPaths } from "./paths";

describe("loadConfig", () => {
  it("fills defaults: port 3000, ./data, embedded database with demo data", () => {
    const config = loadConfig({}, "/srv/tendwell");
    expect(config).toMatchObject({
      env: "development",
      port: 3000,
      databaseUrl: undefined,
      dataDir: path.resolve("/srv/tendwell/data"),
      seedDemoData: true,
    });
  });

  it("uses DATABASE_URL and then seeds nothing unless asked", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://app@db.internal:5432/tendwell" });
    expect(config.databaseUrl).toBe("postgres://app@db.internal:5432/tendwell");
    expect(config.seedDemoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://db/x", SEED_DEMO_DATA: "true" }).seedDemoData).toBe(true);
  });

  it("never seeds demo data in production by default", () => {
    expect(loadConfig({ NODE_ENV: "production" }).seedDemoData).toBe(false);
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it("fails with one clear line per bad variable", () => {
    const attempt = () => loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x/y", LOG_LEVEL: "loud" });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^Invalid configuration:/);
      expect(message).toContain("PORT: ");
      expect(message).toContain('(got "eighty")');
      expect(message).toContain("DATABASE_URL: must be a postgres:// or postgresql:// URL");
      expect(message).toContain("LOG_LEVEL: ");
    }
  });

  it("limits 1,000 API requests a minute per address, counted in memory unless REDIS_URL is set", () => {
    expect(loadConfig({})).toMatchObject({ rateLimitPerMinute: 1000, redisUrl: undefined });
    const shared = loadConfig({ RATE_LIMIT_PER_MINUTE: "300", REDIS_URL: "redis://cache.internal:6379/2" });
    expect(shared).toMatchObject({ rateLimitPerMinute: 300, redisUrl: "redis://cache.internal:6379/2" });
    expect(() => loadConfig({ REDIS_URL: "http://cache.internal" })).toThrow(/REDIS_URL: must be a redis:\/\//);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: "0" })).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });

  it("never repeats a password from a bad connection string", () => {
    const attempt = () =>
      loadConfig({ DATABASE_URL: "mysql://app:s3cret-pw@db.internal/x", REDIS_URL: "http://:r3dis-pw@cache:6379" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/mysql:\/\/app:\*\*\*@db\.internal\/x/);
    expect(attempt).not.toThrow(/s3cret-pw|r3dis-pw/);
  });

  it("rejects a port out of range", () => {
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
  });

  it("has every variable it reads documented in the README's configuration table", () => {
    const readme = fs.readFileSync(path.join(projectPaths.root, "README.md"), "utf8");
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...configVariables].sort());
  });
});
