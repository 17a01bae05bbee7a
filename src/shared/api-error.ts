/**
 * The JSON body of every 4xx/5xx answer from `/api/*`.
 * `code` is stable and greppable; `message` is for people; `issues` lists field problems.
 */
export type ApiErrorBody = {
  message: string;
  code: ErrorCode;
  issues?: ApiIssue[];
};

export type ApiIssue = {
  path: (string | number)[];
  message: string;
};

export const errorStatus = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  ACCOUNT_DISABLED: 403,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
