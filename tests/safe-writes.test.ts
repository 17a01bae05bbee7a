import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  clients,
  contacts,
  idempotencyKeys,
  tasks,
  taskTemplates,
  users,
} from "../src/server/platform/db/schema";
import { insertContact, insertTask, insertTaskTemplate } from "../src/server/seed/factories";
import { createRandom } from "../src/server/seed/random";
import { drawSignature } from "../src/server/seed/signature-image";
import { templateLibrary } from "../src/shared/template-library";
import type { ApiClient, ApiResponse } from "./api-client";
import { type SeededFirm, seedFirm, signIn } from "./fixtures";
import { type TestApp, useTestApp } from "./test-app";

/*
 * Optimistic concurrency (ETag / If-Match) on every editable resource and Idempotency-Key on every
 * create, through the HTTP API as any client sees it (docs/decisions/0030).
 */

/** The app and database of this file, and its two firms; set up by the describe at the bottom. */
let ctx: TestApp;
let home: SeededFirm;
let other: SeededFirm;
let admin: ApiClient;
let otherAdmin: ApiClient;

const auditCount = async (firmId: string) => {
  const [row] = await ctx.database.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.firmId, firmId));
  return row?.n ?? 0;
};

const send = (client: ApiClient, method: string, url: string, body: unknown, headers: Record<string, string> = {}) =>
  client.request(method as "PATCH", url, body, headers);

/**
 * One editable resource: where it is changed, how to read its version back, and bodies that
 * change it (`change(n)` differs for every n) or leave it as it is.
 */
type Editable = {
  what: string;
  method: "PATCH" | "PUT";
  url: string;
  /** The resource's own GET, which answers its ETag. */
  readUrl: string;
  version: () => Promise<number>;
  change: (n: number) => Record<string, unknown>;
  unchanged: () => Promise<Record<string, unknown>>;
};

async function editables(): Promise<Editable[]> {
  const { db } = ctx.database;
  const firmId = home.firm.id;
  const client = home.clients[1];
  if (!client) throw new Error("seedFirm makes three clients");
  const contact = await insertContact(db, { firmId, clientId: client.id });
  const task = await insertTask(db, { firmId, clientId: client.id, name: "Quarterly VAT return" });
  const template = await insertTaskTemplate(db, { firmId, createdBy: home.users.super_admin.id });
  const detail = async () => (await admin.get(`/api/clients/${client.id}`)).body;
  const templateBody = (name: string) => ({
    name,
    description: template.description,
    priority: template.priority,
    isRecurring: false,
    frequency: "none",
  });
  return [
    {
      what: "client",
      method: "PATCH",
      url: `/api/clients/${client.id}`,
      readUrl: `/api/clients/${client.id}`,
      version: async () => (await detail()).version,
      change: (n) => ({ phone: `+1 555 010 ${String(n).padStart(4, "0")}` }),
      unchanged: async () => ({ name: (await detail()).name }),
    },
    {
      what: "contact",
      method: "PATCH",
      url: `/api/contacts/${contact.id}`,
      readUrl: `/api/contacts/${contact.id}`,
      version: async () => (await detail()).contacts.find((c: { id: string }) => c.id === contact.id).version,
      change: (n) => ({ title: `Partner ${n}` }),
      unchanged: async () => ({ name: contact.name }),
    },
    {
      what: "task",
      method: "PATCH",
      url: `/api/tasks/${task.id}`,
      readUrl: `/api/tasks/${task.id}`,
      version: async () => (await detail()).tasks.find((t: { id: string }) => t.id === task.id).version,
      change: (n) => ({ name: `Quarterly VAT return ${n}` }),
      unchanged: async () => ({
        name: (await detail()).tasks.find((t: { id: string }) => t.id === task.id).name,
      }),
    },
    {
      what: "template",
      method: "PUT",
      url: `/api/task-templates/${template.id}`,
      readUrl: `/api/task-templates/${template.id}`,
      version: async () =>
        (await admin.get("/api/task-templates")).body.find((t: { id: string }) => t.id === template.id).version,
      change: (n) => templateBody(`Monthly close ${n}`),
      unchanged: async () =>
        templateBody(
          (await admin.get("/api/task-templates")).body.find((t: { id: string }) => t.id === template.id).name,
        ),
    },
    {
      what: "user",
      method: "PATCH",
      url: `/api/users/${home.users.user.id}`,
      readUrl: `/api/users/${home.users.user.id}`,
      version: async () => (await admin.get(`/api/users/${home.users.user.id}`)).body.version,
      change: (n) => ({ fullName: `Casey Fielding ${n}` }),
      unchanged: async () => ({ fullName: (await admin.get(`/api/users/${home.users.user.id}`)).body.fullName }),
    },
    {
      what: "firm",
      method: "PATCH",
      url: "/api/firm",
      readUrl: "/api/firm",
      version: async () => (await admin.get("/api/firm")).body.version,
      change: (n) => ({ name: `Safe Writes ${n}` }),
      unchanged: async () => ({ name: (await admin.get("/api/firm")).body.name }),
    },
  ];
}

