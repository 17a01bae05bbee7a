import type { IncomingMessage, ServerResponse } from "node:http";
import helmet, { type HelmetOptions } from "helmet";

/** Helmet's settings for every answer (design section 5): a strict CSP, no framing, no sniffing. */
const helmetOptions: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      // Browsers upgrade on HTTPS anyway; forcing it would break a plain-HTTP intranet install.
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * The security headers helmet sends with these settings, worked out once at boot. None of them
 * depends on the request (no CSP nonces), so running helmet's middleware on every request, as
 * @fastify/helmet does, would only rebuild the same strings (decision 0008).
 */
export function securityHeaders(options: HelmetOptions = helmetOptions): Readonly<Record<string, string>> {
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
