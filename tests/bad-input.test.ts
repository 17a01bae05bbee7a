import { asc, count } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SESSION_COOKIE } from "../src/server/features/auth/sessions";
import {
  auditEvents,
  billingSetups,
  clients,
  contacts,
  firms,
  loginFailures,
  recurringSchedules,
  sessions,
  stripeEvents,
  tasks,
  taskTemplates,
  userClients,
  users,
} from "../src/server/platform/db/schema";
import { createRandom } from "../src/server/seed/random";
import { drawSignature } from "../src/server/seed/signature-image";
import { errorStatus } from "../src/shared/api-error";
import { assignClientsSchema } from "../src/shared/assignments";
import { changePasswordSchema, loginSchema, registerSchema } from "../src/shared/auth";
import {
  clientStatuses,
  createClientSchema,
  createContactSchema,
  updateClientSchema,
  updateContactSchema,
} from "../src/shared/clients";
import { updateFirmSchema } from "../src/shared/firm";
import { planIds } from "../src/shared/plans";
import { roles } from "../src/shared/roles";
import {
  completeTaskSchema,
  createTaskSchema,
  frequencies,
  taskPriorities,
  updateTaskSchema,
} from "../src/shared/tasks";
import { createTemplateSchema } from "../src/shared/templates";
import { createUserSchema, updateUserSchema } from "../src/shared/users";
import { sameOriginHeaders } from "./api-client";
import { type SeededFirm, seedFirm, signIn } from "./fixtures";
import { type TestApp, useTestApp } from "./test-app";

/*
 * Property-based bad input: every endpoint that takes a body or an id gets payloads that are a
 * valid base with exactly one corruption (or a body that is not a JSON object at all), and must
 * answer with a 4xx JSON error ({ message, code }) and write nothing.
 */

/** Set by the describe below (useTestApp registers its hooks there). */
let ctx: TestApp;
const RUNS = 50;

type Json = Record<string, unknown>;
type Case = { what: string; body: unknown };

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
  options: { json?: unknown; raw?: string | Buffer; contentType?: string; signedIn?: boolean; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  const hasBody = "json" in options || options.raw !== undefined;
  return ctx.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? "127.0.0.1",
    headers: {
      ...sameOriginHeaders,
      "user-agent": "Mozilla/5.0 (bad-input property test)",
      ...(hasBody ? { "content-type": options.contentType ?? "application/json" } : {}),
      ...(options.signedIn ? { cookie: `${SESSION_COOKIE}=${superAdminToken}` } : {}),
    },
    ...("json" in options ? { payload: JSON.stringify(options.json) } : {}),
    ...(options.raw !== undefined ? { payload: options.raw } : {}),
  });
}

const preview = (value: unknown) => {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

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
// "Nothing was written": row counts of every table, plus the users' mutable columns.

const tables = {
  firms,
  users,
  sessions,
  clients,
  contacts,
  task_templates: taskTemplates,
  recurring_schedules: recurringSchedules,
  tasks,
  user_clients: userClients,
  audit_events: auditEvents,
  login_failures: loginFailures,
  billing_setups: billingSetups,
  stripe_events: stripeEvents,
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
  return { counts: Object.fromEntries(counts), users: userRows };
}

/** Runs a whole property between two snapshots: nothing may have changed across all its runs. */
async function unchangedAcross(run: () => Promise<void>, exclude: readonly TableName[] = []) {
  const before = await snapshot(exclude);
  await run();
  expect(await snapshot(exclude)).toEqual(before);
}

/** Sends one case and checks both the answer and that this one request wrote nothing. */
async function refusedWithoutWrites(
  what: string,
  request: () => Promise<LightMyRequestResponse>,
  exclude: readonly TableName[] = [],
) {
  const before = await snapshot(exclude);
  const response = await request();
  expectRefused(response, what);
  expect(await snapshot(exclude), `${what}\n  wrote to the database`).toEqual(before);
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

/** Whitespace that String.prototype.trim (hence zod's .trim()) removes. */
const trimmedWhitespace = fc
  .array(fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\ufeff"), { maxLength: 6 })
  .map((parts) => parts.join(""));

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

/** Any JSON value that is not a string (for string fields). */
const notAString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 2 }).filter((value) => typeof value !== "string"),
);

