import path from "node:path";
import { z } from "zod";
import type { PlanId } from "../../shared/plans";
import { parseMailFrom } from "./mail/mail-from";
import { type SealingKey, sealingKeyFrom } from "./sealed-secrets";

const booleanFlag = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

const stripeKey = (pattern: RegExp, what: string) => z.string().regex(pattern, `must be ${what}`).optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  DATABASE_OWNER_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
    .optional(),
  DATA_DIR: z.string().min(1).default("data"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SEED_DEMO_DATA: booleanFlag.optional(),
  TRUST_PROXY: booleanFlag.default(false),
  APP_ORIGIN: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  STRIPE_SECRET_KEY: stripeKey(/^(sk|rk)_\S+$/, "a Stripe secret key (sk_... or rk_...)"),
  STRIPE_PUBLISHABLE_KEY: stripeKey(/^pk_\S+$/, "a Stripe publishable key (pk_...)"),
  STRIPE_WEBHOOK_SECRET: stripeKey(/^whsec_\S+$/, "a Stripe webhook signing secret (whsec_...)"),
  STRIPE_PRICE_STARTER: stripeKey(/^price_\S+$/, "a Stripe price id (price_...)"),
  STRIPE_PRICE_PROFESSIONAL: stripeKey(/^price_\S+$/, "a Stripe price id (price_...)"),
  STRIPE_PRICE_ENTERPRISE: stripeKey(/^price_\S+$/, "a Stripe price id (price_...)"),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z
    .string()
    .refine((text) => parseMailFrom(text) !== undefined, {
      error: "must be an e-mail address, or a name and an address as in Tendwell <noreply@example.com>",
    })
    .default("notifications@tendwell.localhost"),
  MFA_ENCRYPTION_KEY: z
    .string()
    .transform((text, context) => {
      try {
        return sealingKeyFrom(text);
      } catch {
        context.addIssue({ code: "custom", message: "must be 32 bytes in base64 (`openssl rand -base64 32`)" });
        return z.NEVER;
      }
    })
    .optional(),
});

/** Card billing needs all of these or none (decision 0025). */
const stripeVariables = [
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_PRICE_STARTER",
  "STRIPE_PRICE_PROFESSIONAL",
  "STRIPE_PRICE_ENTERPRISE",
] as const;

/** Every environment variable the app reads (the README's configuration table lists them all). */
export const configVariables = Object.keys(envSchema.shape);

type Env = z.output<typeof envSchema>;

export type Config = {
  env: Env["NODE_ENV"];
  host: string;
  port: number;
  /** Set when an external PostgreSQL is used; undefined means start the embedded one. */
  databaseUrl: string | undefined;
  /**
   * The role that owns the tables, for the migrations and the app role's grants (decision 0033);
   * undefined means DATABASE_URL's role owns them (or the embedded database, which makes its own).
   */
  databaseOwnerUrl: string | undefined;
  /**
   * Absolute path of the folder that holds the embedded PostgreSQL and the process lock, as
   * configured: read it through embeddedDataDir (platform/db/data-dir.ts), which may move the
   * default for a root-run checkout in a private folder.
   */
  dataDir: string;
  /** Whether DATA_DIR was set, so the folder is the operator's choice and never moved. */
  dataDirFromEnv: boolean;
  databasePoolSize: number;
  logLevel: Env["LOG_LEVEL"];
  /** Whether the first start on an empty database creates the demo firm. */
  seedDemoData: boolean;
  trustProxy: boolean;
  /** The public origin browsers use; state-changing requests must come from it. */
  appOrigin: string | undefined;
  session: { idleMs: number; absoluteMs: number };
  /** The general limit on /api requests per client address and minute. */
  rateLimitPerMinute: number;
  /** Set to share the rate limiter's counts between app instances; undefined counts in memory. */
  redisUrl: string | undefined;
  /** How long a shutdown waits for requests in flight before it closes their connections. */
  shutdownGraceMs: number;
  /** Card billing with Stripe (decision 0025); undefined when not configured: no card is taken. */
  stripe: StripeConfig | undefined;
  /**
   * The key authenticator apps' secrets are sealed with (decision 0044). Undefined when not
   * configured: the server then keeps one in the data directory (platform/mfa-key.ts), which only
   * the embedded database's single instance may do, so on an external database the server refuses
   * to start without it.
   */
  mfaKey: SealingKey | undefined;
  /**
   * Where e-mail goes (decision 0049): the SMTP server's URL, undefined to keep each message in the
   * outbox and the log only; `from` is the address every message is sent from.
   */
  mail: { smtpUrl: string | undefined; from: string };
};

