import { and, asc, count, desc, eq, isNull, lt } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { allowsRole, type RouteAccess } from "../src/server/features/auth/access-control";
import { createSession } from "../src/server/features/auth/sessions";
import { feedSealOwner } from "../src/server/features/calendar-feed/calendar-feed.service";
import { newTotpSecret, totpCode, totpSealOwner, totpStep } from "../src/server/features/mfa/totp";
import { unsubscribeToken } from "../src/server/features/notifications/unsubscribe-token";
import type { Database } from "../src/server/platform/db/database";
import {
  auditEvents,
  calendarFeeds,
  clientImportRows,
  clientImports,
  clients,
  contacts,
  disasterReliefs,
  firms,
  mailOutbox,
  notificationPreferences,
  recoveryCodes,
  recurringSchedules,
  sessions,
  tasks,
  taskTemplates,
  userClients,
  userFactors,
  users,
} from "../src/server/platform/db/schema";
import { seal } from "../src/server/platform/sealed-secrets";
import { hashToken, newToken } from "../src/server/platform/tokens";
import {
  insertClient,
  insertContact,
  insertRuleTask,
  insertTask,
  insertTaskTemplate,
  insertUser,
  insertUserClients,
} from "../src/server/seed/factories";
import { createRandom } from "../src/server/seed/random";
import { drawSignature } from "../src/server/seed/signature-image";
import { forbiddenMessage, roleLabels } from "../src/shared/permissions";
import type { Role } from "../src/shared/roles";
import { templateLibrary } from "../src/shared/template-library";
import { IDEMPOTENCY_KEY_HEADER, IF_MATCH_HEADER } from "../src/shared/versions";
import { type ApiClient, type ApiResponse, apiClient } from "./api-client";
import { type SeededFirm, type SeededUser, seedFirm, signIn } from "./fixtures";
import { type TestApp, useTestApp } from "./test-app";

/*
 * Two tables that every /api route must appear in:
 *  1. the tenant isolation matrix: how each route keeps one firm's data out of another's reach;
 *  2. the role matrix: which role may call each route (S-ROLE-07..17, written out by hand).
 * Both fail when app.apiRoutes lists a route they have no row for, so a new route cannot ship
 * unexamined. Adding a route means adding one row to each table.
 */

/** The app and database of this file; set up by the describe at the bottom. */
let ctx: TestApp;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Route = { method: Method; url: string };
type RequestSpec = { path?: string; body?: unknown };

/** A post of content/blog/, loaded into every test database (docs/design/blog-content.md). */
const knownBlogSlug = "client-onboarding-first-30-days";

type World = {
  db: Database;
  /** The home firm: the role matrix acts inside it; the tenant matrix tries to reach into it. */
  a: SeededFirm;
  /** The other firm, whose super admin the tenant matrix acts as. */
  b: SeededFirm;
  /** One signed-in session per role of firm A, and one for firm B's super admin. */
  as: Record<Role, ApiClient>;
  bSuperAdmin: ApiClient;
};

let world: World | undefined;
const w = (): World => {
  if (!world) throw new Error("the world is seeded in beforeAll");
  return world;
};

async function seedWorld() {
  const { db } = ctx.database;
  const a = await seedFirm(db, "Firm A");
  const b = await seedFirm(db, "Firm B");
  // A link of someone other than the `user`, so "a user sees only their own links" means something.
  await insertUserClients(db, { firmId: a.firm.id, userId: a.users.admin.id, clientIds: [at(a.clients, 1).id] });
  // A template in each firm, so the template list has something of its own to show.
  for (const firm of [a, b]) {
    await insertTaskTemplate(db, { firmId: firm.firm.id, createdBy: firm.users.admin.id });
    // An overdue task each, so the task lists have something of their own to show.
    await insertTask(db, {
      firmId: firm.firm.id,
      clientId: firm.assignedClient.id,
      dueDate: new Date(Date.now() - 86_400_000),
    });
  }
  world = {
    db,
    a,
    b,
    as: {
      super_admin: await signIn(ctx.app, a.users.super_admin),
      admin: await signIn(ctx.app, a.users.admin),
      user: await signIn(ctx.app, a.users.user),
    },
    bSuperAdmin: await signIn(ctx.app, b.users.super_admin),
  };
  // A client import in each firm, so the import list has something of its own to show.
  await insertImport("a");
  await insertImport("b");
}

// ---------------------------------------------------------------------------------------------
// helpers

function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

function parseKey(key: string): Route {
  const [method, url] = key.split(" ");
  if (!method || !url) throw new Error(`bad route key ${key}`);
  return { method: method as Method, url };
}