/** Any JSON value that is not a boolean (for `disabled`). */
const notABoolean = fc.oneof(
  fc.constantFrom("true", "false", "yes", 0, 1, "", "1", null, [true], { value: true }),
  fc.jsonValue({ maxDepth: 2 }).filter((value) => typeof value !== "boolean"),
);

/** Whole bodies that are not a JSON object. */
const notAnObject: fc.Arbitrary<Case> = fc
  .oneof(
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
    fc.constant([]),
    fc.constant([{}]),
  )
  .map((body) => ({ what: `body is not an object: ${preview(body)}`, body }));

/** Inserts `piece` strictly inside `value`, so trim cannot remove it. */
const insertInside = (value: string, piece: string, at: number) => {
  const position = 1 + (at % Math.max(1, value.length - 1));
  return value.slice(0, position) + piece + value.slice(position);
};

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

/** Strings that look like uuids but are not; and anything else that is not one. */
const notAUuid = fc
  .oneof(
    fc
      .tuple(fc.uuid({ version: 4 }), fc.nat(), nastyChar)
      .chain(([uuid, at, char]) =>
        fc.constantFrom(
          uuid.slice(0, -1),
          `${uuid}0`,
          `${uuid.slice(0, 9)}g${uuid.slice(10)}`,
          `${uuid.slice(0, 9)}z${uuid.slice(10)}`,
          uuid.replace(/-/g, ""),
          `{${uuid}}`,
          `urn:uuid:${uuid}`,
          ` ${uuid}`,
          `${uuid}\n`,
          `${uuid}\u0000`,
          uuid.replace(/[0-9]/, "٣"),
          insertInside(uuid, char, at),
          uuid.slice(0, 8),
        ),
      ),
    fc.constantFrom("", "0", "-1", "null", "undefined", "../", "1 OR 1=1", "00000000-0000-0000-0000-00000000000"),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    longString(37, 20_000),
  )
  .filter((value) => !isUuid(value));

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
  /** Omitting it makes the body invalid. */
  required: boolean;
  /** Values that are wrong for this field whatever the rest of the body holds. */
  bad: fc.Arbitrary<unknown>;
};

/**
 * A valid base with exactly one corruption: one field with a bad value, one required field
 * missing, or one unknown field added; or a body that is not a JSON object at all.
 */
function corrupted(base: () => Json, fields: FieldSpec[], options: { emptyIsInvalid?: boolean } = {}) {
  const known = fields.map((field) => field.name);
  const required = fields.filter((field) => field.required).map((field) => field.name);
  const variants: fc.Arbitrary<Case>[] = [
    fc.constantFrom(...fields).chain((field) =>
      field.bad.map((value) => ({
        what: `${field.name} = ${preview(value)}`,
        body: withKey(base(), field.name, value),
      })),
    ),
    fc
      .tuple(unknownKey(known), fc.jsonValue({ maxDepth: 1 }))
      .map(([key, value]) => ({ what: `unknown field ${JSON.stringify(key)}`, body: withKey(base(), key, value) })),
    notAnObject,
  ];
  if (required.length > 0) {
    variants.push(
      fc.constantFrom(...required).map((name) => ({ what: `missing ${name}`, body: without(base(), name) })),
    );
  }
  if (options.emptyIsInvalid) variants.push(fc.constant({ what: "empty object", body: {} }));
  return fc.oneof(...variants);
}

/**
 * The body as the server receives it: JSON turns NaN and Infinity into null, drops undefined,
 * and so on. A case is judged on that, or a NaN for an optional field (null once sent) would
 * count as bad input that the server rightly accepts.
 */
const sent = (body: unknown): unknown => {
  const text = JSON.stringify(body);
  return text === undefined ? undefined : JSON.parse(text);
};

/** Guards the generators themselves: every case must be one the schema refuses. */
function expectSchemaRefuses(schema: z.ZodType, testCase: Case) {
  expect(schema.safeParse(sent(testCase.body)).success, `generator bug, schema accepts: ${testCase.what}`).toBe(false);
}

// Field-level corruptions shared by several schemas.

const validUsername = "bad.input-user_01";
const usernameBad = fc.oneof(
  notAString,
  fc
    .tuple(trimmedWhitespace, fc.stringMatching(/^[A-Za-z0-9._-]{0,2}$/))
    .map(([space, short]) => space + short + space),
  longString(51),
  fc.stringMatching(/^[A-Za-z0-9._-]{51,80}$/),
  fc.tuple(nastyChar, fc.nat()).map(([char, at]) => insertInside(validUsername, char, at)),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter((value) => /[^A-Za-z0-9._-]/.test(value.trim())),
);

