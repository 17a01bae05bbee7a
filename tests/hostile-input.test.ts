import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ApiRoute, allowsRole } from "../src/server/features/auth/access-control";
import { createSession, readSessionCookie, SESSION_COOKIE } from "../src/server/features/auth/sessions";
import { AppError } from "../src/server/platform/errors";
import { unacceptableInput } from "../src/server/platform/http";
import {
  insertClient,
  insertContact,
  insertTask,
  insertTaskTemplate,
  insertUser,
  insertUserClients,
} from "../src/server/seed/factories";
import { createRandom, type Random } from "../src/server/seed/random";
import { drawSignature } from "../src/server/seed/signature-image";
import { errorStatus } from "../src/shared/api-error";
import { NEXT_CURSOR_HEADER } from "../src/shared/paging";
import { type Role, roles } from "../src/shared/roles";
import { templateLibrary } from "../src/shared/template-library";
import { sameOriginHeaders } from "./api-client";
import { type SeededFirm, type SeededUser, seedFirm, signIn } from "./fixtures";
import { type TestApp, useTestApp } from "./test-app";

/*
 * Hostile input on every operation of the app's own OpenAPI document (GET /api/docs), so a new
 * route is covered without editing this file. Each request is a valid one (real ids of a firm with
 * data, a body built from the route's JSON Schema) with one corruption: a wrong type in a field, a
 * missing or extra field, __proto__ / constructor / prototype keys, nesting thousands of levels
 * deep, a 10 MB body, invalid UTF-8, numbers JSON cannot hold, very long text, control characters
 * and NUL, dates at the edge of the calendar, bad query strings, forged paging cursors, bad
 * If-Match and Idempotency-Key headers, bad path segments, other entities' and another firm's ids.
 * They are sent as a super admin, as the weakest role and signed out (with and without a session
 * cookie that names nothing).
 *
 * What must hold: no answer is a 5xx; every refusal is our JSON error { message, code }; a refused
 * request writes nothing; and a request that breaks a rule its route declares is never accepted.
 *
 * "Writes nothing" is checked with a fingerprint of every table: its row count and an md5 of its
 * rows' versions (ctid and xmin: where each row lies and the transaction that wrote it), so any
 * insert, delete or update (even to the same values) shows without reading the rows' contents.
 * Before sending, each request is judged against its route's declared rules (access rule, path,
 * query, headers, body schema, body limit, JSON syntax). Those that certainly break one are sent in
 * batches between two fingerprints, and a 2xx among them fails the test. Reads go in batches too:
 * when a batch holding accepted reads wrote, its refused requests are sent again one at a time, so
 * only they are held to it. The other writes may be accepted (the corruption can be valid by
 * accident: a long name within its limit, null where null is allowed), so each is sent alone
 * between two fingerprints, and only a refused one must leave them equal. Two things a refused
 * request may legitimately change are handled explicitly:
 *   - sessions.last_seen_at: the session lookup that precedes every access check (and so every
 *     refusal) refreshes it at most once a minute; sessions are compared by content without it.
 *   - login_failures: a wrong password on the two password routes (POST /api/auth/login and
 *     POST /api/auth/change-password) is counted there to throttle guessing, by design. Its rows
 *     may only be added, at most one per refused request of those two routes.
 *
 * Seeded: the seed is printed, and FUZZ_SEED=<seed> repeats a run. A run on a developer's machine
 * takes a new seed each time, to keep exploring; CI (CI=true) takes a fixed one, so that what
 * lands is judged on the same requests every time, and must try at least 10,000 requests.
 * FUZZ_SCALE multiplies the number of requests per operation.
 */

let ctx: TestApp;

const CI_SEED = 20_261_125;
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.CI
    ? CI_SEED
    : Math.floor(Math.random() * 2 ** 32);
const SCALE = process.env.FUZZ_SCALE ? Number(process.env.FUZZ_SCALE) : 1;
const MIN_REQUESTS_ON_CI = 10_000;
/** Requests judged certainly refused are sent this many at a time between two fingerprints. */
const BATCH = 50;
/** Fastify's body limit in app.ts. */
const BODY_LIMIT = 1024 * 1024;
const TEN_MB = 10 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// The OpenAPI document, as much of it as this test reads.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};
type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: JsonSchema };
type Operation = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  key: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  route: ApiRoute;
};
type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content: { "application/json": { schema: JsonSchema } } } }
    >
  >;
};

// ---------------------------------------------------------------------------------------------
// JSON that JSON.stringify cannot write: numbers such as 1e309 or -0 as tokens, repeated keys,
// keys such as "__proto__", nesting deeper than a recursive writer could go.