const routeKeys = () => ctx.app.apiRoutes.map((route) => `${route.method} ${route.url}`);

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence++).toString(36)}`;
const strongPassword = () => unique("quill-and-ledger");

const newUserBody = (role: Role) => ({
  username: unique("matrix"),
  password: strongPassword(),
  fullName: "Matrix Person",
  role,
});

const registrationBody = () => {
  const username = unique("owner");
  return {
    fullName: "Matrix Firm Owner",
    email: `${username}@example.com`,
    username,
    password: strongPassword(),
    subscriptionPlan: "starter",
  };
};

/** A user of firm A made for one case, so a case that changes a user changes no one else's. */
const throwawayUser = (role: Role = "user", firm: "a" | "b" = "a") =>
  insertUser(w().db, { firmId: w()[firm].firm.id, role });

/**
 * An authenticator factor of a user, as a confirmed enrolment leaves it (sealed with the app's key),
 * or as a started one does; its id, and the code its app would show now.
 */
async function insertTotpFactor(user: SeededUser, options: { confirmed: boolean } = { confirmed: true }) {
  const key = ctx.config.mfaKey;
  if (!key) throw new Error("the test app has no MFA key");
  const secret = newTotpSecret();
  const id = uuidv7();
  await w()
    .db.insert(userFactors)
    .values({
      id,
      firmId: user.firmId,
      userId: user.id,
      kind: "totp",
      name: "Phone",
      totpSecret: seal(key, secret, totpSealOwner(id)),
      confirmedAt: options.confirmed ? new Date() : null,
    });
  return { id, secret, code: () => totpCode(secret, totpStep(new Date())) };
}

/** A calendar feed of a user, as turning it on in Settings leaves it; the secret of its address. */
async function insertCalendarFeed(user: SeededUser): Promise<string> {
  const key = ctx.config.mfaKey;
  if (!key) throw new Error("the test app has no sealing key");
  const token = newToken();
  const id = uuidv7();
  await w()
    .db.insert(calendarFeeds)
    .values({
      id,
      firmId: user.firmId,
      userId: user.id,
      tokenHash: hashToken(token),
      tokenSealed: seal(key, token, feedSealOwner(id)),
    });
  return token;
}

/** A message to `user` kept in their firm's outbox, as a server without SMTP_URL leaves it. */
async function insertOutboxMessage(db: Database, user: SeededUser) {
  await db.insert(mailOutbox).values({
    firmId: user.firmId,
    userId: user.id,
    dedupeKey: unique("matrix-mail"),
    kind: "due_soon",
    toAddress: user.email ?? "someone@example.com",
    toName: user.fullName,
    senderName: "Matrix Firm",
    subject: "Due soon",
    textBody: "Text",
    htmlBody: "<p>Text</p>",
    status: "kept",
    attempts: 1,
    settledAt: new Date(),
  });
}

/** The signed secret of a user's one-click unsubscribe address, as their reminders carry it. */
function unsubscribeSecret(user: { firmId: string; id: string }): string {
  const key = ctx.config.mfaKey;
  if (!key) throw new Error("the test app has no sealing key");
  return unsubscribeToken(key, { firmId: user.firmId, userId: user.id, topic: "due_soon" }, new Date());
}

/** A user's e-mail preferences row, if they chose any. */
const preferencesOf = async (userId: string) =>
  w().db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));

/**
 * A client import of a firm, as an upload leaves it (one valid row, the company name mapped), or
 * as a finished commit leaves it; its id.
 */
async function insertImport(firm: "a" | "b", status: "previewed" | "done" = "previewed"): Promise<string> {
  const seeded = w()[firm];
  const [made] = await w()
    .db.insert(clientImports)
    .values({
      firmId: seeded.firm.id,
      createdBy: seeded.users.admin.id,
      fileName: "matrix.csv",
      encoding: "utf-8",
      delimiter: ",",
      headers: ["Company"],
      headerSignature: "matrix",
      mapping: { name: 0 },
      status,
      rowCount: 1,
    })
    .returning({ id: clientImports.id });
  if (!made) throw new Error("the import was not inserted");
  await w()
    .db.insert(clientImportRows)
    .values({ firmId: seeded.firm.id, importId: made.id, rowNumber: 2, cells: [unique("Matrix Import")], errors: [] });
  return made.id;
}

/** The feed's row of a user, to see that a request left it as it was. */
const feedRowOf = async (userId: string) => w().db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));

/** A client holding a sign-in of a new user of a firm that waits for its second factor, or for enrolment. */
async function pendingSignIn(firm: "a" | "b", stage: "second_factor" | "enrol") {
  const user = await throwawayUser("user", firm);
  const factor = stage === "second_factor" ? await insertTotpFactor(user) : undefined;
  const { cookie } = await createSession(w().db, {
    userId: user.id,
    firmId: user.firmId,
    ip: null,
    userAgent: null,
    absoluteMs: 60_000,
    stage,
  });
  const client = apiClient(ctx.app);
  client.setSessionToken(cookie);
  return { user, client, factor };
}

/** A passkey's answers in the right shape, signing nothing the server asked for. */
const passkeyAnswerShape = {
  id: "AAAA",
  rawId: "AAAA",
  type: "public-key",
  clientExtensionResults: {},
  response: { clientDataJSON: "e30", authenticatorData: "AAAA", signature: "AAAA" },
};
const passkeyRegistrationShape = {
  id: "AAAA",
  rawId: "AAAA",
  type: "public-key",
  clientExtensionResults: {},
  response: { clientDataJSON: "e30", attestationObject: "oA" },
};

/** Row counts of the tables a refused request must not write to. */
async function rowCounts(db: Database) {
  const [[userRows], [linkRows], [auditRows]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(userClients),
    db.select({ n: count() }).from(auditEvents),
  ]);
  return { users: userRows?.n, userClients: linkRows?.n, auditEvents: auditRows?.n };
}

/** Everything of one firm that a request from another firm could change. */
async function firmState(db: Database, firmId: string) {
  const [
    userRows,
    linkRows,
    [auditRows],
    clientRows,
    contactRows,
    [taskRows],
    templateRows,
    factorRows,
    codeRows,
    firmRows,
    feedRows,
  ] = await Promise.all([
    db.select().from(users).where(eq(users.firmId, firmId)).orderBy(asc(users.id)),
    db
      .select()
      .from(userClients)
      .where(eq(userClients.firmId, firmId))
      .orderBy(asc(userClients.userId), asc(userClients.clientId)),
    db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.firmId, firmId)),
    db.select().from(clients).where(eq(clients.firmId, firmId)).orderBy(asc(clients.id)),
    db.select().from(contacts).where(eq(contacts.firmId, firmId)).orderBy(asc(contacts.id)),
    db.select({ n: count() }).from(tasks).where(eq(tasks.firmId, firmId)),
    db.select().from(taskTemplates).where(eq(taskTemplates.firmId, firmId)).orderBy(asc(taskTemplates.id)),
    db.select().from(userFactors).where(eq(userFactors.firmId, firmId)).orderBy(asc(userFactors.id)),
    db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.firmId, firmId))
      .orderBy(asc(recoveryCodes.userId), asc(recoveryCodes.codeHash)),
    db
      .select({ mfaPolicy: firms.mfaPolicy, mfaRequiredFrom: firms.mfaRequiredFrom })
      .from(firms)
      .where(eq(firms.id, firmId)),
    db.select().from(calendarFeeds).where(eq(calendarFeeds.firmId, firmId)).orderBy(asc(calendarFeeds.id)),
  ]);
  return {
    factors: factorRows,
    calendarFeeds: feedRows,
    recoveryCodes: codeRows,
    mfaPolicy: firmRows,
    users: userRows,
    links: linkRows,
    auditEvents: auditRows?.n,
    clients: clientRows,
    contacts: contactRows,
    tasks: taskRows?.n,
    templates: templateRows,
  };
}

/** Every id that belongs to a firm: the firm's own and its rows' in each tenant table. */
async function idsOfFirm(db: Database, firmId: string): Promise<Set<string>> {
  const lists = await Promise.all([
    db.select({ id: users.id }).from(users).where(eq(users.firmId, firmId)),
    db.select({ id: clients.id }).from(clients).where(eq(clients.firmId, firmId)),
    db.select({ id: contacts.id }).from(contacts).where(eq(contacts.firmId, firmId)),
    db.select({ id: taskTemplates.id }).from(taskTemplates).where(eq(taskTemplates.firmId, firmId)),
    db.select({ id: recurringSchedules.id }).from(recurringSchedules).where(eq(recurringSchedules.firmId, firmId)),
    db.select({ id: tasks.id }).from(tasks).where(eq(tasks.firmId, firmId)),
    db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.firmId, firmId)),
  ]);
  return new Set([firmId, ...lists.flat().map((row) => row.id)]);
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every UUID anywhere in a response body, however deeply nested. */
function idsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    if (uuidPattern.test(value)) found.add(value.toLowerCase());
  } else if (Array.isArray(value)) {
    for (const item of value) idsIn(item, found);
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) idsIn(item, found);
  }
  return found;
}

// "an admin", but "a user": the article follows the sound, and every label starting with u sounds "you".
const withArticle = (noun: string) => `${/^[aeio]/i.test(noun) ? "an" : "a"} ${noun}`;

const unauthenticated = { message: "Please sign in to continue", code: "UNAUTHENTICATED" };

function forbidden(role: Role, access: RouteAccess) {
  if (access === "public" || access === "signedIn" || access === "pendingSignIn") {
    throw new Error(`a route with access "${access}" cannot refuse a signed-in ${role} with 403`);
  }
  return { message: forbiddenMessage(role, access), code: "FORBIDDEN" };
}

const send = (client: ApiClient, route: Route, spec: RequestSpec): Promise<ApiResponse> =>
  client.request(route.method, spec.path ?? route.url, spec.body);

// ---------------------------------------------------------------------------------------------
// 1. Tenant isolation matrix: firm B's super admin tries to reach firm A's data.

type TenantCase = (world: World, route: Route) => Promise<void>;
type TenantRow =
  | { kind: "refuses foreign ids"; cases: Record<string, TenantCase> }
  | { kind: "lists own firm only"; cases: Record<string, TenantCase> }
  | { kind: "creates in own firm only"; cases: Record<string, TenantCase> }
  | { kind: "no tenant data"; reason: string; cases: Record<string, TenantCase> };

type ForeignIdCase = {
  /** The request, as firm B's super admin, naming firm A's data. */
  request: (world: World) => RequestSpec | Promise<RequestSpec>;
  message: string;
};

/** A route given another firm's id answers 404 exactly like a missing row, and changes nothing in either firm. */
function refusesForeignIds(cases: Record<string, ForeignIdCase>): TenantRow {
  return {
    kind: "refuses foreign ids",
    cases: Object.fromEntries(
      Object.entries(cases).map(([name, foreign]): [string, TenantCase] => [
        name,
        async (world, route) => {
          const spec = await foreign.request(world);
          const before = [await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)];
          const response = await send(world.bSuperAdmin, route, spec);
          expect(response.status).toBe(404);
          expect(response.body).toEqual({ message: foreign.message, code: "NOT_FOUND" });
          const after = [await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)];
          expect(after).toEqual(before);
        },
      ]),
    ),
  };
}

/** A list route answers firm B with B's rows, all of them, and not one id of firm A. */
function listsOwnFirmOnly(options: {
  /** The ids of firm B that the list must contain, read from the database. */
  ownIds: (world: World) => Promise<string[]>;
  path?: string;
}): TenantRow {
  return {
    kind: "lists own firm only",
    cases: {
      "answers with the caller's firm's rows and not one id of another firm": async (world, route) => {
        const response = await send(world.bSuperAdmin, route, { ...(options.path ? { path: options.path } : {}) });
        expect(response.status).toBe(200);
        const returned = idsIn(response.body);
        const foreign = await idsOfFirm(world.db, world.a.firm.id);
        expect([...returned].filter((id) => foreign.has(id))).toEqual([]);
        const own = await options.ownIds(world);
        expect(own.length).toBeGreaterThan(0);
        expect([...own].filter((id) => !returned.has(id))).toEqual([]);
      },
    },
  };
}

const noTenantData = (reason: string, cases: Record<string, TenantCase>): TenantRow => ({
  kind: "no tenant data",
  reason,
  cases,
});

// One row per /api route. A new route needs a row here: a missing one fails the suite.
const tenantMatrix: Record<string, TenantRow> = {
  "GET /api/health": noTenantData("reports on the server and its database, not on any firm", {
    "answers every firm alike and names no firm": async (world, route) => {
      const response = await send(world.bSuperAdmin, route, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: "ok", database: "ok" });
    },
  }),
  "GET /api/blog": noTenantData("the vendor's articles: public, the same for everyone, no firm", {
    "answers every firm alike": async (world, route) => {
      const forB = await send(world.bSuperAdmin, route, {});
      const forA = await send(world.as.user, route, {});
      expect(forB.status).toBe(200);
      expect(forB.text).toBe(forA.text);
      expect(forB.text).not.toContain(world.a.firm.id);
    },
  }),
  "GET /api/blog/:slug": noTenantData("one of the vendor's articles: public, the same for everyone, no firm", {
    "answers every firm alike": async (world, route) => {
      const forB = await send(world.bSuperAdmin, route, { path: `/api/blog/${knownBlogSlug}` });
      const forA = await send(world.as.user, route, { path: `/api/blog/${knownBlogSlug}` });
      expect(forB.status).toBe(200);
      expect(forB.text).toBe(forA.text);
    },
  }),
  "GET /api/billing/config": noTenantData("whether the installation takes cards: the same for everyone, no firm", {
    "answers every firm alike": async (world, route) => {
      const forB = await send(world.bSuperAdmin, route, {});
      const forA = await send(world.as.user, route, {});
      expect(forB.status).toBe(200);
      expect(forB.text).toBe(forA.text);
    },
  }),
  "GET /api/docs": noTenantData("describes the API itself, the same for everyone", {
    "answers every firm alike and names no firm": async (world, route) => {
      const forB = await send(world.bSuperAdmin, route, {});
      const forA = await send(world.as.user, route, {});
      expect(forB.status).toBe(200);
      expect(forB.text).toBe(forA.text);
      expect(forB.text).not.toContain(world.a.firm.id);
      expect(forB.text).not.toContain(world.a.firm.name);
    },
  }),
  "POST /api/auth/register": noTenantData("creates a new firm; it never takes an existing firm's id", {
    "refuses another firm's id in the body and adds nobody to that firm": async (world, route) => {
      const before = await firmState(world.db, world.a.firm.id);
      const [firmsBefore] = await world.db.select({ n: count() }).from(firms);
      const response = await send(apiClient(ctx.app), route, {
        body: { ...registrationBody(), firmId: world.a.firm.id },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_FAILED");
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      expect((await world.db.select({ n: count() }).from(firms))[0]).toEqual(firmsBefore);
    },
  }),
  "POST /api/auth/login": noTenantData("finds the account by username; the firm comes from the account", {
    "signs firm B's user into firm B, and refuses a firm id in the body": async (world, route) => {
      const { admin } = world.b.users;
      const withFirm = await send(apiClient(ctx.app), route, {
        body: { username: admin.username, password: admin.password, firmId: world.a.firm.id },
      });
      expect(withFirm.status).toBe(400);
      expect(withFirm.body.code).toBe("VALIDATION_FAILED");
      const response = await send(apiClient(ctx.app), route, {
        body: { username: admin.username, password: admin.password },
      });
      expect(response.status).toBe(200);
      expect(response.body.firm.id).toBe(world.b.firm.id);
      expect(idsIn(response.body).has(world.a.firm.id)).toBe(false);
    },
  }),
  "POST /api/auth/logout": noTenantData("ends the session its own cookie names, nobody else's", {
    "ends firm B's session and leaves firm A's signed in": async (world, route) => {
      const bAdmin = await signIn(ctx.app, world.b.users.admin);
      expect((await send(bAdmin, route, {})).status).toBe(204);
      expect((await bAdmin.get("/api/auth/me")).status).toBe(401);
      expect((await world.as.super_admin.get("/api/auth/me")).body.firm.id).toBe(world.a.firm.id);
      expect((await world.bSuperAdmin.get("/api/auth/me")).body.firm.id).toBe(world.b.firm.id);
    },
  }),
  "GET /api/auth/me": noTenantData("describes the caller, from their session", {
    "gives firm B's super admin firm B, never firm A": async (world, route) => {
      const response = await send(world.bSuperAdmin, route, {});
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: world.b.users.super_admin.id, firm: { id: world.b.firm.id } });
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "POST /api/auth/change-password": noTenantData("changes the caller's own password; it takes no user id", {
    "refuses another firm's user id in the body and leaves that user's password alone": async (world, route) => {
      const caller = await throwawayUser("super_admin", "b");
      const client = await signIn(ctx.app, caller);
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(client, route, {
        body: { currentPassword: caller.password, newPassword: strongPassword(), userId: world.a.users.super_admin.id },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_FAILED");
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "GET /api/auth/second-step": noTenantData("describes the caller's own pending sign-in; it takes no id", {
    "answers firm B's pending sign-in and names nothing of firm A": async (world, route) => {
      const { client } = await pendingSignIn("b", "second_factor");
      const response = await send(client, route, {});
      expect(response.status).toBe(200);
      expect(response.body.next).toBe("second_factor");
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "POST /api/auth/second-step": noTenantData("completes the caller's own pending sign-in; it takes no user id", {
    "refuses another firm's user id in the body; the right code signs in to firm B only": async (world, route) => {
      const { client, user, factor } = await pendingSignIn("b", "second_factor");
      const before = await firmState(world.db, world.a.firm.id);
      const code = factor?.code() ?? "";
      const named = await send(client, route, { body: { method: "totp", code, userId: world.a.users.user.id } });
      expect(named.status).toBe(400);
      const done = await send(client, route, { body: { method: "totp", code } });
      expect(done.status).toBe(200);
      expect(done.body.user).toMatchObject({ id: user.id, firm: { id: world.b.firm.id } });
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/auth/second-step/totp": noTenantData("starts enrolment for the pending sign-in's own user", {
    "keeps the unconfirmed factor in firm B and leaves firm A alone": async (world, route) => {
      const { client, user } = await pendingSignIn("b", "enrol");
      const before = await firmState(world.db, world.a.firm.id);
      expect((await send(client, route, {})).status).toBe(200);
      const rows = await world.db.select().from(userFactors).where(eq(userFactors.userId, user.id));
      expect(rows.map((row) => row.firmId)).toEqual([world.b.firm.id]);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/auth/second-step/totp/confirm": noTenantData("confirms the pending sign-in's own user's enrolment", {
    "refuses another firm's user id in the body and writes nothing in firm A": async (world, route) => {
      const { client } = await pendingSignIn("b", "enrol");
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(client, route, { body: { code: "123456", userId: world.a.users.user.id } });
      expect(response.status).toBe(400);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/auth/step-up": noTenantData("proves the caller's own session; it takes no user id", {
    "refuses another firm's user id in the body and leaves firm A alone": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const client = await signIn(ctx.app, caller);
      const before = await firmState(world.db, world.a.firm.id);
      const named = await send(client, route, {
        body: { method: "password", password: caller.password, userId: world.a.users.user.id },
      });
      expect(named.status).toBe(400);
      expect((await send(client, route, { body: { method: "password", password: caller.password } })).status).toBe(204);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "GET /api/account/security": noTenantData("describes the caller's own factors and firm", {
    "answers firm B's user with their own factors and names nothing of firm A": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const client = await signIn(ctx.app, caller);
      const factor = await insertTotpFactor(caller);
      await insertTotpFactor(await throwawayUser("user", "a"));
      const response = await send(client, route, {});
      expect(response.status).toBe(200);
      expect(response.body.factors.map((each: { id: string }) => each.id)).toEqual([factor.id]);
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "GET /api/account/calendar-feed": noTenantData("describes the caller's own calendar feed", {
    "answers firm B's user with their own feed's address and names nothing of firm A": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const token = await insertCalendarFeed(caller);
      const foreignToken = await insertCalendarFeed(await throwawayUser("user", "a"));
      const response = await send(await signIn(ctx.app, caller), route, {});
      expect(response.status).toBe(200);
      expect(response.body.feed.url).toContain(token);
      expect(response.text).not.toContain(foreignToken);
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "POST /api/account/calendar-feed": noTenantData("turns on the caller's own feed; it takes no user id", {
    "refuses another firm's user id in the body; the feed it makes is firm B's": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const client = await signIn(ctx.app, caller);
      const before = await firmState(world.db, world.a.firm.id);
      const named = await send(client, route, { body: { userId: world.a.users.user.id } });
      expect(named.status).toBe(400);
      expect((await send(client, route, { body: {} })).status).toBe(201);
      expect((await feedRowOf(caller.id)).map((row) => row.firmId)).toEqual([world.b.firm.id]);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "PUT /api/account/calendar-feed": noTenantData("changes the caller's own feed; it takes no id", {
    "refuses another firm's user id in the body; a change moves firm B's feed only": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      await insertCalendarFeed(caller);
      await insertCalendarFeed(await throwawayUser("user", "a"));
      const client = await signIn(ctx.app, caller);
      const before = await firmState(world.db, world.a.firm.id);
      const named = await send(client, route, { body: { hideClientNames: true, userId: world.a.users.user.id } });
      expect(named.status).toBe(400);
      expect((await send(client, route, { body: { hideClientNames: true } })).status).toBe(200);
      expect((await feedRowOf(caller.id)).map((row) => row.hideClientNames)).toEqual([true]);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/account/calendar-feed/regenerate": noTenantData(
    "replaces the caller's own feed's address; it takes no id",
    {
      "replaces firm B's user's address and leaves firm A's feeds alone": async (world, route) => {
        const caller = await throwawayUser("user", "b");
        const old = await insertCalendarFeed(caller);
        await insertCalendarFeed(await throwawayUser("user", "a"));
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(await signIn(ctx.app, caller), route, {});
        expect(response.status).toBe(200);
        expect(response.body.url).not.toContain(old);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  ),
  "DELETE /api/account/calendar-feed": noTenantData("turns off the caller's own feed; it takes no id", {
    "turns off firm B's user's feed and leaves firm A's feeds alone": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      await insertCalendarFeed(caller);
      await insertCalendarFeed(await throwawayUser("user", "a"));
      const before = await firmState(world.db, world.a.firm.id);
      expect((await send(await signIn(ctx.app, caller), route, {})).status).toBe(204);
      expect(await feedRowOf(caller.id)).toEqual([]);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "GET /api/calendar-feeds/:token.ics": noTenantData(
    "its secret is its only credential: it answers its owner's feed, whichever firm's session comes along",
    {
      "serves firm A's feed as firm A's, with firm B's session, naming nothing of firm B": async (world, route) => {
        const owner = await throwawayUser("user", "a");
        await insertUserClients(world.db, {
          firmId: world.a.firm.id,
          userId: owner.id,
          clientIds: [world.a.assignedClient.id],
        });
        const token = await insertCalendarFeed(owner);
        const response = await send(world.bSuperAdmin, route, { path: `/api/calendar-feeds/${token}.ics` });
        expect(response.status).toBe(200);
        expect(response.text).toContain(world.a.firm.name);
        const own = await idsOfFirm(world.db, world.b.firm.id);
        const named = [...response.text.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)];
        expect(named.length).toBeGreaterThan(0);
        expect(named.filter(([id]) => own.has(id))).toEqual([]);
        expect(response.text).not.toContain(world.b.firm.name);
      },
      "answers a secret no feed has with 404, whichever session comes along": async (world, route) => {
        const response = await send(world.bSuperAdmin, route, { path: `/api/calendar-feeds/${newToken()}.ics` });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ message: "Calendar feed not found", code: "NOT_FOUND" });
      },
    },
  ),
  "GET /api/account/notification-preferences": noTenantData("describes the caller's own e-mail preferences", {
    "answers firm B's user with their own choice, whatever firm A's user chose": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const other = await throwawayUser("user", "a");
      await world.db.insert(notificationPreferences).values({ firmId: other.firmId, userId: other.id, dueSoonDays: 9 });
      const response = await send(await signIn(ctx.app, caller), route, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ dueSoonDays: 3, overdueAlerts: true, digest: "off" });
    },
  }),
  "PUT /api/account/notification-preferences": noTenantData("changes the caller's own preferences; it takes no id", {
    "refuses another firm's user id in the body; a change is firm B's user's only": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const client = await signIn(ctx.app, caller);
      const before = await firmState(world.db, world.a.firm.id);
      const named = await send(client, route, {
        body: { dueSoonDays: 5, overdueAlerts: true, digest: "off", userId: world.a.users.user.id },
      });
      expect(named.status).toBe(400);
      expect((await send(client, route, { body: { dueSoonDays: 5, overdueAlerts: true, digest: "off" } })).status).toBe(
        200,
      );
      expect((await preferencesOf(caller.id)).map((row) => [row.firmId, row.dueSoonDays])).toEqual([
        [world.b.firm.id, 5],
      ]);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "GET /api/unsubscribe/:token": noTenantData(
    "its signed address is its only credential: it describes its own user's choice, whichever session comes along",
    {
      "describes firm A's user's reminders to firm B's session and changes nothing": async (world, route) => {
        const owner = await throwawayUser("user", "a");
        const response = await send(world.bSuperAdmin, route, { path: `/api/unsubscribe/${unsubscribeSecret(owner)}` });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ topic: "due_soon", firmName: world.a.firm.name, subscribed: true });
        expect(await preferencesOf(owner.id)).toEqual([]);
      },
    },
  ),
  "POST /api/unsubscribe/:token": noTenantData(
    "its signed address is its only credential: it turns off its own user's reminders, whichever session comes along",
    {
      "turns off firm A's user's reminders with firm B's session, and nothing of firm B": async (world, route) => {
        const owner = await throwawayUser("user", "a");
        const bystander = await throwawayUser("user", "b");
        const response = await send(world.bSuperAdmin, route, {
          path: `/api/unsubscribe/${unsubscribeSecret(owner)}`,
        });
        expect(response.status).toBe(200);
        expect((await preferencesOf(owner.id)).map((row) => [row.firmId, row.dueSoonDays])).toEqual([
          [world.a.firm.id, null],
        ]);
        expect(await preferencesOf(bystander.id)).toEqual([]);
      },
      "answers an address with another firm's id put in with 404, changing nothing": async (world, route) => {
        const owner = await throwawayUser("user", "a");
        const [payload = "", signature = ""] = unsubscribeSecret(owner).split(".");
        const bytes = Buffer.from(payload, "base64url");
        Buffer.from(world.b.firm.id.replaceAll("-", ""), "hex").copy(bytes, 0);
        const moved = bytes.toString("base64url");
        const response = await send(world.bSuperAdmin, route, { path: `/api/unsubscribe/${moved}.${signature}` });
        expect(response.status).toBe(404);
        expect(await preferencesOf(owner.id)).toEqual([]);
      },
    },
  ),
  "POST /api/account/factors/totp": noTenantData("adds to the caller's own factors; it takes no user id", {
    "keeps the new factor in firm B and leaves firm A alone": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const before = await firmState(world.db, world.a.firm.id);
      expect((await send(await signIn(ctx.app, caller), route, {})).status).toBe(200);
      const rows = await world.db.select().from(userFactors).where(eq(userFactors.userId, caller.id));
      expect(rows.map((row) => row.firmId)).toEqual([world.b.firm.id]);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/account/factors/totp/confirm": noTenantData("confirms the caller's own enrolment; it takes no user id", {
    "refuses another firm's user id in the body and writes nothing in firm A": async (world, route) => {
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(world.bSuperAdmin, route, {
        body: { code: "123456", userId: world.a.users.user.id },
      });
      expect(response.status).toBe(400);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "PATCH /api/account/factors/:id": refusesForeignIds({
    "another firm's user's factor is answered 404, like one that does not exist": {
      request: async () => ({
        path: `/api/account/factors/${(await insertTotpFactor(await throwawayUser("admin"))).id}`,
        body: { name: "Taken over" },
      }),
      message: "Factor not found",
    },
  }),
  "DELETE /api/account/factors/:id": refusesForeignIds({
    "another firm's user's factor is answered 404, like one that does not exist": {
      request: async () => ({
        path: `/api/account/factors/${(await insertTotpFactor(await throwawayUser("admin"))).id}`,
      }),
      message: "Factor not found",
    },
  }),
  "POST /api/account/recovery-codes": noTenantData("replaces the caller's own recovery codes; it takes no user id", {
    "makes firm B's user's codes and leaves firm A's alone": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const client = await signIn(ctx.app, caller);
      await insertTotpFactor(caller);
      const before = await firmState(world.db, world.a.firm.id);
      expect((await send(client, route, {})).status).toBe(200);
      const rows = await world.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, caller.id));
      expect(new Set(rows.map((row) => row.firmId))).toEqual(new Set([world.b.firm.id]));
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "PUT /api/firm/mfa-policy": noTenantData("sets the caller's own firm's policy; it takes no firm id", {
    "refuses another firm's id in the body; a change moves firm B only": async (world, route) => {
      const client = await signIn(ctx.app, world.b.users.super_admin);
      const before = await firmState(world.db, world.a.firm.id);
      const named = await send(client, route, { body: { policy: "optional", firmId: world.a.firm.id } });
      expect(named.status).toBe(400);
      const changed = await send(client, route, { body: { policy: "optional" } });
      expect(changed.status).toBe(200);
      const [b] = await world.db.select({ policy: firms.mfaPolicy }).from(firms).where(eq(firms.id, world.b.firm.id));
      expect(b?.policy).toBe("optional");
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "DELETE /api/users/:id/factors": refusesForeignIds({
    "another firm's user's factors cannot be reset": {
      request: async () => {
        const member = await throwawayUser("user");
        await insertTotpFactor(member);
        return { path: `/api/users/${member.id}/factors` };
      },
      message: "User not found",
    },
  }),
  "POST /api/auth/passkey/options": noTenantData("makes a challenge that names no firm and no user", {
    "names nothing of firm A": async (world, route) => {
      const response = await send(apiClient(ctx.app), route, {});
      expect(response.status).toBe(200);
      expect(response.body.allowCredentials).toEqual([]);
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "POST /api/auth/passkey": noTenantData("the passkey names its own user; it takes no id", {
    "refuses another firm's user id in the body and writes nothing in firm A": async (world, route) => {
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(apiClient(ctx.app), route, {
        body: { response: passkeyAnswerShape, userId: world.a.users.user.id },
      });
      expect(response.status).toBe(400);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/auth/second-step/passkey/options": noTenantData("names the pending sign-in's own user's passkeys only", {
    "answers firm B's pending sign-in without a passkey: nothing of firm A is offered": async (world, route) => {
      const { client } = await pendingSignIn("b", "second_factor");
      const response = await send(client, route, {});
      expect(response.status).toBe(409);
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "POST /api/auth/second-step/passkey": noTenantData(
    "completes the caller's own pending sign-in; it takes no user id",
    {
      "refuses another firm's user id in the body and writes nothing in firm A": async (world, route) => {
        const { client } = await pendingSignIn("b", "second_factor");
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(client, route, {
          body: { response: passkeyAnswerShape, userId: world.a.users.user.id },
        });
        expect(response.status).toBe(400);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  ),
  "POST /api/auth/step-up/passkey/options": noTenantData("names the caller's own passkeys only", {
    "answers firm B's user without a passkey: nothing of firm A is offered": async (world, route) => {
      const client = await signIn(ctx.app, await throwawayUser("user", "b"));
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(client, route, {});
      expect(response.status).toBe(409);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/account/factors/passkey/options": noTenantData("for the caller's own new passkey; it takes no id", {
    "names nothing of firm A": async (world, route) => {
      const caller = await throwawayUser("user", "b");
      const response = await send(await signIn(ctx.app, caller), route, {});
      expect(response.status).toBe(200);
      expect(response.body.excludeCredentials).toEqual([]);
      const foreign = await idsOfFirm(world.db, world.a.firm.id);
      expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
    },
  }),
  "POST /api/account/factors/passkey": noTenantData("adds to the caller's own factors; it takes no user id", {
    "refuses another firm's user id in the body and writes nothing in firm A": async (world, route) => {
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(world.bSuperAdmin, route, {
        body: { response: passkeyAnswerShape, userId: world.a.users.user.id },
      });
      expect(response.status).toBe(400);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "GET /api/users": listsOwnFirmOnly({
    ownIds: async (world) =>
      (await world.db.select({ id: users.id }).from(users).where(eq(users.firmId, world.b.firm.id))).map(
        (row) => row.id,
      ),
  }),
  "GET /api/users/:id": refusesForeignIds({
    "another firm's user is answered 404, like a user that does not exist": {
      request: (world) => ({ path: `/api/users/${world.a.users.admin.id}` }),
      message: "User not found",
    },
  }),
  "GET /api/users/:id/activity": refusesForeignIds({
    "another firm's user's activity is answered 404, like a user that does not exist": {
      request: (world) => ({ path: `/api/users/${world.a.users.user.id}/activity` }),
      message: "User not found",
    },
  }),
  "POST /api/users": {
    kind: "creates in own firm only",
    cases: {
      "refuses another firm's id in the body and writes nothing": async (world, route) => {
        const before = [await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)];
        const response = await send(world.bSuperAdmin, route, {
          body: { ...newUserBody("admin"), firmId: world.a.firm.id },
        });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe("VALIDATION_FAILED");
        const after = [await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)];
        expect(after).toEqual(before);
      },
      "puts the new user in the caller's firm and leaves the other firm alone": async (world, route) => {
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(world.bSuperAdmin, route, { body: newUserBody("admin") });
        expect(response.status).toBe(201);
        const [row] = await world.db.select({ firmId: users.firmId }).from(users).where(eq(users.id, response.body.id));
        expect(row?.firmId).toBe(world.b.firm.id);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  },
  "PATCH /api/users/:id": refusesForeignIds({
    "another firm's super admin cannot be renamed, demoted or disabled": {
      request: (world) => ({
        path: `/api/users/${world.a.users.super_admin.id}`,
        body: { fullName: "Taken Over", role: "user", disabled: true },
      }),
      message: "User not found",
    },
  }),
  "GET /api/user-clients": listsOwnFirmOnly({
    ownIds: async (world) =>
      (await world.db.select().from(userClients).where(eq(userClients.firmId, world.b.firm.id))).flatMap((link) => [
        link.userId,
        link.clientId,
      ]),
  }),
  "POST /api/user-clients/assign": refusesForeignIds({
    "another firm's user cannot have their clients taken away": {
      request: (world) => ({ body: { userId: world.a.users.user.id, clientIds: [] } }),
      message: "User not found",
    },
    "another firm's user cannot be given that firm's clients": {
      request: (world) => ({
        body: { userId: world.a.users.user.id, clientIds: world.a.clients.map((client) => client.id) },
      }),
      message: "User not found",
    },
    "another firm's clients cannot be assigned to one's own user, even mixed with one's own": {
      request: (world) => ({
        body: { userId: world.b.users.user.id, clientIds: [at(world.b.clients, 1).id, at(world.a.clients, 1).id] },
      }),
      message: "Client not found",
    },
  }),
  "GET /api/clients": listsOwnFirmOnly({
    ownIds: async (world) =>
      (await world.db.select({ id: clients.id }).from(clients).where(eq(clients.firmId, world.b.firm.id))).map(
        (row) => row.id,
      ),
  }),
  "GET /api/clients/name-matches": {
    kind: "lists own firm only",
    cases: {
      "another firm's client of the same name never counts": async (world, route) => {
        const name = unique("Twin Name Client");
        await insertClient(world.db, { firmId: world.a.firm.id, name });
        const path = `/api/clients/name-matches?name=${encodeURIComponent(name)}`;
        const before = await send(world.bSuperAdmin, route, { path });
        expect(before.status).toBe(200);
        expect(before.body).toEqual([]);
        // Once firm B has a client of that name, it answers that one and still nothing of firm A.
        const own = await insertClient(world.db, { firmId: world.b.firm.id, name: name.toUpperCase() });
        const after = await send(world.bSuperAdmin, route, { path });
        expect(after.status).toBe(200);
        expect(idsIn(after.body)).toEqual(new Set([own.id]));
      },
    },
  },
  "GET /api/clients/:id": refusesForeignIds({
    "another firm's client is answered 404, like a client that does not exist": {
      request: (world) => ({ path: `/api/clients/${world.a.assignedClient.id}` }),
      message: "Client not found",
    },
  }),
  "GET /api/reports/clients/:id": refusesForeignIds({
    "another firm's client is answered 404, like a client that does not exist": {
      request: (world) => ({ path: `/api/reports/clients/${world.a.assignedClient.id}` }),
      message: "Client not found",
    },
    "its CSV too": {
      request: (world) => ({ path: `/api/reports/clients/${world.a.assignedClient.id}?format=csv` }),
      message: "Client not found",
    },
  }),
  "GET /api/reports/users/:id": refusesForeignIds({
    "another firm's user is answered 404, like a user that does not exist": {
      request: (world) => ({ path: `/api/reports/users/${world.a.users.user.id}` }),
      message: "User not found",
    },
    "its CSV too": {
      request: (world) => ({ path: `/api/reports/users/${world.a.users.user.id}?format=csv` }),
      message: "User not found",
    },
  }),
  "POST /api/clients": {
    kind: "creates in own firm only",
    cases: {
      "refuses a firm id in the body and writes nothing": async (world, route) => {
        const before = [await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)];
        const response = await send(world.bSuperAdmin, route, { body: { name: "Takeover", firmId: world.a.firm.id } });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe("VALIDATION_FAILED");
        expect([await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)]).toEqual(
          before,
        );
      },
      "refuses another firm's templates and writes nothing": async (world, route) => {
        const template = await insertTaskTemplate(world.db, {
          firmId: world.a.firm.id,
          createdBy: world.a.users.admin.id,
        });
        const before = [await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)];
        const response = await send(world.bSuperAdmin, route, {
          body: { name: "Borrower", templateIds: [template.id] },
        });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ message: "Task template not found", code: "NOT_FOUND" });
        expect([await firmState(world.db, world.a.firm.id), await firmState(world.db, world.b.firm.id)]).toEqual(
          before,
        );
      },
      "puts the new client in the caller's firm and leaves the other firm alone": async (world, route) => {
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(world.bSuperAdmin, route, { body: { name: "Firm B Client" } });
        expect(response.status).toBe(201);
        const [row] = await world.db
          .select({ firmId: clients.firmId })
          .from(clients)
          .where(eq(clients.id, response.body.id));
        expect(row?.firmId).toBe(world.b.firm.id);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  },
  "POST /api/client-imports": {
    kind: "creates in own firm only",
    cases: {
      "keeps the import in the caller's firm and leaves the other firm alone": async (world, route) => {
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(world.bSuperAdmin, route, { body: Buffer.from("Company\nFirm B Import Ltd\n") });
        expect(response.status).toBe(201);
        const [row] = await world.db
          .select({ firmId: clientImports.firmId })
          .from(clientImports)
          .where(eq(clientImports.id, response.body.import.id));
        expect(row?.firmId).toBe(world.b.firm.id);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  },
  "GET /api/client-imports": listsOwnFirmOnly({
    ownIds: async (world) => {
      const rows = await world.db
        .select({ id: clientImports.id })
        .from(clientImports)
        .where(eq(clientImports.firmId, world.b.firm.id));
      return rows.map((row) => row.id);
    },
  }),
  "GET /api/client-imports/:id": refusesForeignIds({
    "another firm's import is answered 404, like one that does not exist": {
      request: async () => ({ path: `/api/client-imports/${await insertImport("a")}` }),
      message: "Import not found",
    },
  }),
  "GET /api/client-imports/:id/rows": refusesForeignIds({
    "another firm's import's rows are answered 404": {
      request: async () => ({ path: `/api/client-imports/${await insertImport("a")}/rows` }),
      message: "Import not found",
    },
  }),
  "PUT /api/client-imports/:id/mapping": refusesForeignIds({
    "another firm's import's mapping cannot be changed": {
      request: async () => ({
        path: `/api/client-imports/${await insertImport("a")}/mapping`,
        body: { mapping: { name: 0 } },
      }),
      message: "Import not found",
    },
  }),
  "POST /api/client-imports/:id/commit": refusesForeignIds({
    "another firm's import cannot be committed": {
      request: async () => ({
        path: `/api/client-imports/${await insertImport("a")}/commit`,
        body: { duplicates: "create" },
      }),
      message: "Import not found",
    },
  }),
  "POST /api/client-imports/:id/undo": refusesForeignIds({
    "another firm's import cannot be undone": {
      request: async () => ({ path: `/api/client-imports/${await insertImport("a", "done")}/undo` }),
      message: "Import not found",
    },
  }),
  "PATCH /api/clients/:id": refusesForeignIds({
    "another firm's client cannot be changed": {
      request: (world) => ({ path: `/api/clients/${world.a.assignedClient.id}`, body: { name: "Taken Over" } }),
      message: "Client not found",
    },
  }),
  "DELETE /api/clients/:id": refusesForeignIds({
    "another firm's client cannot be archived": {
      request: (world) => ({ path: `/api/clients/${world.a.assignedClient.id}` }),
      message: "Client not found",
    },
    "nor purged": {
      request: (world) => ({ path: `/api/clients/${at(world.a.clients, 2).id}?purge=true` }),
      message: "Client not found",
    },
  }),
  "POST /api/clients/:id/restore": refusesForeignIds({
    "another firm's client cannot be restored": {
      request: (world) => ({ path: `/api/clients/${world.a.assignedClient.id}/restore` }),
      message: "Client not found",
    },
  }),
  "POST /api/contacts": refusesForeignIds({
    "a contact cannot be added to another firm's client": {
      request: (world) => ({ body: { name: "Mole", clientId: world.a.assignedClient.id } }),
      message: "Client not found",
    },
  }),
  "GET /api/contacts/:id": refusesForeignIds({
    "another firm's contact is answered 404, like a contact that does not exist": {
      request: async (world) => ({ path: `/api/contacts/${(await contactOf(world, "a")).id}` }),
      message: "Contact not found",
    },
  }),
  "PATCH /api/contacts/:id": refusesForeignIds({
    "another firm's contact cannot be changed": {
      request: async (world) => ({
        path: `/api/contacts/${(await contactOf(world, "a")).id}`,
        body: { isPrimary: true },
      }),
      message: "Contact not found",
    },
  }),
  "DELETE /api/contacts/:id": refusesForeignIds({
    "another firm's contact cannot be removed": {
      request: async (world) => ({ path: `/api/contacts/${(await contactOf(world, "a")).id}` }),
      message: "Contact not found",
    },
  }),
  "GET /api/task-templates": listsOwnFirmOnly({
    ownIds: async (world) =>
      (
        await world.db
          .select({ id: taskTemplates.id })
          .from(taskTemplates)
          .where(and(eq(taskTemplates.firmId, world.b.firm.id), isNull(taskTemplates.deletedAt)))
      ).map((row) => row.id),
  }),
  "POST /api/task-templates": {
    kind: "creates in own firm only",
    cases: {
      "takes the firm and the author from the session, not from a createdBy of another firm": async (world, route) => {
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(world.bSuperAdmin, route, {
          body: { name: "Firm B template", description: "Ours.", createdBy: world.a.users.admin.id },
        });
        expect(response.status).toBe(201);
        expect(response.body.createdBy).toBe(world.b.users.super_admin.id);
        const [row] = await world.db
          .select({ firmId: taskTemplates.firmId })
          .from(taskTemplates)
          .where(eq(taskTemplates.id, response.body.id));
        expect(row?.firmId).toBe(world.b.firm.id);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  },
  "GET /api/task-templates/:id": refusesForeignIds({
    "another firm's template is answered 404, like a template that does not exist": {
      request: async (world) => ({ path: `/api/task-templates/${(await templateOf(world, "a")).id}` }),
      message: "Task template not found",
    },
  }),
  "PUT /api/task-templates/:id": refusesForeignIds({
    "another firm's template cannot be changed": {
      request: async (world) => ({
        path: `/api/task-templates/${(await templateOf(world, "a")).id}`,
        body: { name: "Taken Over", description: "Ours now." },
      }),
      message: "Task template not found",
    },
  }),
  "DELETE /api/task-templates/:id": refusesForeignIds({
    "another firm's template cannot be deleted": {
      request: async (world) => ({ path: `/api/task-templates/${(await templateOf(world, "a")).id}` }),
      message: "Task template not found",
    },
  }),
  "GET /api/template-library": noTenantData(
    "the curated library is the same for every firm; `added` and `nameInUse` reflect the caller's own templates",
    {
      "marks as added only what the caller's own firm added": async (world, route) => {
        await insertTaskTemplate(world.db, {
          firmId: world.a.firm.id,
          createdBy: world.a.users.admin.id,
          libraryKey: "annual-engagement-letter-renewal",
        });
        const response = await send(world.bSuperAdmin, route, {});
        expect(response.status).toBe(200);
        const entry = response.body.find((item: { key: string }) => item.key === "annual-engagement-letter-renewal");
        expect(entry?.added).toBe(false);
        expect(idsIn(response.body).size).toBe(0);
      },
      "marks a name as in use only for the caller's own firm's templates": async (world, route) => {
        const libraryEntry = at(templateLibrary, 0);
        await insertTaskTemplate(world.db, {
          firmId: world.a.firm.id,
          createdBy: world.a.users.admin.id,
          name: libraryEntry.name.toUpperCase(),
        });
        const response = await send(world.bSuperAdmin, route, {});
        expect(response.status).toBe(200);
        const entry = response.body.find((item: { key: string }) => item.key === libraryEntry.key);
        expect(entry?.nameInUse).toBe(false);
      },
    },
  ),
  "POST /api/template-library/:key/add": {
    kind: "creates in own firm only",
    cases: {
      "adds to the caller's firm even when another firm already has it": async (world, route) => {
        await insertTaskTemplate(world.db, {
          firmId: world.a.firm.id,
          createdBy: world.a.users.admin.id,
          libraryKey: "quarterly-estimated-tax-reminder",
        });
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(world.bSuperAdmin, route, {
          path: "/api/template-library/quarterly-estimated-tax-reminder/add",
        });
        expect(response.status).toBe(201);
        const [row] = await world.db
          .select({ firmId: taskTemplates.firmId })
          .from(taskTemplates)
          .where(eq(taskTemplates.id, response.body.id));
        expect(row?.firmId).toBe(world.b.firm.id);
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
      },
    },
  },
  "GET /api/due-date-rules": noTenantData(
    "the statutory rules Tendwell ships: the same for every firm, no firm's data",
    {
      "answers every firm alike": async (world, route) => {
        const forB = await send(world.bSuperAdmin, route, {});
        const forA = await send(world.as.user, route, {});
        expect(forB.status).toBe(200);
        expect(forB.text).toBe(forA.text);
      },
    },
  ),
  "GET /api/due-date-rules/:id/dates": noTenantData(
    "a rule's dates for a period, worked out from the rule alone: the same for every firm, no firm's data",
    {
      "answers every firm alike": async (world, route) => {
        const path = "/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31";
        const forB = await send(world.bSuperAdmin, route, { path });
        const forA = await send(world.as.user, route, { path });
        expect(forB.status).toBe(200);
        expect(forB.text).toBe(forA.text);
      },
    },
  ),
  "GET /api/holiday-calendars": noTenantData(
    "the holiday calendars Tendwell ships: the same for every firm, no firm's data",
    {
      "answers every firm alike": async (world, route) => {
        const forB = await send(world.bSuperAdmin, route, {});
        const forA = await send(world.as.user, route, {});
        expect(forB.status).toBe(200);
        expect(forB.text).toBe(forA.text);
      },
    },
  ),
  "GET /api/holiday-calendars/:id/days": noTenantData(
    "a calendar's holidays in a year: the same for every firm, no firm's data",
    {
      "answers every firm alike": async (world, route) => {
        const path = "/api/holiday-calendars/us-irs/days?year=2027";
        const forB = await send(world.bSuperAdmin, route, { path });
        const forA = await send(world.as.user, route, { path });
        expect(forB.status).toBe(200);
        expect(forB.text).toBe(forA.text);
      },
    },
  ),
  "GET /api/dashboard": noTenantData("answers counts, not rows; they must be the caller's firm's counts", {
    "counts firm B's clients and tasks, none of firm A's": async (world, route) => {
      const response = await send(world.bSuperAdmin, route, {});
      expect(response.status).toBe(200);
      const live = and(eq(clients.firmId, world.b.firm.id), isNull(clients.archivedAt));
      const [own] = await world.db.select({ n: count() }).from(clients).where(live);
      expect(response.body.clients.total).toBe(own?.n);
      const [ownTasks] = await world.db
        .select({ n: count() })
        .from(tasks)
        .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
        .where(live);
      expect(response.body.tasks.total).toBe(ownTasks?.n);
    },
  }),
  "GET /api/firm": noTenantData("describes the caller's own firm, from their session", {
    "gives firm B's super admin firm B": async (world, route) => {
      const response = await send(world.bSuperAdmin, route, {});
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(world.b.firm.id);
    },
  }),
  "PATCH /api/firm": noTenantData("changes the caller's own firm; it takes no firm id", {
    "refuses a firm id in the body and leaves the other firm alone": async (world, route) => {
      const before = await world.db.select().from(firms).where(eq(firms.id, world.a.firm.id));
      const response = await send(world.bSuperAdmin, route, { body: { name: "Taken Over", id: world.a.firm.id } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_FAILED");
      expect(await world.db.select().from(firms).where(eq(firms.id, world.a.firm.id))).toEqual(before);
    },
  }),
  "GET /api/billing": noTenantData("describes the caller's own firm's plan, from their session", {
    "gives firm B's super admin firm B's plan": async (world, route) => {
      const response = await send(world.bSuperAdmin, route, {});
      expect(response.status).toBe(200);
      expect(response.body.plan).toBe(world.b.firm.plan);
      expect(response.text).not.toContain(world.a.firm.id);
    },
  }),
  "PUT /api/billing/plan": noTenantData("changes the caller's own firm's plan; it takes no firm id", {
    "refuses a firm id in the body and leaves the other firm alone": async (world, route) => {
      const before = await world.db.select().from(firms).where(eq(firms.id, world.a.firm.id));
      const response = await send(world.bSuperAdmin, route, { body: { plan: "enterprise", firmId: world.a.firm.id } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_FAILED");
      expect(await world.db.select().from(firms).where(eq(firms.id, world.a.firm.id))).toEqual(before);
    },
  }),
  "POST /api/create-subscription-setup": noTenantData("the payment step, before any firm exists; it takes no firm id", {
    "touches no firm (409 without card payments, as in these tests)": async (world, route) => {
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(world.bSuperAdmin, route, {
        body: { email: "someone@example.com", fullName: "Some One", plan: "starter" },
      });
      expect(response.status).toBe(409);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "POST /api/stripe/webhook": noTenantData("Stripe's signed events, not a caller's; without card payments a 404", {
    "touches no firm": async (world, route) => {
      const before = await firmState(world.db, world.a.firm.id);
      const response = await send(world.bSuperAdmin, route, {
        body: { id: "evt_1", type: "customer.subscription.deleted" },
      });
      expect(response.status).toBe(404);
      expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
    },
  }),
  "GET /api/audit-events": {
    kind: "lists own firm only",
    cases: {
      "answers the caller's firm's newest events and not one id of another firm": async (world, route) => {
        const response = await send(world.bSuperAdmin, route, {});
        expect(response.status).toBe(200);
        const newest = await world.db
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(eq(auditEvents.firmId, world.b.firm.id))
          .orderBy(desc(auditEvents.seq))
          .limit(100);
        expect(newest.length).toBeGreaterThan(0);
        expect(response.body.map((event: { id: string }) => event.id)).toEqual(newest.map((row) => row.id));
        const foreign = await idsOfFirm(world.db, world.a.firm.id);
        expect([...idsIn(response.body)].filter((id) => foreign.has(id))).toEqual([]);
      },
      "finds nothing when asked for another firm's user or entity": async (world, route) => {
        for (const query of [`userId=${world.a.users.super_admin.id}`, `entityId=${world.a.users.admin.id}`]) {
          const response = await send(world.bSuperAdmin, route, { path: `${route.url}?${query}` });
          expect(response.status).toBe(200);
          expect(response.body).toEqual([]);
        }
      },
    },
  },
  "GET /api/mail-outbox": {
    kind: "lists own firm only",
    cases: {
      "answers the caller's firm's messages and not one id of another firm": async (world, route) => {
        // A message in each firm, so the outbox has something of its own to show and to hide.
        for (const firm of [world.a, world.b]) await insertOutboxMessage(world.db, firm.users.user);
        const ofFirm = async (firmId: string) =>
          (await world.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.firmId, firmId))).map(
            (row) => row.id,
          );
        const response = await send(world.bSuperAdmin, route, {});
        expect(response.status).toBe(200);
        const returned = idsIn(response.body);
        const foreign = new Set([...(await idsOfFirm(world.db, world.a.firm.id)), ...(await ofFirm(world.a.firm.id))]);
        expect([...returned].filter((id) => foreign.has(id))).toEqual([]);
        const own = await ofFirm(world.b.firm.id);
        expect(own.length).toBeGreaterThan(0);
        expect(response.body.messages.map((message: { id: string }) => message.id).sort()).toEqual(own.sort());
      },
    },
  },
  "GET /api/audit-events/verify": noTenantData("walks the caller's own firm's chain; it takes no firm id", {
    "counts firm B's events, not firm A's": async (world, route) => {
      const response = await send(world.bSuperAdmin, route, {});
      const [own] = await world.db
        .select({ n: count() })
        .from(auditEvents)
        .where(eq(auditEvents.firmId, world.b.firm.id));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ intact: true, events: own?.n, total: own?.n, checkpoint: { seq: own?.n } });
      const full = await world.bSuperAdmin.get("/api/audit-events/verify?full=true");
      expect(full.body).toMatchObject({ intact: true, events: own?.n, total: own?.n, next: null });
    },
  }),
  "GET /api/tasks": listsOwnFirmOnly({
    ownIds: async (world) =>
      (
        await world.db
          .select({ id: tasks.id })
          .from(tasks)
          .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
          .where(and(eq(tasks.firmId, world.b.firm.id), isNull(clients.archivedAt)))
      ).map((row) => row.id),
  }),
  "GET /api/tasks/overdue": listsOwnFirmOnly({
    ownIds: async (world) =>
      (
        await world.db
          .select({ id: tasks.id })
          .from(tasks)
          .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
          .where(
            and(
              eq(tasks.firmId, world.b.firm.id),
              isNull(clients.archivedAt),
              eq(tasks.status, "pending"),
              lt(tasks.dueDate, new Date()),
            ),
          )
      ).map((row) => row.id),
  }),
  "POST /api/tasks": refusesForeignIds({
    "a task cannot be added to another firm's client": {
      request: (world) => ({ body: { name: "Planted", clientId: world.a.assignedClient.id } }),
      message: "Client not found",
    },
    "nor made from another firm's template": {
      request: async (world) => ({
        body: { name: "Borrowed", clientId: world.b.assignedClient.id, templateId: (await templateOf(world, "a")).id },
      }),
      message: "Task template not found",
    },
  }),
  "GET /api/tasks/:id": refusesForeignIds({
    "another firm's task is answered 404, like a task that does not exist": {
      request: async (world) => ({ path: `/api/tasks/${(await taskOf(world, "a")).id}` }),
      message: "Task not found",
    },
  }),
  "GET /api/tasks/:id/signature": refusesForeignIds({
    "another firm's signature is answered 404, like a task not signed off": {
      request: async (world) => ({ path: `/api/tasks/${(await signedTaskOf(world, "a")).id}/signature` }),
      message: "Signature not found",
    },
  }),
  "PATCH /api/tasks/:id": refusesForeignIds({
    "another firm's task cannot be changed": {
      request: async (world) => ({ path: `/api/tasks/${(await taskOf(world, "a")).id}`, body: { name: "Changed" } }),
      message: "Task not found",
    },
  }),
  "DELETE /api/tasks/:id": refusesForeignIds({
    "another firm's task cannot be deleted": {
      request: async (world) => ({ path: `/api/tasks/${(await taskOf(world, "a")).id}` }),
      message: "Task not found",
    },
  }),
  "GET /api/tasks/:id/due-dates": refusesForeignIds({
    "another firm's task's due dates are answered 404, like a task that does not exist": {
      request: async (world) => ({ path: `/api/tasks/${(await ruleTaskOf(world, "a")).id}/due-dates` }),
      message: "Task not found",
    },
  }),
  "POST /api/tasks/:id/extension": refusesForeignIds({
    "no extension can be filed on another firm's task": {
      request: async (world) => ({ path: `/api/tasks/${(await ruleTaskOf(world, "a")).id}/extension` }),
      message: "Task not found",
    },
  }),
  "POST /api/tasks/:id/due-date": refusesForeignIds({
    "another firm's task's due day cannot be moved": {
      request: async (world) => ({
        path: `/api/tasks/${(await ruleTaskOf(world, "a")).id}/due-date`,
        body: { dueOn: "2027-05-03", reason: "Intrusion" },
      }),
      message: "Task not found",
    },
  }),
  "GET /api/disaster-reliefs": {
    kind: "lists own firm only",
    cases: {
      "answers the caller's firm's reliefs and not one id of another firm": async (world, route) => {
        // A relief in each firm, so the list has something of its own to show and to hide.
        const ids = { a: uuidv7(), b: uuidv7() };
        for (const firm of ["a", "b"] as const)
          await world.db
            .insert(disasterReliefs)
            .values({ ...reliefValues, id: ids[firm], firmId: world[firm].firm.id });
        const response = await send(world.bSuperAdmin, route, {});
        expect(response.status).toBe(200);
        const returned = idsIn(response.body);
        expect(returned.has(ids.b)).toBe(true);
        expect(returned.has(ids.a)).toBe(false);
        const foreign = await idsOfFirm(world.db, world.a.firm.id);
        expect([...returned].filter((id) => foreign.has(id))).toEqual([]);
      },
    },
  },
  "POST /api/disaster-reliefs": {
    kind: "creates in own firm only",
    cases: {
      "moves only the caller's firm's tasks, whatever states it names": async (world, route) => {
        const foreign = await ruleTaskOf(world, "a");
        await world.db.update(clients).set({ jurisdiction: "US", state: "FL" }).where(eq(clients.id, foreign.clientId));
        const before = await firmState(world.db, world.a.firm.id);
        const response = await send(world.bSuperAdmin, route, {
          body: { ...reliefValues, windowStart: "2027-04-01", windowEnd: "2027-06-30", newDueOn: "2027-07-15" },
        });
        expect(response.status).toBe(201);
        const [row] = await world.db.select().from(tasks).where(eq(tasks.id, foreign.id));
        expect(row).toMatchObject({ dueOn: foreign.dueOn, dueDate: foreign.dueDate, dueOverride: null });
        expect(await firmState(world.db, world.a.firm.id)).toEqual(before);
        await world.db.update(clients).set({ jurisdiction: null, state: null }).where(eq(clients.id, foreign.clientId));
      },
    },
  },
  "PATCH /api/tasks/:id/complete": refusesForeignIds({
    "another firm's task cannot be signed off": {
      request: async (world) => ({
        path: `/api/tasks/${(await taskOf(world, "a")).id}/complete`,
        body: { printedName: "Intruder", signature: signatureDataUrl() },
      }),
      message: "Task not found",
    },
  }),
};

/** A fresh pending task on the assigned client of the given firm. */
const taskOf = (world: World, firm: "a" | "b") =>
  insertTask(world.db, { firmId: world[firm].firm.id, clientId: world[firm].assignedClient.id });

/** A fresh pending task following us-1040 on the assigned client of the given firm. */
const ruleTaskOf = (world: World, firm: "a" | "b") =>
  insertRuleTask(world.db, { firmId: world[firm].firm.id, clientId: world[firm].assignedClient.id });

/** A disaster relief's fields, as recorded (in the past, so recording it moves no seeded task). */
const reliefValues = {
  name: "Matrix Storm",
  states: ["FL"],
  windowStart: "2020-04-01",
  windowEnd: "2020-06-30",
  newDueOn: "2020-07-15",
  sourceUrl: "https://www.irs.gov/newsroom/tax-relief-in-disaster-situations",
};

/** A fresh signed-off task on the assigned client of the given firm. */
const signedTaskOf = (world: World, firm: "a" | "b") =>
  insertTask(world.db, {
    firmId: world[firm].firm.id,
    clientId: world[firm].assignedClient.id,
    completed: { by: world[firm].users.admin },
  });

/** A real drawn signature, as the completion dialog sends it. */
const signatureDataUrl = () => drawSignature("Matrix Signer", createRandom(7)).dataUrl;

/** A fresh template of the given firm. */
const templateOf = (world: World, firm: "a" | "b") =>
  insertTaskTemplate(world.db, { firmId: world[firm].firm.id, createdBy: world[firm].users.admin.id });

/** A fresh contact on a client of the given firm. */
const contactOf = (world: World, firm: "a" | "b") =>
  insertContact(world.db, { firmId: world[firm].firm.id, clientId: world[firm].assignedClient.id });

const tenantIsolationSuite = () =>
  describe("tenant isolation: no route lets one firm reach another's data", () => {
    it("has a row for every /api route the app serves", () => {
      const missing = routeKeys().filter((key) => !(key in tenantMatrix));
      expect(missing, `routes without a tenant isolation row: ${missing.join(", ")}`).toEqual([]);
      const stale = Object.keys(tenantMatrix).filter((key) => !routeKeys().includes(key));
      expect(stale, `rows for routes the app does not serve: ${stale.join(", ")}`).toEqual([]);
    });

    for (const [key, row] of Object.entries(tenantMatrix)) {
      const title = row.kind === "no tenant data" ? `${key} (no tenant data: ${row.reason})` : `${key} (${row.kind})`;
      describe(title, () => {
        for (const [name, check] of Object.entries(row.cases)) {
          it(name, () => check(w(), parseKey(key)));
        }
      });
    }
  });

// ---------------------------------------------------------------------------------------------
// 2. Role matrix: who may call each route, inside their own firm.

const callers = ["anonymous", "super_admin", "admin", "user"] as const;
type Caller = (typeof callers)[number];

type RoleRow = {
  /** The access rule the route should declare; checked against app.apiRoutes. */
  access: RouteAccess;
  /** S-ROLE-07..17, written out by hand (not read from `policies`): may this caller use the route? */
  allowed: Record<Caller, boolean>;
  /** The status a permitted caller's valid request gets. */
  ok: number;
  /**
   * The session a case uses. "shared" (default): the role's one signed-in session. "freshSession": a
   * new session of the same user, for routes that end or replace the caller's session.
   * "freshUser": a new user of the role, for routes that change the caller's own account.
   */
  session?: "shared" | "freshSession" | "freshUser";
  /**
   * A valid-looking request inside firm A by `actor`; path defaults to the route's url. The request
   * sent without a session is the one built for a super admin.
   */
  request: (world: World, actor: SeededUser) => RequestSpec | Promise<RequestSpec>;
};

const everyone = { anonymous: true, super_admin: true, admin: true, user: true } as const;
const signedIn = { anonymous: false, super_admin: true, admin: true, user: true } as const;
const nobody = { anonymous: false, super_admin: false, admin: false, user: false } as const;

// One row per /api route. A new route needs a row here: a missing one fails the suite.
const roleMatrix: Record<string, RoleRow> = {
  "GET /api/health": { access: "public", allowed: everyone, ok: 200, request: () => ({}) },
  "GET /api/docs": { access: "public", allowed: everyone, ok: 200, request: () => ({}) },
  "GET /api/blog": { access: "public", allowed: everyone, ok: 200, request: () => ({}) },
  "GET /api/billing/config": { access: "public", allowed: everyone, ok: 200, request: () => ({}) },
  "GET /api/blog/:slug": {
    access: "public",
    allowed: everyone,
    ok: 200,
    request: () => ({ path: `/api/blog/${knownBlogSlug}` }),
  },
  "POST /api/auth/register": {
    access: "public",
    allowed: everyone,
    ok: 201,
    session: "freshSession",
    request: () => ({ body: registrationBody() }),
  },
  "POST /api/auth/login": {
    access: "public",
    allowed: everyone,
    ok: 200,
    session: "freshSession",
    request: (_world, actor) => ({ body: { username: actor.username, password: actor.password } }),
  },
  "POST /api/auth/logout": {
    access: "public",
    allowed: everyone,
    ok: 204,
    session: "freshSession",
    request: () => ({}),
  },
  "GET /api/auth/me": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  "POST /api/auth/change-password": {
    access: "signedIn",
    allowed: signedIn,
    ok: 204,
    session: "freshUser",
    request: (_world, actor) => ({ body: { currentPassword: actor.password, newPassword: strongPassword() } }),
  },
  // Only a sign-in waiting for its second step reaches these: no session of any role does (src/server/features/mfa/mfa.test.ts
  // walks them with one).
  "GET /api/auth/second-step": { access: "pendingSignIn", allowed: nobody, ok: 200, request: () => ({}) },
  "POST /api/auth/second-step": {
    access: "pendingSignIn",
    allowed: nobody,
    ok: 200,
    request: () => ({ body: { method: "totp", code: "123456" } }),
  },
  "POST /api/auth/second-step/totp": { access: "pendingSignIn", allowed: nobody, ok: 200, request: () => ({}) },
  "POST /api/auth/second-step/totp/confirm": {
    access: "pendingSignIn",
    allowed: nobody,
    ok: 200,
    request: () => ({ body: { code: "123456" } }),
  },
  "POST /api/auth/step-up": {
    access: "signedIn",
    allowed: signedIn,
    ok: 204,
    session: "freshUser",
    request: (_world, actor) => ({ body: { method: "password", password: actor.password } }),
  },
  "GET /api/account/security": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  // Every role may have a calendar feed of its own (decision 0047); each case acts on a new user's.
  "GET /api/account/calendar-feed": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  "POST /api/account/calendar-feed": {
    access: "signedIn",
    allowed: signedIn,
    ok: 201,
    session: "freshUser",
    request: () => ({ body: {} }),
  },
  "PUT /api/account/calendar-feed": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: async (_world, actor) => {
      await insertCalendarFeed(actor);
      return { body: { hideClientNames: true } };
    },
  },
  "POST /api/account/calendar-feed/regenerate": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: async (_world, actor) => {
      await insertCalendarFeed(actor);
      return {};
    },
  },
  "DELETE /api/account/calendar-feed": {
    access: "signedIn",
    allowed: signedIn,
    ok: 204,
    session: "freshUser",
    request: async (_world, actor) => {
      await insertCalendarFeed(actor);
      return {};
    },
  },
  // Public: a calendar app holds no session, only the feed's secret address.
  "GET /api/calendar-feeds/:token.ics": {
    access: "public",
    allowed: everyone,
    ok: 200,
    request: async () => ({ path: `/api/calendar-feeds/${await insertCalendarFeed(await throwawayUser())}.ics` }),
  },
  "GET /api/account/notification-preferences": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  "PUT /api/account/notification-preferences": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: () => ({ body: { dueSoonDays: 7, overdueAlerts: false, digest: "weekly" } }),
  },
  "GET /api/unsubscribe/:token": {
    access: "public",
    allowed: everyone,
    ok: 200,
    request: async () => ({ path: `/api/unsubscribe/${unsubscribeSecret(await throwawayUser())}` }),
  },
  // Public: a mail program's one click holds no session, only the signed address.
  "POST /api/unsubscribe/:token": {
    access: "public",
    allowed: everyone,
    ok: 200,
    request: async () => ({ path: `/api/unsubscribe/${unsubscribeSecret(await throwawayUser())}` }),
  },
  // The sensitive ones run in a session of their own: its sign-in is the fresh proof the step-up wants.
  "POST /api/account/factors/totp": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: () => ({}),
  },
  "POST /api/account/factors/totp/confirm": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: async (_world, actor) => ({
      body: { code: (await insertTotpFactor(actor, { confirmed: false })).code() },
    }),
  },
  "PATCH /api/account/factors/:id": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: async (_world, actor) => ({
      path: `/api/account/factors/${(await insertTotpFactor(actor)).id}`,
      body: { name: "Renamed phone" },
    }),
  },
  "DELETE /api/account/factors/:id": {
    access: "signedIn",
    allowed: signedIn,
    ok: 204,
    session: "freshUser",
    // Two factors: the firm requires one, so the last may not go.
    request: async (_world, actor) => {
      await insertTotpFactor(actor);
      return { path: `/api/account/factors/${(await insertTotpFactor(actor)).id}` };
    },
  },
  "POST /api/account/recovery-codes": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: async (_world, actor) => {
      await insertTotpFactor(actor);
      return {};
    },
  },
  // The firm's sign-in policy and resets are the super admin's alone.
  "PUT /api/firm/mfa-policy": {
    access: "security.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    session: "freshSession",
    request: () => ({ body: { policy: "optional" } }),
  },
  "DELETE /api/users/:id/factors": {
    access: "security.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 204,
    session: "freshSession",
    request: async () => {
      const member = await throwawayUser("user");
      await insertTotpFactor(member);
      return { path: `/api/users/${member.id}/factors` };
    },
  },
  // A passkey's answer signs the challenge of an options call made by the same browser (its cookie):
  // these tables' requests cannot carry one, so a permitted caller's request is refused as "not
  // accepted" (400), past the access rule. src/server/features/mfa/passkeys.test.ts walks them with a real signature.
  "POST /api/auth/passkey/options": { access: "public", allowed: everyone, ok: 200, request: () => ({}) },
  "POST /api/auth/passkey": {
    access: "public",
    allowed: everyone,
    ok: 400,
    session: "freshSession",
    request: () => ({ body: { response: passkeyAnswerShape } }),
  },
  "POST /api/auth/second-step/passkey/options": {
    access: "pendingSignIn",
    allowed: nobody,
    ok: 200,
    request: () => ({}),
  },
  "POST /api/auth/second-step/passkey": {
    access: "pendingSignIn",
    allowed: nobody,
    ok: 200,
    request: () => ({ body: { response: passkeyAnswerShape } }),
  },
  // A user without a passkey is told to use another way (409).
  "POST /api/auth/step-up/passkey/options": {
    access: "signedIn",
    allowed: signedIn,
    ok: 409,
    session: "freshUser",
    request: () => ({}),
  },
  "POST /api/account/factors/passkey/options": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    session: "freshUser",
    request: () => ({}),
  },
  "POST /api/account/factors/passkey": {
    access: "signedIn",
    allowed: signedIn,
    ok: 400,
    session: "freshUser",
    request: () => ({ body: { response: passkeyRegistrationShape } }),
  },
  // S-ROLE-07..17 have no row for viewing the firm's users; every role may (a user needs names to assign work).
  "GET /api/users": { access: "users.read", allowed: signedIn, ok: 200, request: () => ({}) },
  "GET /api/users/:id": {
    access: "users.read",
    allowed: signedIn,
    ok: 200,
    request: (world) => ({ path: `/api/users/${world.a.users.admin.id}` }),
  },
  // The profile's activity follows "reports: user audit": super_admin and admin any user, a user
  // themself (the finer rules below: another user's is a 403).
  "GET /api/users/:id/activity": {
    access: "reports.userAudit",
    allowed: signedIn,
    ok: 200,
    request: (_world, actor) => ({ path: `/api/users/${actor.id}/activity` }),
  },
  // "create users": super_admin any role, admin admin or user, user no.
  "POST /api/users": {
    access: "users.create",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: () => ({ body: newUserBody("user") }),
  },
  // Changing users goes with creating them: super_admin and admin yes, user no.
  "PATCH /api/users/:id": {
    access: "users.update",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async () => ({ path: `/api/users/${(await throwawayUser("user")).id}`, body: { fullName: "Renamed" } }),
  },
  // Everyone sees assignments; a user only their own (see the finer rules below).
  "GET /api/user-clients": { access: "assignments.read", allowed: signedIn, ok: 200, request: () => ({}) },
  // "assign clients to users": super_admin yes, admin no, user no.
  "POST /api/user-clients/assign": {
    access: "assignments.write",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    request: async (world) => ({
      body: { userId: (await throwawayUser("user")).id, clientIds: [at(world.a.clients, 2).id] },
    }),
  },
  // S-ROLE-07..08: everyone sees clients (a user only assigned ones); creating and editing clients
  // and contacts is for super_admin and admin.
  "GET /api/clients": { access: "clients.read", allowed: signedIn, ok: 200, request: () => ({}) },
  "GET /api/clients/name-matches": {
    access: "clients.read",
    allowed: signedIn,
    ok: 200,
    request: (world) => ({
      path: `/api/clients/name-matches?name=${encodeURIComponent(world.a.assignedClient.name)}`,
    }),
  },
  "GET /api/clients/:id": {
    access: "clients.read",
    allowed: signedIn,
    ok: 200,
    request: (world) => ({ path: `/api/clients/${world.a.assignedClient.id}` }),
  },
  "POST /api/clients": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: () => ({ body: { name: unique("Role Matrix Client") } }),
  },
  // Importing clients is creating them: super_admin and admin.
  "POST /api/client-imports": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: () => ({ body: Buffer.from(`Company\n${unique("Role Matrix Import")}\n`) }),
  },
  "GET /api/client-imports": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: () => ({}),
  },
  "GET /api/client-imports/:id": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async () => ({ path: `/api/client-imports/${await insertImport("a")}` }),
  },
  "GET /api/client-imports/:id/rows": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async () => ({ path: `/api/client-imports/${await insertImport("a")}/rows` }),
  },
  "PUT /api/client-imports/:id/mapping": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async () => ({
      path: `/api/client-imports/${await insertImport("a")}/mapping`,
      body: { mapping: { name: 0 } },
    }),
  },
  "POST /api/client-imports/:id/commit": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 202,
    request: async () => ({
      path: `/api/client-imports/${await insertImport("a")}/commit`,
      body: { duplicates: "create" },
    }),
  },
  "POST /api/client-imports/:id/undo": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 202,
    request: async () => ({ path: `/api/client-imports/${await insertImport("a", "done")}/undo` }),
  },
  "PATCH /api/clients/:id": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: (world) => ({ path: `/api/clients/${world.a.assignedClient.id}`, body: { phone: "(415) 555-0100" } }),
  },
  "DELETE /api/clients/:id": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 204,
    request: async (world) => ({
      path: `/api/clients/${(await insertClient(world.db, { firmId: world.a.firm.id })).id}`,
    }),
  },
  "POST /api/clients/:id/restore": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async (world) => ({
      path: `/api/clients/${(await insertClient(world.db, { firmId: world.a.firm.id, archivedAt: new Date() })).id}/restore`,
    }),
  },
  "POST /api/contacts": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: (world) => ({ body: { name: "Role Matrix Contact", clientId: world.a.assignedClient.id } }),
  },
  // A `user` reads a contact of an assigned client (the finer rules: another client's is a 404).
  "GET /api/contacts/:id": {
    access: "clients.read",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/contacts/${(await contactOf(world, "a")).id}` }),
  },
  "PATCH /api/contacts/:id": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async (world) => ({
      path: `/api/contacts/${(await contactOf(world, "a")).id}`,
      body: { title: "Partner" },
    }),
  },
  "DELETE /api/contacts/:id": {
    access: "clients.write",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 204,
    request: async (world) => ({ path: `/api/contacts/${(await contactOf(world, "a")).id}` }),
  },
  // S-ROLE-10..12: every role views templates; super_admin and admin create them; only
  // super_admin edits and deletes them.
  "GET /api/task-templates": { access: "templates.read", allowed: signedIn, ok: 200, request: () => ({}) },
  "POST /api/task-templates": {
    access: "templates.create",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: () => ({ body: { name: unique("Role Matrix Template"), description: "Checks the matrix." } }),
  },
  "GET /api/task-templates/:id": {
    access: "templates.read",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/task-templates/${(await templateOf(world, "a")).id}` }),
  },
  "PUT /api/task-templates/:id": {
    access: "templates.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    request: async (world) => ({
      path: `/api/task-templates/${(await templateOf(world, "a")).id}`,
      body: { name: "Renamed Template", description: "Changed.", priority: "low" },
    }),
  },
  "DELETE /api/task-templates/:id": {
    access: "templates.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 204,
    request: async (world) => ({ path: `/api/task-templates/${(await templateOf(world, "a")).id}` }),
  },
  "GET /api/template-library": { access: "templates.read", allowed: signedIn, ok: 200, request: () => ({}) },
  // "create templates": adding one from the library creates a template.
  "POST /api/template-library/:key/add": {
    access: "templates.create",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: async (world) => {
      // A key the firm has not added yet, so each permitted caller's request can succeed.
      const taken = new Set(
        (
          await world.db
            .select({ key: taskTemplates.libraryKey })
            .from(taskTemplates)
            .where(eq(taskTemplates.firmId, world.a.firm.id))
        ).map((row) => row.key),
      );
      const key = templateLibrary.find((template) => !taken.has(template.key))?.key;
      return { path: `/api/template-library/${key}/add` };
    },
  },
  "GET /api/due-date-rules": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  "GET /api/due-date-rules/:id/dates": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    request: () => ({ path: "/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31" }),
  },
  "GET /api/holiday-calendars": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  "GET /api/holiday-calendars/:id/days": {
    access: "signedIn",
    allowed: signedIn,
    ok: 200,
    request: () => ({ path: "/api/holiday-calendars/us-irs/days?year=2027" }),
  },
  "GET /api/dashboard": { access: "clients.read", allowed: signedIn, ok: 200, request: () => ({}) },
  // S-ROLE-15..16: everyone sees client reports (a user on assigned clients) and user reports (a user on themself).
  "GET /api/reports/clients/:id": {
    access: "reports.clientAudit",
    allowed: signedIn,
    ok: 200,
    request: (world) => ({ path: `/api/reports/clients/${world.a.assignedClient.id}` }),
  },
  "GET /api/reports/users/:id": {
    access: "reports.userAudit",
    allowed: signedIn,
    ok: 200,
    request: (_world, actor) => ({ path: `/api/reports/users/${actor.id}` }),
  },
  "GET /api/firm": { access: "signedIn", allowed: signedIn, ok: 200, request: () => ({}) },
  // Like billing (S-ROLE-17), the firm's settings belong to the super admin alone.
  "PATCH /api/firm": {
    access: "firm.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    request: () => ({ body: { timeZone: "UTC" } }),
  },
  // S-ROLE-07, S-ROLE-09: everyone sees tasks (a user those of assigned clients); creating, changing
  // and completing tasks is open to a user on their assigned clients.
  // The audit trail is evidence for those who answer for the firm: super admins and admins.
  // Billing and the plan belong to the super admin alone (S-ROLE-17).
  "GET /api/billing": {
    access: "billing.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    request: () => ({}),
  },
  "PUT /api/billing/plan": {
    access: "billing.manage",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    request: () => ({ body: { plan: "professional" } }),
  },
  // Public: the payment step runs before an account exists. Without card payments (as here) a 409.
  "POST /api/create-subscription-setup": {
    access: "public",
    allowed: everyone,
    ok: 409,
    request: () => ({ body: { email: "someone@example.com", fullName: "Some One", plan: "starter" } }),
  },
  // Stripe's own calls, proven by their signature; without card payments (as here) a 404.
  "POST /api/stripe/webhook": {
    access: "public",
    allowed: everyone,
    ok: 404,
    request: () => ({ body: { id: "evt_1", type: "customer.subscription.deleted" } }),
  },
  "GET /api/audit-events": {
    access: "audit.read",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: (world) => ({ path: `/api/audit-events?entity=user&userId=${world.a.users.admin.id}&limit=5` }),
  },
  "GET /api/mail-outbox": {
    access: "mail.read",
    allowed: { anonymous: false, super_admin: true, admin: false, user: false },
    ok: 200,
    request: () => ({ path: "/api/mail-outbox?status=kept" }),
  },
  "GET /api/audit-events/verify": {
    access: "audit.read",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: () => ({}),
  },
  "GET /api/tasks": { access: "clients.read", allowed: signedIn, ok: 200, request: () => ({}) },
  "GET /api/tasks/overdue": { access: "clients.read", allowed: signedIn, ok: 200, request: () => ({}) },
  "POST /api/tasks": {
    access: "tasks.create",
    allowed: signedIn,
    ok: 201,
    request: (world) => ({ body: { name: "Role Matrix Task", clientId: world.a.assignedClient.id, dueDate: null } }),
  },
  "GET /api/tasks/:id": {
    access: "clients.read",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/tasks/${(await taskOf(world, "a")).id}` }),
  },
  "GET /api/tasks/:id/signature": {
    access: "clients.read",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/tasks/${(await signedTaskOf(world, "a")).id}/signature` }),
  },
  "PATCH /api/tasks/:id": {
    access: "tasks.create",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/tasks/${(await taskOf(world, "a")).id}`, body: { priority: "high" } }),
  },
  "DELETE /api/tasks/:id": {
    access: "tasks.create",
    allowed: signedIn,
    ok: 204,
    request: async (world) => ({ path: `/api/tasks/${(await taskOf(world, "a")).id}` }),
  },
  "GET /api/tasks/:id/due-dates": {
    access: "clients.read",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/tasks/${(await ruleTaskOf(world, "a")).id}/due-dates` }),
  },
  "POST /api/tasks/:id/extension": {
    access: "tasks.create",
    allowed: signedIn,
    ok: 200,
    request: async (world) => ({ path: `/api/tasks/${(await ruleTaskOf(world, "a")).id}/extension` }),
  },
  "POST /api/tasks/:id/due-date": {
    access: "dueDates.override",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 200,
    request: async (world) => ({
      path: `/api/tasks/${(await ruleTaskOf(world, "a")).id}/due-date`,
      body: { dueOn: "2027-05-03", reason: "Matrix" },
    }),
  },
  "GET /api/disaster-reliefs": { access: "clients.read", allowed: signedIn, ok: 200, request: () => ({}) },
  "POST /api/disaster-reliefs": {
    access: "dueDates.override",
    allowed: { anonymous: false, super_admin: true, admin: true, user: false },
    ok: 201,
    request: () => ({ body: reliefValues }),
  },
  "PATCH /api/tasks/:id/complete": {
    access: "tasks.complete",
    allowed: signedIn,
    ok: 200,
    request: async (world, actor) => ({
      path: `/api/tasks/${(await taskOf(world, "a")).id}/complete`,
      body: { completedBy: actor.fullName, printedName: actor.fullName, signature: signatureDataUrl() },
    }),
  },
};

async function actorFor(world: World, caller: Caller, row: RoleRow): Promise<{ user: SeededUser; client: ApiClient }> {
  const role: Role = caller === "anonymous" ? "super_admin" : caller;
  const session = row.session ?? "shared";
  const user = session === "freshUser" ? await throwawayUser(role) : world.a.users[role];
  if (caller === "anonymous") return { user, client: apiClient(ctx.app) };
  if (session === "shared") return { user, client: world.as[role] };
  return { user, client: await signIn(ctx.app, user) };
}

const roleMatrixSuite = () =>
  describe("role matrix: each role may call exactly the routes the role rules give it", () => {
    it("has a row for every /api route the app serves", () => {
      const missing = routeKeys().filter((key) => !(key in roleMatrix));
      expect(missing, `routes without a role matrix row: ${missing.join(", ")}`).toEqual([]);
      const stale = Object.keys(roleMatrix).filter((key) => !routeKeys().includes(key));
      expect(stale, `rows for routes the app does not serve: ${stale.join(", ")}`).toEqual([]);
    });

    it("agrees with each route's declared access rule and with the role table", () => {
      const disagreements: string[] = [];
      for (const route of ctx.app.apiRoutes) {
        const key = `${route.method} ${route.url}`;
        const row = roleMatrix[key];
        if (!row) continue; // reported by the test above
        if (row.access !== route.access) {
          disagreements.push(`${key}: the table says access "${row.access}", the route declares "${route.access}"`);
        }
        const expected: Record<Caller, boolean> = {
          anonymous: route.access === "public",
          super_admin: allowsRole(route.access, "super_admin"),
          admin: allowsRole(route.access, "admin"),
          user: allowsRole(route.access, "user"),
        };
        for (const caller of callers) {
          if (row.allowed[caller] !== expected[caller]) {
            disagreements.push(
              `${key} as ${caller}: the table says ${row.allowed[caller] ? "allowed" : "refused"}, ` +
                `access "${route.access}" says ${expected[caller] ? "allowed" : "refused"}`,
            );
          }
        }
      }
      expect(disagreements).toEqual([]);
    });

    for (const [key, row] of Object.entries(roleMatrix)) {
      describe(key, () => {
        for (const caller of callers) {
          const who = caller === "anonymous" ? "a caller who is not signed in" : withArticle(roleLabels[caller]);
          // A session is no pending sign-in: to the second step's routes it is as good as none.
          const unauthenticatedRefusal = caller === "anonymous" || row.access === "pendingSignIn";
          // A signed-in caller's refusal is the rule "the server refuses it (403 with a clear
          // message)": S-ROLE-06, api part.
          const name = row.allowed[caller]
            ? `lets ${who} through`
            : unauthenticatedRefusal
              ? `refuses ${who} with 401 and writes nothing`
              : `S-ROLE-06 refuses ${who} with 403 and a clear message, and writes nothing`;
          it(name, async () => {
            const world = w();
            const route = parseKey(key);
            const actor = await actorFor(world, caller, row);
            const spec = await row.request(world, actor.user);
            const before = await rowCounts(world.db);
            const response = await send(actor.client, route, spec);
            if (row.allowed[caller]) {
              expect(response.status, response.text).not.toBe(401);
              expect(response.status, response.text).not.toBe(403);
              expect(response.status, response.text).toBeLessThan(500);
              expect(response.status, response.text).toBe(row.ok);
              return;
            }
            if (unauthenticatedRefusal) {
              expect(response.status).toBe(401);
              expect(response.body).toEqual(unauthenticated);
            } else {
              expect(response.status).toBe(403);
              expect(response.body).toEqual(forbidden(caller, row.access));
              // Clear: it names the caller's role and what that role may not do.
              expect(response.body.message).toMatch(
                new RegExp(`^Your role \\(${roleLabels[caller]}\\) does not allow you to [a-z]+ .+$`),
              );
            }
            expect(await rowCounts(world.db)).toEqual(before);
          });
        }
      });
    }
  });

// ---------------------------------------------------------------------------------------------
// Finer rules inside a permitted route: which roles may be granted, and what no one may do to themself.

type RuleCase = {
  as: Role;
  /** "freshUser": the rule runs as a new user of the role, for rules about the caller's own account. */
  session?: "shared" | "freshUser";
  request: (
    world: World,
    actor: SeededUser,
  ) => Promise<RequestSpec & { method: Method; path: string }> | (RequestSpec & { method: Method; path: string });
  status: number;
  /** For refusals: the exact error body. Nothing may be written. */
  error?: { code: string; message: string };
  /** For successes: fields the body must have. */
  body?: Record<string, unknown>;
  verify?: (world: World, actor: SeededUser, response: ApiResponse) => Promise<void>;
};

async function storedUser(db: Database, userId: string) {
  const [row] = await db
    .select({ role: users.role, disabledAt: users.disabledAt, fullName: users.fullName })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

// One row per rule. A new rule about roles or one's own account goes here.
const finerRules: Record<string, RuleCase> = {
  "a user's read of a task or contact of a client not assigned to them is 404, like a missing one": {
    as: "user",
    request: async (world) => {
      const other = at(world.a.clients, 1);
      const task = await insertTask(world.db, { firmId: world.a.firm.id, clientId: other.id });
      return { method: "GET", path: `/api/tasks/${task.id}` };
    },
    status: 404,
    error: { code: "NOT_FOUND", message: "Task not found" },
    verify: async (world) => {
      const other = at(world.a.clients, 1);
      const contact = await insertContact(world.db, { firmId: world.a.firm.id, clientId: other.id });
      const response = await world.as.user.get(`/api/contacts/${contact.id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: "NOT_FOUND", message: "Contact not found" });
    },
  },
  "a user's client report on a client not assigned to them is 404, like a missing client": {
    as: "user",
    request: (world) => ({ method: "GET", path: `/api/reports/clients/${at(world.a.clients, 1).id}` }),
    status: 404,
    error: { code: "NOT_FOUND", message: "Client not found" },
  },
  "a user cannot see another user's report (403)": {
    as: "user",
    request: (world) => ({ method: "GET", path: `/api/reports/users/${world.a.users.admin.id}` }),
    status: 403,
    error: { code: "FORBIDDEN", message: "You can only view your own user report" },
  },
  "an admin sees any user's report and any client's": {
    as: "admin",
    request: (world) => ({ method: "GET", path: `/api/reports/users/${world.a.users.user.id}?days=7` }),
    status: 200,
    verify: async (world) => {
      const response = await world.as.admin.get(`/api/reports/clients/${at(world.a.clients, 2).id}`);
      expect(response.status).toBe(200);
    },
  },
  "an admin cannot create a super admin": {
    as: "admin",
    request: () => ({ method: "POST", path: "/api/users", body: newUserBody("super_admin") }),
    status: 403,
    error: { code: "FORBIDDEN", message: "Your role (admin) cannot give users the super admin role" },
  },
  "an admin can create an admin": {
    as: "admin",
    request: () => ({ method: "POST", path: "/api/users", body: newUserBody("admin") }),
    status: 201,
    body: { role: "admin" },
    verify: async (world, _actor, response) => {
      const [row] = await world.db
        .select({ firmId: users.firmId, role: users.role })
        .from(users)
        .where(eq(users.id, response.body.id));
      expect(row).toEqual({ firmId: world.a.firm.id, role: "admin" });
    },
  },
  "an admin can create a user": {
    as: "admin",
    request: () => ({ method: "POST", path: "/api/users", body: newUserBody("user") }),
    status: 201,
    body: { role: "user" },
  },
  "a super admin can create a super admin": {
    as: "super_admin",
    request: () => ({ method: "POST", path: "/api/users", body: newUserBody("super_admin") }),
    status: 201,
    body: { role: "super_admin" },
  },
  "an admin cannot change a super admin": {
    as: "admin",
    request: async () => ({
      method: "PATCH",
      path: `/api/users/${(await throwawayUser("super_admin")).id}`,
      body: { fullName: "Renamed By Admin" },
    }),
    status: 403,
    error: { code: "FORBIDDEN", message: "Your role (admin) cannot change a super admin" },
  },
  "an admin cannot promote anyone to super admin": {
    as: "admin",
    request: async () => ({
      method: "PATCH",
      path: `/api/users/${(await throwawayUser("user")).id}`,
      body: { role: "super_admin" },
    }),
    status: 403,
    error: { code: "FORBIDDEN", message: "Your role (admin) cannot give users the super admin role" },
  },
  "an admin can make a user an admin": {
    as: "admin",
    request: async () => ({
      method: "PATCH",
      path: `/api/users/${(await throwawayUser("user")).id}`,
      body: { role: "admin" },
    }),
    status: 200,
    body: { role: "admin" },
  },
  "a user sees only the client links that are their own": {
    as: "user",
    request: () => ({ method: "GET", path: "/api/user-clients" }),
    status: 200,
    verify: async (world, actor, response) => {
      const others = await world.db
        .select()
        .from(userClients)
        .where(and(eq(userClients.firmId, world.a.firm.id), eq(userClients.userId, world.a.users.admin.id)));
      expect(others.length).toBeGreaterThan(0); // the firm has links that are not theirs
      expect(response.body).toEqual([
        {
          userId: actor.id,
          clientId: world.a.assignedClient.id,
          clientName: world.a.assignedClient.name,
          clientArchived: false,
        },
      ]);
    },
  },
  "a super admin sees every client link in the firm": {
    as: "super_admin",
    request: () => ({ method: "GET", path: "/api/user-clients" }),
    status: 200,
    verify: async (world, _actor, response) => {
      const links = await world.db
        .select({ userId: userClients.userId, clientId: userClients.clientId })
        .from(userClients)
        .where(eq(userClients.firmId, world.a.firm.id));
      const key = (link: { userId: string; clientId: string }) => `${link.userId}/${link.clientId}`;
      expect(response.body.map(key).sort()).toEqual(links.map(key).sort());
    },
  },
  "a user cannot see another user's activity": {
    as: "user",
    request: (world) => ({ method: "GET", path: `/api/users/${world.a.users.admin.id}/activity` }),
    status: 403,
    error: { code: "FORBIDDEN", message: "Your role (user) allows you to see only your own activity" },
  },
  "an admin sees another user's activity": {
    as: "admin",
    request: (world) => ({ method: "GET", path: `/api/users/${world.a.users.user.id}/activity` }),
    status: 200,
    verify: async (world, _actor, response) => {
      expect(response.body.user.id).toBe(world.a.users.user.id);
      expect(response.body.assignedClients.map((client: { id: string }) => client.id)).toEqual([
        world.a.assignedClient.id,
      ]);
    },
  },
  "a super admin cannot change their own role": {
    as: "super_admin",
    session: "freshUser",
    request: (_world, actor) => ({ method: "PATCH", path: `/api/users/${actor.id}`, body: { role: "admin" } }),
    status: 400,
    error: { code: "BAD_REQUEST", message: "You cannot change your own role" },
    verify: async (world, actor) => expect((await storedUser(world.db, actor.id))?.role).toBe("super_admin"),
  },
  "a super admin cannot disable themself": {
    as: "super_admin",
    session: "freshUser",
    request: (_world, actor) => ({ method: "PATCH", path: `/api/users/${actor.id}`, body: { disabled: true } }),
    status: 400,
    error: { code: "BAD_REQUEST", message: "You cannot disable your own account" },
    verify: async (world, actor) => expect((await storedUser(world.db, actor.id))?.disabledAt).toBeNull(),
  },
  "an admin cannot disable themself": {
    as: "admin",
    session: "freshUser",
    request: (_world, actor) => ({ method: "PATCH", path: `/api/users/${actor.id}`, body: { disabled: true } }),
    status: 400,
    error: { code: "BAD_REQUEST", message: "You cannot disable your own account" },
    verify: async (world, actor) => expect((await storedUser(world.db, actor.id))?.disabledAt).toBeNull(),
  },
};

