import { isIPv6 } from "node:net";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { Redis } from "ioredis";
import { Address6 } from "ip-address";
import type { Config } from "../config";
import { AppError } from "../errors";

/*
 * Rate limits as fixed windows per key (decision 0006): the first request of a key opens a window
 * of `windowMs`, and each request in it adds one to the count until the window ends. With
 * REDIS_URL the counts live in Redis and hold across every instance, one script call per request;
 * without it each process counts alone, in memory and without a promise in between, as most
 * requests go through the general limit. When Redis is unreachable requests are let through (and
 * a warning logged): losing the limiter for a while is better than losing the product.
 */

/** A key's window after counting one more request in it: its count and when it ends (ms since the epoch). */
export type Window = { count: number; endsAt: number };

/** What a limit answers for a request: how it stands, or undefined when the count is unknown (Redis down). */
export type LimitResult = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

export type RateLimit = {
  /** Counts one request of `key`; synchronous when counting in memory. */
  hit(key: string): LimitResult | Promise<LimitResult | undefined>;
};

/** How many keys a process keeps counts for; past it the oldest window is forgotten. */
const MEMORY_KEYS = 10_000;

/** Counts in this process: a map kept in the order windows opened, so the oldest is the first. */
export class MemoryWindows {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly capacity = MEMORY_KEYS) {}

  hit(key: string, windowMs: number, now: number): Window {
    const window = this.windows.get(key);
    if (window && window.endsAt > now) {
      window.count++;
      return window;
    }
    if (window) this.windows.delete(key);
    else if (this.windows.size >= this.capacity) this.windows.delete(this.windows.keys().next().value as string);
    const opened = { count: 1, endsAt: now + windowMs };
    this.windows.set(key, opened);
    return opened;
  }
}

/** One round trip: the count after this request and the window's milliseconds left. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/** The limits of one app: a store (memory or Redis) and a function making a limit on it. */
export type RateLimits = {
  limit(options: { name: string; max: number; windowMs: number }): RateLimit;
  close(): Promise<void>;
};

export function createRateLimits(config: Pick<Config, "redisUrl">, log: FastifyBaseLogger): RateLimits {
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : undefined;
  const memory = new MemoryWindows();
  return {
    limit({ name, max, windowMs }) {
      const result = (window: Window, now: number): LimitResult => ({
        allowed: window.count <= max,
        limit: max,
        remaining: Math.max(0, max - window.count),
        resetSeconds: Math.max(0, Math.ceil((window.endsAt - now) / 1000)),
      });
      if (!redis) {
        return {
          hit(key) {
            const now = Date.now();
            return result(memory.hit(`${name}:${key}`, windowMs, now), now);
          },
        };
      }
      return {
        async hit(key) {
          try {
            const [count, ttlMs] = await redis.rateLimitHit(`tendwell:rate-limit:${name}:${key}`, windowMs);
            const now = Date.now();
            return result({ count, endsAt: now + Math.max(0, ttlMs) }, now);
          } catch {
            return undefined; // Unreachable: let it through (the client has logged the outage).
          }
        },
      };
    },
    close: async () => redis?.disconnect(),
  };
}

/** A client that fails fast while Redis is down instead of queueing requests behind it. */
function connectRedis(url: string, log: FastifyBaseLogger): RedisWithHit {
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.defineCommand("rateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  let reachable = true;
  redis.on("error", (error) => {
    if (reachable) log.warn({ err: error }, "Redis is unreachable: API requests are not rate-limited until it is back");
    reachable = false;
  });
  redis.on("ready", () => {
    if (!reachable) log.info("Redis is reachable again: rate limiting resumed");
    reachable = true;
  });
  return redis as RedisWithHit;
}

/**
 * A client's address as a rate-limit key: an IPv4 address as it is (also when it arrives as an
 * IPv4-mapped IPv6 one), an IPv6 address by its /64 network, which one household or office
 * usually gets whole.
 */
export function addressKey(ip: string): string {
  // Only an IPv6 address has a colon: the common IPv4 case skips the address parser.
  if (!ip.includes(":") || !isIPv6(ip)) return ip;
  const address = new Address6(ip);
  if (address.isMapped4()) return address.to4().correctForm();
  return new Address6(`${ip}/64`).startAddress().correctForm();
}

/** "37 seconds", "1 minute", "10 minutes": how long until a refused client may try again. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** The 429 for a refused request, in the API's error convention, with its Retry-After. */
export function rateLimited(result: LimitResult): AppError {
  const seconds = Math.max(1, result.resetSeconds);
  return new AppError("RATE_LIMITED", `Too many requests. Please try again in ${waitText(seconds)}.`, {
    retryAfterSeconds: seconds,
  });
}

/**
 * The general limit on /api requests per client address (decision 0006): a floor against floods
 * and scripted scraping, on top of the finer sign-in throttle. The app's frame hook calls it for
 * every API request before the session lookup and the CSRF check, so a refused request costs no
 * database work. Every API answer carries the x-ratelimit-* headers of its count.
 */
export function generalApiLimit(rateLimits: RateLimits, config: Pick<Config, "rateLimitPerMinute">) {
  const limit = rateLimits.limit({ name: "api", max: config.rateLimitPerMinute, windowMs: 60_000 });
  const settle = (reply: FastifyReply, done: HookHandlerDoneFunction, result: LimitResult | undefined) => {
    if (!result) return done();
    reply.header("x-ratelimit-limit", result.limit);
    reply.header("x-ratelimit-remaining", result.remaining);
    reply.header("x-ratelimit-reset", result.resetSeconds);
    done(result.allowed ? undefined : rateLimited(result));
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const result = limit.hit(addressKey(request.ip));
    if (result instanceof Promise) result.then((counted) => settle(reply, done, counted));
    else settle(reply, done, result);
  };
}