/** A JSON text written as is. */
class Raw {
  constructor(readonly text: string) {}
}
/** An object written key by key, in order: keys may repeat and may be "__proto__". */
class Pairs {
  constructor(readonly entries: [string, unknown][]) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  const entries =
    value instanceof Pairs
      ? value.entries
      : value !== null && typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value)
        : undefined;
  if (entries) return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(",")}}`;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  return JSON.stringify(value) ?? "null";
}

/** A version 4 uuid from the seeded generator, so a run repeats exactly. */
function randomUuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(0, 15).toString(16));
  hex[12] = "4";
  hex[16] = random.pick(["8", "9", "a", "b"]);
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

const deepArray = (depth: number) => new Raw(`${"[".repeat(depth)}${"]".repeat(depth)}`);
const deepObject = (depth: number) => new Raw(`${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`);

// ---------------------------------------------------------------------------------------------
// Hostile values.

/** Numbers as JSON tokens: beyond a double (1e309 parses to Infinity), beyond 2^53 and 2^64, -0, underflow. */
const hostileNumbers = [
  "1e308",
  "-1e308",
  "1e309",
  "-1e309",
  "-0",
  "18446744073709551616",
  "9007199254740993",
  "-9223372036854775809",
  "1e-400",
  "4.9e-324",
  "123456789012345678901234567890",
  "0.1",
  "2147483648",
  "-1",
];
/** Text that a careless parser takes for a number or a keyword. */
const numberLikeText = [
  "NaN",
  "-NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-0",
  "0x1F",
  "1_000",
  "",
  " ",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "0e0",
  "١٢٣",
  "9007199254740993",
  "18446744073709551616",
];
/**
 * Dates at the edges of the calendar (year 0, year 10000, the JavaScript Date's limits, leap days)
 * and just outside the years 1900-2200 every date of a request must fall in, per format.
 */
const edgeDates: Record<string, string[]> = {
  date: [
    "1899-12-31",
    "2201-01-01",
    "0000-01-01",
    "0000-02-29",
    "0001-01-01",
    "9999-12-31",
    "10000-01-01",
    "1969-12-31",
    "2100-02-29",
    "-0001-01-01",
  ],
  "date-time": [
    "1899-12-31T23:59:59Z",
    "2201-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "0000-02-29T12:00:00+14:00",
    "0001-01-01T00:00:00-23:59",
    "9999-12-31T23:59:59.999999999Z",
    "9999-12-31T23:59:59-23:59",
    "+275760-09-13T00:00:00.000Z",
    "-271821-04-20T00:00:00.000Z",
    "1969-12-31T23:59:59.999Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T00:00:60Z",
  ],
};
const pad2 = (value: number) => String(value).padStart(2, "0");

/** The format of a field's schema, looking inside anyOf / oneOf. */
const formatOf = (schema: JsonSchema): string | undefined =>
  schema.format ?? [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(formatOf).find(Boolean);

/** Control characters, NUL, lone surrogates, direction overrides, BOM, line separators. */
const controlText = [
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u001f",
  "\u007f\u0080\u0085\u009f",
  "\u2028\u2029",
  "\u202e\u2066",
  "\ufeff",
  "\r\n\t\v\f\b",
  "\ud800",
  "x\udfff",
  "\ud83d",
  "\uffff\ufffe",
  "line1\nline2\r",
  "\u200b\u200d\u00ad",
  "'; drop table clients; --",
  "<script>alert(1)</script>",
  "$\u{7b}7*7}{{7*7}}",
  "../../../etc/passwd",
];
/** One unit, repeated to make very long text. */
const longUnits = ["a", "é", "😀", "\u200b", "\u0000", "\ud800", '"', "\\", "%"];
const longLengths = [4_096, 65_536, 300_000];

/** A value that is not what a field wants: any JSON kind, including hostile numbers and objects. */
function hostileValue(random: Random): unknown {
  switch (random.int(0, 9)) {
    case 0:
      return new Raw(random.pick(hostileNumbers));
    case 1:
      return random.pick(numberLikeText);
    case 2:
      return random.pick(controlText);
    case 3:
      return random.chance(0.5);
    case 4:
      return null;
    case 5:
      return random.pick<unknown>([[], [null], [[[]]], [1, "a", true], [new Raw("1e309")]]);
    case 6:
      return random.pick<unknown>([{}, { $gt: "" }, { toString: 1 }, { length: 1e9 }, { 0: "a" }]);
    case 7:
      return poisoned(random);
    case 8:
      return random.chance(0.5) ? deepArray(random.pick([33, 1_000, 10_000])) : deepObject(random.pick([33, 1_000]));
    default:
      return longText(random, 1_000);
  }
}

/** Objects whose keys attack a careless merge: __proto__, constructor.prototype, prototype. */
function poisoned(random: Random): Pairs {
  return random.pick([
    new Pairs([["__proto__", { isAdmin: true, role: "super_admin" }]]),
    new Pairs([["constructor", { prototype: { isAdmin: true } }]]),
    new Pairs([["prototype", { isAdmin: true }]]),
    new Pairs([["__proto__", new Pairs([["__proto__", null]])]]),
    new Pairs([
      ["a", 1],
      ["__proto__", []],
    ]),
  ]);
}

function longText(random: Random, max = 300_000): string {
  const unit = random.pick(longUnits);
  const length = Math.min(max, random.pick(longLengths));
  return unit.repeat(Math.ceil(length / unit.length));
}

/** Query values: written escaped (the parser decodes them) or raw, with escapes that do not decode. */
const rawQueryValues = ["%", "%zz", "%ff%fe", "%c0%af", "%ed%a0%80", "%e2%80", "%u0041", "a%2", "%%", "+%2B+"];

/** What a forged cursor's key may hold in place of the list's own values: ids, text and instants the list never gives out. */
const badCursorElements: (unknown | ((random: Random) => unknown))[] = [
  "-".repeat(36),
  (random: Random) => randomUuid(random).replace(/[0-9]/g, "-"),
  (random: Random) => randomUuid(random).replace(/-/g, "0"),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "2026-02-30T00:00:00.000Z",
  "+275760-09-13T00:00:00.000Z",
  "0000-01-01T00:00:00.000Z",
  "2026-01-01",
  1e308,
  -1,
  2 ** 53 + 2,
  0.5,
  null,
  true,
  [],
  {},
  "a".repeat(1_000),
];

/** A path segment: as written in the URL, and what the router hands the route once decoded (when known). */
type Segment = { raw: string; decoded?: string };
const escapedSegment = (text: string): Segment => ({ raw: escapeText(text), decoded: text });
/** encodeURIComponent, but lone surrogates become the three bytes UTF-8 would give them (invalid UTF-8). */
function escapeText(text: string): string {
  let escaped = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    escaped +=
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
            .map((byte) => `%${byte.toString(16).toUpperCase()}`)
            .join("")
        : encodeURIComponent(char);
  }
  return escaped;
}
const hasLoneSurrogate = (text: string) =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

const badSegmentTexts = [
  "",
  "0",
  "-1",
  "1e309",
  "NaN",
  "null",
  "undefined",
  "me",
  "..",
  ".",
  "/",
  "a/b",
  "' OR 1=1 --",
  "😀",
  "\u202e",
  "\u200b",
  "é",
  "%",
  "\u0000",
  "\u0001",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "a".repeat(101),
  "a".repeat(5_000),
  "😀".repeat(1_000),
];
const rawBadSegments = ["..", ".", "%zz", "%", "%2e%2e", "%c0%af", "%ed%a0%80", "%ff", ";", "%23", "a;b=c", "*"];

/** Header values a careless parser chokes on (Latin-1 only: a header cannot carry more). */
const badHeaderValues = [
  "",
  " ",
  "*",
  "**",
  '"',
  '"1',
  'W/"1"',
  '"1", "2"',
  '"999999999"',
  '"-1"',
  '"1e309"',
  '"NaN"',
  "null",
  ",",
  ', "1"',
  "*, *",
  "é",
  "\t",
  "a".repeat(300),
  `"${"9".repeat(10_000)}"`,
  "\u0001",
  "\u007f",
  '"\u0080"',
];

// ---------------------------------------------------------------------------------------------
// The world: a firm with data (every role, clients, contacts, tasks, templates) and another firm
// whose ids this firm's users must not reach.

type Actor = "superAdmin" | "weakest" | "signedOut";
type Pools = {
  users: string[];
  clients: string[];
  contacts: string[];
  tasks: string[];
  "task-templates": string[];
  "template-library": string[];
  blog: string[];
};

type World = {
  firm: SeededFirm;
  other: SeededFirm;
  weakestRole: Role;
  /** Users made only to be targets: the signed-in actors are never changed by an accepted request. */
  loginTarget: SeededUser;
  tokens: Record<"superAdmin" | "weakest", string>;
  pools: Pools;
  foreignIds: string[];
  signature: string;
  blogSlugs: string[];
  /** A real cursor's key per list operation (`GET /api/clients`...), as the list gave it out. */
  cursorKeys: Map<string, unknown[]>;
  document: OpenApiDocument;
  operations: Operation[];
};
let world: World;

/** The role allowed the fewest actions of the role table. */
function weakestRole(): Role {
  const actions = (role: Role) => ctx.app.apiRoutes.filter((route) => allowsRole(route.access, role)).length;
  return [...roles].sort((a, b) => actions(a) - actions(b))[0] ?? "user";
}

async function seedMore(firm: SeededFirm, count: number) {
  const { db } = ctx.database;
  const firmId = firm.firm.id;
  for (let index = 0; index < count; index++) {
    const client = await insertClient(db, { firmId });
    await insertContact(db, { firmId, clientId: client.id });
    await insertTask(db, { firmId, clientId: client.id, dueDate: new Date(Date.now() - 86_400_000) });
    await insertTask(db, {
      firmId,
      clientId: client.id,
      completed: { by: { id: firm.users.admin.id, fullName: firm.users.admin.fullName } },
    });
    await insertTaskTemplate(db, { firmId, createdBy: firm.users.admin.id, name: `Template ${index}` });
  }
  for (const client of firm.clients) {
    await insertContact(db, { firmId, clientId: client.id });
    await insertTask(db, { firmId, clientId: client.id });
  }
}

/** The hash stored for the token a session cookie holds. */
const tokenHashOf = (cookie: string) => readSessionCookie(cookie)?.tokenHash ?? "";

/**
 * The ids of the firm's rows, for path parameters and id fields (the actors themselves left out),
 * and which of the actors' sessions still exist.
 */
async function readPools(): Promise<{ pools: Pools; liveSessions: Set<string> }> {
  const actors = [world.firm.users.super_admin.id, world.firm.users[world.weakestRole].id];
  const hashes = [tokenHashOf(world.tokens.superAdmin), tokenHashOf(world.tokens.weakest)];
  const { rows } = await ctx.database.pool.query<{ kind: string; id: string }>(
    `select 'users' as kind, id::text as id from users where firm_id = $1 and not (id::text = any($2))
     union all select 'clients', id::text from clients where firm_id = $1
     union all select 'contacts', id::text from contacts where firm_id = $1
     union all select 'tasks', id::text from tasks where firm_id = $1
     union all select 'task-templates', id::text from task_templates where firm_id = $1
     union all select 'session', token_hash from sessions where token_hash = any($3)
     order by 1, 2`,
    [world.firm.firm.id, actors, hashes],
  );
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.id);
  return {
    pools: {
      users: of("users"),
      clients: of("clients"),
      contacts: of("contacts"),
      tasks: of("tasks"),
      "task-templates": of("task-templates"),
      "template-library": templateLibrary.map((entry) => entry.key),
      blog: world.blogSlugs,
    },
    liveSessions: new Set(of("session")),
  };
}

/** After an accepted write: tops the pools up if it deleted what they hold, and revives ended sessions. */
async function afterAccepted() {
  const { db } = ctx.database;
  const firmId = world.firm.firm.id;
  let { pools, liveSessions } = await readPools();
  const low = (kind: keyof Pools) => pools[kind].length < 2;
  if (low("users") || low("clients") || low("contacts") || low("tasks") || low("task-templates")) {
    if (low("users")) await insertUser(db, { firmId, role: "user" });
    const client = await insertClient(db, { firmId });
    await insertUserClients(db, { firmId, userId: world.firm.users[world.weakestRole].id, clientIds: [client.id] });
    await insertContact(db, { firmId, clientId: client.id });
    await insertTask(db, { firmId, clientId: client.id });
    await insertTaskTemplate(db, { firmId, createdBy: world.firm.users.admin.id });
    ({ pools, liveSessions } = await readPools());
  }
  world.pools = pools;
  for (const actor of ["superAdmin", "weakest"] as const) {
    if (liveSessions.has(tokenHashOf(world.tokens[actor]))) continue;
    const user = actor === "superAdmin" ? world.firm.users.super_admin : world.firm.users[world.weakestRole];
    world.tokens[actor] = await createSession(db, {
      userId: user.id,
      firmId,
      ip: null,
      userAgent: null,
      absoluteMs: 24 * 60 * 60 * 1000,
    }).then((session) => session.cookie);
  }
}

// ---------------------------------------------------------------------------------------------
// Building requests: a valid base from the operation's schemas, then one corruption.

type QueryPart = { raw: string; decoded?: [string, string] };
type Body = { payload: string | Buffer; contentType?: string };
type Draft = {
  what: string;
  params: Record<string, Segment>;
  query: QueryPart[];
  headers: Record<string, string>;
  body?: Body;
  /** The session cookie to send instead of the actor's: a token that names no session. */
  cookie?: string;
  /** Sent once per operation and actor (the 10 MB bodies), not drawn again. */
  once?: boolean;
};

const queryPart = (name: string, value: string): QueryPart => ({
  raw: `${escapeText(name)}=${escapeText(value)}`,
  ...(hasLoneSurrogate(name) || hasLoneSurrogate(value) ? {} : { decoded: [name, value] }),
});
const jsonBody = (value: unknown): Body => ({ payload: toJson(value), contentType: "application/json" });

let sequence = 0;
const unique = () => `${SEED.toString(36)}-${(sequence++).toString(36)}`;

/** The pool a path parameter or id field draws real ids from, by its name or the path segment before it. */
function poolFor(name: string, path: string): string[] {
  const { pools } = world;
  const byField: Record<string, keyof Pools> = {
    clientId: "clients",
    clientIds: "clients",
    userId: "users",
    createdBy: "users",
    completedBy: "users",
    templateId: "task-templates",
    templateIds: "task-templates",
    entityId: "clients",
    slug: "blog",
    key: "template-library",
  };
  const field = byField[name];
  if (field) return pools[field];
  const segments = path.split("/");
  const before = segments[segments.indexOf(`{${name}}`) - 1] as keyof Pools | undefined;
  if (before && before in pools) return pools[before];
  return [...pools.clients, ...pools.users, ...pools.tasks];
}

/** A value the schema accepts, with realistic values where the schema cannot say (a signature, an e-mail). */
function validValue(schema: JsonSchema, name: string, op: Operation, random: Random): unknown {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const nonNull = options.filter((option) => option.type !== "null");
    return validValue(random.pick(nonNull.length > 0 ? nonNull : options), name, op, random);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "boolean":
      return random.chance(0.5);
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 10, random.int(1, 10)));
    case "array": {
      const length = Math.max(schema.minItems ?? 0, 1);
      return Array.from({ length }, () => validValue(schema.items ?? {}, name, op, random));
    }
    case "object": {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || random.chance(0.6)) result[key] = validValue(property, key, op, random);
      }
      return result;
    }
    case "string":
      return validText(schema, name, op, random);
    default:
      return undefined;
  }
}

function validText(schema: JsonSchema, name: string, op: Operation, random: Random): string {
  if (schema.format === "uuid") {
    const pool = poolFor(name, op.path);
    return pool.length > 0 ? random.pick(pool) : randomUuid(random);
  }
  if (schema.format === "date-time") return new Date(Date.now() + random.int(1, 30) * 86_400_000).toISOString();
  if (schema.format === "date") return new Date(Date.now() - random.int(0, 30) * 86_400_000).toISOString().slice(0, 10);
  if (op.path === "/api/auth/login")
    return name === "password" ? world.loginTarget.password : world.loginTarget.username;
  const byName: Record<string, () => string> = {
    signature: () => world.signature,
    email: () => `hostile.${unique()}@example.com`,
    timeZone: () => random.pick(["Europe/London", "America/Chicago", "Asia/Tokyo"]),
    currentPassword: () => world.firm.users.super_admin.password,
    password: () => `ledger-and-quill-${unique()}`,
    newPassword: () => `ledger-and-quill-${unique()}`,
    username: () => `hostile.${unique()}`,
    // A disaster relief's: states, the rules it covers and the notice's https address.
    states: () => random.pick(["FL", "NC", "CA"]),
    ruleIds: () => "us-1040",
    sourceUrl: () => `https://www.irs.gov/newsroom/hostile-${unique()}`,
  };
  const text = byName[name]?.() ?? `Hostile ${name} ${unique()}`;
  if (schema.pattern === "^[a-z0-9]+(-[a-z0-9]+)*$") return `hostile-${unique()}`.replace(/[^a-z0-9-]/g, "");
  return text.slice(0, schema.maxLength ?? text.length).padEnd(schema.minLength ?? 0, "x");
}