const finerRulesSuite = () =>
  describe("role matrix: finer rules inside the routes a role may call", () => {
    for (const [rule, spec] of Object.entries(finerRules)) {
      it(rule, async () => {
        const world = w();
        const fresh = spec.session === "freshUser";
        const actor = fresh ? await throwawayUser(spec.as) : world.a.users[spec.as];
        const client = fresh ? await signIn(ctx.app, actor) : world.as[spec.as];
        const request = await spec.request(world, actor);
        const before = await rowCounts(world.db);
        const response = await client.request(request.method, request.path, request.body);
        expect(response.status, response.text).toBe(spec.status);
        if (spec.error) {
          expect(response.body).toEqual(spec.error);
          expect(await rowCounts(world.db)).toEqual(before);
        }
        if (spec.body) expect(response.body).toMatchObject(spec.body);
        await spec.verify?.(world, actor, response);
        if (fresh) expect((await client.get("/api/auth/me")).status).toBe(200);
      });
    }
  });

// ---------------------------------------------------------------------------------------------
// 4. The write-safety matrix (decision 0030): how each route that changes something stays safe when
// it is repeated or raced. A create takes an Idempotency-Key; a change of an editable record takes
// If-Match; anything else says why it needs neither. tests/safe-writes.test.ts checks the behaviour.