const passwordBad = fc.oneof(notAString, fc.string({ maxLength: 5 }), longString(257));
const fullNameBad = (min: number) =>
  fc.oneof(
    notAString,
    trimmedWhitespace,
    fc
      .tuple(trimmedWhitespace, fc.string({ unit: "grapheme-ascii", maxLength: min - 1 }))
      .map(([space, short]) => space + short.trim() + space),
    longString(121),
  );
const emailBad = fc.oneof(
  notAString,
  fc.constantFrom(
    "",
    "plainaddress",
    "@example.com",
    "dana@",
    "dana@example",
    "dana@@example.com",
    "dana@example..com",
    ".dana@example.com",
    "dana..w@example.com",
    "dana@-example.com",
    "dana example@example.com",
  ),
  fc
    .tuple(
      nastyChar.filter((char) => char !== "\ufeff"),
      fc.nat(),
    )
    .map(([char, at]) => insertInside("dana.whitfield@example.com", char, at % 13)),
  fc.integer({ min: 243, max: 400 }).map((length) => `${"a".repeat(length)}@example.com`),
  longString(255).map((value) => `${value}@example.com`),
  fc.string({ maxLength: 30 }),
);

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
    const base = () => ({
      fullName: "Dana Whitfield",
      email: "dana.whitfield@example.com",
      username: validUsername,
      password: "ledger-and-quill-42",
      subscriptionPlan: "starter",
    });
    const cases = corrupted(base, [
      { name: "fullName", required: true, bad: fullNameBad(1) },
      { name: "email", required: true, bad: emailBad },
      { name: "username", required: true, bad: usernameBad },
      { name: "password", required: true, bad: passwordBad },
      { name: "subscriptionPlan", required: true, bad: fc.oneof(notAString, notInEnum(planIds)) },
    ]).filter((testCase) => !registerSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(registerSchema, testCase);
          await refusedWithoutWrites(`register: ${testCase.what}`, () =>
            send("POST", "/api/auth/register", { json: testCase.body, ip: freshIp() }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("POST /api/auth/login (no session is created; failures may be counted)", async () => {
    const { admin } = world.users;
    const base = () => ({ username: admin.username, password: admin.password });
    const schemaInvalid = corrupted(base, [
      {
        name: "username",
        required: true,
        bad: fc.oneof(
          notAString,
          trimmedWhitespace,
          longString(257).map((value) => `${admin.username}${value}`),
        ),
      },
      { name: "password", required: true, bad: fc.oneof(notAString, fc.constant(""), longString(257)) },
    ]).filter((testCase) => !loginSchema.safeParse(sent(testCase.body)).success);
    // Schema-valid but wrong: a username no account can have (unicode, zero-width, NUL, RTL).
    const wrongCredentials = fc
      // NUL is left to its own test below (it reaches PostgreSQL, which refuses it).
      .tuple(
        nastyChar.filter((char) => char.trim() !== "" && !char.includes("\u0000")),
        fc.nat(),
      )
      .map(([char, at]) => {
        const username = insertInside(admin.username, char, at);
        return { what: `username ${JSON.stringify(username)}`, body: { username, password: admin.password } };
      });
    const cases = fc.oneof({ arbitrary: schemaInvalid, weight: 4 }, { arbitrary: wrongCredentials, weight: 1 });

    await unchangedAcross(
      () =>
        fc.assert(
          fc.asyncProperty(cases, async (testCase) => {
            await refusedWithoutWrites(
              `login: ${testCase.what}`,
              () => send("POST", "/api/auth/login", { json: testCase.body, ip: freshIp() }),
              ["login_failures"],
            );
          }),
          { numRuns: RUNS },
        ),
      ["login_failures"],
    );
  });

  it("POST /api/auth/change-password (the session keeps working, the password is unchanged)", async () => {
    const superAdmin = world.users.super_admin;
    const base = () => ({ currentPassword: superAdmin.password, newPassword: "a-fresh-and-long-passphrase-9" });
    const cases = corrupted(base, [
      { name: "currentPassword", required: true, bad: fc.oneof(notAString, fc.constant(""), longString(257)) },
      { name: "newPassword", required: true, bad: passwordBad },
    ]).filter((testCase) => !changePasswordSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(changePasswordSchema, testCase);
          await refusedWithoutWrites(`change-password: ${testCase.what}`, () =>
            send("POST", "/api/auth/change-password", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );

    const me = await send("GET", "/api/auth/me", { signedIn: true });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: superAdmin.id, username: superAdmin.username });
  });

  it("POST /api/users", async () => {
    const base = () => ({
      username: validUsername,
      password: "ledger-and-quill-42",
      fullName: "Noah Okafor",
      role: "user",
    });
    const cases = corrupted(base, [
      { name: "username", required: true, bad: usernameBad },
      { name: "password", required: true, bad: passwordBad },
      { name: "fullName", required: true, bad: fullNameBad(2) },
      // role has a default, so leaving it out is valid: it is corrupted only by bad values.
      { name: "role", required: false, bad: fc.oneof(notAString, notInEnum(roles)) },
    ]).filter((testCase) => !createUserSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(createUserSchema, testCase);
          await refusedWithoutWrites(`create user: ${testCase.what}`, () =>
            send("POST", "/api/users", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("PATCH /api/users/:id (bad bodies)", async () => {
    const target = world.users.user;
    const bases: Json[] = [
      { fullName: "Renamed Person" },
      { role: "admin" },
      { disabled: true },
      { fullName: "Renamed Person", role: "user", disabled: false },
    ];
    const cases = fc
      .constantFrom(...bases)
      .chain((base) =>
        corrupted(
          () => ({ ...base }),
          [
            { name: "fullName", required: false, bad: fullNameBad(2) },
            { name: "role", required: false, bad: fc.oneof(notAString, notInEnum(roles)) },
            { name: "disabled", required: false, bad: notABoolean },
          ],
          { emptyIsInvalid: true },
        ),
      )
      .filter((testCase) => !updateUserSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(updateUserSchema, testCase);
          await refusedWithoutWrites(`update user: ${testCase.what}`, () =>
            send("PATCH", `/api/users/${target.id}`, { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("POST /api/user-clients/assign", async () => {
    const base = () => ({
      userId: world.users.user.id,
      clientIds: world.clients.slice(1).map((client) => client.id),
    });
    const validIds = () => world.clients.map((client) => client.id);
    const badClientIds = fc.oneof(
      notAString.filter((value) => !Array.isArray(value) || value.length > 0),
      fc.constant(validIds()[0]),
      fc.constant({ 0: validIds()[0] }),
      // One bad id among valid ones.
      fc.tuple(notAUuid, fc.nat()).map(([bad, at]) => {
        const ids: unknown[] = validIds();
        ids.splice(at % (ids.length + 1), 0, bad);
        return ids;
      }),
      fc.tuple(notAString, fc.nat()).map(([bad, at]) => {
        const ids: unknown[] = validIds();
        ids.splice(at % (ids.length + 1), 0, bad);
        return ids;
      }),
      // Over the 10,000 limit (each id is 39 bytes of JSON: at most ~590 KB).
      fc.integer({ min: 10_001, max: 15_000 }).map((length) => {
        const ids = validIds();
        return Array.from({ length }, (_, index) => ids[index % ids.length]);
      }),
    );
    const cases = corrupted(base, [
      { name: "userId", required: true, bad: fc.oneof(notAString, notAUuid) },
      { name: "clientIds", required: true, bad: badClientIds },
    ]).filter((testCase) => !assignClientsSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(assignClientsSchema, testCase);
          await refusedWithoutWrites(`assign: ${testCase.what}`, () =>
            send("POST", "/api/user-clients/assign", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  // Client and contact fields: optional texts bounded in length, e-mails valid or empty.
  const optionalTextBad = (max: number) =>
    fc.oneof(
      notAString.filter((value) => value !== null),
      longString(max + 1, max + 5_000),
    );
  const optionalEmailBad = emailBad.filter((value) => value !== "" && value !== null);

  it("POST /api/clients", async () => {
    const base = () => ({
      name: "Harbor Freight Partners",
      industry: "Logistics",
      address: "12 Quay Street",
      phone: "(415) 555-0142",
      email: "office@harbor.example.com",
      status: "prospect",
    });
    const cases = corrupted(base, [
      { name: "name", required: true, bad: fc.oneof(notAString, trimmedWhitespace, longString(201)) },
      { name: "industry", required: false, bad: optionalTextBad(100) },
      { name: "address", required: false, bad: optionalTextBad(500) },
      { name: "phone", required: false, bad: optionalTextBad(50) },
      { name: "email", required: false, bad: optionalEmailBad },
      { name: "status", required: false, bad: fc.oneof(notAString, notInEnum(clientStatuses)) },
      {
        name: "primaryContact",
        required: false,
        bad: fc.oneof(
          notAString.filter((value) => typeof value !== "object" || value === null || Array.isArray(value)),
          fc.constant({}),
          fc.constant({ name: "  " }),
          fc.constant({ name: "Ann", email: "ann@" }),
          fc.constant({ name: "Ann", clientId: world.clients[0]?.id }),
        ),
      },
      {
        name: "templateIds",
        required: false,
        bad: fc.oneof(
          notAString.filter((value) => !Array.isArray(value) || value.length > 0),
          fc.array(notAUuid, { minLength: 1, maxLength: 3 }),
          fc.uuid({ version: 7 }).map((id) => [id, id]),
          fc
            .integer({ min: 101, max: 300 })
            .map((length) =>
              Array.from({ length }, (_, index) => `0193${String(index).padStart(4, "0")}-0000-7000-8000-000000000000`),
            ),
        ),
      },
    ]).filter((testCase) => !createClientSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(createClientSchema, testCase);
          await refusedWithoutWrites(`create client: ${testCase.what}`, () =>
            send("POST", "/api/clients", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
    // Schema-valid, but naming templates the firm does not have: refused whole, nothing written.
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(fc.uuid({ version: 7 }), async (templateId) => {
          await refusedWithoutWrites(`create client with unknown template ${templateId}`, () =>
            send("POST", "/api/clients", { json: { ...base(), templateIds: [templateId] }, signedIn: true }),
          );
        }),
        { numRuns: 10 },
      ),
    );
  });

  it("PATCH /api/clients/:id (bad bodies)", async () => {
    const target = world.clients[0]?.id;
    const cases = corrupted(
      () => ({ name: "Renamed Client" }),
      [
        { name: "name", required: false, bad: fc.oneof(notAString, trimmedWhitespace, longString(201)) },
        { name: "email", required: false, bad: optionalEmailBad },
        { name: "status", required: false, bad: fc.oneof(notAString, notInEnum(clientStatuses)) },
      ],
      { emptyIsInvalid: true },
    ).filter((testCase) => !updateClientSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(updateClientSchema, testCase);
          await refusedWithoutWrites(`update client: ${testCase.what}`, () =>
            send("PATCH", `/api/clients/${target}`, { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("POST /api/contacts and PATCH /api/contacts/:id (bad bodies)", async () => {
    const base = () => ({ name: "Morgan Lee", title: "Controller", isPrimary: false, clientId: world.clients[0]?.id });
    const fields: FieldSpec[] = [
      { name: "name", required: true, bad: fc.oneof(notAString, trimmedWhitespace, longString(201)) },
      { name: "title", required: false, bad: optionalTextBad(100) },
      { name: "email", required: false, bad: optionalEmailBad },
      { name: "isPrimary", required: false, bad: notABoolean },
      { name: "clientId", required: true, bad: fc.oneof(notAString, notAUuid) },
    ];
    const cases = corrupted(base, fields).filter(
      (testCase) => !createContactSchema.safeParse(sent(testCase.body)).success,
    );
    const [contact] = await ctx.database.db
      .insert(contacts)
      .values({ firmId: world.firm.id, clientId: world.clients[0]?.id ?? "", name: "Existing Contact" })
      .returning();
    const updates = corrupted(
      () => ({ title: "Partner" }),
      fields.filter((field) => field.name !== "clientId").map((field) => ({ ...field, required: false })),
      { emptyIsInvalid: true },
    ).filter((testCase) => !updateContactSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(async () => {
      await fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(createContactSchema, testCase);
          await refusedWithoutWrites(`create contact: ${testCase.what}`, () =>
            send("POST", "/api/contacts", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(updates, async (testCase) => {
          expectSchemaRefuses(updateContactSchema, testCase);
          await refusedWithoutWrites(`update contact: ${testCase.what}`, () =>
            send("PATCH", `/api/contacts/${contact?.id}`, { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      );
    });
  });

  it("POST /api/task-templates and PUT /api/task-templates/:id", async () => {
    const base = () => ({
      name: "Monthly close",
      description: "Close the month.",
      priority: "high",
      frequency: "monthly",
    });
    const fields: FieldSpec[] = [
      { name: "name", required: true, bad: fc.oneof(notAString, trimmedWhitespace, longString(201)) },
      { name: "description", required: true, bad: fc.oneof(notAString, trimmedWhitespace, longString(2001)) },
      { name: "priority", required: false, bad: fc.oneof(notAString, notInEnum(taskPriorities)) },
      {
        name: "frequency",
        required: false,
        bad: fc.oneof(
          notAString.filter((value) => value !== null),
          notInEnum([...frequencies, "yearly", "none", ""]),
        ),
      },
      { name: "isRecurring", required: false, bad: notABoolean },
    ];
    const cases = corrupted(base, fields).filter(
      (testCase) => !createTemplateSchema.safeParse(sent(testCase.body)).success,
    );
    const [template] = await ctx.database.db
      .insert(taskTemplates)
      .values({ firmId: world.firm.id, name: "Kept", description: "Kept.", createdBy: world.users.super_admin.id })
      .returning();

    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, fc.boolean(), async (testCase, replace) => {
          expectSchemaRefuses(createTemplateSchema, testCase);
          await refusedWithoutWrites(`${replace ? "replace" : "create"} template: ${testCase.what}`, () =>
            replace
              ? send("PUT", `/api/task-templates/${template?.id}`, { json: testCase.body, signedIn: true })
              : send("POST", "/api/task-templates", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  it("PATCH /api/firm", async () => {
    const cases = corrupted(
      () => ({ name: "Bad Input Firm", timeZone: "America/Chicago" }),
      [
        { name: "name", required: false, bad: fc.oneof(notAString, trimmedWhitespace, longString(201)) },
        {
          name: "timeZone",
          required: false,
          bad: fc.oneof(
            notAString,
            fc.constantFrom("", "UTC+5", "Mars/Olympus", "America/Chicag0", "america/chicago ", "../etc/localtime"),
            longString(65),
          ),
        },
      ],
      { emptyIsInvalid: true },
    ).filter((testCase) => !updateFirmSchema.safeParse(sent(testCase.body)).success);
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(updateFirmSchema, testCase);
          await refusedWithoutWrites(`update firm: ${testCase.what}`, () =>
            send("PATCH", "/api/firm", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
  });

  const dueDateBad = fc.oneof(
    notAString.filter((value) => value !== null),
    fc.constantFrom(
      "",
      "tomorrow",
      "2026-13-01T00:00:00Z",
      "2026-02-30",
      "2026-06-01T12:00:00",
      "0000-01-01T00:00:00Z",
      "1899-12-31T23:59:59Z",
      "10000-01-01T00:00:00Z",
    ),
    fc.string({ maxLength: 30 }),
  );

  it("POST /api/tasks and PATCH /api/tasks/:id", async () => {
    const base = () => ({
      name: "Year-end close",
      description: "Close the books.",
      priority: "high",
      clientId: world.clients[0]?.id,
      status: "pending",
      dueDate: "2026-12-31T23:59:59.999Z",
    });
    const nameBad = fc.oneof(notAString, trimmedWhitespace, longString(201));
    const fields: FieldSpec[] = [
      { name: "name", required: true, bad: nameBad },
      { name: "description", required: false, bad: optionalTextBad(2000) },
      { name: "priority", required: false, bad: fc.oneof(notAString, notInEnum(taskPriorities)) },
      { name: "clientId", required: true, bad: fc.oneof(notAString, notAUuid) },
      { name: "status", required: false, bad: fc.oneof(notAString, notInEnum(["pending"])) },
      { name: "dueDate", required: false, bad: dueDateBad },
      {
        name: "templateId",
        required: false,
        bad: fc.oneof(
          notAString.filter((value) => value !== null),
          notAUuid,
        ),
      },
    ];
    const cases = corrupted(base, fields).filter(
      (testCase) => !createTaskSchema.safeParse(sent(testCase.body)).success,
    );
    const [task] = await ctx.database.db
      .insert(tasks)
      .values({ firmId: world.firm.id, clientId: world.clients[0]?.id ?? "", name: "Existing task" })
      .returning();
    const updates = corrupted(
      () => ({ name: "Renamed task" }),
      fields
        .filter((field) => ["name", "description", "priority", "dueDate"].includes(field.name))
        .map((field) => ({ ...field, required: false })),
      { emptyIsInvalid: true },
    ).filter((testCase) => !updateTaskSchema.safeParse(sent(testCase.body)).success);

    await unchangedAcross(async () => {
      await fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          expectSchemaRefuses(createTaskSchema, testCase);
          await refusedWithoutWrites(`create task: ${testCase.what}`, () =>
            send("POST", "/api/tasks", { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(updates, async (testCase) => {
          expectSchemaRefuses(updateTaskSchema, testCase);
          await refusedWithoutWrites(`update task: ${testCase.what}`, () =>
            send("PATCH", `/api/tasks/${task?.id}`, { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      );
    });
  });

  it("PATCH /api/tasks/:id/complete (the task stays pending)", async () => {
    const [task] = await ctx.database.db
      .insert(tasks)
      .values({ firmId: world.firm.id, clientId: world.clients[0]?.id ?? "", name: "Awaiting sign-off" })
      .returning();
    const signature = drawSignature("Bad Input", createRandom(3)).dataUrl;
    const base = () => ({ completedBy: "Dana Whitfield", printedName: "Dana Whitfield", signature });
    const pngOf = (width: number, height: number, ink: boolean) => {
      const png = new PNG({ width, height });
      if (ink) png.data.fill(0);
      return `data:image/png;base64,${PNG.sync.write(png).toString("base64")}`;
    };
    const signatureBad = fc.oneof(
      notAString,
      fc.constantFrom(
        "",
        "data:image/png;base64,",
        "data:image/jpeg;base64,/9j/4AAQSkZJRg==",
        "data:image/png;base64,not-base64!!",
        "data:image/png;base64,iVBORw0KGgo=",
        `data:image/png;base64,${Buffer.from("GIF89a").toString("base64")}`,
        signature.replace("data:image/png;base64,", ""),
        pngOf(400, 128, false),
        pngOf(4000, 10, true),
      ),
      fc.string({ maxLength: 40 }),
      // Over 256 KB.
      fc.integer({ min: 262_200, max: 300_000 }).map((length) => `data:image/png;base64,${"A".repeat(length)}`),
    );
    const cases = corrupted(base, [
      { name: "printedName", required: true, bad: fc.oneof(notAString, trimmedWhitespace, longString(201)) },
      { name: "signature", required: true, bad: signatureBad },
      {
        name: "completedBy",
        required: false,
        bad: fc.oneof(
          notAString.filter((value) => value !== null),
          longString(1001),
        ),
      },
    ]).filter(
      // zod counts characters, not UTF-16 units: a long-looking name of emoji can still be valid, and
      // with the valid signature the request rightly succeeds. Those are not bad input.
      (testCase) =>
        !completeTaskSchema.safeParse(sent(testCase.body)).success ||
        (testCase.body as Json | null)?.signature !== signature,
    );
    await unchangedAcross(() =>
      fc.assert(
        fc.asyncProperty(cases, async (testCase) => {
          await refusedWithoutWrites(`complete task: ${testCase.what}`, () =>
            send("PATCH", `/api/tasks/${task?.id}/complete`, { json: testCase.body, signedIn: true }),
          );
        }),
        { numRuns: RUNS },
      ),
    );
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

  it("raw non-JSON and malformed JSON bodies, on every endpoint that takes one", async () => {
    const endpoints = [
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
    ] as const;
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
              send(endpoint.method, url, { raw: body.raw, contentType, signedIn: endpoint.signedIn, ip: freshIp() }),
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

  it("GET /api/users/:id/activity with bad ids", async () => {
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
  });

  it("the client and contact routes with bad ids", async () => {
    const routes: { method: "GET" | "PUT" | "PATCH" | "DELETE" | "POST"; url: (id: string) => string; json?: Json }[] =
      [
        { method: "GET", url: (id) => `/api/clients/${id}` },
        { method: "PATCH", url: (id) => `/api/clients/${id}`, json: { name: "Renamed" } },
        { method: "DELETE", url: (id) => `/api/clients/${id}` },
        { method: "POST", url: (id) => `/api/clients/${id}/restore` },
        { method: "PATCH", url: (id) => `/api/contacts/${id}`, json: { name: "Renamed" } },
        { method: "DELETE", url: (id) => `/api/contacts/${id}` },
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