const concurrency = () =>
  describe("optimistic concurrency: ETag and If-Match on every editable resource", () => {
    it("S-SAFE-01 S-SAFE-03 each resource's answers carry its version as the ETag, and a change moves it by one", async () => {
      for (const resource of await editables()) {
        const version = await resource.version();
        expect(version, resource.what).toBeGreaterThanOrEqual(1);
        const read = await admin.get(resource.readUrl);
        expect(read.headers.etag, resource.what).toBe(`"${version}"`);
        expect(read.body.version, resource.what).toBe(version);
        const changed = await send(admin, resource.method, resource.url, resource.change(1), {
          "if-match": `"${version}"`,
        });
        expect(changed.status, `${resource.what}: ${changed.text}`).toBe(200);
        expect(changed.headers.etag, resource.what).toBe(`"${version + 1}"`);
        expect(changed.body.version, resource.what).toBe(version + 1);
        expect(await resource.version(), resource.what).toBe(version + 1);
      }
    });

    it("S-SAFE-02 a change with a stale If-Match is refused with 412 in the API's error shape and writes nothing", async () => {
      for (const resource of await editables()) {
        const stale = await resource.version();
        // A colleague saves first.
        expect((await send(admin, resource.method, resource.url, resource.change(2))).status, resource.what).toBe(200);
        const events = await auditCount(home.firm.id);
        const refused = await send(admin, resource.method, resource.url, resource.change(3), {
          "if-match": `"${stale}"`,
        });
        expect(refused.status, resource.what).toBe(412);
        expect(refused.body, resource.what).toEqual({
          code: "PRECONDITION_FAILED",
          message: expect.stringMatching(/changed by someone else after you loaded it/),
        });
        expect(await resource.version(), resource.what).toBe(stale + 1);
        expect(await auditCount(home.firm.id), resource.what).toBe(events);
        // A weak tag never matches (If-Match compares strongly), even with the current version.
        const weak = await send(admin, resource.method, resource.url, resource.change(4), {
          "if-match": `W/"${stale + 1}"`,
        });
        expect(weak.status, resource.what).toBe(412);
      }
    });

    it("S-SAFE-02 a change without If-Match, with *, or with a list holding the current tag goes through", async () => {
      for (const resource of await editables()) {
        expect((await send(admin, resource.method, resource.url, resource.change(5))).status, resource.what).toBe(200);
        const any = await send(admin, resource.method, resource.url, resource.change(6), { "if-match": "*" });
        expect(any.status, resource.what).toBe(200);
        const current = await resource.version();
        const listed = await send(admin, resource.method, resource.url, resource.change(7), {
          "if-match": `"999999", "${current}"`,
        });
        expect(listed.status, resource.what).toBe(200);
      }
    });

    it("S-SAFE-02 an If-Match that is not entity tags is a 400 naming the header, and changes nothing", async () => {
      for (const resource of await editables()) {
        const version = await resource.version();
        for (const header of ["3", "abc", '"unterminated', ""]) {
          const refused = await send(admin, resource.method, resource.url, resource.change(8), { "if-match": header });
          expect(refused.status, `${resource.what} ${header}`).toBe(400);
          expect(refused.body.issues?.[0]?.path ?? [], `${resource.what} ${header}`).toEqual(["if-match"]);
        }
        expect(await resource.version(), resource.what).toBe(version);
      }
    });

    it("S-SAFE-13 a save that changes nothing writes no audit event and keeps the version", async () => {
      for (const resource of await editables()) {
        const version = await resource.version();
        const events = await auditCount(home.firm.id);
        const saved = await send(admin, resource.method, resource.url, await resource.unchanged(), {
          "if-match": `"${version}"`,
        });
        expect(saved.status, `${resource.what}: ${saved.text}`).toBe(200);
        expect(saved.headers.etag, resource.what).toBe(`"${version}"`);
        expect(await resource.version(), resource.what).toBe(version);
        expect(await auditCount(home.firm.id), resource.what).toBe(events);
      }
    });

    it("S-SAFE-02 another firm's resource is still a 404 with or without If-Match", async () => {
      const foreign = other.clients[0];
      if (!foreign) throw new Error("seedFirm makes three clients");
      const refused = await admin.request("PATCH", `/api/clients/${foreign.id}`, { phone: "1" }, { "if-match": '"1"' });
      expect(refused.status).toBe(404);
    });
  });

