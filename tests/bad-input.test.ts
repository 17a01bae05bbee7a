import { asc, count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSession, SESSION_COOKIE } from "../src/server/features/auth/sessions";
import { WEBAUTHN_COOKIE } from "../src/server/features/mfa/passkeys";
import { totpCode, totpStep } from "../src/server/features/mfa/totp";
import { unsubscribeToken } from "../src/server/features/notifications/unsubscribe-token";
import {
  auditEvents,
  billingSetups,
  calendarFeeds,
  clientImportChanges,
  clientImportMappings,
  clientImportRows,
  clientImports,
  clients,
  contacts,
  firms,
  idempotencyKeys,
  loginFailures,
  mailOutbox,
  morningMailRuns,
  notificationPreferences,
  recoveryCodes,
  recurringSchedules,
  sessions,
  stripeEvents,
  tasks,
  taskTemplates,
  userClients,
  userDevices,
  userFactors,
  users,
  webauthnChallenges,
} from "../src/server/platform/db/schema";
import { ifMatchMessage } from "../src/server/platform/preconditions";
import {
  insertContact,
  insertRuleTask,
  insertTask,
  insertTaskTemplate,
  insertUser,
} from "../src/server/seed/factories";
import { createRandom } from "../src/server/seed/random";
import { drawSignature } from "../src/server/seed/signature-image";
import { idempotencyKeyMessage } from "../src/server/tenancy/idempotency";
import { type ErrorCode, errorStatus } from "../src/shared/api-error";
import { clientStatuses } from "../src/shared/clients";
import type { PasskeyCreationOptions, PasskeyRequestOptions } from "../src/shared/mfa";
import { templateLibrary } from "../src/shared/template-library";
import { IDEMPOTENCY_KEY_HEADER, IF_MATCH_HEADER } from "../src/shared/versions";
import { sameOriginHeaders } from "./api-client";
import {
  type Bad,
  bad,
  base64urlLongerThan,
  blank,
  insertInside,
  isoDateTimeAfter2200,
  isoDateTimeBefore1900,
  jsonOtherThan,
  loneSurrogateInside,
  longerThan,
  notABoolean,
  notAnEmail,
  notAnIsoDateTime,
  notARecoveryCode,
  notASixDigitCode,
  notATimeZone,
  notAUuid,
  notBase64url,
  notOneOf,
  notText,
  nulInside,
  type Rule,
  shorterThan,
  shorterThanOnceTrimmed,
  withCharacterInside,
} from "./bad-values";
import { type SeededFirm, seedFirm, signIn } from "./fixtures";
import { softwareAuthenticator } from "./software-authenticator";
import { type TestApp, useTestApp } from "./test-app";

/*
 * Property-based bad input: every endpoint that takes a body or an id gets payloads that are a
 * valid base with exactly one corruption (or a body that is not a JSON object at all), and must
 * answer with a 4xx JSON error ({ message, code }) and write nothing.
 *
 * The bodies' corruptions are wrong by construction (tests/bad-values.ts: built from the rule they
 * break, never by asking a schema which values it refuses), and each carries the answer it must
 * get: the status, the code and the field's own message. A schema that wrongly accepts some of
 * them therefore fails here, with that value as the counterexample.
 */

/** Set by the describe below (useTestApp registers its hooks there). */
let ctx: TestApp;
const RUNS = 50;
/**
 * Runs of each rule of each field, for the bodies: few, since every rule gets its own (so no rule
 * goes untried in a run, however many a body has), with values that vary from run to run.
 */
const RUNS_PER_RULE = 3;

type Json = Record<string, unknown>;

/** The answer a bad body must get. */
type Refusal = {
  status: number;
  code: ErrorCode;
  message: string;
  /** The path of the field issue that must carry the message; absent when the body is refused whole. */
  at?: (string | number)[];
  /** A 429 RATE_LIMITED answers it too (a username that failed too often is throttled first). */
  orThrottled?: boolean;
};
type Case = { what: string; body: unknown; refusal: Refusal; [fc.toStringMethod]?: () => string };

const validationFailed = (at: (string | number)[], message: string): Refusal => ({
  status: 400,
  code: "VALIDATION_FAILED",
  at,
  message,
});
const describeRefusal = (refusal: Refusal) =>
  `${refusal.status} ${refusal.code}${refusal.at ? ` at ${JSON.stringify(refusal.at)}` : ""}: ${JSON.stringify(refusal.message)}`;

/** A case; fast-check prints it as its description, its body and the answer it must get. */
const caseOf = (what: string, body: unknown, refusal: Refusal): Case => ({
  what,
  body,
  refusal,
  [fc.toStringMethod]: () => `${what}\n  body ${shown(body)}\n  must be ${describeRefusal(refusal)}`,
});

// ---------------------------------------------------------------------------------------------
// The world (built in the beforeAll below): one seeded firm, signed in as its super_admin.

let world: SeededFirm;
let superAdminToken: string;

// ---------------------------------------------------------------------------------------------
// Sending requests and checking answers.

let ipCounter = 0;
/**
 * A fresh client address (from the IPv6 documentation range; nothing is sent anywhere, inject
 * only sets it), so failed sign-ins never pile up on one IP's throttle.
 */
const freshIp = () => {
  ipCounter += 1;
  return `2001:db8::${ipCounter.toString(16)}`;
};

