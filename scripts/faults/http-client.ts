import http from "node:http";

/*
 * The HTTP client the fault scripts load the app with: node:http over keep-alive connections, so
 * what a failed request saw is the socket's own error code (ECONNRESET, ECONNREFUSED, "socket
 * hang up"), and a signed-in session that sends writes as the app's own pages do (its cookie, the
 * Origin header and Sec-Fetch-Site).
 */

export type Answer = { status: number; body: unknown; ms: number; headers: http.IncomingHttpHeaders };

/** How a request that got no answer failed, as the fault scripts count it. */
export type Failure = "reset" | "refused" | "timeout" | "other";

/** A request that got no HTTP answer, with the socket error behind it. */
export class NoAnswerError extends Error {
  constructor(
    readonly failure: Failure,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export function classify(error: unknown): Failure {
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = (error as Error)?.message ?? "";
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ECONNRESET" || code === "EPIPE" || message === "socket hang up") return "reset";
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return "timeout";
  return "other";
}

export type Session = ReturnType<typeof httpSession>;

/**
 * A browser-like session against `baseUrl` over its own keep-alive agent of at most `connections`
 * sockets. `request` resolves with any HTTP answer and rejects only with a NoAnswerError.
 */
export function httpSession(baseUrl: string, options: { connections?: number; timeoutMs?: number } = {}) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections ?? 8 });
  let cookie = "";

  /** `onWritten` runs once the whole request has been handed to its socket. */
  function request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    onWritten?: () => void,
  ) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: "127.0.0.1",
          port: url.port,
          method,
          path,
          timeout: options.timeoutMs ?? 30_000,
          headers: {
            host: url.host,
            origin: url.origin,
            "sec-fetch-site": "same-origin",
            "user-agent": "tendwell-fault-script",
            accept: "application/json",
            ...(cookie ? { cookie } : {}),
            ...(payload === undefined
              ? {}
              : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", (error) => reject(new NoAnswerError(classify(error), errorCode(error), error.message)));
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text
            }
            resolve({
              status: response.statusCode ?? 0,
              body: parsed,
              ms: performance.now() - started,
              headers: response.headers,
            });
          });
        },
      );
      if (onWritten) req.once("finish", onWritten);
      req.on("timeout", () => req.destroy(Object.assign(new Error("request timed out"), { code: "ETIMEDOUT" })));
      req.on("error", (error) => reject(new NoAnswerError(classify(error), errorCode(error), error.message)));
      req.end(payload);
    });
  }

  return {
    request,
    get: (path: string) => request("GET", path),
    post: (path: string, body: unknown) => request("POST", path, body),
    patch: (path: string, body: unknown) => request("PATCH", path, body),
    put: (path: string, body: unknown) => request("PUT", path, body),
    /** Signs in and keeps the session cookie for every later request. */
    async signIn(username: string, password: string) {
      const answer = await request("POST", "/api/auth/login", { username, password });
      if (answer.status !== 200)
        throw new Error(`sign-in as ${username} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      cookie = setCookies(answer.headers)
        .map((line) => line.split(";")[0])
        .join("; ");
    },
    /** Closes the idle sockets; those in use close after their answer. */
    close: () => agent.destroy(),
  };
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

function setCookies(headers: http.IncomingHttpHeaders): string[] {
  const value = headers["set-cookie"];
  return value === undefined ? [] : value;
}

/** The p-th percentile (0..100) of the values, nearest rank; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}