/** One create route: its request, and how many rows of what it makes the firm has. */
type Create = {
  what: string;
  method: "POST" | "PATCH";
  url: string;
  body: Record<string, unknown> | undefined;
  /** A different request for the same key: another body, or another path where there is no body. */
  other: { url: string; body: Record<string, unknown> | undefined };
  status: number;
  rows: (firmId: string) => Promise<number>;
};

/** A library template can be added once per firm, so each test adds its own. */
const librarySlots = { once: 0, reused: 1, "per-firm": 2, expired: 3, burst: 4, lost: 5 } as const;

const countOf = async (
  table: typeof clients | typeof contacts | typeof tasks | typeof taskTemplates,
  where: unknown,
) => {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(table)
    .where(where as ReturnType<typeof eq>);
  return row?.n ?? 0;
};

/** The creates of one test: `suffix` names what it makes, and picks library templates no other test adds. */
function creates(firm: SeededFirm, suffix: keyof typeof librarySlots): Create[] {
  const client = firm.clients[2];
  if (!client) throw new Error("seedFirm makes three clients");
  const library = templateLibrary[2 * librarySlots[suffix]];
  const otherLibrary = templateLibrary[2 * librarySlots[suffix] + 1];
  if (!library || !otherLibrary) throw new Error("the library has templates");
  return [
    {
      what: "client",
      method: "POST",
      url: "/api/clients",
      body: { name: `Northwind ${suffix}` },
      other: { url: "/api/clients", body: { name: `Southwind ${suffix}` } },
      status: 201,
      rows: (firmId) => countOf(clients, and(eq(clients.firmId, firmId), eq(clients.name, `Northwind ${suffix}`))),
    },
    {
      what: "contact",
      method: "POST",
      url: "/api/contacts",
      body: { clientId: client.id, name: `Dana Idem ${suffix}` },
      other: { url: "/api/contacts", body: { clientId: client.id, name: `Dana Other ${suffix}` } },
      status: 201,
      rows: (firmId) => countOf(contacts, and(eq(contacts.firmId, firmId), eq(contacts.name, `Dana Idem ${suffix}`))),
    },
    {
      what: "task",
      method: "POST",
      url: "/api/tasks",
      body: { clientId: client.id, name: `Payroll ${suffix}` },
      other: { url: "/api/tasks", body: { clientId: client.id, name: `Payroll other ${suffix}` } },
      status: 201,
      rows: (firmId) => countOf(tasks, and(eq(tasks.firmId, firmId), eq(tasks.name, `Payroll ${suffix}`))),
    },
    {
      what: "template",
      method: "POST",
      url: "/api/task-templates",
      body: { name: `Year end ${suffix}`, description: "Close the books", priority: "high", isRecurring: false },
      other: {
        url: "/api/task-templates",
        body: { name: `Year start ${suffix}`, description: "Open the books", priority: "high", isRecurring: false },
      },
      status: 201,
      rows: (firmId) =>
        countOf(taskTemplates, and(eq(taskTemplates.firmId, firmId), eq(taskTemplates.name, `Year end ${suffix}`))),
    },
    {
      what: "library template",
      method: "POST",
      url: `/api/template-library/${library.key}/add`,
      body: undefined,
      other: { url: `/api/template-library/${otherLibrary.key}/add`, body: undefined },
      status: 201,
      rows: (firmId) =>
        countOf(taskTemplates, and(eq(taskTemplates.firmId, firmId), eq(taskTemplates.libraryKey, library.key))),
    },
    {
      what: "user",
      method: "POST",
      url: "/api/users",
      // Usernames are unique across firms, so each firm's has its own.
      body: { username: `idem.${suffix}.${firm.firm.id.slice(-6)}`, password: "double-click-1234", fullName: "Idem" },
      other: {
        url: "/api/users",
        body: {
          username: `other.${suffix}.${firm.firm.id.slice(-6)}`,
          password: "double-click-1234",
          fullName: "Idem",
        },
      },
      status: 201,
      rows: async (firmId) => {
        const [row] = await ctx.database.db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.firmId, firmId), eq(users.username, `idem.${suffix}.${firm.firm.id.slice(-6)}`)));
        return row?.n ?? 0;
      },
    },
  ];
}

