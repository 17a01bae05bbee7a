import type { FastifyInstance, InjectOptions } from "fastify";
import { SESSION_COOKIE } from "../src/server/features/auth/sessions";

export type ApiResponse = {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are asserted field by field
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  /** The body's bytes, for an answer that is not text (an image). */
  raw: Buffer;
};

/** What a browser sends with a request from a page on the app's own origin (as inject addresses it). */
export const sameOriginHeaders = { origin: "http://localhost:80", "sec-fetch-site": "same-origin" } as const;

/**
 * Talks to the app the way a browser on our own origin does: JSON bodies, Origin and
 * Sec-Fetch-Site headers, and a cookie jar that keeps what Set-Cookie sends.
 */
export function apiClient(app: FastifyInstance, options: { ip?: string; userAgent?: string } = {}) {
  const jar = new Map<string, string>();

  async function request(
    method: NonNullable<InjectOptions["method"]>,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await app.inject({
      method,
      url,
      remoteAddress: options.ip ?? "127.0.0.1",
      headers: {
        ...sameOriginHeaders,
        "user-agent": options.userAgent ?? "Mozilla/5.0 (vitest)",
        // A Buffer is a file's bytes (a CSV upload); anything else goes as JSON.
        ...(body === undefined ? {} : { "content-type": Buffer.isBuffer(body) ? "text/csv" : "application/json" }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
    });
    for (const set of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = set.maxAge === 0 || (set.expires !== undefined && set.expires.getTime() <= Date.now());
      if (expired || set.value === "") jar.delete(set.name);
      else jar.set(set.name, set.value);
    }
    const text = response.body;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.statusCode, body: parsed, headers: response.headers, text, raw: response.rawPayload };
  }

  return {
    request,
    get: (url: string) => request("GET", url),
    post: (url: string, body?: unknown) => request("POST", url, body),
    put: (url: string, body?: unknown) => request("PUT", url, body),
    patch: (url: string, body?: unknown) => request("PATCH", url, body),
    delete: (url: string) => request("DELETE", url),
    /** The session token the jar holds, if any. */
    sessionToken: () => jar.get(SESSION_COOKIE),
    setSessionToken: (token: string) => jar.set(SESSION_COOKIE, token),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
