import type { ApiErrorBody } from "../../shared/api-error";
import { NEXT_CURSOR_HEADER } from "../../shared/paging";
import { etagOf, IDEMPOTENCY_KEY_HEADER, IF_MATCH_HEADER } from "../../shared/versions";

/** A failed call. `message` follows S-ERR-01: "status: body text" (or the status text). */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
    readonly body: Partial<ApiErrorBody> | undefined,
  ) {
    super(message);
  }
}

/**
 * What a request may add: a signal to cancel it, the `version` of the resource a change was made
 * against (sent as If-Match, so someone else's change since is refused with 412 instead of lost),
 * and the `idempotencyKey` of the dialog it comes from (so a repeat cannot create twice).
 */
export type RequestOptions = { signal?: AbortSignal; version?: number; idempotencyKey?: string };

/** A mutation's variables: what it sends, and the version or key it sends it with. */
export type Change<Input> = { input: Input } & Pick<RequestOptions, "version" | "idempotencyKey">;

/** Sends a request with the session cookie; a body is sent as JSON, a Blob (a file) as it is, with its own type. */
export async function requestJson<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  options?: RequestOptions,
): Promise<T> {
  return (await requestJsonWithHeaders<T>(method, url, body, options)).body;
}

/** As requestJson, with the response's headers too (a list's `x-next-cursor` or `x-total-count`). */
export async function requestJsonWithHeaders<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (body !== undefined && !(body instanceof Blob)) headers["content-type"] = "application/json";
  if (options.version !== undefined) headers[IF_MATCH_HEADER] = etagOf(options.version);
  if (options.idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey;
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers,
    body: body instanceof Blob || body === undefined ? body : JSON.stringify(body),
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, parseErrorBody(text));
  }
  return { body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** One page of a keyset-paged list (src/shared/paging.ts): its rows and the next page's cursor. */
export async function requestPage<Row>(
  url: string,
  signal: AbortSignal,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const { body, headers } = await requestJsonWithHeaders<Row[]>("GET", url, undefined, { signal });
  return { rows: body, nextCursor: headers.get(NEXT_CURSOR_HEADER) };
}

function parseErrorBody(text: string): Partial<ApiErrorBody> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Partial<ApiErrorBody>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a failed change was refused because someone else changed the resource first (412). */
export const isConflict = (error: unknown): boolean => error instanceof ApiError && error.status === 412;

/**
 * What to tell a person about a failed call: the server's own `message` when it sent one (it is
 * written for people), otherwise `fallback`, the screen's text from the ERR requirements. Never a raw
 * body, a stack or "[object Object]".
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const message = error.body?.message;
    if (typeof message === "string" && message.trim()) return message;
  }
  return fallback;
}