export type StripeConfig = {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** The Stripe price id of each plan. */
  prices: Record<PlanId, string>;
  /** Where the SDK sends API requests instead of api.stripe.com (a local stand-in); usually undefined. */
  apiUrl: string | undefined;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Variables whose values never appear in an error message, not even a malformed one. */
const secretVariables = new Set(["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "MFA_ENCRYPTION_KEY", "SMTP_URL"]);

/** A connection string's password stays out of error messages, even in a URL too broken to parse. */
const withoutPassword = (value: string | undefined) => value?.replace(/(\/\/[^/@:]*:)[^/@]*@/, "$1***@");

/**
 * The only reader of the environment. Throws a ConfigError that names every bad variable.
 * Empty strings count as unset, as a `.env` line like `DATABASE_URL=` means "not given".
 */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join(".");
      const got = secretVariables.has(name)
        ? `a value of ${env[name]?.length ?? 0} characters`
        : JSON.stringify(withoutPassword(env[name]));
      return `  ${name}: ${issue.message} (got ${got})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  const missingStripe = stripeVariables.filter((name) => values[name] === undefined);
  if (missingStripe.length > 0 && missingStripe.length < stripeVariables.length) {
    throw new ConfigError(
      `Invalid configuration:\n  Card billing needs all of ${stripeVariables.join(", ")} or none of them; missing: ${missingStripe.join(", ")}`,
    );
  }
  if (values.DATABASE_OWNER_URL !== undefined && values.DATABASE_URL === undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_OWNER_URL is set but DATABASE_URL is not (the app's own role on the same database)",
    );
  }
  if (values.STRIPE_API_URL !== undefined && missingStripe.length > 0) {
    throw new ConfigError(
      "Invalid configuration:\n  STRIPE_API_URL is set but card billing is not (the STRIPE_* keys)",
    );
  }
  return {
    env: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    databaseUrl: values.DATABASE_URL,
    databaseOwnerUrl: values.DATABASE_OWNER_URL,
    dataDir: path.resolve(cwd, values.DATA_DIR),
    dataDirFromEnv: env.DATA_DIR !== undefined,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    logLevel: values.LOG_LEVEL,
    // Demo data belongs on a developer's embedded database, never silently in production.
    seedDemoData: values.SEED_DEMO_DATA ?? (values.DATABASE_URL === undefined && values.NODE_ENV !== "production"),
    trustProxy: values.TRUST_PROXY,
    appOrigin: values.APP_ORIGIN ? new URL(values.APP_ORIGIN).origin : undefined,
    session: { idleMs: values.SESSION_IDLE_MINUTES * 60_000, absoluteMs: values.SESSION_ABSOLUTE_HOURS * 3_600_000 },
    rateLimitPerMinute: values.RATE_LIMIT_PER_MINUTE,
    redisUrl: values.REDIS_URL,
    shutdownGraceMs: values.SHUTDOWN_GRACE_SECONDS * 1000,
    stripe: stripeConfig(values),
    mfaKey: values.MFA_ENCRYPTION_KEY,
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM },
  };
}

function stripeConfig(values: Env): StripeConfig | undefined {
  const {
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: publishableKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_PRICE_STARTER: starter,
    STRIPE_PRICE_PROFESSIONAL: professional,
    STRIPE_PRICE_ENTERPRISE: enterprise,
  } = values;
  if (!secretKey || !publishableKey || !webhookSecret || !starter || !professional || !enterprise) return undefined;
  return {
    secretKey,
    publishableKey,
    webhookSecret,
    prices: { starter, professional, enterprise },
    apiUrl: values.STRIPE_API_URL,
  };
}
