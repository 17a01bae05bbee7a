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

  it("takes the owner's URL beside the app's, and refuses it alone", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://tendwell_app@db.internal/tendwell",
      DATABASE_OWNER_URL: "postgres://tendwell_owner@db.internal/tendwell",
    });
    expect(config.databaseOwnerUrl).toBe("postgres://tendwell_owner@db.internal/tendwell");
    expect(loadConfig({ DATABASE_URL: "postgres://db/x" }).databaseOwnerUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_OWNER_URL: "postgres://tendwell_owner@db.internal/tendwell" })).toThrow(
      /DATABASE_OWNER_URL is set but DATABASE_URL is not/,
    );
  });

  it("S-MAIL-01 takes MAIL_FROM as an address, or a name and an address, and refuses anything else", () => {
    expect(loadConfig({}).mail.from).toBe("notifications@tendwell.localhost");
    expect(loadConfig({ MAIL_FROM: "noreply@example.com" }).mail.from).toBe("noreply@example.com");
    expect(loadConfig({ MAIL_FROM: "Tendwell <noreply@example.com>" }).mail.from).toBe(
      "Tendwell <noreply@example.com>",
    );
    for (const bad of ["Tendwell", "Tendwell <noreply>", "a@example.com, b@example.com"]) {
      expect(() => loadConfig({ MAIL_FROM: bad }), bad).toThrow(
        "MAIL_FROM: must be an e-mail address, or a name and an address as in Tendwell <noreply@example.com>",
      );
    }
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

  const stripeEnv = {
    STRIPE_SECRET_KEY: "sk_test_secret123",
    STRIPE_PUBLISHABLE_KEY: "pk_test_public123",
    STRIPE_WEBHOOK_SECRET: "whsec_signing123",
    STRIPE_PRICE_STARTER: "price_starter",
    STRIPE_PRICE_PROFESSIONAL: "price_professional",
    STRIPE_PRICE_ENTERPRISE: "price_enterprise",
  };

  it("takes no cards unless Stripe is configured", () => {
    expect(loadConfig({}).stripe).toBeUndefined();
  });

  it("reads Stripe's keys and the plans' price ids, all together, and STRIPE_API_URL when given", () => {
    expect(loadConfig(stripeEnv).stripe).toEqual({
      secretKey: "sk_test_secret123",
      publishableKey: "pk_test_public123",
      webhookSecret: "whsec_signing123",
      prices: { starter: "price_starter", professional: "price_professional", enterprise: "price_enterprise" },
      apiUrl: undefined,
    });
    const local = loadConfig({ ...stripeEnv, STRIPE_API_URL: "http://127.0.0.1:12111" });
    expect(local.stripe?.apiUrl).toBe("http://127.0.0.1:12111");
  });

  it("refuses a partial Stripe configuration, naming what is missing", () => {
    const { STRIPE_WEBHOOK_SECRET: _, STRIPE_PRICE_ENTERPRISE: __, ...partial } = stripeEnv;
    const attempt = () => loadConfig(partial);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/missing: STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ENTERPRISE/);
    expect(() => loadConfig({ STRIPE_PUBLISHABLE_KEY: "pk_test_x" })).toThrow(/missing: STRIPE_SECRET_KEY,/);
    // Empty counts as unset, as everywhere.
    expect(() => loadConfig({ ...stripeEnv, STRIPE_SECRET_KEY: "" })).toThrow(/missing: STRIPE_SECRET_KEY$/m);
    expect(() => loadConfig({ STRIPE_API_URL: "http://127.0.0.1:12111" })).toThrow(/STRIPE_API_URL is set/);
  });

  it("checks each Stripe value's shape and never repeats a secret in the message", () => {
    const attempt = () =>
      loadConfig({ ...stripeEnv, STRIPE_SECRET_KEY: "pk_live_oops-secret", STRIPE_PRICE_STARTER: "prod_1" });
    expect(attempt).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key \(sk_\.\.\. or rk_\.\.\.\) \(got a value of 19 characters\)/,
    );
    expect(attempt).toThrow(/STRIPE_PRICE_STARTER: must be a Stripe price id/);
    expect(attempt).not.toThrow(/oops-secret/);
    expect(() => loadConfig({ ...stripeEnv, STRIPE_API_URL: "ftp://x" })).toThrow(/STRIPE_API_URL: must be an http/);
  });

  it("S-MFA-21 takes MFA_ENCRYPTION_KEY as 32 bytes of base64 and never echoes a bad one", () => {
    const text = Buffer.alloc(32, 7).toString("base64");
    expect(loadConfig({ MFA_ENCRYPTION_KEY: text }).mfaKey?.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(loadConfig({}).mfaKey).toBeUndefined();
    const short = Buffer.alloc(16, 7).toString("base64");
    const attempt = () => loadConfig({ MFA_ENCRYPTION_KEY: short });
    expect(attempt).toThrow(/MFA_ENCRYPTION_KEY: must be 32 bytes in base64 .*\(got a value of 24 characters\)/);
    expect(attempt).not.toThrow(new RegExp(short.replace(/[+/=]/g, "\\$&")));
  });

  it("rejects a port out of range", () => {
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
  });

  it("has every variable it reads documented in docs/configuration.md and listed in .env.example", () => {
    const doc = fs.readFileSync(path.join(projectPaths.root, "docs", "configuration.md"), "utf8");
    // The app's own variables; the last section lists those of the tests and scripts.
    const appSections = doc.split("## Variables of the tests")[0] ?? "";
    const documented = [...appSections.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...configVariables].sort());
    const example = fs.readFileSync(path.join(projectPaths.root, ".env.example"), "utf8");
    const listed = [...example.matchAll(/^#? ?([A-Z_]+)=/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...configVariables].sort());
  });
});