// As a browser sends it: asking for compressed answers, so what is kept is what is sent.
const keyed = (client: ApiClient, create: { method: string; url: string; body: unknown }, key: string) =>
  send(client, create.method, create.url, create.body, { "idempotency-key": key, "accept-encoding": "br, gzip" });

const sameAnswer = (replayed: ApiResponse, first: ApiResponse) => {
  expect(replayed.status).toBe(first.status);
  expect(replayed.text).toBe(first.text);
  expect(replayed.headers["idempotent-replayed"]).toBe("true");
  expect(replayed.headers.etag).toBe(first.headers.etag);
};

const idempotency = () =>
  describe("Idempotency-Key on every create", () => {
    it("S-SAFE-07 the same key and request answer the first answer again and create nothing more", async () => {
      for (const create of creates(home, "once")) {
        const first = await keyed(admin, create, `key-${create.what}`);
        expect(first.status, `${create.what}: ${first.text}`).toBe(create.status);
        expect(first.headers["idempotent-replayed"], create.what).toBeUndefined();
        const events = await auditCount(home.firm.id);
        const again = await keyed(admin, create, `key-${create.what}`);
        sameAnswer(again, first);
        // The draft's quoted form of the same key is the same key.
        sameAnswer(await keyed(admin, create, `"key-${create.what}"`), first);
        expect(await create.rows(home.firm.id), create.what).toBe(1);
        expect(await auditCount(home.firm.id), create.what).toBe(events);
      }
    });

    it("S-SAFE-08 the same key with another request is refused with 422 and creates nothing", async () => {
      for (const create of creates(home, "reused")) {
        expect((await keyed(admin, create, `reused-${create.what}`)).status, create.what).toBe(create.status);
        const before = await auditCount(home.firm.id);
        const refused = await keyed(admin, { ...create, ...create.other }, `reused-${create.what}`);
        expect(refused.status, create.what).toBe(422);
        expect(refused.body, create.what).toEqual({
          code: "IDEMPOTENCY_KEY_REUSED",
          message: expect.stringMatching(/already used for a different request/),
        });
        expect(await auditCount(home.firm.id), create.what).toBe(before);
      }
      // Another user of the same firm with the same key and body is another request too.
      const [create] = creates(home, "reused");
      if (!create) throw new Error("no create");
      const colleague = await signIn(ctx.app, home.users.admin);
      expect((await keyed(colleague, create, `reused-${create.what}`)).status).toBe(422);
    });

    it("S-SAFE-09 keys are kept per firm: another firm's identical key is its own", async () => {
      const theirs = creates(other, "per-firm");
      for (const [index, create] of creates(home, "per-firm").entries()) {
        const twin = theirs[index];
        if (!twin) throw new Error("the same routes for both firms");
        expect((await keyed(admin, create, `shared-${create.what}`)).status, create.what).toBe(create.status);
        // Firm B's answer is its own creation, never firm A's answer replayed.
        const answer = await keyed(otherAdmin, twin, `shared-${create.what}`);
        expect(answer.status, `${create.what}: ${answer.text}`).toBe(create.status);
        expect(answer.headers["idempotent-replayed"], create.what).toBeUndefined();
        expect(await twin.rows(other.firm.id), create.what).toBe(1);
      }
    });

    it("S-SAFE-09 a key is forgotten after 24 hours: the same request then creates again", async () => {
      const [create] = creates(home, "expired");
      if (!create) throw new Error("no create");
      expect((await keyed(admin, create, "day-old")).status).toBe(201);
      await ctx.database.db
        .update(idempotencyKeys)
        .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
        .where(and(eq(idempotencyKeys.firmId, home.firm.id), eq(idempotencyKeys.key, "day-old")));
      const later = await keyed(admin, create, "day-old");
      expect(later.status).toBe(201);
      expect(later.headers["idempotent-replayed"]).toBeUndefined();
      expect(await create.rows(home.firm.id)).toBe(2);
    });

    it("S-SAFE-12 the same key sent several times at once creates exactly one record; the others replay it or are told to retry", async () => {
      for (const create of creates(home, "burst")) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => keyed(admin, create, `burst-${create.what}`)),
        );
        const created = answers.filter((answer) => answer.status === create.status);
        expect(created.length, create.what).toBeGreaterThanOrEqual(1);
        for (const answer of answers) {
          expect([create.status, 409], `${create.what}: ${answer.text}`).toContain(answer.status);
          if (answer.status === 409) {
            expect(answer.body.code, create.what).toBe("IDEMPOTENCY_KEY_IN_USE");
            expect(answer.headers["retry-after"], create.what).toBe("1");
          } else {
            expect(answer.text, create.what).toBe(created[0]?.text);
          }
        }
        expect(await create.rows(home.firm.id), create.what).toBe(1);
      }
    });

    it("S-SAFE-14 a create and its key's mark commit together: a create whose key cannot be marked creates nothing", async () => {
      const { db } = ctx.database;
      // PostgreSQL itself refuses the mark, as the last statement of the create's transaction.
      await db.execute(sql`create function refuse_mark() returns trigger language plpgsql as $$
        begin raise exception 'the mark is refused'; end $$`);
      await db.execute(sql`create trigger refuse_mark before update of committed_at on idempotency_keys
        for each row execute function refuse_mark()`);
      try {
        for (const create of creates(home, "lost")) {
          const failed = await keyed(admin, create, `unmarked-${create.what}`);
          expect(failed.status, `${create.what}: ${failed.text}`).toBe(500);
          expect(await create.rows(home.firm.id), create.what).toBe(0);
        }
      } finally {
        await db.execute(sql`drop trigger refuse_mark on idempotency_keys`);
        await db.execute(sql`drop function refuse_mark()`);
      }
      // Nothing committed, so each key is free again, and the same request with it now creates.
      for (const create of creates(home, "lost")) {
        expect((await keyed(admin, create, `unmarked-${create.what}`)).status, create.what).toBe(create.status);
        expect(await create.rows(home.firm.id), create.what).toBe(1);
      }
    });

    it("S-SAFE-14 a key whose create committed but whose answer was lost (the process died between the two) creates nothing more", async () => {
      for (const create of creates(home, "lost")) {
        const key = `unmarked-${create.what}`;
        // What a process killed after the create's commit and before keeping its answer leaves
        // behind: the key marked done by the create's transaction, no answer, the lease long over.
        const [kept] = await ctx.database.db
          .update(idempotencyKeys)
          .set({
            responseStatus: null,
            responseBody: null,
            responseEtag: null,
            startedAt: new Date(Date.now() - 3600_000),
          })
          .where(and(eq(idempotencyKeys.firmId, home.firm.id), eq(idempotencyKeys.key, key)))
          .returning({ committedAt: idempotencyKeys.committedAt });
        expect(kept?.committedAt, create.what).toBeInstanceOf(Date);
        const events = await auditCount(home.firm.id);
        const again = await keyed(admin, create, key);
        expect(again.status, create.what).toBe(409);
        expect(again.body, create.what).toEqual({
          code: "IDEMPOTENCY_KEY_ANSWER_LOST",
          message: expect.stringMatching(/already carried out, but its answer was lost/),
        });
        expect(again.headers["retry-after"], create.what).toBeUndefined();
        expect(await create.rows(home.firm.id), create.what).toBe(1);
        expect(await auditCount(home.firm.id), create.what).toBe(events);
      }
    });

    it("S-SAFE-07 a refused request leaves its key free: fixed and sent again with the same key, it creates", async () => {
      const key = "fix-and-retry";
      const refused = await send(admin, "POST", "/api/clients", { name: "   " }, { "idempotency-key": key });
      expect(refused.status).toBe(400);
      const missing = await send(
        admin,
        "POST",
        "/api/contacts",
        { clientId: other.clients[0]?.id, name: "Nobody" },
        { "idempotency-key": key },
      );
      expect(missing.status).toBe(404);
      const fixed = await send(admin, "POST", "/api/clients", { name: "Fixed Client" }, { "idempotency-key": key });
      expect(fixed.status).toBe(201);
    });

    it("S-SAFE-07 a key that is not 1 to 255 visible ASCII characters is a 400 naming the header", async () => {
      for (const key of ["", " padded ", "x".repeat(256), "caf\u00e9"]) {
        const refused = await send(admin, "POST", "/api/clients", { name: "Bad Key" }, { "idempotency-key": key });
        expect(refused.status, JSON.stringify(key)).toBe(400);
        expect(refused.body.issues?.[0]?.path, JSON.stringify(key)).toEqual(["idempotency-key"]);
      }
    });
  });