async function send(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  options: {
    json?: unknown;
    raw?: string | Buffer;
    contentType?: string;
    signedIn?: boolean;
    /** Another session's cookie, sent instead of the super admin's: a pending sign-in's, or a fresh session's. */
    session?: string;
    /** A passkey ceremony's cookie (the challenge an /options call kept), sent beside the session's. */
    ceremony?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<LightMyRequestResponse> {
  const hasBody = "json" in options || options.raw !== undefined;
  const cookies = [
    ...(options.session !== undefined
      ? [`${SESSION_COOKIE}=${options.session}`]
      : options.signedIn
        ? [`${SESSION_COOKIE}=${superAdminToken}`]
        : []),
    ...(options.ceremony !== undefined ? [`${WEBAUTHN_COOKIE}=${options.ceremony}`] : []),
  ];
  return ctx.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? "127.0.0.1",
    headers: {
      ...sameOriginHeaders,
      "user-agent": "Mozilla/5.0 (bad-input property test)",
      ...(hasBody ? { "content-type": options.contentType ?? "application/json" } : {}),
      ...(cookies.length > 0 ? { cookie: cookies.join("; ") } : {}),
      ...options.headers,
    },
    ...("json" in options ? { payload: JSON.stringify(options.json) } : {}),
    ...(options.raw !== undefined ? { payload: options.raw } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Multi-factor sign-in (decision 0044): pending sign-ins, fresh proofs, a user with a factor.

/** The code an authenticator app shows now for `secret` (base32, spaces allowed). */
const codeNow = (secret: string) => totpCode(secret.replace(/\s/g, ""), totpStep(new Date()));

/** A sign-in the password began for a user of the firm, waiting at `stage`: its session cookie, for five minutes. */
async function pendingSignIn(userId: string, stage: "second_factor" | "enrol"): Promise<string> {
  const { cookie } = await createSession(ctx.database.db, {
    userId,
    firmId: world.firm.id,
    ip: null,
    userAgent: null,
    absoluteMs: ctx.config.session.absoluteMs,
    stage,
  });
  return cookie;
}

/** The session cookie of a new sign-in by `user`: its proof is fresh for the five minutes a sensitive change allows. */
async function freshSession(user: { username: string; password: string }): Promise<string> {
  const token = (await signIn(ctx.app, user, { ip: freshIp() })).sessionToken();
  if (!token) throw new Error(`the sign-in of ${user.username} left no session cookie`);
  return token;
}

/**
 * A new user of the firm who has just added an authenticator app (so their session's proof is
 * fresh): the app's secret, the factor's id, one of their recovery codes, the session's cookie.
 */
async function userWithFactor() {
  const user = await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" });
  const session = await freshSession(user);
  const started = await send("POST", "/api/account/factors/totp", { session });
  expect(started.statusCode, started.body).toBe(200);
  const secret = (started.json() as { secret: string }).secret;
  const confirmed = await send("POST", "/api/account/factors/totp/confirm", {
    session,
    json: { code: codeNow(secret), name: "Work phone" },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const { factor, recoveryCodes } = confirmed.json() as { factor: { id: string }; recoveryCodes: string[] };
  const [recoveryCode] = recoveryCodes;
  if (!recoveryCode) throw new Error("a first factor comes with recovery codes");
  return { user, session, secret, factorId: factor.id, recoveryCode };
}

/**
 * A passkey ceremony begun at `url` (an /options route), as `session` when given: the options the
 * browser is handed, and the cookie that names the challenge the server kept for the answer.
 */
async function ceremony<Options>(url: string, session?: string): Promise<{ options: Options; cookie: string }> {
  const response = await send("POST", url, session === undefined ? { ip: freshIp() } : { session });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = (response.cookies as { name: string; value: string }[]).find(
    (each) => each.name === WEBAUTHN_COOKIE,
  )?.value;
  if (!cookie) throw new Error(`${url} set no ceremony cookie`);
  return { options: response.json() as Options, cookie };
}

/**
 * A new user of the firm who has just added a passkey from Settings (so their session's proof is
 * fresh), made by a software authenticator for the origin the app answers as (src/server/features/mfa/passkeys.test.ts).
 */
async function userWithPasskey() {
  const user = await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" });
  const session = await freshSession(user);
  const authenticator = softwareAuthenticator(sameOriginHeaders.origin);
  const created = await ceremony<PasskeyCreationOptions>("/api/account/factors/passkey/options", session);
  const added = await send("POST", "/api/account/factors/passkey", {
    session,
    ceremony: created.cookie,
    json: { name: "Laptop", response: authenticator.register(created.options) },
  });
  expect(added.statusCode, added.body).toBe(200);
  return { user, session, authenticator };
}

const preview = (value: unknown) => {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

/** Characters that do not show (odd spaces, zero-width, directional), escaped to show; JSON escapes controls. */
const invisible = /[\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/g;
/** A value as JSON, shortened, with the characters that do not show escaped: for descriptions of cases. */
const shown = (value: unknown) =>
  preview(JSON.stringify(value) ?? String(value)).replace(
    invisible,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** A 4xx whose body is our JSON error shape, with a code that belongs to that status. */
function expectRefused(response: LightMyRequestResponse, what: string) {
  const where = `${what}\n  → ${response.statusCode} ${preview(response.body)}`;
  expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, where).toBeLessThan(500);
  expect(String(response.headers["content-type"]), where).toMatch(/^application\/json/);
  let parsed: unknown;
  expect(() => {
    parsed = JSON.parse(response.body);
  }, where).not.toThrow();
  const body = parsed as { message?: unknown; code?: unknown; issues?: unknown };
  expect(typeof body.message, where).toBe("string");
  expect((body.message as string).length, where).toBeGreaterThan(0);
  expect(typeof body.code, where).toBe("string");
  expect((body.code as string).length, where).toBeGreaterThan(0);
  // Every code is one of ours (src/shared/api-error.ts), with its own status; that includes the
  // URL errors Fastify's router raises before any route is chosen.
  expect(Object.hasOwn(errorStatus, body.code as string), where).toBe(true);
  expect(errorStatus[body.code as keyof typeof errorStatus], where).toBe(response.statusCode);
  if (body.issues !== undefined) {
    expect(Array.isArray(body.issues), where).toBe(true);
    for (const issue of body.issues as { path?: unknown; message?: unknown }[]) {
      expect(Array.isArray(issue.path), where).toBe(true);
      expect(typeof issue.message, where).toBe("string");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// "Nothing was written": row counts of every table, plus the mutable columns of the users, the
// sessions (a pending sign-in must stay pending, a proof must not turn fresh), the sign-in factors,
// the recovery codes, the firms' sign-in policy and the calendar feeds (their address and setting).

const tables = {
  firms,
  users,
  sessions,
  user_factors: userFactors,
  recovery_codes: recoveryCodes,
  webauthn_challenges: webauthnChallenges,
  calendar_feeds: calendarFeeds,
  notification_preferences: notificationPreferences,
  mail_outbox: mailOutbox,
  morning_mail_runs: morningMailRuns,
  user_devices: userDevices,
  clients,
  contacts,
  client_imports: clientImports,
  client_import_rows: clientImportRows,
  client_import_changes: clientImportChanges,
  client_import_mappings: clientImportMappings,
  task_templates: taskTemplates,
  recurring_schedules: recurringSchedules,
  tasks,
  user_clients: userClients,
  audit_events: auditEvents,
  login_failures: loginFailures,
  billing_setups: billingSetups,
  stripe_events: stripeEvents,
  idempotency_keys: idempotencyKeys,
} satisfies Record<string, PgTable>;
type TableName = keyof typeof tables;

async function snapshot(exclude: readonly TableName[] = []) {
  const db = ctx.database.db;
  const names = (Object.keys(tables) as TableName[]).filter((name) => !exclude.includes(name));
  const counts = await Promise.all(
    names.map(async (name) => {
      const [row] = await db.select({ n: count() }).from(tables[name] as PgTable);
      return [name, row?.n ?? -1] as const;
    }),
  );
  const userRows = await db
    .select({
      id: users.id,
      username: users.username,
      fullName: users.fullName,
      role: users.role,
      disabledAt: users.disabledAt,
      passwordHash: users.passwordHash,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .orderBy(asc(users.id));
  // Not last_seen_at, which a request may touch (at most once a minute).
  const sessionRows = exclude.includes("sessions")
    ? []
    : await db
        .select({
          id: sessions.id,
          stage: sessions.stage,
          expiresAt: sessions.expiresAt,
          secondFactorAt: sessions.secondFactorAt,
          secondFactorDueAt: sessions.secondFactorDueAt,
          verifiedAt: sessions.verifiedAt,
        })
        .from(sessions)
        .orderBy(asc(sessions.id));
  const factorRows = await db
    .select({
      id: userFactors.id,
      name: userFactors.name,
      confirmedAt: userFactors.confirmedAt,
      totpLastStep: userFactors.totpLastStep,
      lastUsedAt: userFactors.lastUsedAt,
    })
    .from(userFactors)
    .orderBy(asc(userFactors.id));
  const codeRows = await db
    .select({ userId: recoveryCodes.userId, codeHash: recoveryCodes.codeHash, usedAt: recoveryCodes.usedAt })
    .from(recoveryCodes)
    .orderBy(asc(recoveryCodes.userId), asc(recoveryCodes.codeHash));
  const firmRows = await db
    .select({ id: firms.id, mfaPolicy: firms.mfaPolicy, mfaRequiredFrom: firms.mfaRequiredFrom })
    .from(firms)
    .orderBy(asc(firms.id));
  const feedRows = await db
    .select({
      id: calendarFeeds.id,
      tokenHash: calendarFeeds.tokenHash,
      hideClientNames: calendarFeeds.hideClientNames,
    })
    .from(calendarFeeds)
    .orderBy(asc(calendarFeeds.id));
  return {
    counts: Object.fromEntries(counts),
    users: userRows,
    sessions: sessionRows,
    factors: factorRows,
    recoveryCodes: codeRows,
    firms: firmRows,
    calendarFeeds: feedRows,
  };
}

/** Runs a whole property between two snapshots: nothing may have changed across all its runs. */
async function unchangedAcross(run: () => Promise<void>, exclude: readonly TableName[] = []) {
  const before = await snapshot(exclude);
  await run();
  expect(await snapshot(exclude)).toEqual(before);
}

/**
 * The answer `refusal` describes: its status and code, and its message, either the body's or one
 * of the issues of the field at `refusal.at`, which is the only field complained about.
 */
function expectRefusal(response: LightMyRequestResponse, what: string, refusal: Refusal) {
  const must = `${what}\n  must be ${describeRefusal(refusal)}`;
  expectRefused(response, must);
  const where = `${must}\n  → ${response.statusCode} ${preview(response.body)}`;
  const body = JSON.parse(response.body) as { message: string; code: string; issues?: Json[] };
  if (refusal.orThrottled && response.statusCode === 429) {
    expect(body.code, where).toBe("RATE_LIMITED");
    return;
  }
  expect(`${response.statusCode} ${body.code}`, where).toBe(`${refusal.status} ${refusal.code}`);
  if (refusal.at === undefined) {
    expect(body.message, where).toBe(refusal.message);
    return;
  }
  const issues = body.issues ?? [];
  expect(issues, where).toContainEqual({ path: refusal.at, message: refusal.message });
  for (const issue of issues) expect((issue.path as unknown[]).slice(0, 1), where).toEqual(refusal.at.slice(0, 1));
  expect(
    issues.map((issue) => issue.message),
    where,
  ).toContain(body.message);
}

/**
 * Sends one case and checks both the answer (any 4xx JSON error, or exactly `refusal` when given)
 * and that this one request wrote nothing.
 */
async function refusedWithoutWrites(
  what: string,
  request: () => Promise<LightMyRequestResponse>,
  exclude: readonly TableName[] = [],
  refusal?: Refusal,
) {
  const before = await snapshot(exclude);
  const response = await request();
  if (refusal) expectRefusal(response, what, refusal);
  else expectRefused(response, what);
  expect(await snapshot(exclude), `${what}\n  wrote to the database`).toEqual(before);
}

/** A new user of the firm, signed in, with a calendar feed of their own (private mode off): its session's cookie. */
async function userWithCalendarFeed(): Promise<string> {
  const user = await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" });
  const session = await freshSession(user);
  const created = await send("POST", "/api/account/calendar-feed", { json: {}, session });
  expect(created.statusCode, created.body).toBe(201);
  return session;
}

// ---------------------------------------------------------------------------------------------
// Building blocks for corruptions.

/** Characters people paste by accident or on purpose: emoji, RTL, zero-width, NUL, markup. */
const nastyChars = [
  "😀",
  "👩‍👩‍👧",
  "\u202e",
  "مرحبا",
  "שלום",
  "\u200b",
  "\u200d",
  "\ufeff",
  "\u0000",
  "\u00a0",
  " ",
  "\t",
  "\n",
  "é",
  "İ",
  "ａ",
  "\ud800",
  "\u2028",
  "\\",
  '"',
  "<script>",
  "%00",
  "/",
  "@",
  "$",
] as const;
const nastyChar = fc.constantFrom(...nastyChars);

/**
 * A string of at least `min` UTF-16 units (up to ~200 KB of JSON) that trim cannot shorten,
 * made of one repeated unit: ASCII, accents, emoji, zero-width, RTL or NUL.
 */
const longString = (min: number, max = 200_000) =>
  fc
    .tuple(
      fc.constantFrom("a", "é", "😀", "\u200b", "مر", "\u0000", "x.y-z_"),
      fc.oneof(fc.integer({ min, max: min + 64 }), fc.integer({ min, max })),
    )
    .map(([unit, length]) => {
      // NUL is escaped as \u0000 (6 bytes) in JSON: keep the body far below the 1 MB limit.
      const capped = unit === "\u0000" ? Math.min(length, 120_000) : length;
      return unit.repeat(Math.ceil(capped / unit.length)).slice(0, Math.max(capped, min));
    });

/** What the app says, before any schema, about text no column can hold (src/server/http.ts). */
const nulMessage = "Text must not contain NUL characters (U+0000)";
const loneSurrogateMessage = "Text must be valid Unicode (it holds a lone surrogate)";

/** Whole bodies that are not a JSON object. */
const notAnObject: fc.Arbitrary<Case> = fc
  .oneof(
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 20 }).filter((text) => !text.includes("\u0000")),
    fc.array(
      jsonOtherThan().map(({ value }) => value),
      { maxLength: 5 },
    ),
    fc.constant([]),
    fc.constant([{}]),
  )
  .map((body) =>
    caseOf(`body is not an object: ${shown(body)}`, body, {
      status: 400,
      code: "BAD_REQUEST",
      message: "The request body must be a JSON object",
    }),
  );

/** Strings that are not in `allowed`, including near misses (case, spaces, NUL, zero-width). */
const notInEnum = (allowed: readonly string[]) =>
  fc
    .oneof(
      fc
        .constantFrom(...allowed)
        .chain((value) =>
          fc.constantFrom(
            value.toUpperCase(),
            value[0]?.toUpperCase() + value.slice(1),
            `${value} `,
            ` ${value}`,
            `${value}\u0000`,
            `${value}\u200b`,
            value.replace(/_/g, "-"),
            value.replace(/_/g, ""),
            `${value}s`,
            value.slice(0, -1),
          ),
        ),
      fc.constantFrom("", "free", "premium", "root", "owner", "superuser", "null", "undefined", "*"),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: "grapheme", maxLength: 10 }),
    )
    .filter((value) => !allowed.includes(value));

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/** Keys no schema knows, including prototype-pollution favourites and server-owned columns. */
const unknownKey = (known: readonly string[]) =>
  fc
    .oneof(
      fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        "toString",
        "hasOwnProperty",
        "id",
        "firmId",
        "firm_id",
        "passwordHash",
        "isAdmin",
        "email",
        "role",
        "disabledAt",
        "",
        "\u0000",
        "😀",
        "Username",
      ),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: "grapheme", maxLength: 10 }),
    )
    .filter((key) => !known.includes(key));

/** What an unknown key gets: the JSON parser refuses "__proto__", the app NUL; the schemas the rest. */
const unknownKeyRefusal = (key: string): Refusal =>
  key === "__proto__"
    ? { status: 400, code: "MALFORMED_JSON", message: "The request body is not valid JSON" }
    : key.includes("\u0000")
      ? { status: 400, code: "BAD_REQUEST", message: nulMessage }
      : validationFailed([], `Unrecognized key: "${key}"`);

const withKey = (body: Json, key: string, value: unknown): Json => {
  const copy: Json = {};
  for (const [name, existing] of Object.entries(body)) copy[name] = existing;
  // defineProperty, so that "__proto__" becomes a real own key that JSON.stringify sends.
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
};

const without = (body: Json, key: string): Json => {
  const copy = { ...body };
  delete copy[key];
  return copy;
};

type FieldSpec = {
  name: string;
  /** The field's message when it is left out; absent when leaving it out is valid. */
  missing?: string;
  /** The field's rules, each with values that break it whatever the rest of the body holds. */
  bad: Rule[];
};

/** One way to corrupt a valid body, and its cases, each with the answer it must get. */
type Corruption = { name: string; cases: fc.Arbitrary<Case> };

/**
 * A valid base with exactly one corruption, and the answer it must get: for each rule of each
 * field, a value that breaks it (the rule's message, beside the field); NUL or a lone surrogate in
 * a field (the app's message); a required field missing; an unknown field added; an empty object
 * where something must change; or a body that is not a JSON object at all.
 */
function corrupted(
  bases: fc.Arbitrary<Json>,
  fields: FieldSpec[],
  options: { emptyIsInvalid?: boolean; alsoKnown?: readonly string[] } = {},
): Corruption[] {
  const known = [...fields.map((field) => field.name), ...(options.alsoKnown ?? [])];
  const required = fields.filter((field) => field.missing !== undefined);
  const corruptions: Corruption[] = fields.flatMap((field) =>
    field.bad.map((rule) => ({
      name: `${field.name}: ${rule.why}`,
      cases: fc
        .tuple(bases, rule.cases)
        .map(([base, { value, why, message, at }]) =>
          caseOf(
            `${field.name} = ${shown(value)} (${why})`,
            withKey(base, field.name, value),
            validationFailed([field.name, ...at], message),
          ),
        ),
    })),
  );
  corruptions.push(
    {
      name: "NUL or a lone surrogate in a field",
      cases: fc
        .tuple(
          bases,
          fc.constantFrom(...fields.map((field) => field.name)),
          fc.oneof(
            nulInside.map((text) => ({ text, message: nulMessage })),
            loneSurrogateInside.map((text) => ({ text, message: loneSurrogateMessage })),
          ),
        )
        .map(([base, name, { text, message }]) =>
          caseOf(`${name} = ${JSON.stringify(text)}`, withKey(base, name, text), {
            status: 400,
            code: "BAD_REQUEST",
            message,
          }),
        ),
    },
    {
      name: "an unknown field",
      cases: fc
        .tuple(
          bases,
          unknownKey(known),
          jsonOtherThan().map(({ value }) => value),
        )
        .map(([base, key, value]) =>
          caseOf(`unknown field ${JSON.stringify(key)}`, withKey(base, key, value), unknownKeyRefusal(key)),
        ),
    },
    { name: "not an object", cases: notAnObject },
  );
  if (required.length > 0) {
    corruptions.push({
      name: "a required field missing",
      cases: fc
        .tuple(bases, fc.constantFrom(...required))
        .map(([base, field]) =>
          caseOf(
            `missing ${field.name}`,
            without(base, field.name),
            validationFailed([field.name], field.missing ?? ""),
          ),
        ),
    });
  }
  if (options.emptyIsInvalid) {
    corruptions.push({
      name: "nothing to change",
      cases: fc.constant(caseOf("empty object", {}, validationFailed([], "Nothing to change"))),
    });
  }
  return corruptions;
}

/**
 * Checks every corruption in turn, each with its own few runs: every rule of every field is tried
 * in every run of this file (with values that vary from run to run), however many rules there are.
 */
async function checkEach(corruptions: Corruption[], check: (testCase: Case) => Promise<void>) {
  for (const corruption of corruptions) {
    try {
      await fc.assert(fc.asyncProperty(corruption.cases, check), { numRuns: RUNS_PER_RULE });
    } catch (error) {
      // Name the rule first: the counterexample and the answer follow.
      if (error instanceof Error) error.message = `${corruption.name}: ${error.message}`;
      throw error;
    }
  }
}

// Field rules shared by several schemas, with their messages (the product's own where it gives them, docs/requirements.md S-VAL).

/** A required text field: not text, blank (or under `min` characters) once trimmed, or over `max`. */
const requiredText = (options: { min?: number; max: number; required: string; tooLong: string }): Rule[] => {
  const min = options.min ?? 1;
  return [
    bad(notText(), "not text", options.required),
    min > 1
      ? bad(shorterThanOnceTrimmed(min), `under ${min} characters once trimmed`, options.required)
      : bad(blank, "blank once trimmed", options.required),
    bad(longerThan(options.max), `over ${options.max} characters`, options.tooLong),
  ];
};

/** An optional text field ("", null or nothing mean none): not text, or over `max` characters. */
const optionalText = (max: number, notTextMessage: string, tooLong: string): Rule[] => [
  bad(notText({ nullable: true }), "not text", notTextMessage),
  bad(longerThan(max), `over ${max} characters`, tooLong),
];

/** A field whose value is one of `allowed`: anything else, text or not, gets `message`. */
const oneOf = (allowed: readonly string[], message: string, options: { nullable?: boolean } = {}): Rule[] => [
  bad(notText(options), "not text", message),
  bad(notOneOf(allowed), `not one of ${allowed.map((value) => JSON.stringify(value)).join(", ")}`, message),
];

/** A field that must be a uuid. */
const uuidField = (message: string, options: { nullable?: boolean } = {}): Rule[] => [
  bad(notText(options), "not text", message),
  bad(notAUuid, "not a uuid", message),
];

/** The lists the spec gives (sections 3 and 5), written out here rather than read from the schemas. */
const spec = {
  plans: ["starter", "professional", "enterprise"],
  roles: ["super_admin", "admin", "user"],
  clientStatuses: ["active", "inactive", "prospect"],
  priorities: ["low", "medium", "high"],
  // Both lists of the template dialogs (create: none...annually; edit: daily...yearly), and "" for none.
  frequencies: ["daily", "weekly", "monthly", "quarterly", "annually", "yearly", "none", ""],
} as const;

const validUsername = "bad.input-user_01";
const usernameRules = ((): Rule[] => {
  const tooShort = "Username must be at least 3 characters";
  const tooLong = "Username must be at most 50 characters";
  return [
    bad(notText(), "not text", tooShort),
    bad(
      fc
        .tuple(blank, fc.stringMatching(/^[A-Za-z0-9._-]{0,2}$/), blank)
        .map(([before, name, after]) => before + name + after),
      "under 3 characters once trimmed",
      tooShort,
    ),
    bad(fc.stringMatching(/^[A-Za-z0-9._-]{51,80}$/), "over 50 characters", tooLong),
    bad(longerThan(50), "over 50 characters", tooLong),
    bad(
      withCharacterInside(validUsername, [
        " ",
        "\t",
        "@",
        "/",
        "$",
        "+",
        "!",
        "#",
        "%",
        "<",
        '"',
        "\\",
        ",",
        "😀",
        "\u200b",
        "\u202e",
      ]),
      "a character other than letters, digits, dots, dashes and underscores",
      "Username may contain only letters, digits, dots, dashes and underscores",
    ),
  ];
})();

const passwordRules: Rule[] = [
  bad(notText(), "not text", "Password must be at least 6 characters"),
  bad(shorterThan(6), "under 6 characters", "Password must be at least 6 characters"),
  bad(longerThan(256), "over 256 characters", "Password must be at most 256 characters"),
];

const fullNameRules = (min: number) =>
  requiredText({
    min,
    max: 120,
    required: "Full name is required",
    tooLong: "Full name must be at most 120 characters",
  });

/** Client and contact e-mail: a valid address or empty (S-VAL). */
const optionalEmailRules: Rule[] = [
  bad(notText({ nullable: true }), "not text", "Invalid email address"),
  bad(notAnEmail({ blankAllowed: true }), "not an e-mail address", "Invalid email address"),
];

const contactFields: FieldSpec[] = [
  {
    name: "name",
    missing: "Contact name is required",
    bad: requiredText({
      max: 200,
      required: "Contact name is required",
      tooLong: "Contact name must be at most 200 characters",
    }),
  },
  { name: "title", bad: optionalText(100, "Title must be text", "Title must be at most 100 characters") },
  { name: "phone", bad: optionalText(50, "Phone must be text", "Phone must be at most 50 characters") },
  { name: "email", bad: optionalEmailRules },
];

const taskNameRules = requiredText({
  max: 200,
  required: "Name is required",
  tooLong: "Name must be at most 200 characters",
});

// ---------------------------------------------------------------------------------------------

describe("bad input is refused with a 4xx JSON error and writes nothing", () => {
  ctx = useTestApp();

  beforeAll(async () => {
    world = await seedFirm(ctx.database.db, "Bad Input Firm");
    const client = await signIn(ctx.app, world.users.super_admin);
    const token = client.sessionToken();
    if (!token) throw new Error("signIn left no session cookie");
    superAdminToken = token;
  });

  it("POST /api/auth/register", async () => {
    const base = {
      fullName: "Dana Whitfield",
      email: "dana.whitfield@example.com",
      username: validUsername,
      password: "ledger-and-quill-42",
      subscriptionPlan: "starter",
    };
    const planMessage = "Choose a plan: starter, professional or enterprise";
    const cases = corrupted(fc.constant(base), [
      { name: "fullName", missing: "Full name is required", bad: fullNameRules(1) },
      {
        name: "email",
        missing: "Valid email is required",
        bad: [
          bad(notText(), "not text", "Valid email is required"),
          bad(notAnEmail(), "not an e-mail address", "Valid email is required"),
        ],
      },
      { name: "username", missing: "Username must be at least 3 characters", bad: usernameRules },
      { name: "password", missing: "Password must be at least 6 characters", bad: passwordRules },
      { name: "subscriptionPlan", missing: planMessage, bad: oneOf(spec.plans, planMessage) },
    ]);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `register: ${testCase.what}`,
          () => send("POST", "/api/auth/register", { json: testCase.body, ip: freshIp() }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  it("POST /api/auth/login (no session is created; failures may be counted)", async () => {
    const { admin } = world.users;
    // The required message for a missing field (S-VAL); the one answer to a failed sign-in (S-ERR) for the rest.
    const bothRequired = "Please enter both username and password";
    const invalidLogin = "Invalid username or password";
    const cases = corrupted(fc.constant({ username: admin.username, password: admin.password }), [
      {
        name: "username",
        missing: bothRequired,
        bad: [
          bad(notText(), "not text", bothRequired),
          bad(blank, "blank once trimmed", bothRequired),
          bad(longerThan(256), "over 256 characters", invalidLogin),
        ],
      },
      {
        name: "password",
        missing: bothRequired,
        bad: [
          bad(notText(), "not text", bothRequired),
          bad(fc.constant(""), "empty", bothRequired),
          bad(longerThan(256), "over 256 characters", invalidLogin),
        ],
      },
    ]);
    // Schema-valid but wrong: a username no account can have (unicode, zero-width, RTL).
    cases.push({
      name: "wrong credentials",
      cases: fc
        // NUL is left to its own test below (it reaches PostgreSQL, which refuses it).
        .tuple(
          nastyChar.filter((char) => char.trim() !== "" && !char.includes("\u0000") && !char.includes("\ud800")),
          fc.nat(),
        )
        .map(([char, at]) => {
          const username = insertInside(admin.username, char, at);
          return caseOf(
            `username ${JSON.stringify(username)}`,
            { username, password: admin.password },
            { status: 401, code: "INVALID_CREDENTIALS", message: invalidLogin, orThrottled: true },
          );
        }),
    });

    await unchangedAcross(
      () =>
        checkEach(cases, async (testCase) => {
          await refusedWithoutWrites(
            `login: ${testCase.what}`,
            () => send("POST", "/api/auth/login", { json: testCase.body, ip: freshIp() }),
            ["login_failures"],
            testCase.refusal,
          );
        }),
      ["login_failures"],
    );
  });

  it("POST /api/auth/change-password (the session keeps working, the password is unchanged)", async () => {
    const superAdmin = world.users.super_admin;
    const base = { currentPassword: superAdmin.password, newPassword: "a-fresh-and-long-passphrase-9" };
    const enterCurrent = "Enter your current password";
    const cases = corrupted(fc.constant(base), [
      {
        name: "currentPassword",
        missing: enterCurrent,
        bad: [
          bad(notText(), "not text", enterCurrent),
          bad(fc.constant(""), "empty", enterCurrent),
          bad(longerThan(256), "over 256 characters", enterCurrent),
        ],
      },
      { name: "newPassword", missing: "Password must be at least 6 characters", bad: passwordRules },
    ]);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `change-password: ${testCase.what}`,
          () => send("POST", "/api/auth/change-password", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );

    const me = await send("GET", "/api/auth/me", { signedIn: true });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: superAdmin.id, username: superAdmin.username });
  });

  const roleRules = oneOf(spec.roles, "Role must be super_admin, admin or user");

  it("POST /api/users", async () => {
    const base = {
      username: validUsername,
      password: "ledger-and-quill-42",
      fullName: "Noah Okafor",
      role: "user",
    };
    const cases = corrupted(fc.constant(base), [
      { name: "username", missing: "Username must be at least 3 characters", bad: usernameRules },
      { name: "password", missing: "Password must be at least 6 characters", bad: passwordRules },
      { name: "fullName", missing: "Full name is required", bad: fullNameRules(2) },
      // role has a default, so leaving it out is valid: it is corrupted only by bad values.
      { name: "role", bad: roleRules },
    ]);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `create user: ${testCase.what}`,
          () => send("POST", "/api/users", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  it("PATCH /api/users/:id (bad bodies)", async () => {
    const target = world.users.user;
    const bases = fc.constantFrom<Json>(
      { fullName: "Renamed Person" },
      { role: "admin" },
      { disabled: true },
      { fullName: "Renamed Person", role: "user", disabled: false },
    );
    const cases = corrupted(
      bases,
      [
        { name: "fullName", bad: fullNameRules(2) },
        { name: "role", bad: roleRules },
        { name: "disabled", bad: [bad(notABoolean, "not true or false", "disabled must be true or false")] },
      ],
      { emptyIsInvalid: true },
    );

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `update user: ${testCase.what}`,
          () => send("PATCH", `/api/users/${target.id}`, { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  it("POST /api/user-clients/assign", async () => {
    const validIds = world.clients.map((client) => client.id);
    const base = { userId: world.users.user.id, clientIds: validIds.slice(1) };
    const notAList = "clientIds must be a list of client ids";
    const clientIdsRules: Rule[] = [
      bad(
        fc.oneof(
          jsonOtherThan("array").map(({ value }) => value),
          fc.constant({ 0: validIds[0] }),
        ),
        "not a list",
        notAList,
      ),
      {
        why: "an item is not a uuid",
        cases: fc.tuple(fc.oneof(notAUuid, notText()), fc.nat()).map(([badId, at]): Bad => {
          // One bad id among valid ones: the message is the item's.
          const ids: unknown[] = [...validIds];
          const index = at % (ids.length + 1);
          ids.splice(index, 0, badId);
          return {
            value: ids,
            why: `item ${index} is not a uuid`,
            message: "clientIds must be client ids",
            at: [index],
          };
        }),
      },
      // Over the 10,000 limit (each id is 39 bytes of JSON: at most ~590 KB).
      bad(
        fc
          .integer({ min: 10_001, max: 15_000 })
          .map((length) => Array.from({ length }, (_, index) => validIds[index % validIds.length])),
        "over 10,000 ids",
        "Too many clients at once",
      ),
    ];
    const cases = corrupted(fc.constant(base), [
      { name: "userId", missing: "userId must be a user id", bad: uuidField("userId must be a user id") },
      { name: "clientIds", missing: notAList, bad: clientIdsRules },
    ]);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `assign: ${testCase.what}`,
          () => send("POST", "/api/user-clients/assign", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  // Client fields (S-VAL): name required, optional texts bounded in length, e-mail valid or empty.
  const clientFields: FieldSpec[] = [
    {
      name: "name",
      missing: "Company name is required",
      bad: requiredText({
        max: 200,
        required: "Company name is required",
        tooLong: "Company name must be at most 200 characters",
      }),
    },
    { name: "industry", bad: optionalText(100, "Industry must be text", "Industry must be at most 100 characters") },
    { name: "address", bad: optionalText(500, "Address must be text", "Address must be at most 500 characters") },
    { name: "phone", bad: optionalText(50, "Phone must be text", "Phone must be at most 50 characters") },
    { name: "email", bad: optionalEmailRules },
    // The schema gives no message of its own: the generic one (S-VAL-27).
    { name: "status", bad: oneOf(spec.clientStatuses, "Invalid enum value") },
  ];

  it("POST /api/clients", async () => {
    const base = {
      name: "Harbor Freight Partners",
      industry: "Logistics",
      address: "12 Quay Street",
      phone: "(415) 555-0142",
      email: "office@harbor.example.com",
      status: "prospect",
    };
    // Not an object, a contact with one bad field or without its name, or with a field a new client's contact cannot have.
    const primaryContactRules: Rule[] = [
      {
        why: "not an object",
        cases: jsonOtherThan("object").map(
          ({ kind, value }): Bad => ({
            value,
            why: "not an object",
            message: `Invalid input: expected object, received ${kind}`,
            at: [],
          }),
        ),
      },
      {
        why: "one of its fields is bad",
        cases: fc.oneof(
          ...contactFields.flatMap((field) =>
            field.bad.map((rule) =>
              rule.cases.map(
                ({ value, why, message, at }): Bad => ({
                  value: withKey({ name: "Ann Contact" }, field.name, value),
                  why: `its ${field.name}: ${why}`,
                  message,
                  at: [field.name, ...at],
                }),
              ),
            ),
          ),
        ),
      },
      bad(fc.constantFrom({}, { title: "Controller" }), "no name", "Contact name is required", ["name"]),
      {
        why: "a field of its own",
        cases: fc.constantFrom("clientId", "isPrimary", "id").map(
          (key): Bad => ({
            value: { name: "Ann Contact", [key]: key === "isPrimary" ? true : world.clients[0]?.id },
            why: `a ${key}`,
            message: `Unrecognized key: "${key}"`,
            at: [],
          }),
        ),
      },
    ];
    const templateIdsRules: Rule[] = [
      {
        why: "not a list",
        cases: jsonOtherThan("array").map(
          ({ kind, value }): Bad => ({
            value,
            why: "not a list",
            message: `Invalid input: expected array, received ${kind}`,
            at: [],
          }),
        ),
      },
      {
        why: "an item is not a uuid",
        cases: fc
          .tuple(fc.array(fc.uuid({ version: 7 }), { maxLength: 3 }), fc.oneof(notAUuid, notText()), fc.nat())
          .map(([ids, badId, at]): Bad => {
            const list: unknown[] = [...ids];
            const index = at % (list.length + 1);
            list.splice(index, 0, badId);
            return {
              value: list,
              why: `item ${index} is not a uuid`,
              message: "templateIds must be template ids",
              at: [index],
            };
          }),
      },
      bad(
        fc.uuid({ version: 7 }).map((id) => [id, id]),
        "the same template twice",
        "A template is listed twice",
      ),
      bad(
        fc
          .integer({ min: 101, max: 300 })
          .map((length) =>
            Array.from({ length }, (_, index) => `0193${String(index).padStart(4, "0")}-0000-7000-8000-000000000000`),
          ),
        "over 100 templates",
        "At most 100 templates at once",
      ),
    ];
    const cases = corrupted(fc.constant(base), [
      ...clientFields,
      { name: "primaryContact", bad: primaryContactRules },
      { name: "templateIds", bad: templateIdsRules },
    ]);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `create client: ${testCase.what}`,
          () => send("POST", "/api/clients", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
    // Schema-valid, but naming templates the firm does not have: refused whole, nothing written.
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(fc.uuid({ version: 7 }), async (templateId) => {
          await refusedWithoutWrites(`create client with unknown template ${templateId}`, () =>
            send("POST", "/api/clients", { json: { ...base, templateIds: [templateId] }, signedIn: true }),
          );
        }),
        { numRuns: 10 },
      ),
    );
  });

  it("PATCH /api/clients/:id (bad bodies)", async () => {
    const target = world.clients[0]?.id;
    const cases = corrupted(
      fc.constant({ name: "Renamed Client" }),
      // All optional here, so none is missing; null is still not a name nor a status.
      clientFields.map(({ name, bad }) => ({ name, bad })),
      { emptyIsInvalid: true },
    );

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `update client: ${testCase.what}`,
          () => send("PATCH", `/api/clients/${target}`, { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  it("POST /api/contacts and PATCH /api/contacts/:id (bad bodies)", async () => {
    const base = { name: "Morgan Lee", title: "Controller", isPrimary: false, clientId: world.clients[0]?.id };
    const isPrimary: FieldSpec = {
      name: "isPrimary",
      bad: [bad(notABoolean, "not true or false", "isPrimary must be true or false")],
    };
    const cases = corrupted(fc.constant(base), [
      ...contactFields,
      isPrimary,
      { name: "clientId", missing: "clientId must be a client id", bad: uuidField("clientId must be a client id") },
    ]);
    const [contact] = await ctx.database.db
      .insert(contacts)
      .values({ firmId: world.firm.id, clientId: world.clients[0]?.id ?? "", name: "Existing Contact" })
      .returning();
    const updates = corrupted(
      fc.constant({ title: "Partner" }),
      [...contactFields, isPrimary].map(({ name, bad }) => ({ name, bad })),
      { emptyIsInvalid: true },
    );

    await unchangedAcross(async () => {
      await checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `create contact: ${testCase.what}`,
          () => send("POST", "/api/contacts", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      });
      await checkEach(updates, async (testCase) => {
        await refusedWithoutWrites(
          `update contact: ${testCase.what}`,
          () => send("PATCH", `/api/contacts/${contact?.id}`, { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      });
    });
  });

  it("POST /api/task-templates and PUT /api/task-templates/:id", async () => {
    const base = {
      name: "Monthly close",
      description: "Close the month.",
      priority: "high",
      frequency: "monthly",
    };
    const fields: FieldSpec[] = [
      { name: "name", missing: "Name is required", bad: taskNameRules },
      {
        name: "description",
        missing: "Description is required",
        bad: requiredText({
          max: 2000,
          required: "Description is required",
          tooLong: "Description must be at most 2000 characters",
        }),
      },
      { name: "priority", bad: oneOf(spec.priorities, "Invalid enum value") },
      {
        name: "frequency",
        // null means one-time, like "none" and "".
        bad: oneOf(spec.frequencies, "Frequency must be daily, weekly, monthly, quarterly or annually (or none)", {
          nullable: true,
        }),
      },
      { name: "isRecurring", bad: [bad(notABoolean, "not true or false", "isRecurring must be true or false")] },
    ];
    // createdBy is accepted and ignored (the product's client sends it): not an unknown field.
    const cases = corrupted(fc.constant(base), fields, { alsoKnown: ["createdBy"] });
    const [template] = await ctx.database.db
      .insert(taskTemplates)
      .values({ firmId: world.firm.id, name: "Kept", description: "Kept.", createdBy: world.users.super_admin.id })
      .returning();

    // Creating and replacing take the same body: each case is sent to both.
    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `create template: ${testCase.what}`,
          () => send("POST", "/api/task-templates", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
        await refusedWithoutWrites(
          `replace template: ${testCase.what}`,
          () => send("PUT", `/api/task-templates/${template?.id}`, { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  it("PATCH /api/firm", async () => {
    const cases = corrupted(
      fc.constant({ name: "Bad Input Firm", timeZone: "America/Chicago" }),
      [
        {
          name: "name",
          bad: requiredText({
            max: 200,
            required: "Firm name is required",
            tooLong: "Firm name must be at most 200 characters",
          }),
        },
        {
          name: "timeZone",
          bad: [
            bad(notText(), "not text", "Choose a time zone"),
            bad(notATimeZone, "no such time zone", "Choose a time zone from the list"),
            bad(longerThan(64), "over 64 characters", "Choose a time zone from the list"),
          ],
        },
      ],
      { emptyIsInvalid: true },
    );
    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `update firm: ${testCase.what}`,
          () => send("PATCH", "/api/firm", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  // Multi-factor sign-in (decision 0044): the second step, enrolment, the step-up, the factors and
  // the firm's policy, with the messages of src/shared/mfa.ts.
  const totpMessage = "Enter the 6-digit code from your authenticator app";
  const recoveryMessage = "Enter one of your recovery codes, such as abcd-efgh-ijkl-mnop";
  const totpCodeRules: Rule[] = [
    bad(notText(), "not text", totpMessage),
    bad(longerThan(20), "over 20 characters", totpMessage),
    bad(notASixDigitCode, "not six digits once whitespace is dropped", totpMessage),
  ];
  const recoveryCodeRules: Rule[] = [
    bad(notText(), "not text", recoveryMessage),
    bad(longerThan(40), "over 40 characters", recoveryMessage),
    bad(notARecoveryCode, "not 16 base32 characters once dashes and whitespace are dropped", recoveryMessage),
  ];
  const factorNameTooLong = "Name must be at most 60 characters";
  const factorNameRules: Rule[] = [
    bad(notText(), "not text", "Give it a name, such as the phone it is on"),
    bad(blank, "blank once trimmed", "Give it a name, such as the phone it is on"),
    bad(longerThan(60), "over 60 characters", factorNameTooLong),
  ];
  const confirmTotpFields: FieldSpec[] = [
    { name: "code", missing: totpMessage, bad: totpCodeRules },
    // Optional: an app confirmed without a name gets a default one.
    { name: "name", bad: factorNameRules },
  ];
  /**
   * A second factor's `method`: one of `allowed`; anything else, text or not, gets `message`, and
   * so do `others`, methods of other routes.
   */
  const methodField = (allowed: readonly string[], message: string, others: readonly string[] = []): FieldSpec => ({
    name: "method",
    missing: message,
    bad: [
      ...oneOf(allowed, message),
      ...(others.length > 0 ? [bad(fc.constantFrom(...others), "a method of other routes", message)] : []),
    ],
  });
  /** The corruptions of one variant of a body (one method), named after it. */
  const ofVariant = (variant: string, corruptions: Corruption[]): Corruption[] =>
    corruptions.map((corruption) => ({ ...corruption, name: `${variant}: ${corruption.name}` }));

  it("POST /api/auth/second-step (the sign-in stays pending; no session is made)", async () => {
    const owner = await userWithFactor();
    const pending = await pendingSignIn(owner.user.id, "second_factor");
    const chooseMethod = "Choose how to confirm: totp or recovery_code";
    // Passkeys have routes of their own, and the password is the step-up's.
    const method = methodField(["totp", "recovery_code"], chooseMethod, ["passkey", "password"]);
    const cases = [
      ...ofVariant(
        "totp",
        corrupted(fc.constant({ method: "totp", code: codeNow(owner.secret) }), [
          method,
          { name: "code", missing: totpMessage, bad: totpCodeRules },
        ]),
      ),
      ...ofVariant(
        "recovery_code",
        corrupted(fc.constant({ method: "recovery_code", code: owner.recoveryCode }), [
          method,
          { name: "code", missing: recoveryMessage, bad: recoveryCodeRules },
        ]),
      ),
    ];

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `second step: ${testCase.what}`,
          () => send("POST", "/api/auth/second-step", { json: testCase.body, session: pending }),
          [],
          testCase.refusal,
        );
      }),
    );
    const still = await send("GET", "/api/auth/second-step", { session: pending });
    expect(still.statusCode, still.body).toBe(200);
    expect(still.json()).toMatchObject({ next: "second_factor", methods: ["totp", "recovery_code"] });
  });

  it("POST /api/auth/second-step/totp/confirm (the sign-in stays pending; the app is not added)", async () => {
    const user = await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" });
    const pending = await pendingSignIn(user.id, "enrol");
    const started = await send("POST", "/api/auth/second-step/totp", { session: pending });
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = started.json() as { secret: string };
    const cases = corrupted(fc.constant({ code: codeNow(secret), name: "My phone" }), confirmTotpFields);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `enrol at sign-in: ${testCase.what}`,
          () => send("POST", "/api/auth/second-step/totp/confirm", { json: testCase.body, session: pending }),
          [],
          testCase.refusal,
        );
      }),
    );
    const still = await send("GET", "/api/auth/second-step", { session: pending });
    expect(still.statusCode, still.body).toBe(200);
    expect(still.json()).toMatchObject({ next: "enrol", methods: [] });
  });

  it("POST /api/auth/step-up (the session's proof stays as it was)", async () => {
    const owner = await userWithFactor();
    const chooseMethod = "Choose how to confirm: totp, recovery_code, password or passkey";
    const method = methodField(["totp", "recovery_code", "password", "passkey"], chooseMethod);
    // A code where the user has a factor; the password where they have none (the suite's super admin).
    const withFactor = [
      ...ofVariant(
        "totp",
        corrupted(fc.constant({ method: "totp", code: codeNow(owner.secret) }), [
          method,
          { name: "code", missing: totpMessage, bad: totpCodeRules },
        ]),
      ),
      ...ofVariant(
        "recovery_code",
        corrupted(fc.constant({ method: "recovery_code", code: owner.recoveryCode }), [
          method,
          { name: "code", missing: recoveryMessage, bad: recoveryCodeRules },
        ]),
      ),
    ];
    const withPassword = ofVariant(
      "password",
      corrupted(fc.constant({ method: "password", password: world.users.super_admin.password }), [
        method,
        { name: "password", missing: "Password must be at least 6 characters", bad: passwordRules },
      ]),
    );

    await unchangedAcross(async () => {
      await checkEach(withFactor, async (testCase) => {
        await refusedWithoutWrites(
          `step-up: ${testCase.what}`,
          () => send("POST", "/api/auth/step-up", { json: testCase.body, session: owner.session }),
          [],
          testCase.refusal,
        );
      });
      await checkEach(withPassword, async (testCase) => {
        await refusedWithoutWrites(
          `step-up: ${testCase.what}`,
          () => send("POST", "/api/auth/step-up", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      });
    });
  });

  it("POST /api/account/factors/totp/confirm and PATCH /api/account/factors/:id (bad bodies)", async () => {
    // A second app being added, by a user whose proof is fresh (the step-up check comes first).
    const owner = await userWithFactor();
    const started = await send("POST", "/api/account/factors/totp", { session: owner.session });
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = started.json() as { secret: string };
    const confirms = corrupted(fc.constant({ code: codeNow(secret), name: "Second phone" }), confirmTotpFields);
    const renames = corrupted(fc.constant({ name: "Old phone" }), [
      { name: "name", missing: "Give it a name, such as the phone it is on", bad: factorNameRules },
    ]);

    await unchangedAcross(async () => {
      await checkEach(confirms, async (testCase) => {
        await refusedWithoutWrites(
          `confirm an app: ${testCase.what}`,
          () => send("POST", "/api/account/factors/totp/confirm", { json: testCase.body, session: owner.session }),
          [],
          testCase.refusal,
        );
      });
      await checkEach(renames, async (testCase) => {
        await refusedWithoutWrites(
          `rename a factor: ${testCase.what}`,
          () =>
            send("PATCH", `/api/account/factors/${owner.factorId}`, { json: testCase.body, session: owner.session }),
          [],
          testCase.refusal,
        );
      });
    });
  });

  it("PUT /api/firm/mfa-policy (the policy stays)", async () => {
    const session = await freshSession(world.users.super_admin);
    const choose = "Choose optional or required";
    const cases = corrupted(fc.constant({ policy: "optional" }), [
      { name: "policy", missing: choose, bad: oneOf(["optional", "required"], choose) },
    ]);
    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `firm's sign-in policy: ${testCase.what}`,
          () => send("PUT", "/api/firm/mfa-policy", { json: testCase.body, session }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  // Client import (decision 0051): the file as the body, then JSON for its mapping and commit.
  it("S-IMPORT-01 POST /api/client-imports with bodies that are no CSV file, and the mapping and commit with bad bodies", async () => {
    const csv = (raw: string | Buffer, contentType = "text/csv") =>
      send("POST", "/api/client-imports", { raw, contentType, signedIn: true });
    for (const [what, request, status] of [
      ["JSON instead of a file", () => csv('{"name":"x"}', "application/json"), 415],
      ["a form instead of a file", () => csv("name=x", "application/x-www-form-urlencoded"), 415],
      ["an empty file", () => csv(""), 400],
      ["a header and no rows", () => csv("Company,Email\r\n"), 400],
      ["UTF-16", () => csv(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x0a, 0x00])), 415],
      ["a BOM over broken UTF-8", () => csv(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0xff, 0x0a])), 400],
      ["a quote never closed", () => csv('Company\n"Open\n'), 400],
      ["NUL characters", () => csv("Company\nNul\u0000 Ltd\n"), 400],
      ["over 5 MB", () => csv(Buffer.alloc(5 * 1024 * 1024 + 1, 0x41)), 413],
      [
        "a file name over 255 characters",
        () =>
          send("POST", `/api/client-imports?fileName=${"x".repeat(256)}`, {
            raw: "Company\nA\n",
            contentType: "text/csv",
            signedIn: true,
          }),
        400,
      ],
    ] as const) {
      await refusedWithoutWrites(`upload: ${what}`, request);
      expect((await request()).statusCode, what).toBe(status);
    }
    const uploaded = await csv("Company,Email\nBad Input Import Ltd,bad@example.com\n");
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const id = (uploaded.json() as { import: { id: string } }).import.id;
    const duplicates = "duplicates must be skip, update or create";
    const commits = corrupted(fc.constant({ duplicates: "skip" }), [
      { name: "duplicates", missing: duplicates, bad: oneOf(["skip", "update", "create"], duplicates) },
    ]);
    const mappings = corrupted(fc.constant({ mapping: { name: 0 } }), [
      {
        name: "mapping",
        missing: "Required",
        bad: [
          bad(
            jsonOtherThan("object").map(({ value }) => value),
            "not an object",
            "Invalid input: expected object, received",
          ),
        ],
      },
    ]);
    await unchangedAcross(async () => {
      await checkEach(commits, async (testCase) => {
        await refusedWithoutWrites(`commit an import: ${testCase.what}`, () =>
          send("POST", `/api/client-imports/${id}/commit`, { json: testCase.body, signedIn: true }),
        );
      });
      await checkEach(mappings, async (testCase) => {
        await refusedWithoutWrites(`map an import: ${testCase.what}`, () =>
          send("PUT", `/api/client-imports/${id}/mapping`, { json: testCase.body, signedIn: true }),
        );
      });
      for (const mapping of [
        {},
        { name: -1 },
        { name: 1.5 },
        { name: "0" },
        { name: 0, phone: 9 },
        { name: null },
        { nope: 0 },
      ]) {
        await refusedWithoutWrites(`map an import: ${JSON.stringify(mapping)}`, () =>
          send("PUT", `/api/client-imports/${id}/mapping`, { json: { mapping }, signedIn: true }),
        );
      }
    });
  });

  // The calendar feed (decision 0047): its one setting, with the message of src/shared/calendar-feed.ts.
  it("POST and PUT /api/account/calendar-feed (no feed is made; the feed's address and setting stay)", async () => {
    const hideClientNames = "hideClientNames must be true or false";
    const rules: Rule[] = [bad(notABoolean, "not true or false", hideClientNames)];
    const withoutFeed = await freshSession(await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" }));
    const withFeed = await userWithCalendarFeed();
    const creates = corrupted(fc.constant({ hideClientNames: true }), [{ name: "hideClientNames", bad: rules }]);
    const updates = corrupted(fc.constant({ hideClientNames: true }), [
      { name: "hideClientNames", missing: hideClientNames, bad: rules },
    ]);
    await unchangedAcross(async () => {
      await checkEach(creates, async (testCase) => {
        await refusedWithoutWrites(
          `turn on a calendar feed: ${testCase.what}`,
          () => send("POST", "/api/account/calendar-feed", { json: testCase.body, session: withoutFeed }),
          [],
          testCase.refusal,
        );
      });
      await checkEach(updates, async (testCase) => {
        await refusedWithoutWrites(
          `change a calendar feed: ${testCase.what}`,
          () => send("PUT", "/api/account/calendar-feed", { json: testCase.body, session: withFeed }),
          [],
          testCase.refusal,
        );
      });
    });
  });

  // E-mail preferences (decisions 0050, 0052): days before a due date, 1 to 14, or null for none;
  // overdue alerts on or off; a digest off, daily or weekly.
  it("PUT /api/account/notification-preferences (the preferences stay as they were)", async () => {
    const message = "dueSoonDays must be a whole number of days from 1 to 14, or null";
    const notDays = fc.oneof(
      fc.constantFrom(0, -1, 15, 365, 2.5, "3", "", true, [3], { days: 3 }),
      fc.integer({ min: 15 }),
      fc.integer({ max: 0 }),
      fc.double({ min: 1.01, max: 13.99, noNaN: true }).filter((value) => !Number.isInteger(value)),
    );
    const session = await freshSession(await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" }));
    const notBoolean = fc.constantFrom(null, 0, 1, "true", "yes", [], {});
    const notDigest = fc.oneof(
      fc.constantFrom(null, "", "Daily", "monthly", "never", 1, true, ["daily"]),
      fc.string().filter((text) => !["off", "daily", "weekly"].includes(text)),
    );
    const alertsMessage = "overdueAlerts must be true or false";
    const digestMessage = 'digest must be "off", "daily" or "weekly"';
    const updates = corrupted(fc.constant({ dueSoonDays: 3, overdueAlerts: true, digest: "weekly" }), [
      { name: "dueSoonDays", missing: message, bad: [bad(notDays, "not 1 to 14 whole days, nor null", message)] },
      { name: "overdueAlerts", missing: alertsMessage, bad: [bad(notBoolean, "not true or false", alertsMessage)] },
      { name: "digest", missing: digestMessage, bad: [bad(notDigest, "not off, daily or weekly", digestMessage)] },
    ]);
    await unchangedAcross(() =>
      checkEach(updates, async (testCase) => {
        await refusedWithoutWrites(
          `change e-mail preferences: ${testCase.what}`,
          () => send("PUT", "/api/account/notification-preferences", { json: testCase.body, session }),
          [],
          testCase.refusal,
        );
      }),
    );
  });

  it("GET and POST /api/unsubscribe/:token with secrets it did not sign, without a session (404, never a 5xx)", async () => {
    const user = await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" });
    const key = ctx.config.mfaKey;
    if (!key) throw new Error("the test app has no sealing key");
    const token = unsubscribeToken(key, { firmId: user.firmId, userId: user.id, topic: "due_soon" }, new Date());
    const [payload = "", signature = ""] = token.split(".");
    const badSecret = fc.oneof(
      badPathId,
      fc
        .tuple(nastyChar, fc.nat())
        .map(([char, at]) =>
          encodeURIComponent(insertInside(token, char, at % token.length).replace(/[\ud800-\udfff]/g, "x")),
        ),
      fc.constantFrom(
        token.slice(1),
        `${token}A`,
        // Another MAC (the last character's top bits changed), and the same MAC spelled otherwise
        // (its unused low bits set: base64url decoders ignore them).
        `${payload}.${signature.slice(0, -1)}${signature.endsWith("Q") ? "g" : "Q"}`,
        `${payload}.${signature.slice(0, -1)}${String.fromCharCode((signature.at(-1) ?? "A").charCodeAt(0) + 1)}`,
        `${Buffer.concat([Buffer.from(payload, "base64url").subarray(0, 32), Buffer.from([7])]).toString("base64url")}.${signature}`,
        payload,
        `${token}%00`,
      ),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badSecret, async (secret) => {
          for (const method of ["GET", "POST"] as const) {
            await refusedWithoutWrites(`${method} /api/unsubscribe/${preview(secret)}`, () =>
              send(method, `/api/unsubscribe/${secret}`, method === "POST" ? { json: {} } : {}),
            );
          }
        }),
        { numRuns: RUNS },
      ),
    );
  });

  // Passkeys (decision 0044): the browser's answers, as src/shared/mfa.ts shapes them. The bodies
  // around them are strict; the answer and its `response` are not (keys they do not know are
  // dropped), so only their fields' rules are broken here. Every bad body is sent with the
  // ceremony's cookie, so one that got past the schema would spend the challenge (a write); each
  // test ends by sending its valid answer, which must still be accepted.
  const notAPasskeyAnswer = "Not a passkey answer";
  /** Bytes, as text: base64url of at most 16,384 characters; anything else is no passkey answer. */
  const base64urlRules: Rule[] = [
    bad(notText(), "not text", notAPasskeyAnswer),
    bad(notBase64url, "a character outside A-Z a-z 0-9 _ -", notAPasskeyAnswer),
    bad(base64urlLongerThan(16_384), "over 16,384 characters", notAPasskeyAnswer),
  ];
  const base64urlField = (name: string, options: { required: boolean }): FieldSpec => ({
    name,
    ...(options.required ? { missing: notAPasskeyAnswer } : {}),
    bad: base64urlRules,
  });
  /** JSON that is not of `kind` ("object" for a record too): not a passkey answer. */
  const notOfKind = (kind: "object" | "array" | "number" | "string", expected: string = kind): Rule => ({
    why: `not ${expected === "array" || expected === "object" ? "an" : "a"} ${expected}`,
    cases: jsonOtherThan(kind).map(
      ({ kind: other, value }): Bad => ({
        value,
        why: `not ${expected === "array" || expected === "object" ? "an" : "a"} ${expected} (${other})`,
        message: notAPasskeyAnswer,
        at: [],
      }),
    ),
  });
  /**
   * The rules of an object's fields, as rules of the object: `valid` with one field broken (the
   * field's message, at the field below the object) or, where the field is required, left out.
   */
  const fieldsOf = (valid: Json, fields: FieldSpec[]): Rule[] =>
    fields.flatMap((field) => [
      ...field.bad.map(
        (rule): Rule => ({
          why: `its ${field.name}: ${rule.why}`,
          cases: rule.cases.map(
            ({ value, why, message, at }): Bad => ({
              value: withKey(valid, field.name, value),
              why: `its ${field.name}: ${why}`,
              message,
              at: [field.name, ...at],
            }),
          ),
        }),
      ),
      ...(field.missing === undefined
        ? []
        : [bad(fc.constant(without(valid, field.name)), `no ${field.name}`, field.missing, [field.name])]),
    ]);
  /** What navigator.credentials.get() answers has in its `response`. */
  const assertionFields: FieldSpec[] = [
    base64urlField("clientDataJSON", { required: true }),
    base64urlField("authenticatorData", { required: true }),
    base64urlField("signature", { required: true }),
    base64urlField("userHandle", { required: false }),
  ];
  /** What navigator.credentials.create() answers has in its `response`. */
  const registrationFields: FieldSpec[] = [
    base64urlField("clientDataJSON", { required: true }),
    base64urlField("attestationObject", { required: true }),
    base64urlField("authenticatorData", { required: false }),
    base64urlField("publicKey", { required: false }),
    {
      name: "transports",
      bad: [
        notOfKind("array"),
        {
          why: "an item is not text",
          cases: fc.tuple(jsonOtherThan("string"), fc.nat()).map(([{ kind, value }, at]): Bad => {
            const list: unknown[] = ["internal", "hybrid"];
            const index = at % (list.length + 1);
            list.splice(index, 0, value);
            return {
              value: list,
              why: `item ${index} is not text (${kind})`,
              message: notAPasskeyAnswer,
              at: [index],
            };
          }),
        },
        {
          why: "an item over 32 characters",
          cases: fc.tuple(longerThan(32), fc.nat()).map(([long, at]): Bad => {
            const list: unknown[] = ["internal", "hybrid"];
            const index = at % (list.length + 1);
            list.splice(index, 0, long);
            return {
              value: list,
              why: `item ${index} is over 32 characters`,
              message: notAPasskeyAnswer,
              at: [index],
            };
          }),
        },
        bad(
          fc.integer({ min: 11, max: 60 }).map((length) => Array.from({ length }, () => "usb")),
          "over 10 items",
          notAPasskeyAnswer,
        ),
      ],
    },
    { name: "publicKeyAlgorithm", bad: [notOfKind("number")] },
  ];
  /** The browser's answer `answer` as the `response` field of a body, whose own `response` has `inner`. */
  const answerField = (answer: Json, inner: FieldSpec[]): FieldSpec => ({
    name: "response",
    missing: notAPasskeyAnswer,
    bad: [
      notOfKind("object"),
      ...fieldsOf(answer, [
        base64urlField("id", { required: true }),
        base64urlField("rawId", { required: true }),
        { name: "type", missing: notAPasskeyAnswer, bad: oneOf(["public-key"], notAPasskeyAnswer) },
        { name: "authenticatorAttachment", bad: oneOf(["platform", "cross-platform"], notAPasskeyAnswer) },
        { name: "clientExtensionResults", missing: notAPasskeyAnswer, bad: [notOfKind("object", "record")] },
        {
          name: "response",
          missing: notAPasskeyAnswer,
          bad: [notOfKind("object"), ...fieldsOf(answer.response as Json, inner)],
        },
      ]),
    ],
  });
  /** `body` with `text` at `path`, a copy. */
  const withTextAt = (body: Json, path: readonly (string | number)[], text: string): Json => {
    const copy = structuredClone(body);
    let parent = copy as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path[path.length - 1] ?? ""] = text;
    return copy;
  };
  /** NUL or a lone surrogate in one of the answer's text fields (at `paths`): the app refuses them before any schema. */
  const nulInTheAnswer = (body: Json, paths: (string | number)[][]): Corruption => ({
    name: "NUL or a lone surrogate in a text field of the answer",
    cases: fc
      .tuple(
        fc.constantFrom(...paths),
        fc.oneof(
          nulInside.map((text) => ({ text, message: nulMessage })),
          loneSurrogateInside.map((text) => ({ text, message: loneSurrogateMessage })),
        ),
      )
      .map(([path, { text, message }]) =>
        caseOf(`${path.join(".")} = ${JSON.stringify(text)}`, withTextAt(body, path, text), {
          status: 400,
          code: "BAD_REQUEST",
          message,
        }),
      ),
  });
  const answerTextPaths = [
    ["response", "id"],
    ["response", "rawId"],
    ["response", "type"],
  ];
  const assertionTextPaths = [
    ...answerTextPaths,
    ...["clientDataJSON", "authenticatorData", "signature", "userHandle"].map((name) => ["response", "response", name]),
  ];
  const registrationTextPaths = [
    ...answerTextPaths,
    ...["clientDataJSON", "attestationObject"].map((name) => ["response", "response", name]),
    ["response", "response", "transports", 0],
  ];

  it("POST /api/auth/passkey (no session is made; the challenge stays)", async () => {
    const { authenticator } = await userWithPasskey();
    const requested = await ceremony<PasskeyRequestOptions>("/api/auth/passkey/options");
    const answer = authenticator.assert(requested.options);
    const body = { response: answer };
    const cases = [
      ...corrupted(fc.constant(body), [answerField(answer, assertionFields)]),
      nulInTheAnswer(body, assertionTextPaths),
    ];

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `sign in with a passkey: ${testCase.what}`,
          () => send("POST", "/api/auth/passkey", { json: testCase.body, ceremony: requested.cookie, ip: freshIp() }),
          [],
          testCase.refusal,
        );
      }),
    );
    const signedIn = await send("POST", "/api/auth/passkey", { json: body, ceremony: requested.cookie, ip: freshIp() });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it("POST /api/auth/second-step/passkey (the sign-in stays pending; no session is made)", async () => {
    const { user, authenticator } = await userWithPasskey();
    const pending = await pendingSignIn(user.id, "second_factor");
    const requested = await ceremony<PasskeyRequestOptions>("/api/auth/second-step/passkey/options", pending);
    const answer = authenticator.assert(requested.options);
    const body = { response: answer };
    const cases = [
      ...corrupted(fc.constant(body), [answerField(answer, assertionFields)]),
      nulInTheAnswer(body, assertionTextPaths),
    ];

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `second step with a passkey: ${testCase.what}`,
          () =>
            send("POST", "/api/auth/second-step/passkey", {
              json: testCase.body,
              session: pending,
              ceremony: requested.cookie,
            }),
          [],
          testCase.refusal,
        );
      }),
    );
    const still = await send("GET", "/api/auth/second-step", { session: pending });
    expect(still.statusCode, still.body).toBe(200);
    expect(still.json()).toMatchObject({ next: "second_factor", methods: ["passkey", "recovery_code"] });
    const passed = await send("POST", "/api/auth/second-step/passkey", {
      json: body,
      session: pending,
      ceremony: requested.cookie,
    });
    expect(passed.statusCode, passed.body).toBe(200);
  });

  it("POST /api/account/factors/passkey (no factor is added)", async () => {
    // A second passkey being added, by a user whose proof is fresh (the step-up check comes first).
    const { session, authenticator } = await userWithPasskey();
    const created = await ceremony<PasskeyCreationOptions>("/api/account/factors/passkey/options", session);
    const answer = authenticator.register(created.options);
    const body = { name: "Second laptop", response: answer };
    const cases = [
      ...corrupted(fc.constant(body), [
        // Optional: a passkey added without a name gets a default one.
        { name: "name", bad: factorNameRules },
        answerField(answer, registrationFields),
      ]),
      nulInTheAnswer(body, registrationTextPaths),
    ];

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `add a passkey: ${testCase.what}`,
          () =>
            send("POST", "/api/account/factors/passkey", { json: testCase.body, session, ceremony: created.cookie }),
          [],
          testCase.refusal,
        );
      }),
    );
    const added = await send("POST", "/api/account/factors/passkey", { json: body, session, ceremony: created.cookie });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ factor: { kind: "passkey", name: "Second laptop" }, recoveryCodes: null });
  });

  it("POST /api/auth/step-up with a passkey (the session's proof stays as it was)", async () => {
    const { session, authenticator } = await userWithPasskey();
    const requested = await ceremony<PasskeyRequestOptions>("/api/auth/step-up/passkey/options", session);
    const answer = authenticator.assert(requested.options);
    const body = { method: "passkey", response: answer };
    const chooseMethod = "Choose how to confirm: totp, recovery_code, password or passkey";
    const cases = ofVariant("passkey", [
      ...corrupted(fc.constant(body), [
        methodField(["totp", "recovery_code", "password", "passkey"], chooseMethod),
        answerField(answer, assertionFields),
      ]),
      nulInTheAnswer(body, assertionTextPaths),
    ]);

    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `step-up: ${testCase.what}`,
          () => send("POST", "/api/auth/step-up", { json: testCase.body, session, ceremony: requested.cookie }),
          [],
          testCase.refusal,
        );
      }),
    );
    const stepped = await send("POST", "/api/auth/step-up", { json: body, session, ceremony: requested.cookie });
    expect(stepped.statusCode, stepped.body).toBe(204);
  });

  it("POST /api/tasks and PATCH /api/tasks/:id", async () => {
    const base = {
      name: "Year-end close",
      description: "Close the books.",
      priority: "high",
      clientId: world.clients[0]?.id,
      status: "pending",
      dueDate: "2026-12-31T23:59:59.999Z",
    };
    const dueDateFormat = "Due date must be an ISO 8601 date and time with an offset, or null";
    const pendingOnly = "A new task is pending; complete it with a signature afterwards";
    const fields: FieldSpec[] = [
      { name: "name", missing: "Name is required", bad: taskNameRules },
      {
        name: "description",
        bad: optionalText(2000, "Description must be text", "Description must be at most 2000 characters"),
      },
      { name: "priority", bad: oneOf(spec.priorities, "Invalid enum value") },
      { name: "clientId", missing: "clientId must be a client id", bad: uuidField("clientId must be a client id") },
      {
        name: "status",
        bad: [
          bad(fc.constantFrom("completed", "overdue"), "another status", pendingOnly),
          ...oneOf(["pending", "completed", "overdue"], pendingOnly),
        ],
      },
      {
        name: "dueDate",
        bad: [
          bad(notText({ nullable: true }), "not text", dueDateFormat),
          bad(notAnIsoDateTime, "not an ISO 8601 date and time with an offset", dueDateFormat),
          bad(isoDateTimeBefore1900, "before the year 1900", "Due date must be between the years 1900 and 2200"),
          bad(isoDateTimeAfter2200, "after the year 2200", "Due date must be between the years 1900 and 2200"),
        ],
      },
      { name: "templateId", bad: uuidField("templateId must be a task template id", { nullable: true }) },
    ];
    const cases = corrupted(fc.constant(base), fields);
    const [task] = await ctx.database.db
      .insert(tasks)
      .values({ firmId: world.firm.id, clientId: world.clients[0]?.id ?? "", name: "Existing task" })
      .returning();
    const updates = corrupted(
      fc.constant({ name: "Renamed task" }),
      fields
        .filter((field) => ["name", "description", "priority", "dueDate"].includes(field.name))
        .map(({ name, bad }) => ({ name, bad })),
      { emptyIsInvalid: true },
    );

    await unchangedAcross(async () => {
      await checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `create task: ${testCase.what}`,
          () => send("POST", "/api/tasks", { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      });
      await checkEach(updates, async (testCase) => {
        await refusedWithoutWrites(
          `update task: ${testCase.what}`,
          () => send("PATCH", `/api/tasks/${task?.id}`, { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      });
    });
  });

  it("PATCH /api/tasks/:id/complete (the task stays pending)", async () => {
    const [task] = await ctx.database.db
      .insert(tasks)
      .values({ firmId: world.firm.id, clientId: world.clients[0]?.id ?? "", name: "Awaiting sign-off" })
      .returning();
    const signature = drawSignature("Bad Input", createRandom(3)).dataUrl;
    const base = { completedBy: "Dana Whitfield", printedName: "Dana Whitfield", signature };
    const pngOf = (width: number, height: number, ink: boolean) => {
      const png = new PNG({ width, height });
      if (ink) png.data.fill(0);
      return `data:image/png;base64,${PNG.sync.write(png).toString("base64")}`;
    };
    // The schema's rule, then the server's checks of the drawn signature (src/server/tasks/signature.ts).
    const provideSignature = "Please provide a signature";
    const notPng = "The signature must be a PNG image";
    const signatureRules: Rule[] = [
      bad(notText(), "not text", provideSignature),
      bad(blank, "blank", provideSignature),
      bad(
        fc.constantFrom("data:image/png;base64,", pngOf(400, 128, false)),
        "no image, or a blank canvas",
        provideSignature,
      ),
      bad(
        fc.oneof(
          fc.constantFrom(
            "data:image/jpeg;base64,/9j/4AAQSkZJRg==",
            "data:image/png;base64,not-base64!!",
            "data:image/png;base64,iVBORw0KGgo=",
            `data:image/png;base64,${Buffer.from("GIF89a").toString("base64")}`,
            signature.replace("data:image/png;base64,", ""),
          ),
          fc.string({ maxLength: 40 }).map((text) => `x${text}`),
        ),
        "not a PNG data URL",
        notPng,
      ),
      bad(
        fc.constant(pngOf(4000, 10, true)),
        "wider than 2048 pixels",
        "The signature image is too big (at most 2048 by 2048 pixels)",
      ),
      // Over 256 KB once decoded: 4 base64 characters are 3 bytes.
      bad(
        fc.integer({ min: 87_382, max: 100_000 }).map((quads) => `data:image/png;base64,${"AAAA".repeat(quads)}`),
        "over 256 KB",
        "The signature is too large (at most 256 KB)",
      ),
    ];
    const cases = corrupted(fc.constant(base), [
      { name: "printedName", missing: "Name is required", bad: taskNameRules },
      { name: "signature", missing: provideSignature, bad: signatureRules },
      {
        name: "completedBy",
        bad: [
          bad(notText({ nullable: true }), "not text", "completedBy must be text"),
          bad(longerThan(1000), "over 1000 characters", "completedBy is too long"),
        ],
      },
    ]);
    await unchangedAcross(() =>
      checkEach(cases, async (testCase) => {
        await refusedWithoutWrites(
          `complete task: ${testCase.what}`,
          () => send("PATCH", `/api/tasks/${task?.id}/complete`, { json: testCase.body, signedIn: true }),
          [],
          testCase.refusal,
        );
      }),
    );
    const [after] = await ctx.database.db
      .select({ status: tasks.status, completedAt: tasks.completedAt })
      .from(tasks)
      .where(eq(tasks.id, task?.id ?? ""));
    expect(after).toEqual({ status: "pending", completedAt: null });
  });

  it("GET /api/tasks with bad queries", async () => {
    const badQuery = fc.oneof(
      notInEnum(["pending", "completed", "overdue"]).map(
        (value) => `status=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"))}`,
      ),
      fc.constantFrom("limit=0", "limit=501", "limit=abc", "clientId=nope", "x=1", "limit=5&cursor=bm9wZQ"),
      fc.constantFrom("format=xls", "format=CSV", "format=", "format=csv&limit=5", "format=csv&cursor=bm9wZQ"),
      notAUuid.map((id) => `clientId=${encodeURIComponent(id.replace(/[\ud800-\udfff]/g, "x"))}`),
      fc.integer({ min: 201, max: 2_000 }).map((length) => `q=${"a".repeat(length)}`),
      // Cursors this list never gave out: any JSON, and keys of the right shape naming no instant.
      fc
        .oneof(
          fc.jsonValue(),
          fc.tuple(
            fc.constantFrom("2026-02-30T00:00:00.000000Z", "2026-13-01T00:00:00.000000Z", null, 5),
            fc.constantFrom(null, "2026-01-01T00:00:00.000000Z", "infinity"),
            fc.constantFrom("2026-01-01T24:00:00.000000Z", "2026-01-01T00:00:00Z", "-infinity"),
            fc.constantFrom("ffffffff-ffff-ffff-ffff-ffffffffffff", "nope"),
          ),
        )
        .map((key) => `limit=5&cursor=${Buffer.from(JSON.stringify(key) ?? "").toString("base64url")}`),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await refusedWithoutWrites(`GET /api/tasks?${preview(query)}`, () =>
            send("GET", `/api/tasks?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("GET /api/tasks/overdue with bad queries", async () => {
    const badQuery = fc.oneof(
      fc.constantFrom("limit=0", "limit=-1", "limit=501", "limit=1.5", "limit=abc", "limit=", "cursor=x", "x=1"),
      fc.integer({ min: 501, max: 1_000_000 }).map((limit) => `limit=${limit}`),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await refusedWithoutWrites(`GET /api/tasks/overdue?${preview(query)}`, () =>
            send("GET", `/api/tasks/overdue?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("GET /api/audit-events with bad queries", async () => {
    const clean = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"));
    const notADate = fc
      .oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom("2026-02-30", "2026-13-01", "2026-1-1", "20260101", "2026-01-01T00:00:00Z", "yesterday", ""),
      )
      .filter((value) => !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value) || value === "2026-02-30");
    const badQuery = fc.oneof(
      notInEnum(["firm", "user", "client", "contact", "task", "template"]).map((value) => `entity=${clean(value)}`),
      notAUuid.map((id) => `entityId=${clean(id)}`),
      notAUuid.map((id) => `userId=${clean(id)}`),
      notADate.map((date) => `from=${clean(date)}`),
      notADate.map((date) => `to=${clean(date)}`),
      fc.constantFrom("from=2026-01-02&to=2026-01-01", "from=2027-01-01&to=2026-12-31"),
      fc.constantFrom("limit=0", "limit=-1", "limit=101", "limit=1.5", "limit=abc", "limit=", "x=1", "entity="),
      fc.integer({ min: 101, max: 1_000_000 }).map((limit) => `limit=${limit}`),
      fc.integer({ min: 201, max: 2_000 }).map((length) => `cursor=${"a".repeat(length)}`),
      // Cursors this list never gave out: any JSON, and keys of almost the right shape.
      fc
        .oneof(
          fc.jsonValue(),
          fc.tuple(fc.constantFrom("a", "b", 1), fc.constantFrom(0, 1, -5, 1.5, "7", null, 2 ** 60)),
        )
        .map((key) => `cursor=${Buffer.from(JSON.stringify(key) ?? "").toString("base64url")}`),
      fc.string({ maxLength: 30 }).map((cursor) => `cursor=${clean(cursor)}x`),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await refusedWithoutWrites(`GET /api/audit-events?${preview(query)}`, () =>
            send("GET", `/api/audit-events?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
    // The verify route takes no query at all.
    await refusedWithoutWrites("GET /api/audit-events/verify?x=1", () =>
      send("GET", "/api/audit-events/verify?x=1", { signedIn: true }),
    );
  });

  it("GET /api/mail-outbox with bad queries", async () => {
    const clean = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"));
    const badQuery = fc.oneof(
      notInEnum(["pending", "sending", "sent", "kept", "failed"]).map((value) => `status=${clean(value)}`),
      fc.constantFrom("status=", "status=Sent", "limit=5", "x=1", "firmId=1"),
      fc.integer({ min: 201, max: 2_000 }).map((length) => `cursor=${"a".repeat(length)}`),
      // Cursors this list never gave out: any JSON, and keys of almost the right shape.
      fc
        .oneof(
          fc.jsonValue(),
          fc.tuple(
            fc.constantFrom("m", "a", 1),
            fc.constantFrom("2026-02-30T00:00:00.000000Z", "2026-01-01T00:00:00Z", "infinity", null),
            fc.constantFrom("ffffffff-ffff-ffff-ffff-ffffffffffff", "nope", 5),
          ),
        )
        .map((key) => `cursor=${Buffer.from(JSON.stringify(key) ?? "").toString("base64url")}`),
      fc.string({ maxLength: 30 }).map((cursor) => `cursor=${clean(cursor)}x`),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await refusedWithoutWrites(`GET /api/mail-outbox?${preview(query)}`, () =>
            send("GET", `/api/mail-outbox?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("GET /api/clients with bad queries", async () => {
    const badQuery = fc.oneof(
      notInEnum(clientStatuses).map((value) => `status=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"))}`),
      fc.constantFrom("limit=0", "limit=-1", "limit=501", "limit=1.5", "limit=abc", "limit=1e3", "archived=yes", "x=1"),
      fc.constantFrom("format=xls", "format=CSV", "format=", "format=csv&limit=5", "format=csv&cursor=abc"),
      fc
        .string({ maxLength: 30 })
        .map((cursor) => `limit=5&cursor=${encodeURIComponent(cursor.replace(/[\ud800-\udfff]/g, "x"))}x`),
      fc.integer({ min: 201, max: 2_000 }).map((length) => `q=${"a".repeat(length)}`),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await refusedWithoutWrites(`GET /api/clients?${preview(query)}`, () =>
            send("GET", `/api/clients?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("GET /api/reports/clients/:id and /api/reports/users/:id with bad queries and ids", async () => {
    const badQuery = fc.oneof(
      fc
        .string({ maxLength: 12 })
        .filter((days) => !["7", "30", "90", "365"].includes(days))
        .map((days) => `days=${encodeURIComponent(days.replace(/[\ud800-\udfff]/g, "x"))}`),
      fc
        .integer({ min: -1_000, max: 100_000 })
        .filter((days) => ![7, 30, 90, 365].includes(days))
        .map((days) => `days=${days}`),
      fc.constantFrom("days=7.0", "days=030", "days=", "days=7&days=30", "days=1e1", "days=%2030"),
      notInEnum(["json", "csv"]).map(
        (format) => `format=${encodeURIComponent(format.replace(/[\ud800-\udfff]/g, "x"))}`,
      ),
      fc.constantFrom(
        "format=CSV",
        "format=",
        "format=csv&format=json",
        "x=1",
        "limit=5",
        "cursor=abc",
        "from=2026-01-01",
      ),
      fc
        .tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.string({ maxLength: 8 }))
        .filter(([key]) => key !== "days" && key !== "format")
        .map(([key, value]) => `${key}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "x"))}`),
    );
    const kind = fc.constantFrom("clients", "users");
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(kind, badQuery, async (which, query) => {
          const id = which === "clients" ? world.assignedClient.id : world.users.user.id;
          await refusedWithoutWrites(`GET /api/reports/${which}/:id?${preview(query)}`, () =>
            send("GET", `/api/reports/${which}/${id}?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(kind, badPathId, fc.constantFrom("", "?days=7", "?format=csv"), async (which, id, query) => {
          await refusedWithoutWrites(`GET /api/reports/${which}/${preview(id)}${query}`, () =>
            send("GET", `/api/reports/${which}/${id}${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("bad If-Match and Idempotency-Key headers, on every route that takes them (with a valid body)", async () => {
    const db = ctx.database.db;
    const firmId = world.firm.id;
    const client = world.clients[0];
    if (!client) throw new Error("seedFirm makes clients");
    const contact = await insertContact(db, { firmId, clientId: client.id });
    const task = await insertTask(db, { firmId, clientId: client.id });
    const ruleTask = await insertRuleTask(db, { firmId, clientId: client.id });
    const template = await insertTaskTemplate(db, { firmId, createdBy: world.users.super_admin.id });
    const library = templateLibrary[0];
    if (!library) throw new Error("the library has templates");
    const signature = drawSignature("Bad Header", createRandom(11)).dataUrl;
    // Every route that declares If-Match or Idempotency-Key, with a body it would accept.
    const routes: { method: "POST" | "PUT" | "PATCH"; route: string; url: string; json?: unknown; csv?: string }[] = [
      { method: "POST", route: "/api/clients", url: "/api/clients", json: { name: "Header Case" } },
      {
        method: "POST",
        route: "/api/client-imports",
        url: "/api/client-imports",
        csv: "Company\nHeader Case Import\n",
      },
      { method: "PATCH", route: "/api/clients/:id", url: `/api/clients/${client.id}`, json: { phone: "+1 555 0100" } },
      {
        method: "POST",
        route: "/api/contacts",
        url: "/api/contacts",
        json: { clientId: client.id, name: "Header Case" },
      },
      { method: "PATCH", route: "/api/contacts/:id", url: `/api/contacts/${contact.id}`, json: { title: "Partner" } },
      { method: "POST", route: "/api/tasks", url: "/api/tasks", json: { clientId: client.id, name: "Header Case" } },
      { method: "PATCH", route: "/api/tasks/:id", url: `/api/tasks/${task.id}`, json: { name: "Header Case" } },
      {
        method: "PATCH",
        route: "/api/tasks/:id/complete",
        url: `/api/tasks/${task.id}/complete`,
        json: { printedName: "Bad Header", signature },
      },
      { method: "POST", route: "/api/tasks/:id/extension", url: `/api/tasks/${ruleTask.id}/extension` },
      {
        method: "POST",
        route: "/api/tasks/:id/due-date",
        url: `/api/tasks/${ruleTask.id}/due-date`,
        json: { dueOn: "2027-05-03", reason: "Header case" },
      },
      {
        method: "POST",
        route: "/api/disaster-reliefs",
        url: "/api/disaster-reliefs",
        json: {
          name: "Header Case Storm",
          states: ["FL"],
          windowStart: "2027-04-01",
          windowEnd: "2027-06-30",
          newDueOn: "2027-07-15",
          sourceUrl: "https://www.irs.gov/newsroom/tax-relief-in-disaster-situations",
        },
      },
      {
        method: "POST",
        route: "/api/task-templates",
        url: "/api/task-templates",
        json: { name: "Header Case", description: "Close", priority: "low", isRecurring: false },
      },
      {
        method: "PUT",
        route: "/api/task-templates/:id",
        url: `/api/task-templates/${template.id}`,
        json: { name: "Header Case", description: "Close", priority: "low", isRecurring: false },
      },
      { method: "POST", route: "/api/template-library/:key/add", url: `/api/template-library/${library.key}/add` },
      {
        method: "POST",
        route: "/api/users",
        url: "/api/users",
        json: { username: "header.case", password: "ledger-and-quill-42", fullName: "Header Case" },
      },
      { method: "PATCH", route: "/api/users/:id", url: `/api/users/${world.users.user.id}`, json: { fullName: "H C" } },
      { method: "PATCH", route: "/api/firm", url: "/api/firm", json: { name: "Header Case Firm" } },
    ];
    const declares = (header: string) =>
      ctx.app.apiRoutes
        .filter((route) => {
          const headers = route.schema?.headers;
          return headers instanceof z.ZodObject && header in headers.shape;
        })
        .map((route) => `${route.method} ${route.url}`)
        .sort();
    const covered = routes.map((route) => `${route.method} ${route.route}`);
    expect([...new Set([...declares(IF_MATCH_HEADER), ...declares(IDEMPOTENCY_KEY_HEADER)])].sort()).toEqual(
      [...covered].sort(),
    );

    // Wrong by construction: not "*" and not a comma-separated list of quoted tags (RFC 9110 lets a
    // list hold empty elements, so a trailing comma is no fault).
    const badIfMatch = fc.oneof(
      fc.constantFrom("", " ", "3", "abc", '"unterminated', "W/3", '"1" "2"', "**", '"a"b"', '"1", x'),
      fc.stringMatching(/^[0-9A-Za-z]{1,12}$/),
      fc.stringMatching(/^"[0-9a-z]{1,8}$/),
    );
    // Wrong by construction: empty, over 255 characters, or holding a character outside visible ASCII
    // (one a header can carry: Latin-1).
    const badKey = fc.oneof(
      fc.constant(""),
      fc.stringMatching(/^[0-9a-f]{256,300}$/),
      withCharacterInside("8e03978e-40d5-43e8", ["é", "ü", "\u00a0"]),
    );
    await unchangedAcross(async () => {
      for (const route of routes) {
        const header = declares(IF_MATCH_HEADER).includes(`${route.method} ${route.route}`)
          ? { name: IF_MATCH_HEADER, values: badIfMatch, message: ifMatchMessage }
          : { name: IDEMPOTENCY_KEY_HEADER, values: badKey, message: idempotencyKeyMessage };
        await fc.assert(
          fc.asyncProperty(header.values, async (value) => {
            const response = await send(route.method, route.url, {
              signedIn: true,
              ...(route.json === undefined ? {} : { json: route.json }),
              ...(route.csv === undefined ? {} : { raw: route.csv, contentType: "text/csv" }),
              headers: { [header.name]: value },
            });
            expectRefusal(response, `${route.method} ${route.url} with ${header.name}: ${shown(value)}`, {
              status: 400,
              code: "VALIDATION_FAILED",
              at: [header.name],
              message: header.message,
            });
          }),
          { numRuns: 12 },
        );
      }
    }, ["sessions"]);
  });

  it("raw non-JSON and malformed JSON bodies, on every endpoint that takes one", async () => {
    // Multi-factor sign-in's routes: pending sign-ins for the second step's, fresh proofs for the step-up check's.
    const owner = await userWithFactor();
    const enrolling = await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" });
    const waitingForFactor = await pendingSignIn(owner.user.id, "second_factor");
    const waitingForEnrolment = await pendingSignIn(enrolling.id, "enrol");
    const superAdmin = await freshSession(world.users.super_admin);
    const withoutFeed = await freshSession(await insertUser(ctx.database.db, { firmId: world.firm.id, role: "user" }));
    const withFeed = await userWithCalendarFeed();
    const endpoints: {
      method: "POST" | "PUT" | "PATCH";
      url: () => string;
      signedIn: boolean;
      session?: string;
    }[] = [
      { method: "POST", url: () => "/api/auth/register", signedIn: false },
      { method: "POST", url: () => "/api/auth/login", signedIn: false },
      { method: "POST", url: () => "/api/auth/change-password", signedIn: true },
      { method: "POST", url: () => "/api/users", signedIn: true },
      { method: "PATCH", url: () => `/api/users/${world.users.user.id}`, signedIn: true },
      { method: "POST", url: () => "/api/user-clients/assign", signedIn: true },
      { method: "POST", url: () => "/api/clients", signedIn: true },
      { method: "PATCH", url: () => `/api/clients/${world.clients[0]?.id}`, signedIn: true },
      { method: "POST", url: () => "/api/contacts", signedIn: true },
      { method: "POST", url: () => "/api/task-templates", signedIn: true },
      { method: "PATCH", url: () => "/api/firm", signedIn: true },
      { method: "PUT", url: () => "/api/billing/plan", signedIn: true },
      { method: "POST", url: () => "/api/create-subscription-setup", signedIn: false },
      { method: "POST", url: () => "/api/stripe/webhook", signedIn: false },
      { method: "POST", url: () => "/api/tasks", signedIn: true },
      { method: "PATCH", url: () => `/api/tasks/${world.clients[0]?.id}`, signedIn: true },
      { method: "POST", url: () => "/api/auth/second-step", signedIn: false, session: waitingForFactor },
      {
        method: "POST",
        url: () => "/api/auth/second-step/totp/confirm",
        signedIn: false,
        session: waitingForEnrolment,
      },
      { method: "POST", url: () => "/api/auth/step-up", signedIn: true },
      { method: "POST", url: () => "/api/account/factors/totp/confirm", signedIn: false, session: owner.session },
      { method: "PATCH", url: () => `/api/account/factors/${owner.factorId}`, signedIn: false, session: owner.session },
      { method: "PUT", url: () => "/api/firm/mfa-policy", signedIn: false, session: superAdmin },
      { method: "POST", url: () => "/api/auth/passkey", signedIn: false },
      { method: "POST", url: () => "/api/auth/second-step/passkey", signedIn: false, session: waitingForFactor },
      { method: "POST", url: () => "/api/account/factors/passkey", signedIn: false, session: owner.session },
      { method: "POST", url: () => "/api/account/calendar-feed", signedIn: false, session: withoutFeed },
      { method: "PUT", url: () => "/api/account/calendar-feed", signedIn: false, session: withFeed },
      { method: "PUT", url: () => "/api/account/notification-preferences", signedIn: true },
    ];
    const isMalformed = (text: string) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    };
    const validJson = JSON.stringify({ username: "someone", password: "secret-pass", fullName: "Some One" });
    const rawBody: fc.Arbitrary<{ what: string; raw: string | Buffer }> = fc.oneof(
      fc
        .constantFrom(
          "",
          " ",
          "{",
          "}",
          '{"a":}',
          "{'username':'x'}",
          "undefined",
          "NaN",
          "Infinity",
          '{"a":1,}',
          "[1,2",
          '"unterminated',
          "{}{}",
          "{} trailing",
          "nul",
          "tru",
          '{"a":"\\x"}',
          '{"a":"\u0000"}',
          "\u0000",
          "<xml/>",
          "username=x&password=y",
          '{"a":01}',
          "\ufeff\ufeff{}",
        )
        .map((raw) => ({ what: `raw ${JSON.stringify(raw)}`, raw })),
      // Valid JSON that the parser refuses: prototype poisoning.
      fc
        .constantFrom('{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}')
        .map((raw) => ({ what: `poisoned ${raw}`, raw })),
      fc
        .nat()
        .map((cut) => validJson.slice(0, cut % validJson.length))
        .map((raw) => ({ what: `truncated ${JSON.stringify(raw)}`, raw })),
      fc
        .string({ unit: "binary", maxLength: 60 })
        .filter(isMalformed)
        .map((raw) => ({ what: `text ${JSON.stringify(raw)}`, raw })),
      fc
        .uint8Array({ minLength: 1, maxLength: 60 })
        .map((bytes) => Buffer.from(bytes))
        .filter((bytes) => isMalformed(bytes.toString("utf8")))
        .map((raw) => ({ what: `bytes ${raw.toString("hex")}`, raw })),
      longString(1_000, 100_000)
        .filter(isMalformed)
        .map((raw) => ({ what: `long text (${raw.length} chars)`, raw })),
    );

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoints),
          rawBody,
          fc.constantFrom("application/json", "application/json; charset=utf-8"),
          async (endpoint, body, contentType) => {
            const url = endpoint.url();
            await refusedWithoutWrites(`${endpoint.method} ${url} ${body.what} (${contentType})`, () =>
              send(endpoint.method, url, {
                raw: body.raw,
                contentType,
                signedIn: endpoint.signedIn,
                ...(endpoint.session === undefined ? {} : { session: endpoint.session }),
                ip: freshIp(),
              }),
            );
          },
        ),
        { numRuns: RUNS },
      ),
    );
  });

  const badPathId = fc.oneof(
    fc.constantFrom(
      "..%2F",
      "..%2F..%2F..%2Fetc%2Fpasswd",
      "%2e%2e%2f",
      "%2E%2E",
      "..",
      ".",
      "%2F",
      "a%2Fb",
      "%00",
      "%zz",
      "%",
      "%E2%80%AE",
      "%E2%80%8B",
      "%F0%9F%98%80",
      "%EF%BB%BF",
      "null",
      "undefined",
      "0",
      "-1",
      "1e309",
      "%20",
      "'%20OR%201%3D1%20--",
      "%C0%AF",
      "%ED%A0%80",
      "me",
    ),
    notAUuid.map((id) => encodeURIComponent(id.replace(/[\ud800-\udfff]/g, "x"))),
    fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 30 })
      .filter((id) => !isUuid(id))
      .map(encodeURIComponent),
    fc.integer({ min: 101, max: 20_000 }).map((length) => "a".repeat(length)),
    fc.integer({ min: 20, max: 3_000 }).map((length) => "%F0%9F%98%80".repeat(length)),
    // Well-formed but naming no user of this firm.
    fc.uuid({ version: 7 }),
  );

  it("GET /api/users/:id with bad ids", async () => {
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badPathId, async (id) => {
          await refusedWithoutWrites(`GET /api/users/${preview(id)}`, () =>
            send("GET", `/api/users/${id}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("S-API-28 S-BPOST-17: GET /api/blog/:slug with bad slugs, without a session (404, never a 5xx)", async () => {
    const knownSlug = "client-onboarding-first-30-days";
    const badSlug = fc.oneof(
      badPathId,
      fc
        .tuple(nastyChar, fc.nat())
        .map(([char, at]) =>
          encodeURIComponent(insertInside(knownSlug, char, at % 31).replace(/[\ud800-\udfff]/g, "x")),
        ),
      fc.constantFrom(knownSlug.toUpperCase(), `${knownSlug}-`, `-${knownSlug}`, knownSlug.replace("-", "--")),
      fc.integer({ min: 101, max: 5_000 }).map((length) => "a".repeat(length)),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badSlug, async (slug) => {
          await refusedWithoutWrites(`GET /api/blog/${preview(slug)}`, () => send("GET", `/api/blog/${slug}`));
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("GET /api/calendar-feeds/:token.ics with bad secrets, without a session (404, never a 5xx)", async () => {
    const session = await userWithCalendarFeed();
    const answer = await send("GET", "/api/account/calendar-feed", { session });
    const token =
      /calendar-feeds\/([^/.]+)\.ics$/.exec((answer.json() as { feed: { url: string } }).feed.url)?.[1] ?? "";
    expect(token).toHaveLength(43);
    const badSecret = fc.oneof(
      badPathId,
      fc
        .tuple(nastyChar, fc.nat())
        .map(([char, at]) => encodeURIComponent(insertInside(token, char, at % 42).replace(/[\ud800-\udfff]/g, "x"))),
      fc.constantFrom(
        token.slice(1),
        `${token}A`,
        token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
        `${token}.ics`,
        `${token}%00`,
        encodeURIComponent(`${token}/`),
      ),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badSecret, async (secret) => {
          await refusedWithoutWrites(`GET /api/calendar-feeds/${preview(secret)}.ics`, () =>
            send("GET", `/api/calendar-feeds/${secret}.ics`),
          );
        }),
        { numRuns: RUNS },
      ),
    );
    expect((await send("GET", `/api/calendar-feeds/${token}.ics`)).statusCode).toBe(200);
  });

  it("GET /api/users/:id/activity with bad ids and ranges", async () => {
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badPathId, async (id) => {
          await refusedWithoutWrites(`GET /api/users/${preview(id)}/activity`, () =>
            send("GET", `/api/users/${id}/activity`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
    // The user audit's ranges and nothing else: the profile counts a user's work as the report does.
    const badQuery = fc.oneof(
      fc
        .string({ maxLength: 12 })
        .filter((days) => !["7", "30", "90", "365"].includes(days))
        .map((days) => `days=${encodeURIComponent(days.replace(/[\ud800-\udfff]/g, "x"))}`),
      fc.constantFrom("days=7.0", "days=", "days=7&days=30", "format=csv", "x=1"),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badQuery, async (query) => {
          await refusedWithoutWrites(`GET /api/users/:id/activity?${preview(query)}`, () =>
            send("GET", `/api/users/${world.users.user.id}/activity?${query}`, { signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("GET /api/due-date-rules/:id/dates and /api/holiday-calendars/:id/days with bad ids, dates, states and years", async () => {
    // Without NUL and lone surrogates, which the app refuses before any schema (with messages of their own).
    const tidy = (value: string) => value.replace(/[\ud800-\udfff]/g, "x").replaceAll("\u0000", "x");
    const clean = (value: string) => encodeURIComponent(tidy(value));
    const pad = (value: number, length: number) => String(value).padStart(length, "0");
    /** The day `offset` days from 31 December 2027, as YYYY-MM-DD. */
    const dayFrom2027End = (offset: number) => new Date(Date.UTC(2027, 11, 31 + offset)).toISOString().slice(0, 10);
    /** The number of days in a month, counted by hand (a leap year is every 4th, not every 100th, every 400th). */
    const daysIn = (year: number, month: number) =>
      month === 2
        ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
          ? 29
          : 28
        : [4, 6, 9, 11].includes(month)
          ? 30
          : 31;
    // Written out by hand, not read from the calendar: the 50 states and the District of Columbia.
    const usStates = new Set(
      (
        "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND " +
        "OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY"
      ).split(" "),
    );
    const dateMessage = "periodEnd must be a date written YYYY-MM-DD";
    const stateMessage = "state must be a US state's two-letter code, such as MA";
    const yearMessage = "year must be a year such as 2027";
    type QueryCase = { what: string; url: string; refusal?: Refusal };
    const dates = (query: string, refusal?: Refusal, rule = "us-1040"): QueryCase => ({
      what: `GET /api/due-date-rules/${preview(rule)}/dates?${preview(query)}`,
      url: `/api/due-date-rules/${rule}/dates?${query}`,
      ...(refusal ? { refusal } : {}),
    });
    const days = (query: string, refusal?: Refusal, calendar = "us-irs"): QueryCase => ({
      what: `GET /api/holiday-calendars/${preview(calendar)}/days?${preview(query)}`,
      url: `/api/holiday-calendars/${calendar}/days?${query}`,
      ...(refusal ? { refusal } : {}),
    });
    const knownKeys = ["periodEnd", "periodStart", "state", "year"];
    const unknownQueryKey = fc
      .stringMatching(/^[a-z_]{1,12}$/)
      .filter((key) => !knownKeys.includes(key) && !(key in Object.prototype) && key !== "__proto__");
    const badCase: fc.Arbitrary<QueryCase> = fc.oneof(
      // Ids no rule or calendar has (any 4xx: too long for the schema, or not found).
      badPathId.map((id) => dates("periodEnd=2027-12-31", undefined, id)),
      badPathId.map((id) => days("year=2027", undefined, id)),
      // periodEnd not written YYYY-MM-DD, or left out, or given twice.
      fc
        .string({ maxLength: 20 })
        .filter((text) => !/^\d{4}-\d{2}-\d{2}$/.test(tidy(text)))
        .map((text) => dates(`periodEnd=${clean(text)}`, validationFailed(["periodEnd"], dateMessage))),
      fc.constant(dates("", validationFailed(["periodEnd"], "periodEnd is required: a date written YYYY-MM-DD"))),
      fc.constant(
        dates("state=MA", validationFailed(["periodEnd"], "periodEnd is required: a date written YYYY-MM-DD")),
      ),
      fc.constant(dates("periodEnd=2027-12-31&periodEnd=2026-12-31", validationFailed(["periodEnd"], dateMessage))),
      // Written YYYY-MM-DD but no day of the calendar: month 00 or 13-99, day 00 or past the month's end.
      fc
        .tuple(fc.integer({ min: 2000, max: 2097 }), fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })))
        .map(([year, month]) =>
          dates(`periodEnd=${year}-${pad(month, 2)}-15`, validationFailed(["periodEnd"], dateMessage)),
        ),
      fc
        .tuple(fc.integer({ min: 2000, max: 2097 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 99 }))
        .filter(([year, month, day]) => day === 0 || day > daysIn(year, month))
        .map(([year, month, day]) =>
          dates(`periodEnd=${year}-${pad(month, 2)}-${pad(day, 2)}`, validationFailed(["periodEnd"], dateMessage)),
        ),
      // A real day that ends no month: us-1040's tax year ends on a month's last day.
      fc
        .tuple(fc.integer({ min: 2000, max: 2097 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 30 }))
        .filter(([year, month, day]) => day < daysIn(year, month))
        .map(([year, month, day]) =>
          dates(
            `periodEnd=${year}-${pad(month, 2)}-${pad(day, 2)}`,
            validationFailed(["periodEnd"], "periodEnd must be the last day of a month"),
          ),
        ),
      // A month's last day outside the years the calendars cover for a deadline.
      fc
        .tuple(
          fc.oneof(fc.integer({ min: 1900, max: 1999 }), fc.integer({ min: 2098, max: 2200 })),
          fc.integer({ min: 1, max: 12 }),
        )
        .map(([year, month]) =>
          dates(
            `periodEnd=${year}-${pad(month, 2)}-${daysIn(year, month)}`,
            validationFailed(["periodEnd"], "periodEnd must be in the years 2000 to 2097"),
          ),
        ),
      // Outside the years any date of a request may fall in.
      fc
        .tuple(
          fc.oneof(fc.integer({ min: 0, max: 1899 }), fc.integer({ min: 2201, max: 9999 })),
          fc.integer({ min: 1, max: 12 }),
        )
        .map(([year, month]) =>
          dates(
            `periodEnd=${pad(year, 4)}-${pad(month, 2)}-28`,
            validationFailed(["periodEnd"], "periodEnd must be a day of the years 1900 to 2200"),
          ),
        ),
      // A start after the end, or more than 12 months before it.
      fc
        .oneof(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: -9_000, max: -365 }))
        .map((offset) =>
          dates(
            `periodEnd=2027-12-31&periodStart=${dayFrom2027End(offset)}`,
            validationFailed(
              ["periodStart"],
              "periodStart must fall within the 12 months that end on periodEnd (1 Jan 2027 to 31 Dec 2027)",
            ),
          ),
        ),
      // A state that is not two letters, two letters that name no state, or any state on a UK rule.
      fc
        .string({ maxLength: 12 })
        .filter((text) => !/^[A-Za-z]{2}$/.test(tidy(text)))
        .map((text) => dates(`periodEnd=2027-12-31&state=${clean(text)}`, validationFailed(["state"], stateMessage))),
      fc
        .stringMatching(/^[A-Za-z]{2}$/)
        .filter((code) => !usStates.has(code.toUpperCase()))
        .map((code) => dates(`periodEnd=2027-12-31&state=${code}`, validationFailed(["state"], stateMessage))),
      fc
        .tuple(
          fc.constantFrom(...usStates),
          fc.constantFrom("uk-ch-accounts", "uk-ct-payment", "uk-ct600", "uk-vat-quarter"),
        )
        .map(([state, rule]) =>
          dates(
            `periodEnd=2027-12-31&state=${state.toLowerCase()}`,
            validationFailed(["state"], `state applies to US rules only; ${rule} is a UK rule`),
            rule,
          ),
        ),
      // Keys neither route knows.
      unknownQueryKey.map((key) =>
        dates(`periodEnd=2027-12-31&${key}=1`, validationFailed([], `Unrecognized key: "${key}"`)),
      ),
      unknownQueryKey.map((key) => days(`year=2027&${key}=1`, validationFailed([], `Unrecognized key: "${key}"`))),
      // A year not written as four digits, left out, or outside the years the calendars cover.
      fc
        .string({ maxLength: 8 })
        .filter((text) => !/^\d{4}$/.test(tidy(text)))
        .map((text) => days(`year=${clean(text)}`, validationFailed(["year"], yearMessage))),
      fc
        .constantFrom("27", "02027", "2027.0", "+2027", "-2027", "2e3")
        .map((year) => days(`year=${clean(year)}`, validationFailed(["year"], yearMessage))),
      fc.constant(days("", validationFailed(["year"], "year is required, such as 2027"))),
      fc
        .oneof(fc.integer({ min: 0, max: 1999 }), fc.integer({ min: 2100, max: 9999 }))
        .map((year) => days(`year=${pad(year, 4)}`, validationFailed(["year"], "year must be from 2000 to 2099"))),
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badCase, async (bad) => {
          await refusedWithoutWrites(bad.what, () => send("GET", bad.url, { signedIn: true }), [], bad.refusal);
        }),
        { numRuns: RUNS * 4 },
      ),
    );
  });

  it("the client, contact, task and template routes with bad ids", async () => {
    const routes: { method: "GET" | "PUT" | "PATCH" | "DELETE" | "POST"; url: (id: string) => string; json?: Json }[] =
      [
        { method: "GET", url: (id) => `/api/clients/${id}` },
        { method: "PATCH", url: (id) => `/api/clients/${id}`, json: { name: "Renamed" } },
        { method: "DELETE", url: (id) => `/api/clients/${id}` },
        { method: "POST", url: (id) => `/api/clients/${id}/restore` },
        { method: "GET", url: (id) => `/api/contacts/${id}` },
        { method: "PATCH", url: (id) => `/api/contacts/${id}`, json: { name: "Renamed" } },
        { method: "DELETE", url: (id) => `/api/contacts/${id}` },
        { method: "GET", url: (id) => `/api/tasks/${id}` },
        { method: "GET", url: (id) => `/api/task-templates/${id}` },
        { method: "PUT", url: (id) => `/api/task-templates/${id}`, json: { name: "Renamed", description: "Changed." } },
        { method: "DELETE", url: (id) => `/api/task-templates/${id}` },
      ];
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), badPathId, async (route, id) => {
          await refusedWithoutWrites(`${route.method} ${preview(route.url(id))}`, () =>
            send(route.method, route.url(id), { ...(route.json ? { json: route.json } : {}), signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("PATCH /api/users/:id with bad ids and a valid body", async () => {
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(badPathId, async (id) => {
          await refusedWithoutWrites(`PATCH /api/users/${preview(id)}`, () =>
            send("PATCH", `/api/users/${id}`, { json: { fullName: "Renamed Person" }, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("PATCH and DELETE /api/account/factors/:id and DELETE /api/users/:id/factors with bad ids", async () => {
    // Sessions whose proof is fresh, so that the step-up check lets the requests reach their routes.
    const owner = await userWithFactor();
    const someoneElse = await userWithFactor();
    const superAdmin = await freshSession(world.users.super_admin);
    const routes: { method: "PATCH" | "DELETE"; url: (id: string) => string; json?: Json; session: string }[] = [
      {
        method: "PATCH",
        url: (id) => `/api/account/factors/${id}`,
        json: { name: "Renamed" },
        session: owner.session,
      },
      { method: "DELETE", url: (id) => `/api/account/factors/${id}`, session: owner.session },
      { method: "DELETE", url: (id) => `/api/users/${id}/factors`, session: superAdmin },
    ];
    // Besides the ids that name nothing, now and then another user's factor, which is not one's own.
    const ids = fc.oneof(
      { arbitrary: badPathId, weight: 4 },
      { arbitrary: fc.constant(someoneElse.factorId), weight: 1 },
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), ids, async (route, id) => {
          const what = `${route.method} ${preview(route.url(id))}`;
          await refusedWithoutWrites(what, async () => {
            const response = await send(route.method, route.url(id), {
              ...(route.json ? { json: route.json } : {}),
              session: route.session,
            });
            // Not found (or a URL that is no URL): never the step-up's 403, which would hide the route's answer.
            expect([400, 404], `${what}\n  → ${response.statusCode} ${preview(response.body)}`).toContain(
              response.statusCode,
            );
            return response;
          });
        }),
        { numRuns: RUNS },
      ),
    );
  });

  /*
   * NUL passes the schemas (they only bound lengths) but PostgreSQL text cannot hold it, so each of
   * these must be refused as bad input (the app's NUL guard), not reach the database and fail there.
   */
  describe("NUL characters in free-text fields that are stored or looked up", () => {
    const nulInside = fc
      .tuple(fc.constantFrom("\u0000", "a\u0000b", "\u0000\u0000\u0000", "x\u0000"), fc.nat())
      .map(([nul, at]) => insertInside("Nul Person", nul, at));
    const targets: {
      what: string;
      method: "POST" | "PATCH";
      url: () => string;
      signedIn: boolean;
      body: (value: string) => Json;
    }[] = [
      {
        what: "POST /api/auth/register fullName",
        method: "POST",
        url: () => "/api/auth/register",
        signedIn: false,
        body: (fullName) => ({
          fullName,
          email: "nul.test@example.com",
          username: "nul.test",
          password: "ledger-and-quill-42",
          subscriptionPlan: "starter",
        }),
      },
      {
        what: "POST /api/users fullName",
        method: "POST",
        url: () => "/api/users",
        signedIn: true,
        body: (fullName) => ({ username: "nul.test", password: "ledger-and-quill-42", fullName, role: "user" }),
      },
      {
        what: "PATCH /api/users/:id fullName",
        method: "PATCH",
        url: () => `/api/users/${world.users.user.id}`,
        signedIn: true,
        body: (fullName) => ({ fullName }),
      },
      {
        what: "POST /api/auth/login username",
        method: "POST",
        url: () => "/api/auth/login",
        signedIn: false,
        body: (username) => ({ username, password: "whatever-password" }),
      },
    ];

    for (const target of targets) {
      it(target.what, async () => {
        await unchangedAcross(
          () =>
            fc.assert(
              fc.asyncProperty(nulInside, async (value) => {
                const url = target.url();
                const body = target.body(value);
                await refusedWithoutWrites(
                  `${target.method} ${url} ${JSON.stringify(body)}`,
                  () => send(target.method, url, { json: body, signedIn: target.signedIn, ip: freshIp() }),
                  ["login_failures"],
                );
              }),
              { numRuns: RUNS },
            ),
          ["login_failures"],
        );
      });
    }
  });
});