type WriteSafety = "Idempotency-Key" | "If-Match" | "Idempotency-Key and If-Match" | { neither: string };

const writeSafetyMatrix: Record<string, WriteSafety> = {
  "POST /api/clients": "Idempotency-Key",
  "POST /api/contacts": "Idempotency-Key",
  "POST /api/tasks": "Idempotency-Key",
  "POST /api/task-templates": "Idempotency-Key",
  "POST /api/template-library/:key/add": "Idempotency-Key",
  "POST /api/users": "Idempotency-Key",
  "PATCH /api/clients/:id": "If-Match",
  "POST /api/client-imports": "Idempotency-Key",
  "PUT /api/client-imports/:id/mapping": {
    neither: "the same mapping twice is the same mapping; once the import is committed it is refused with 409",
  },
  "POST /api/client-imports/:id/commit": {
    neither: "a committed import is no longer a preview: a repeat is refused with 409 and queues nothing",
  },
  "POST /api/client-imports/:id/undo": {
    neither: "an import being undone or undone is refused with 409: a repeat queues nothing",
  },
  "PATCH /api/contacts/:id": "If-Match",
  "PATCH /api/tasks/:id": "If-Match",
  "PUT /api/task-templates/:id": "If-Match",
  "PATCH /api/users/:id": "If-Match",
  "PATCH /api/firm": "If-Match",
  "PATCH /api/tasks/:id/complete": "Idempotency-Key and If-Match",
  "POST /api/tasks/:id/extension": "Idempotency-Key and If-Match",
  "POST /api/tasks/:id/due-date": "Idempotency-Key and If-Match",
  "POST /api/disaster-reliefs": "Idempotency-Key",
  "DELETE /api/clients/:id": { neither: "archiving twice leaves it archived; a purge of a purged client is a 404" },
  "DELETE /api/contacts/:id": { neither: "a second delete is a 404 and removes nothing more" },
  "DELETE /api/tasks/:id": { neither: "a second delete is a 404 and removes nothing more" },
  "DELETE /api/task-templates/:id": { neither: "a second delete is a 404 and removes nothing more" },
  "POST /api/clients/:id/restore": { neither: "restoring twice leaves it restored" },
  "POST /api/user-clients/assign": {
    neither: "it sets a user's whole list of clients: the same request twice is the same list",
  },
  "POST /api/auth/login": { neither: "it makes a session, not a record; a second sign-in is a second session" },
  "POST /api/auth/logout": { neither: "ending an ended session is a no-op" },
  "POST /api/auth/change-password": { neither: "it checks the current password, which the first change has replaced" },
  "POST /api/auth/register": {
    neither: "the username is unique: a repeat is told it is taken (and there is no firm yet to key by)",
  },
  "POST /api/create-subscription-setup": { neither: "the setup cookie names one card setup, which a repeat reuses" },
  "POST /api/stripe/webhook": { neither: "events are kept by Stripe's event id, so a retried event is applied once" },
  "PUT /api/billing/plan": { neither: "setting the same plan twice is the same plan" },
  "POST /api/auth/second-step": { neither: "each code works once, and the pending sign-in it completes is gone after" },
  "POST /api/auth/second-step/totp": {
    neither: "a new enrolment replaces the unconfirmed one; nothing counts until confirmed",
  },
  "POST /api/auth/second-step/totp/confirm": { neither: "the pending sign-in it completes is gone after the first" },
  "POST /api/auth/step-up": { neither: "a proof given twice is still a proof: the session's last one moves to now" },
  "POST /api/account/factors/totp": {
    neither: "a new enrolment replaces the unconfirmed one; nothing counts until confirmed",
  },
  "POST /api/account/factors/totp/confirm": {
    neither: "the enrolment is confirmed once; a repeat finds none to confirm",
  },
  "PATCH /api/account/factors/:id": { neither: "the same name twice is the same name" },
  "DELETE /api/account/factors/:id": { neither: "a second delete is a 404 and removes nothing more" },
  "POST /api/account/recovery-codes": {
    neither: "each set voids the last: a repeat leaves one set, the one whose answer arrived last",
  },
  "PUT /api/firm/mfa-policy": { neither: "setting the same policy twice is the same policy" },
  "POST /api/account/calendar-feed": {
    neither: "a user has one feed at most (a unique key): a repeat is refused with 409 and changes nothing",
  },
  "PUT /api/account/calendar-feed": { neither: "setting the same value twice is the same setting" },
  "POST /api/account/calendar-feed/regenerate": {
    neither: "each call replaces the address: a repeat leaves one address, the one whose answer arrived last",
  },
  "DELETE /api/account/calendar-feed": { neither: "a second delete is a 404 and removes nothing more" },
  "PUT /api/account/notification-preferences": { neither: "setting the same choice twice is the same choice" },
  "POST /api/unsubscribe/:token": { neither: "turning reminders off twice leaves them off" },
  "DELETE /api/users/:id/factors": { neither: "resetting a user without factors leaves them without factors" },
  "POST /api/auth/passkey/options": { neither: "each call makes a challenge of its own, used once or expired" },
  "POST /api/auth/passkey": { neither: "its challenge answers once: a repeat is refused" },
  "POST /api/auth/second-step/passkey/options": {
    neither: "each call makes a challenge of its own, used once or expired",
  },
  "POST /api/auth/second-step/passkey": {
    neither: "its challenge answers once, and the pending sign-in is gone after",
  },
  "POST /api/auth/step-up/passkey/options": { neither: "each call makes a challenge of its own, used once or expired" },
  "POST /api/account/factors/passkey/options": {
    neither: "each call makes a challenge of its own, used once or expired",
  },
  "POST /api/account/factors/passkey": {
    neither: "its challenge answers once, and a credential is kept once (unique)",
  },
};