/** The valid request every corruption starts from: real ids, required query values, a valid body. */
function baseDraft(op: Operation, random: Random): Draft {
  const params: Record<string, Segment> = {};
  const query: QueryPart[] = [];
  for (const parameter of op.parameters) {
    if (parameter.in === "path") {
      const pool = poolFor(parameter.name, op.path);
      params[parameter.name] = escapedSegment(pool.length > 0 ? random.pick(pool) : randomUuid(random));
    } else if (parameter.in === "query" && (parameter.required || random.chance(0.3))) {
      query.push(queryPart(parameter.name, String(validValue(parameter.schema, parameter.name, op, random))));
    }
  }
  const draft: Draft = { what: "valid base", params, query, headers: {} };
  if (op.body) draft.body = jsonBody(validValue(op.body, "body", op, random));
  return draft;
}

type Corruption = { name: string; make: (op: Operation, random: Random) => Draft; once?: boolean };

function bodyValue(op: Operation, random: Random): Record<string, unknown> {
  return validValue(op.body ?? { type: "object" }, "body", op, random) as Record<string, unknown>;
}

function withBody(op: Operation, random: Random, what: string, body: Body): Draft {
  return { ...baseDraft(op, random), what, body };
}

/** Every corruption that applies to an operation. */
function corruptionsOf(op: Operation): Corruption[] {
  const list: Corruption[] = [];
  const add = (name: string, make: Corruption["make"], once = false) => list.push({ name, make, once });
  const properties = Object.entries(op.body?.properties ?? {});
  const required = new Set(op.body?.required ?? []);
  const takesBody = op.method !== "GET";

  // Every date of the body at once, a day apart in the order they are declared, at an edge of the
  // calendar: a body whose dates must agree (a window that starts before it ends) gets past those
  // checks only this way, as an attacker's would.
  const dateFields = properties.filter(([, schema]) => formatOf(schema) === "date").map(([field]) => field);
  if (dateFields.length > 1) {
    for (const year of ["0000", "1899", "2201", "9999"]) {
      add(`every date in the year ${year}`, (op, random) => {
        const dates = Object.fromEntries(dateFields.map((field, index) => [field, `${year}-01-${pad2(index + 1)}`]));
        return withBody(op, random, `dates in ${year}`, jsonBody({ ...bodyValue(op, random), ...dates }));
      });
    }
  }

  for (const [field, schema] of properties) {
    const set = (what: string, value: (random: Random) => unknown) =>
      add(`${field}: ${what}`, (op, random) => {
        const body = bodyValue(op, random);
        const bad = value(random);
        return withBody(op, random, `${field} = ${shown(bad)}`, jsonBody({ ...body, [field]: bad }));
      });
    set("wrong type", hostileValue);
    set("number JSON cannot hold", (random) => new Raw(random.pick(hostileNumbers)));
    set("number-like text", (random) => random.pick(numberLikeText));
    set("control characters", (random) => controlText[random.int(0, controlText.length - 1)]);
    set("very long text", (random) =>
      random.chance(0.3) && schema.maxLength !== undefined ? "a".repeat(schema.maxLength + 1) : longText(random),
    );
    set("poisoned object", poisoned);
    set("deep nesting", (random) => (random.chance(0.5) ? deepArray(5_000) : deepObject(random.int(33, 3_000))));
    set("array of the right thing", (random) => [validValue(schema, field, op, random)]);
    for (const date of edgeDates[formatOf(schema) ?? ""] ?? []) set(`the date ${date}`, () => date);
    // A date inside each item of a list (a firm's closed days): one item, with the date at the edge.
    for (const [inner, innerSchema] of Object.entries(schema.items?.properties ?? {})) {
      for (const date of edgeDates[formatOf(innerSchema) ?? ""] ?? []) {
        set(`${inner} of an item: the date ${date}`, (random) => {
          const item = validValue(schema.items ?? {}, field, op, random) as Record<string, unknown>;
          return [{ ...item, [inner]: date }];
        });
      }
    }
    if (required.has(field)) {
      add(`${field}: missing`, (op, random) => {
        const body = bodyValue(op, random);
        delete body[field];
        return withBody(op, random, `without ${field}`, jsonBody(body));
      });
    }
    add(`${field}: repeated key`, (op, random) => {
      const body = bodyValue(op, random);
      const entries = Object.entries(body);
      const bad = hostileValue(random);
      const pairs: [string, unknown][] = random.chance(0.5)
        ? [...entries, [field, bad]]
        : [[field, bad], ...entries.filter(([key]) => key !== field), [field, body[field] ?? null]];
      return withBody(op, random, `${field} twice, once as ${shown(bad)}`, jsonBody(new Pairs(pairs)));
    });
  }

  if (takesBody) {
    add("extra field", (op, random) => {
      const key = random.pick([
        "firmId",
        "id",
        "isAdmin",
        "role",
        "version",
        "passwordHash",
        "",
        "😀",
        "a".repeat(5_000),
      ]);
      const value = hostileValue(random);
      return withBody(op, random, `extra field ${shown(key)}`, jsonBody({ ...bodyValue(op, random), [key]: value }));
    });
    add("__proto__ / constructor / prototype keys", (op, random) => {
      const entries = Object.entries(bodyValue(op, random));
      const poison = poisoned(random);
      const pairs = random.chance(0.5) ? [...entries, ...poison.entries] : [...poison.entries, ...entries];
      return withBody(op, random, `poisoned keys ${toJson(poison)}`, jsonBody(new Pairs(pairs)));
    });
    add("not an object", (op, random) => {
      const value = random.pick<unknown>([
        null,
        0,
        "text",
        true,
        [],
        [bodyValue(op, random)],
        new Raw("1e309"),
        new Raw("-0"),
      ]);
      return withBody(op, random, `body ${shown(value)}`, jsonBody(value));
    });
    add("deep nesting", (op, random) => {
      const depth = random.pick([33, 1_000, 10_000, 100_000]);
      const shape = random.int(0, 3);
      const text =
        shape === 0
          ? deepArray(depth).text
          : shape === 1
            ? deepObject(Math.min(depth, 150_000)).text
            : shape === 2
              ? `{"a":${deepArray(depth).text}}`
              : "[".repeat(depth);
      return withBody(op, random, `nesting ${depth} deep (shape ${shape})`, {
        payload: text,
        contentType: "application/json",
      });
    });
    add("malformed JSON", (op, random) => {
      const valid = toJson(bodyValue(op, random));
      const text = random.pick([
        "",
        " ",
        "{",
        "}",
        '{"a":}',
        "{'a':1}",
        "NaN",
        "undefined",
        '{"a":1,}',
        "{}{}",
        "\ufeff{}",
        "/* c */{}",
        '{"a":"\\x"}',
        '{"a":"\u0001"}',
        valid.slice(0, random.int(0, valid.length - 1)),
        `${valid}garbage`,
      ]);
      return withBody(op, random, `malformed ${shown(text)}`, { payload: text, contentType: "application/json" });
    });
    add("invalid UTF-8", (op, random) => {
      const valid = toJson(bodyValue(op, random));
      const bytes = random.pick([
        [0xff],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0xe2, 0x82],
      ]);
      const cut = valid.lastIndexOf('"', valid.length - 2);
      const at = cut > 0 ? cut : 1;
      const payload = Buffer.concat([
        Buffer.from(valid.slice(0, at)),
        Buffer.from(bytes),
        Buffer.from(valid.slice(at)),
      ]);
      return withBody(op, random, `invalid UTF-8 ${Buffer.from(bytes).toString("hex")} inside`, {
        payload,
        contentType: "application/json",
      });
    });
    add("content type", (op, random) => {
      const contentType = random.pick([
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/json; charset=utf-16",
        "application/json; charset=latin1",
        "APPLICATION/JSON",
        "application/json, text/plain",
        "application/jsonx",
        "application/json; boundary=\u0000",
        "",
      ]);
      return withBody(op, random, `content type ${shown(contentType)}`, {
        payload: toJson(bodyValue(op, random)),
        contentType,
      });
    });
    add("body without a content type", (op, random) =>
      withBody(op, random, "body without a content type", { payload: toJson(bodyValue(op, random)) }),
    );
    add(
      "10 MB body",
      (op, random) =>
        withBody(op, random, "a 10 MB body", {
          payload: random.chance(0.5) ? tenMegabytes.text : tenMegabytes.array,
          contentType: "application/json",
        }),
      true,
    );
  } else {
    add("a body on a GET", (op, random) =>
      withBody(op, random, "a body on a GET", jsonBody(random.chance(0.5) ? poisoned(random) : deepArray(10_000))),
    );
  }

  // The query string: every declared parameter with bad values, repeated, as an "array"; unknown keys.
  for (const parameter of op.parameters.filter((parameter) => parameter.in === "query")) {
    const name = parameter.name;
    const setQuery = (what: string, parts: (random: Random) => QueryPart[]) =>
      add(`?${name}: ${what}`, (op, random) => {
        const draft = baseDraft(op, random);
        const bad = parts(random);
        return {
          ...draft,
          what: `query ${bad.map((part) => part.raw.slice(0, 80)).join("&")}`,
          query: [...draft.query.filter((part) => part.decoded?.[0] !== name), ...bad],
        };
      });
    setQuery("bad value", (random) => [
      queryPart(name, random.pick([...numberLikeText, ...controlText, ...hostileNumbers])),
    ]);
    setQuery("raw escapes", (random) => [{ raw: `${name}=${random.pick(rawQueryValues)}` }]);
    for (const date of edgeDates[formatOf(parameter.schema) ?? ""] ?? [])
      setQuery(`the date ${date}`, () => [queryPart(name, date)]);
    setQuery("very long", (random) => [queryPart(name, longText(random, 65_536))]);
    setQuery("repeated", (random) => [
      queryPart(name, String(validValue(parameter.schema, name, op, random))),
      queryPart(name, String(validValue(parameter.schema, name, op, random))),
    ]);
    setQuery("as an array or object", (random) => [
      queryPart(random.pick([`${name}[]`, `${name}[0]`, `${name}[a]`, `${name}.a`]), "1"),
    ]);
    setQuery("empty or bare", (random) => [
      random.pick([
        { raw: `${name}=`, decoded: [name, ""] },
        { raw: name, decoded: [name, ""] },
      ]),
    ]);
  }
  // A real cursor (the list's own key, base64url JSON) with one element replaced, added or removed:
  // one corruption per bad element, so each is tried in every run.
  if (op.parameters.some((parameter) => parameter.in === "query" && parameter.name === "cursor")) {
    for (const bad of badCursorElements) {
      add(`?cursor: a real cursor holding ${shown(bad)}`, (op, random) => {
        const draft = baseDraft(op, random);
        const key = [...(world.cursorKeys.get(op.key) ?? ["a", randomUuid(random)])];
        const at = random.int(0, key.length);
        const change = random.int(0, 5);
        const element = typeof bad === "function" ? bad(random) : bad;
        if (change === 0) key.splice(at, 0, element);
        else if (change === 1) key.splice(at, 1);
        else key[Math.min(at, key.length - 1)] = element;
        const cursor = Buffer.from(JSON.stringify(key)).toString("base64url");
        return {
          ...draft,
          what: `cursor of ${shown(key)}`,
          query: [...draft.query.filter((part) => part.decoded?.[0] !== "cursor"), queryPart("cursor", cursor)],
        };
      });
    }
  }
  add("unknown query keys", (op, random) => {
    const draft = baseDraft(op, random);
    const key = random.pick([
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "hasOwnProperty",
      "__proto__[isAdmin]",
      "constructor[prototype][isAdmin]",
      "\u0000",
      "a".repeat(5_000),
      "😀",
    ]);
    const part = queryPart(key, random.pick(["1", "true", "", "\u0000"]));
    return { ...draft, what: `query key ${shown(key)}`, query: [...draft.query, part] };
  });
  add("malformed query string", (op, random) => {
    const draft = baseDraft(op, random);
    const raw = random.pick([
      "&&&",
      "=",
      "==",
      "&=&",
      "a=1=2",
      "%",
      "%zz=%zz",
      "?",
      "#",
      "a&b&c",
      `${"a=1&".repeat(2_000)}`,
      "%00=%00",
    ]);
    return { ...draft, what: `query string ${shown(raw)}`, query: [...draft.query, { raw }] };
  });

  // Path parameters: bad segments, ids of other kinds, another firm's ids.
  for (const parameter of op.parameters.filter((parameter) => parameter.in === "path")) {
    const setPath = (what: string, segment: (random: Random) => Segment) =>
      add(`{${parameter.name}}: ${what}`, (op, random) => {
        const draft = baseDraft(op, random);
        const bad = segment(random);
        return {
          ...draft,
          what: `${parameter.name} = ${shown(bad.decoded ?? bad.raw)}`,
          params: { ...draft.params, [parameter.name]: bad },
        };
      });
    setPath("bad text", (random) => escapedSegment(random.pick(badSegmentTexts)));
    setPath("raw", (random) => ({ raw: random.pick(rawBadSegments) }));
    setPath("near-miss id", (random) => {
      const pool = poolFor(parameter.name, op.path);
      const real = pool.length > 0 ? random.pick(pool) : randomUuid(random);
      return escapedSegment(
        random.pick([
          real.toUpperCase(),
          `${real}0`,
          real.slice(0, -1),
          real.replace(/-/g, ""),
          `{${real}}`,
          ` ${real}`,
          `${real}\n`,
          randomUuid(random),
        ]),
      );
    });
    setPath("an id of another kind", (random) => {
      const all = Object.values(world.pools).flat();
      return escapedSegment(random.pick(all));
    });
    setPath("another firm's id", (random) => escapedSegment(random.pick(world.foreignIds)));
  }

  // Headers the route declares.
  for (const parameter of op.parameters.filter((parameter) => parameter.in === "header")) {
    add(`header ${parameter.name}`, (op, random) => {
      const draft = baseDraft(op, random);
      const value = random.pick(badHeaderValues);
      return { ...draft, what: `${parameter.name}: ${shown(value)}`, headers: { [parameter.name]: value } };
    });
  }

  // The session: a cookie that names no session; a write from another site.
  add("a session that does not exist", (op, random) => ({
    ...baseDraft(op, random),
    what: "a session cookie that names no session",
    cookie: random.pick(["", "x", "a".repeat(4_000), randomUuid(random), "%00", "deleted", '"quoted"']),
  }));
  if (takesBody) {
    add("cross-site", (op, random) => ({
      ...baseDraft(op, random),
      what: "from another site",
      headers: random.pick<Record<string, string>>([
        { origin: "https://evil.example" },
        { "sec-fetch-site": "cross-site" },
        { origin: "null" },
        { "sec-fetch-site": "same-site", origin: "http://localhost:80" },
      ]),
    }));
  }
  return list;
}

