import { z } from "zod";

export const errorStatus = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  /** A session that must pass the second step of sign-in before anything else (the firm's policy changed). */
  SECOND_FACTOR_REQUIRED: 401,
  FORBIDDEN: 403,
  ACCOUNT_DISABLED: 403,
  CROSS_SITE_REQUEST: 403,
  /** A sensitive change needs a fresh second factor (or password) first: POST /api/auth/step-up, then again. */
  STEP_UP_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** A link that worked once and no longer does (an old unsubscribe address). */
  LINK_EXPIRED: 410,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_ANSWER_LOST: 409,
  /** The request did not arrive whole within the server's time for it. */
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  /** The address and headers together pass the server's limit (16 KB). */
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

const errorCodes = Object.keys(errorStatus) as ErrorCode[];

const apiIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type ApiIssue = z.infer<typeof apiIssueSchema>;

/**
 * The JSON body of every 4xx/5xx answer from `/api/*`.
 * `code` is stable and greppable; `message` is for people; `issues` lists field problems.
 */
export const apiErrorBodySchema = z.object({
  message: z.string(),
  code: z.enum(errorCodes),
  issues: z.array(apiIssueSchema).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