function writeSafetySuite() {
  describe("write-safety matrix: every route that changes something is safe to repeat or race", () => {
    const declared = (route: { schema?: { headers?: unknown } }, header: string) => {
      const headers = route.schema?.headers;
      return headers instanceof z.ZodObject && header in headers.shape;
    };

    it("has a row for every /api route that is not a GET", () => {
      const writes = ctx.app.apiRoutes
        .filter((route) => route.method !== "GET")
        .map((route) => `${route.method} ${route.url}`);
      expect(Object.keys(writeSafetyMatrix).sort()).toEqual(writes.sort());
    });

    it("S-SAFE-02 S-SAFE-07 each route declares exactly the headers its row gives it", () => {
      for (const route of ctx.app.apiRoutes.filter((candidate) => candidate.method !== "GET")) {
        const key = `${route.method} ${route.url}`;
        const row = writeSafetyMatrix[key];
        const wants = typeof row === "string" ? row : "";
        expect(declared(route, IDEMPOTENCY_KEY_HEADER), `${key} Idempotency-Key`).toBe(
          wants.includes("Idempotency-Key"),
        );
        expect(declared(route, IF_MATCH_HEADER), `${key} If-Match`).toBe(wants.includes("If-Match"));
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// 5. The step-up walk (decisions 0044, 0054): with a session whose last proof is older than five
// minutes, every route of the role matrix is sent its request. Each one that grants or raises a role,
// or touches factors, passwords or the firm's sign-in policy, answers 403 STEP_UP_REQUIRED and
// writes nothing; every other route answers without asking for one. The walk's super admin holds an
// authenticator, so the change of password asks too.

type StepUpRow =
  /** Every request needs a fresh proof. */
  | "always"
  /** These requests need one; the role matrix's own request, which grants nothing, does not. */
  | { grants: Record<string, (world: World) => RequestSpec | Promise<RequestSpec>> }
  /** Why nothing it does needs one. */
  | { never: string };

const theFirmsWork = { never: "the firm's work and its records: it gives no one a role or a way in" } as const;
const partOfASignIn = { never: "part of a sign-in or of a proof itself: no signed-in session is behind it" } as const;

/** A user of firm A whose standing a case changes: disabled when asked. */
async function userToChange(role: Role, options: { disabled?: boolean } = {}) {
  const user = await throwawayUser(role);
  if (options.disabled) await w().db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
  return user;
}

// One row per /api route that is not a GET (a read never needs a proof). A missing row fails the suite.
const stepUpMatrix: Record<string, StepUpRow> = {
  "POST /api/users": {
    grants: {
      "a new admin": () => ({ body: newUserBody("admin") }),
      "a new super admin": () => ({ body: newUserBody("super_admin") }),
    },
  },
  "PATCH /api/users/:id": {
    grants: {
      "a user made an admin": async () => ({
        path: `/api/users/${(await userToChange("user")).id}`,
        body: { role: "admin" },
      }),
      "an admin made a user": async () => ({
        path: `/api/users/${(await userToChange("admin")).id}`,
        body: { role: "user" },
      }),
      "a disabled admin enabled again": async () => ({
        path: `/api/users/${(await userToChange("admin", { disabled: true })).id}`,
        body: { disabled: false },
      }),
      "a disabled super admin enabled again": async () => ({
        path: `/api/users/${(await userToChange("super_admin", { disabled: true })).id}`,
        body: { disabled: false },
      }),
    },
  },
  "DELETE /api/users/:id/factors": "always",
  "POST /api/auth/change-password": "always",
  "POST /api/account/factors/totp": "always",
  "POST /api/account/factors/totp/confirm": "always",
  "POST /api/account/factors/passkey/options": "always",
  "POST /api/account/factors/passkey": "always",
  "DELETE /api/account/factors/:id": "always",
  "POST /api/account/recovery-codes": "always",
  "PUT /api/firm/mfa-policy": "always",
  "PATCH /api/account/factors/:id": { never: "a factor's name is a label: it adds, removes or weakens nothing" },
  "POST /api/user-clients/assign": {
    never: "it sets which clients a user serves: no role, no factor and no way to sign in changes",
  },
  "PATCH /api/firm": { never: "the firm's name, time zone and calendar; its sign-in policy has a route of its own" },
  "PUT /api/billing/plan": { never: "a plan changes what the firm may hold, not who may do what" },
  "POST /api/account/calendar-feed": {
    never: "a read-only address of the user's own open tasks, which the signed-in user can already read",
  },
  "PUT /api/account/calendar-feed": { never: "whether the user's own feed shows client names" },
  "POST /api/account/calendar-feed/regenerate": { never: "it replaces the user's own feed address" },
  "DELETE /api/account/calendar-feed": { never: "it ends the user's own feed" },
  "PUT /api/account/notification-preferences": { never: "the user's own choice of e-mail" },
  "POST /api/unsubscribe/:token": { never: "a link from an e-mail turns that mail off; no session is behind it" },
  "POST /api/auth/login": partOfASignIn,
  "POST /api/auth/logout": { never: "it ends the session" },
  "POST /api/auth/register": { never: "a new firm and its first user: no session is behind it" },
  "POST /api/auth/step-up": partOfASignIn,
  "POST /api/auth/step-up/passkey/options": partOfASignIn,
  "POST /api/auth/second-step": partOfASignIn,
  "POST /api/auth/second-step/totp": partOfASignIn,
  "POST /api/auth/second-step/totp/confirm": partOfASignIn,
  "POST /api/auth/second-step/passkey/options": partOfASignIn,
  "POST /api/auth/second-step/passkey": partOfASignIn,
  "POST /api/auth/passkey/options": partOfASignIn,
  "POST /api/auth/passkey": partOfASignIn,
  "POST /api/create-subscription-setup": { never: "a card setup before a firm exists" },
  "POST /api/stripe/webhook": { never: "Stripe's signed event: no session is behind it" },
  "POST /api/clients": theFirmsWork,
  "PATCH /api/clients/:id": theFirmsWork,
  "DELETE /api/clients/:id": theFirmsWork,
  "POST /api/clients/:id/restore": theFirmsWork,
  "POST /api/contacts": theFirmsWork,
  "PATCH /api/contacts/:id": theFirmsWork,
  "DELETE /api/contacts/:id": theFirmsWork,
  "POST /api/tasks": theFirmsWork,
  "PATCH /api/tasks/:id": theFirmsWork,
  "DELETE /api/tasks/:id": theFirmsWork,
  "PATCH /api/tasks/:id/complete": theFirmsWork,
  "POST /api/tasks/:id/extension": theFirmsWork,
  "POST /api/tasks/:id/due-date": theFirmsWork,
  "POST /api/task-templates": theFirmsWork,
  "PUT /api/task-templates/:id": theFirmsWork,
  "DELETE /api/task-templates/:id": theFirmsWork,
  "POST /api/template-library/:key/add": theFirmsWork,
  "POST /api/client-imports": theFirmsWork,
  "PUT /api/client-imports/:id/mapping": theFirmsWork,
  "POST /api/client-imports/:id/commit": theFirmsWork,
  "POST /api/client-imports/:id/undo": theFirmsWork,
  "POST /api/disaster-reliefs": theFirmsWork,
};

const stepUpRequired = { code: "STEP_UP_REQUIRED", message: "Confirm it is you before making this change" };

/**
 * A session of `user`, who is given an authenticator first, whose last proof (the sign-in) was ten
 * minutes ago: past the step-up's five.
 */
async function staleSession(user: SeededUser): Promise<ApiClient> {
  const { db } = w();
  const [factor] = await db.select({ id: userFactors.id }).from(userFactors).where(eq(userFactors.userId, user.id));
  if (!factor) await insertTotpFactor(user);
  const { sessionId, cookie } = await createSession(db, {
    userId: user.id,
    firmId: user.firmId,
    ip: null,
    userAgent: null,
    absoluteMs: 60 * 60_000,
    secondFactorAt: new Date(),
  });
  await db
    .update(sessions)
    .set({ verifiedAt: new Date(Date.now() - 10 * 60_000) })
    .where(eq(sessions.id, sessionId));
  const client = apiClient(ctx.app);
  client.setSessionToken(cookie);
  return client;
}

function stepUpSuite() {
  describe("S-MFA-27 step-up walk: a session whose proof is stale can grant no power", () => {
    it("has a row for every /api route that is not a GET", () => {
      const writes = ctx.app.apiRoutes
        .filter((route) => route.method !== "GET")
        .map((route) => `${route.method} ${route.url}`);
      expect(Object.keys(stepUpMatrix).sort()).toEqual(writes.sort());
    });

    let walker: SeededUser | undefined;
    let walkerClient: ApiClient | undefined;
    /** The walk's super admin, or a new one for the rows that change the caller's own account. */
    async function staleCaller(row: RoleRow): Promise<{ user: SeededUser; client: ApiClient }> {
      if (row.session === "freshUser") {
        const user = await throwawayUser("super_admin");
        return { user, client: await staleSession(user) };
      }
      walker ??= await throwawayUser("super_admin");
      if (row.session === "freshSession") return { user: walker, client: await staleSession(walker) };
      walkerClient ??= await staleSession(walker);
      return { user: walker, client: walkerClient };
    }

    async function expectRefused(client: ApiClient, route: Route, spec: RequestSpec) {
      const before = await rowCounts(w().db);
      const response = await send(client, route, spec);
      expect(response.status, response.text).toBe(403);
      expect(response.body).toEqual(stepUpRequired);
      expect(await rowCounts(w().db)).toEqual(before);
    }

    for (const [key, row] of Object.entries(roleMatrix)) {
      const stepUp: StepUpRow = stepUpMatrix[key] ?? { never: "a read" };
      const route = parseKey(key);
      if (stepUp === "always") {
        it(`${key} refuses it with 403 and writes nothing`, async () => {
          const { user, client } = await staleCaller(row);
          await expectRefused(client, route, await row.request(w(), user));
        });
        continue;
      }
      it(`${key} ${"grants" in stepUp ? "lets its request that grants nothing through" : "lets it through"}`, async () => {
        const { user, client } = await staleCaller(row);
        const response = await send(client, route, await row.request(w(), user));
        expect(response.status, response.text).toBeLessThan(500);
        expect(response.body?.code, response.text).not.toBe("STEP_UP_REQUIRED");
      });
      if (!("grants" in stepUp)) continue;
      for (const [grant, request] of Object.entries(stepUp.grants)) {
        it(`${key} refuses ${grant} with 403 and writes nothing`, async () => {
          const { client } = await staleCaller(row);
          await expectRefused(client, route, await request(w()));
        });
      }
    }

    it("a stale admin can neither create an admin nor make a user one, and can once they confirm it's them", async () => {
      const admin = await throwawayUser("admin");
      const factor = await insertTotpFactor(admin);
      const client = await staleSession(admin);
      await expectRefused(client, { method: "POST", url: "/api/users" }, { body: newUserBody("admin") });
      const member = await userToChange("user");
      const raise = { path: `/api/users/${member.id}`, body: { role: "admin" } };
      await expectRefused(client, { method: "PATCH", url: "/api/users/:id" }, raise);
      expect((await send(client, { method: "POST", url: "/api/users" }, { body: newUserBody("user") })).status).toBe(
        201,
      );

      const stepped = await client.post("/api/auth/step-up", { method: "totp", code: factor.code() });
      expect(stepped.status, stepped.text).toBe(204);
      expect((await send(client, { method: "POST", url: "/api/users" }, { body: newUserBody("admin") })).status).toBe(
        201,
      );
      expect((await send(client, { method: "PATCH", url: "/api/users/:id" }, raise)).body.role).toBe("admin");
    });
  });
}

describe("access matrix (firms A and B in one database)", () => {
  // With the job queue, so that a client import's commit is let through as it is in the app.
  ctx = useTestApp({ jobs: true });
  beforeAll(seedWorld);
  tenantIsolationSuite();
  roleMatrixSuite();
  finerRulesSuite();
  writeSafetySuite();
  stepUpSuite();
});