const tenMegabytes = {
  text: `{"name":"${"a".repeat(TEN_MB)}"}`,
  array: `[${"1,".repeat(TEN_MB / 2)}1]`,
};

function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : toJson(value);
  return text.length > 120 ? `${text.slice(0, 120)}… (${text.length} chars)` : text;
}

/**
 * The requests for one operation and actor: each corruption once (the systematic pass), then
 * corruptions drawn at random until `count`.
 */
function requestsFor(op: Operation, count: number, random: Random): Draft[] {
  const corruptions = corruptionsOf(op);
  const drafts: Draft[] = [];
  const order = shuffled(corruptions, random);
  for (const corruption of order) {
    if (drafts.length >= count && !corruption.once) continue;
    drafts.push({ ...corruption.make(op, random), once: corruption.once ?? false });
  }
  const repeatable = corruptions.filter((corruption) => !corruption.once);
  while (drafts.length < count) drafts.push(random.pick(repeatable).make(op, random));
  return drafts;
}

// ---------------------------------------------------------------------------------------------
// Judging a request before it is sent: does one of the route's own declared rules refuse it?

const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const jsonTypes = new Set(["application/json", "application/json; charset=utf-8"]);
const refusedTypes = new Set([
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
]);

/** Why the route's own rules certainly refuse the request; undefined when it may be accepted. */
function certainRefusal(op: Operation, actor: Actor, draft: Draft): string | undefined {
  const { route } = op;
  const schema = route.schema ?? {};
  const fails = (zodSchema: unknown, value: unknown) =>
    zodSchema instanceof z.ZodType && !zodSchema.safeParse(value).success;
  // The same-origin rule; a webhook (public, with no body schema: it reads its raw body) skips it.
  const webhookLike = route.access === "public" && !(schema.body instanceof z.ZodType);
  if (
    stateChanging.has(op.method) &&
    !webhookLike &&
    (draft.headers.origin !== undefined || draft.headers["sec-fetch-site"] !== undefined)
  )
    return "cross-site write";
  const role = actor === "superAdmin" ? "super_admin" : actor === "weakest" ? world.weakestRole : undefined;
  if (route.access !== "public" && (role === undefined || draft.cookie !== undefined)) return "not signed in";
  if (route.access === "pendingSignIn") return "not signed in";
  if (role !== undefined && !allowsRole(route.access, role)) return "role";
  const params = Object.entries(draft.params);
  if (params.every(([, segment]) => segment.decoded !== undefined && !segment.decoded.includes("/"))) {
    const values = Object.fromEntries(params.map(([name, segment]) => [name, segment.decoded]));
    if (params.length > 0 && fails(schema.params, values)) return "path";
  }
  if (draft.query.every((part) => part.decoded !== undefined)) {
    const query: Record<string, string | string[]> = {};
    for (const part of draft.query) {
      const [name, value] = part.decoded as [string, string];
      const existing = query[name];
      query[name] = existing === undefined ? value : [existing, value].flat();
    }
    if (unacceptableInput(query) !== undefined) return "query text";
    if (fails(schema.querystring, query)) return "query";
  }
  if (fails(schema.headers, draft.headers)) return "headers";
  if (schema.body instanceof z.ZodType && stateChanging.has(op.method) && op.method !== "DELETE") {
    const body = draft.body;
    if (!body) return "no body";
    if (body.contentType !== undefined && refusedTypes.has(body.contentType)) return "content type";
    if (body.contentType === undefined || !jsonTypes.has(body.contentType)) return undefined;
    if (Buffer.byteLength(body.payload) > BODY_LIMIT) return "too large";
    let parsed: unknown;
    try {
      // Fastify's parser (secure-json-parse) skips a leading byte order mark, as RFC 8259 allows.
      parsed = JSON.parse(body.payload.toString().replace(/^\uFEFF/, ""));
    } catch {
      return "malformed";
    }
    if (unacceptableInput(parsed) !== undefined) return "body text";
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return "not an object";
    if (fails(schema.body, parsed)) return "body";
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Fingerprints of every table.

type Fingerprint = Map<string, { rows: number; hash: string; ids: string[] }>;
let fingerprintSql = "";

async function buildFingerprintSql() {
  const { rows } = await ctx.database.pool.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public' order by tablename",
  );
  fingerprintSql = rows
    .map(({ tablename }) => {
      const table = `"${tablename.replace(/"/g, '""')}"`;
      // A row's version: where it lies (ctid) and the transaction that wrote it (xmin). Any insert,
      // update (even to the same values) or delete changes the list, without reading the rows'
      // contents (signature images, articles). Sessions are compared by content instead, without
      // last_seen_at; login_failures by their ids (see the top of this file).
      const rowText =
        tablename === "sessions"
          ? "(to_jsonb(t) - 'last_seen_at')::text"
          : tablename === "login_failures"
            ? "t.id::text"
            : "t.ctid::text || t.xmin::text";
      const ids = tablename === "login_failures" ? "array_agg(t.id::text)" : "null::text[]";
      return `select '${tablename}' as name, count(*)::int as rows,
        md5(coalesce(string_agg(${rowText}, ',' order by ${rowText}), '')) as hash,
        coalesce(${ids}, array[]::text[]) as ids from ${table} t`;
    })
    .join(" union all ");
}

async function fingerprint(): Promise<Fingerprint> {
  const { rows } = await ctx.database.pool.query<{ name: string; rows: number; hash: string; ids: string[] }>(
    fingerprintSql,
  );
  return new Map(rows.map((row) => [row.name, { rows: row.rows, hash: row.hash, ids: row.ids }]));
}

/** The routes that count a wrong password in login_failures, by design (see the top of this file). */
const passwordRoutes = new Set(["POST /api/auth/login", "POST /api/auth/change-password"]);

/** What changed between two fingerprints that refused requests may not change. */
function writesBetween(before: Fingerprint, after: Fingerprint, passwordRefusals: number): string[] {
  const changed: string[] = [];
  for (const [name, was] of before) {
    const now = after.get(name);
    if (!now) {
      changed.push(`${name}: gone`);
      continue;
    }
    if (name === "login_failures") {
      const kept = new Set(now.ids);
      const removed = was.ids.filter((id) => !kept.has(id)).length;
      const added = now.rows - (was.rows - removed);
      if (removed > 0 || added > passwordRefusals)
        changed.push(
          `login_failures: ${removed} removed, ${added} added by ${passwordRefusals} refused password attempts`,
        );
    } else if (now.rows !== was.rows || now.hash !== was.hash) {
      changed.push(`${name}: ${was.rows} -> ${now.rows} rows${now.rows === was.rows ? " (contents changed)" : ""}`);
    }
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Sending and judging answers.

type Tally = {
  sent: number;
  refused: number;
  accepted: number;
  batches: number;
  alone: number;
  replayed: number;
  /** Answers by status and code ("400 VALIDATION_FAILED", "200"). */
  answers: Map<string, number>;
  byOperation: Map<string, number>;
  problems: string[];
  problemCount: number;
};
const newTally = (): Tally => ({
  sent: 0,
  refused: 0,
  accepted: 0,
  batches: 0,
  alone: 0,
  replayed: 0,
  answers: new Map(),
  byOperation: new Map(),
  problems: [],
  problemCount: 0,
});
const totals = newTally();
const started = Date.now();

let ipCounter = 0;
/** A fresh client address per request (IPv6 documentation range), so no per-address limit builds up. */
const freshIp = () => {
  ipCounter += 1;
  return `2001:db8:${(ipCounter >>> 16).toString(16)}::${(ipCounter & 0xffff).toString(16)}`;
};

function urlOf(op: Operation, draft: Draft): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => draft.params[name]?.raw ?? "");
  return draft.query.length > 0 ? `${path}?${draft.query.map((part) => part.raw).join("&")}` : path;
}

function send(op: Operation, actor: Actor, draft: Draft): Promise<LightMyRequestResponse> {
  const token = actor === "signedOut" ? undefined : world.tokens[actor];
  const cookie = draft.cookie !== undefined ? draft.cookie : token;
  return ctx.app.inject({
    method: op.method,
    url: urlOf(op, draft),
    remoteAddress: freshIp(),
    headers: {
      ...sameOriginHeaders,
      "user-agent": "Mozilla/5.0 (hostile input test)",
      ...(cookie !== undefined ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
      ...(draft.body?.contentType !== undefined ? { "content-type": draft.body.contentType } : {}),
      ...draft.headers,
    },
    ...(draft.body ? { payload: draft.body.payload } : {}),
  });
}

function problem(tally: Tally, text: string) {
  tally.problemCount += 1;
  if (tally.problems.length < 40) tally.problems.push(text);
}

/** Checks one answer; true when the request was refused (4xx). */
function judge(tally: Tally, where: string, response: LightMyRequestResponse, refusal: string | undefined): boolean {
  const status = response.statusCode;
  const answer = `${status} ${response.body.length > 300 ? `${response.body.slice(0, 300)}…` : response.body}`;
  if (status >= 200 && status < 300) {
    tally.answers.set(String(status), (tally.answers.get(String(status)) ?? 0) + 1);
    if (refusal !== undefined)
      problem(tally, `${where}\n  its route's own rules refuse it (${refusal}), yet → ${answer}`);
    return false;
  }
  if (status < 400 || status >= 500) {
    tally.answers.set(String(status), (tally.answers.get(String(status)) ?? 0) + 1);
    problem(tally, `${where}\n  → ${answer}`);
    return status < 500;
  }
  const contentType = String(response.headers["content-type"] ?? "");
  let body: { message?: unknown; code?: unknown } | undefined;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  const code = typeof body?.code === "string" ? body.code : "";
  const answerKey = `${status} ${code}`;
  tally.answers.set(answerKey, (tally.answers.get(answerKey) ?? 0) + 1);
  if (
    !contentType.startsWith("application/json") ||
    typeof body?.message !== "string" ||
    body.message === "" ||
    !Object.hasOwn(errorStatus, code) ||
    errorStatus[code as keyof typeof errorStatus] !== status
  ) {
    problem(
      tally,
      `${where}\n  refused, but not as { message, code } with the code's status (${contentType}) → ${answer}`,
    );
  }
  return true;
}

/**
 * Sends an operation's requests as `actor`: the certainly refused ones in batches between two
 * fingerprints, the others one at a time between two fingerprints.
 */
async function attack(op: Operation, actor: Actor, drafts: Draft[], tally: Tally) {
  type Item = { draft: Draft; refusal: string | undefined };
  const judged: Item[] = drafts.map((draft) => ({ draft, refusal: certainRefusal(op, actor, draft) }));
  const where = (draft: Draft) =>
    `[FUZZ_SEED=${SEED}] ${actor} ${op.method} ${shown(urlOf(op, draft)).slice(1, -1)}: ${draft.what}`;
  /** Sends one request and judges its answer; true when it was refused. */
  const sendOne = async ({ draft, refusal }: Item) => {
    const response = await send(op, actor, draft);
    tally.sent += 1;
    tally.byOperation.set(op.key, (tally.byOperation.get(op.key) ?? 0) + 1);
    const refused = judge(tally, where(draft), response, refusal);
    if (refused) tally.refused += 1;
    else tally.accepted += 1;
    return { refused, status: response.statusCode };
  };
  /** Each request between two fingerprints: a refused one must leave them equal. */
  const sendAlone = async (items: Item[]) => {
    let before = items.length > 0 ? await fingerprint() : undefined;
    for (const item of items) {
      const { refused, status } = await sendOne(item);
      tally.alone += 1;
      if (refused) {
        const after = await fingerprint();
        const writes = writesBetween(before as Fingerprint, after, passwordRoutes.has(op.key) ? 1 : 0);
        if (writes.length > 0)
          problem(tally, `${where(item.draft)}\n  refused (${status}) but wrote: ${writes.join("; ")}`);
        before = after;
      } else {
        if (op.method !== "GET") await afterAccepted();
        before = await fingerprint();
      }
    }
  };

  // In batches: the requests certainly refused, and every read (a read that is accepted is expected
  // to write nothing either; when a batch with accepted reads did write, its refused requests are
  // sent again one at a time, so only they are held to it).
  const batched = judged.filter((item) => op.method === "GET" || item.refusal !== undefined);
  for (let start = 0; start < batched.length; start += BATCH) {
    const batch = batched.slice(start, start + BATCH);
    const before = await fingerprint();
    const refused: Item[] = [];
    for (const item of batch) if ((await sendOne(item)).refused) refused.push(item);
    tally.batches += 1;
    const passwordRefusals = passwordRoutes.has(op.key) ? refused.length : 0;
    const writes = writesBetween(before, await fingerprint(), passwordRefusals);
    if (writes.length === 0) continue;
    if (refused.length === batch.length) {
      problem(
        tally,
        `[FUZZ_SEED=${SEED}] ${actor} ${op.key}: a batch of ${batch.length} refused requests wrote: ${writes.join("; ")}` +
          `\n  first: ${where(batch[0]?.draft as Draft)}`,
      );
    } else {
      tally.replayed += refused.length;
      await sendAlone(refused);
    }
  }
  await sendAlone(judged.filter((item) => op.method !== "GET" && item.refusal === undefined));
}

function add(into: Tally, from: Tally) {
  into.sent += from.sent;
  into.refused += from.refused;
  into.accepted += from.accepted;
  into.batches += from.batches;
  into.alone += from.alone;
  into.replayed += from.replayed;
  for (const [key, value] of from.byOperation) into.byOperation.set(key, (into.byOperation.get(key) ?? 0) + value);
  for (const [key, value] of from.answers) into.answers.set(key, (into.answers.get(key) ?? 0) + value);
  into.problemCount += from.problemCount;
}

async function run(actor: Actor, countFor: (op: Operation) => number, salt: number) {
  const random = createRandom(SEED + salt);
  const tally = newTally();
  const start = Date.now();
  for (const op of world.operations) {
    await attack(op, actor, requestsFor(op, Math.round(countFor(op) * SCALE), random), tally);
  }
  add(totals, tally);
  console.log(
    `hostile input as ${actor}: ${tally.sent} requests on ${world.operations.length} operations in ${((Date.now() - start) / 1000).toFixed(1)} s ` +
      `(${tally.refused} refused, ${tally.accepted} accepted; ${tally.batches} batches, ${tally.alone} sent alone of which ${tally.replayed} again); seed ${SEED}`,
  );
  expect(tally.problems, `${tally.problemCount} problems (first ${tally.problems.length} shown)`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// A route broken on purpose, so the test shows that its checks catch what they look for.

const CANARY = "/api/hostile-input-canary";

/**
 * A route that writes (a new row version of every firm) before refusing a name holding U+FFFD,
 * which invalid UTF-8 decodes to, and answers 500 to any other name but the valid one the
 * requests start from. The systematic pass sends both kinds in every run.
 */
function addCanary(app: FastifyInstance) {
  app.post(
    CANARY,
    {
      config: { access: "public" },
      schema: {
        summary: "A route broken on purpose (this test only)",
        body: z.strictObject({ name: z.string().max(20_000) }),
      },
    },
    async (request) => {
      const { name } = request.body as { name: string };
      if (name.includes("\ufffd")) {
        await ctx.database.pool.query("update firms set name = name");
        throw new AppError("BAD_REQUEST", "The canary refuses after writing");
      }
      if (!name.startsWith("Hostile name ")) throw new Error("the canary's bug");
      return { ok: true };
    },
  );
}

// ---------------------------------------------------------------------------------------------

describe("hostile input on every operation of the OpenAPI document", () => {
  ctx = useTestApp({ extend: addCanary });

  beforeAll(async () => {
    console.log(`hostile input: seed ${SEED} (FUZZ_SEED=${SEED} repeats this run)`);
    const { db } = ctx.database;
    const firm = await seedFirm(db, "Hostile Input Firm");
    const other = await seedFirm(db, "Other Firm");
    world = { firm, other } as World;
    world.weakestRole = weakestRole();
    await seedMore(firm, 3);
    await seedMore(other, 1);
    for (let index = 0; index < 3; index++) await insertUser(db, { firmId: firm.firm.id, role: "user" });
    world.loginTarget = await insertUser(db, { firmId: firm.firm.id, role: "admin" });
    world.tokens = {
      superAdmin: (await signIn(ctx.app, firm.users.super_admin)).sessionToken() ?? "",
      weakest: (await signIn(ctx.app, firm.users[world.weakestRole])).sessionToken() ?? "",
    };
    world.signature = drawSignature("Hostile Input", createRandom(SEED)).dataUrl;
    const { rows: slugs } = await ctx.database.pool.query<{ slug: string }>(
      "select slug from blog_posts order by slug",
    );
    world.blogSlugs = slugs.map((row) => row.slug);
    world.pools = (await readPools()).pools;
    const { rows } = await ctx.database.pool.query<{ id: string }>(
      "select id::text as id from clients where firm_id = $1 union all select id::text from tasks where firm_id = $1 union all select id::text from users where firm_id = $1",
      [other.firm.id],
    );
    world.foreignIds = rows.map((row) => row.id);

    const response = await ctx.app.inject({ method: "GET", url: "/api/docs" });
    world.document = response.json() as OpenApiDocument;
    const routes = new Map(
      ctx.app.apiRoutes.map((route) => [`${route.method} ${route.url.replace(/:(\w+)/g, "{$1}")}`, route]),
    );
    world.operations = Object.entries(world.document.paths).flatMap(([path, methods]) =>
      Object.entries(path === CANARY ? {} : methods).map(([method, operation]) => {
        const key = `${method.toUpperCase()} ${path}`;
        const route = routes.get(key);
        if (!route) throw new Error(`${key} is in the document but not served`);
        return {
          method: method.toUpperCase() as Operation["method"],
          path,
          key,
          parameters: operation.parameters ?? [],
          body: operation.requestBody?.content["application/json"].schema,
          route,
        };
      }),
    );
    world.cursorKeys = new Map();
    for (const op of world.operations) {
      const names = op.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);
      if (op.method !== "GET" || !names.includes("cursor") || !names.includes("limit") || op.path.includes("{"))
        continue;
      const page = await ctx.app.inject({
        method: "GET",
        url: `${op.path}?limit=1`,
        headers: { cookie: `${SESSION_COOKIE}=${world.tokens.superAdmin}` },
      });
      const cursor = page.headers[NEXT_CURSOR_HEADER];
      if (typeof cursor !== "string") throw new Error(`${op.key}?limit=1 gave out no cursor: seed more rows`);
      world.cursorKeys.set(op.key, JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[]);
    }
    await buildFingerprintSql();
  });

  const allowed = (op: Operation, role: Role | undefined) =>
    op.route.access === "public" || (role !== undefined && allowsRole(op.route.access, role));

  it("S-FUZZ-01..04 as a super admin of a firm with data, on every operation", async () => {
    await run("superAdmin", () => 160, 1);
  }, 300_000);

  it("S-FUZZ-01..04 as the weakest role (fewer where it is refused outright)", async () => {
    await run("weakest", (op) => (allowed(op, world.weakestRole) ? 50 : 10), 2);
  }, 300_000);

  it("S-FUZZ-01..04 signed out and with session cookies that name nothing", async () => {
    await run("signedOut", (op) => (allowed(op, undefined) ? 60 : 10), 3);
  }, 300_000);

  it("the checks catch a route that answers 5xx or writes before refusing", async () => {
    const canary: Operation = {
      method: "POST",
      path: CANARY,
      key: `POST ${CANARY}`,
      parameters: [],
      body: world.document.paths[CANARY]?.post?.requestBody?.content["application/json"].schema,
      route: ctx.app.apiRoutes.find((route) => route.url === CANARY) as ApiRoute,
    };
    const tally = newTally();
    await attack(canary, "signedOut", requestsFor(canary, 60, createRandom(SEED)), tally);
    expect(tally.problems.some((text) => text.includes("→ 500"))).toBe(true);
    expect(tally.problems.some((text) => /refused \(400\) but wrote: firms/.test(text))).toBe(true);
  });

  it("S-FUZZ-05 every operation of the document was attacked, from a printed seed; at least 10,000 requests on CI", () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `hostile input: ${totals.sent} requests tried in ${seconds} s (${totals.refused} refused, ${totals.accepted} accepted), ` +
        `${totals.problemCount} problems; seed ${SEED}\n  answers: ${[...totals.answers]
          .sort((a, b) => b[1] - a[1])
          .map(([answer, times]) => `${answer} ×${times}`)
          .join(", ")}`,
    );
    const untried = world.operations.filter((op) => (totals.byOperation.get(op.key) ?? 0) < 20).map((op) => op.key);
    expect(untried).toEqual([]);
    if (process.env.CI === "true") expect(totals.sent).toBeGreaterThanOrEqual(MIN_REQUESTS_ON_CI);
  });
});
