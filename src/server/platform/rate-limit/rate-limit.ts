import rateLimit from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import type { Config } from "../config";
import { AppError } from "../errors";
import { isApiRequest } from "../http";

/**
 * The general limit on /api requests per client address (decision 0006): a floor against
 * floods and scripted scraping, on top of the finer sign-in throttle. It runs before the session
 * lookup and the CSRF check, so a refused request costs no database work. With REDIS_URL the
 * counts live in Redis and hold across every instance; without it each process counts alone.
 * When Redis is unreachable requests are let through (and a warning logged): losing the limiter
 * for a while is better than losing the product.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const redis = config.redisUrl ? connectRedis(config.redisUrl, app.log) : undefined;
  if (redis) app.addHook("onClose", async () => redis.disconnect());

  await app.register(rateLimit, {
    global: false,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: "tendwell:rate-limit:" } : {}),
    skipOnError: true,
    allowList: (request) => !isApiRequest(request),
    errorResponseBuilder: (_request, context) =>
      new AppError("RATE_LIMITED", `Too many requests. Please try again in ${context.after}.`, {
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });
  // An app-level hook, so it runs before the session lookup and also covers unknown /api paths.
  app.addHook("onRequest", app.rateLimit());
}

/** A client that fails fast while Redis is down instead of queueing requests behind it. */
function connectRedis(url: string, log: FastifyBaseLogger) {
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  let reachable = true;
  redis.on("error", (error) => {
    if (reachable) log.warn({ err: error }, "Redis is unreachable: API requests are not rate-limited until it is back");
    reachable = false;
  });
  redis.on("ready", () => {
    if (!reachable) log.info("Redis is reachable again: rate limiting resumed");
    reachable = true;
  });
  return redis;
}