const signingTwice = () =>
  describe("S-SAFE-11 signing a task off twice from one dialog", () => {
    it("S-SAFE-11 the same sign-off sent again with its key answers the success again; without a key it is a 409", async () => {
      const { db } = ctx.database;
      const client = home.clients[0];
      if (!client) throw new Error("no client");
      const task = await insertTask(db, { firmId: home.firm.id, clientId: client.id, name: "Annual accounts" });
      const signature = drawSignature("Sam Signer", createRandom(7)).dataUrl;
      const body = { printedName: "Sam Signer", signature };
      const url = `/api/tasks/${task.id}/complete`;
      // As a browser asks: the answer, with its signature, is large enough to travel compressed.
      const keyedAsBrowser = { "idempotency-key": "sign-once", "accept-encoding": "gzip, deflate, br, zstd" };
      const [first, second] = await Promise.all([
        send(admin, "PATCH", url, body, keyedAsBrowser),
        send(admin, "PATCH", url, body, keyedAsBrowser),
      ]);
      const ok = [first, second].filter((answer) => answer?.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      const replay = await send(admin, "PATCH", url, body, keyedAsBrowser);
      expect(replay.status).toBe(200);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect((await admin.get(`/api/tasks/${task.id}`)).body.status).toBe("completed");
      const [signed] = await db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, task.id), eq(auditEvents.action, "task.completed")));
      expect(signed?.n).toBe(1);
      const unkeyed = await send(admin, "PATCH", url, body);
      expect(unkeyed.status).toBe(409);
    });
  });

describe("safe writes", () => {
  ctx = useTestApp();
  beforeAll(async () => {
    const { db } = ctx.database;
    home = await seedFirm(db, "Safe Writes");
    other = await seedFirm(db, "Other Firm");
    admin = await signIn(ctx.app, home.users.super_admin);
    otherAdmin = await signIn(ctx.app, other.users.super_admin);
  });
  concurrency();
  idempotency();
  signingTwice();
});
