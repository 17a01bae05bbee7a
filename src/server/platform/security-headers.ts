import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "./config";

/**
 * Helmet's settings for every answer (a security floor): a strict CSP, no framing, no sniffing.
 * With card payments on, Stripe's Payment Element needs its script (js.stripe.com), its frames
 * (js.stripe.com, and hooks.stripe.com for 3-D Secure) and its API (api.stripe.com); without
 * Stripe the policy names no other origin (decision 0025).
 */
export function helmetOptions(config: Pick<Config, "stripe">): HelmetOptions {
  const stripe = config.stripe !== undefined;
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? ["https://js.stripe.com"] : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...(stripe ? ["https://api.stripe.com"] : [])],
        ...(stripe ? { frameSrc: ["'self'", "https://js.stripe.com", "https://hooks.stripe.com"] } : {}),
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Browsers upgrade on HTTPS anyway; forcing it would break a plain-HTTP intranet install.
        upgradeInsecureRequests: null,
      },
    },
  };
}

/**
 * The security headers of a page or a file: what helmet sends with these settings, worked out
 * once at boot. None of them depends on the request (no CSP nonces), so running helmet's
 * middleware on every request, as @fastify/helmet does, would only rebuild the same strings
 * (decision 0008).
 */
export function pageSecurityHeaders(config: Pick<Config, "stripe">): Readonly<Record<string, string>> {
  const options = helmetOptions(config);
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * The headers of every API answer (JSON, a CSV download or a signature's PNG), after OWASP's REST
 * Security Cheat Sheet: an answer of the API is never a document a browser renders, so it needs
 * no page's policy, only to be nothing else. Its CSP lets it load and run nothing and be framed by
 * no one; it is never sniffed as another type, never kept by a cache (it holds a firm's data), and
 * never read by another site's page (CORP). The page headers it leaves out govern documents alone
 * (the opener policy, agent clusters, DNS prefetching, referrers, IE8's downloads, Flash's policy
 * files, the retired XSS filter); each header costs every answer a few microseconds (decision 0042).
 */
export const apiSecurityHeaders: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
});
