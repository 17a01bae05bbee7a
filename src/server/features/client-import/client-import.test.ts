import { and, asc, count, eq } from "drizzle-orm";
import iconv from "iconv-lite";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, type ApiResponse, sameOriginHeaders } from "../../../../tests/api-client";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { MAX_IMPORT_ROWS } from "../../../shared/client-import";
import { auditEvents, clientImportRows, clientImports, clients, contacts, firms } from "../../platform/db/schema";
import { insertClient, insertContact, insertTask } from "../../seed/factories";
import { runClientImport } from "./client-import.job";
import { runImportUndo } from "./client-import-undo.job";

/*
 * Client import from CSV (decision 0051) through the HTTP API, on a real database and a real job
 * queue: reading files, mapping, previewing, committing, undoing.
 */

let ctx: TestApp;
let home: SeededFirm;
let other: SeededFirm;
let admin: ApiClient;
let superAdmin: ApiClient;

/** Sends a file as the browser's import screen does: its bytes as text/csv. */
async function upload(
  client: ApiClient,
  file: string | Buffer,
  options: { fileName?: string; contentType?: string } = {},
): Promise<ApiResponse> {
  const token = client.sessionToken();
  const response = await ctx.app.inject({
    method: "POST",
    url: `/api/client-imports?fileName=${encodeURIComponent(options.fileName ?? "clients.csv")}`,
    headers: {
      ...sameOriginHeaders,
      "content-type": options.contentType ?? "text/csv",
      ...(token ? { cookie: `tendwell_session=${token}` } : {}),
    },
    payload: typeof file === "string" ? Buffer.from(file, "utf8") : file,
  });
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  return {
    status: response.statusCode,
    body,
    headers: response.headers,
    text: response.body,
    raw: response.rawPayload,
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const finished = (client: ApiClient, id: string) =>
  until(
    async () => (await client.get(`/api/client-imports/${id}`)).body,
    (body) => body.status === "done" || body.status === "failed",
  );

/** Asks for an import's undo (202, its job queued) and waits until the job has undone it. */
async function undone(client: ApiClient, id: string) {
  const asked = await client.post(`/api/client-imports/${id}/undo`);
  expect(asked.status, asked.text).toBe(202);
  expect(["undoing", "undone"]).toContain(asked.body.status);
  return until(
    async () => (await client.get(`/api/client-imports/${id}`)).body,
    (body) => body.status === "undone" || body.status === "failed",
  );
}

/** The firm's clients and contacts, every column, in a stable order. */
async function clientsAndContacts(firmId: string) {
  const { db } = ctx.database;
  return {
    clients: await db.select().from(clients).where(eq(clients.firmId, firmId)).orderBy(asc(clients.id)),
    contacts: await db.select().from(contacts).where(eq(contacts.firmId, firmId)).orderBy(asc(contacts.id)),
  };
}

async function importRowCount(firmId: string) {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(clientImportRows)
    .where(eq(clientImportRows.firmId, firmId));
  return row?.n ?? 0;
}

async function importsOf(firmId: string) {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(clientImports)
    .where(eq(clientImports.firmId, firmId));
  return row?.n ?? 0;
}

describe("client import", () => {
  ctx = useTestApp({ jobs: true });
  beforeAll(async () => {
    const { db } = ctx.database;
    home = await seedFirm(db, "Import Home");
    other = await seedFirm(db, "Import Other");
    // Enough room for the tests' clients; the plan test moves a firm back to Starter.
    await db.update(firms).set({ plan: "enterprise" }).where(eq(firms.id, home.firm.id));
    admin = await signIn(ctx.app, home.users.admin);
    superAdmin = await signIn(ctx.app, home.users.super_admin);
  });

  describe("reading the file", () => {
    it("S-IMPORT-02 reads a Windows-1252 file from Excel (é, £, €) and says so", async () => {
      const bytes = iconv.encode("Company;Industry;Address\r\nCafé Lumière;Food;£5 € Rue Zoë\r\n", "windows-1252");
      expect(bytes.includes(0xe9) && bytes.includes(0x80) && bytes.includes(0xa3)).toBe(true);
      const response = await upload(admin, bytes);
      expect(response.status, response.text).toBe(201);
      expect(response.body.import).toMatchObject({ encoding: "windows-1252", delimiter: ";", status: "previewed" });
      expect(response.body.rows[0].cells).toEqual(["Café Lumière", "Food", "£5 € Rue Zoë"]);
      expect(response.body.import.headers).toEqual(["Company", "Industry", "Address"]);
    });

    it("S-IMPORT-02 reads UTF-8 with a BOM, leaving the BOM out of the first header", async () => {
      const bytes = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from("Name,Email\nÅsa AB,asa@example.com\n"),
      ]);
      const response = await upload(admin, bytes);
      expect(response.status, response.text).toBe(201);
      expect(response.body.import).toMatchObject({ encoding: "utf-8-bom", delimiter: ",", headers: ["Name", "Email"] });
      expect(response.body.import.mapping).toMatchObject({ name: 0, email: 1 });
      expect(response.body.rows[0].cells).toEqual(["Åsa AB", "asa@example.com"]);
    });

    it("S-IMPORT-03 finds a tab delimiter and reads quoted fields with line breaks and quotes", async () => {
      const file = 'Company\tAddress\tStatus\r\n"Tab ""Quoted"" Ltd"\t"1 Quay St\r\nBristol"\tProspect\r\n';
      const response = await upload(admin, file);
      expect(response.status, response.text).toBe(201);
      expect(response.body.import.delimiter).toBe("\t");
      expect(response.body.rows).toEqual([
        {
          row: 2,
          cells: ['Tab "Quoted" Ltd', "1 Quay St\r\nBristol", "Prospect"],
          errors: [],
          match: null,
          action: null,
        },
      ]);
    });

    it("S-IMPORT-01 refuses a file over 5 MB, over 20,000 rows, of another type, or empty, with a sentence saying so, and keeps nothing", async () => {
      const before = await importsOf(home.firm.id);
      const big = await upload(admin, Buffer.alloc(5 * 1024 * 1024 + 10, 0x61));
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ code: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/larger than 5 MB/) });
      const many = await upload(admin, `Name\n${"x\n".repeat(MAX_IMPORT_ROWS + 1)}`);
      expect(many.status).toBe(413);
      expect(many.body.message).toMatch(/more than 20,000 rows/);
      const json = await upload(admin, JSON.stringify({ name: "x" }), { contentType: "application/json" });
      expect(json.status).toBe(415);
      expect(json.body.message).toMatch(/Content-Type: text\/csv/);
      const empty = await upload(admin, "");
      expect(empty.status).toBe(400);
      const headerOnly = await upload(admin, "Name,Email\n");
      expect(headerOnly.body).toEqual({
        code: "BAD_REQUEST",
        message: "This file has a header row but no clients below it.",
      });
      expect(await importsOf(home.firm.id)).toBe(before);
    });
  });

  describe("mapping and preview", () => {
    it("S-IMPORT-05 S-IMPORT-06 a new mapping checks every row again and is remembered for the next file with the same headers", async () => {
      const file = "Org,Mail,Who\nMapped One,one@example.com,Ann\nMapped Two,not-an-email,\n";
      const first = await upload(admin, file);
      expect(first.status).toBe(201);
      // Nothing in these headers names the company: every row says so, in the create's words.
      expect(first.body.import.mapping.name).toBeNull();
      expect(first.body.rows[0].errors).toEqual([{ field: "name", message: "Company name is required" }]);
      const id = first.body.import.id;
      const mapped = await admin.put(`/api/client-imports/${id}/mapping`, {
        mapping: { name: 0, email: 1, contactName: 2 },
      });
      expect(mapped.status, mapped.text).toBe(200);
      expect(mapped.body.import.counts).toMatchObject({ rows: 2, errors: 1 });
      expect(mapped.body.rows[1].errors).toEqual([{ field: "email", message: "Invalid email address" }]);
      const errors = await admin.get(`/api/client-imports/${id}/rows?filter=errors`);
      expect(errors.body.map((row: { row: number }) => row.row)).toEqual([3]);
      const again = await upload(superAdmin, "Org,Mail,Who\nAnother,a@example.com,Bo\n");
      expect(again.body.import.mapping).toMatchObject({ name: 0, email: 1, contactName: 2, phone: null });
    });

    it("S-IMPORT-05 refuses a mapping without the company name or past the file's columns, with the field named", async () => {
      const { body } = await upload(admin, "Company,Email\nRefused Map,x@example.com\n");
      const id = body.import.id;
      const noName = await admin.put(`/api/client-imports/${id}/mapping`, { mapping: { email: 1 } });
      expect(noName.status).toBe(400);
      expect(noName.body).toEqual({
        code: "VALIDATION_FAILED",
        message: "Choose the column that holds the company name",
        issues: [{ path: ["mapping.name"], message: "Choose the column that holds the company name" }],
      });
      const past = await admin.put(`/api/client-imports/${id}/mapping`, { mapping: { name: 0, phone: 5 } });
      expect(past.status).toBe(400);
      expect(past.body.message).toBe("Phone: the file has 2 columns, so there is no column 6");
    });

    it("S-IMPORT-04 S-IMPORT-06 a malformed file gives clear row errors, cannot be committed, and writes no client", async () => {
      const before = await clientsAndContacts(home.firm.id);
      const file = [
        "Company,Email,Status,Contact name,Contact email",
        "Good Row Ltd,good@example.com,active,,",
        ",nobody@example.com,active,,",
        "Bad Mail Ltd,not-an-email,gold,,",
        "Contact Less Ltd,,,,contact@",
        "Good Row Ltd.,,,,",
      ].join("\n");
      const { body } = await upload(admin, file);
      expect(body.import.counts).toMatchObject({ rows: 5, errors: 4 });
      expect(body.rows.map((row: { row: number; errors: unknown[] }) => [row.row, row.errors])).toEqual([
        [2, []],
        [3, [{ field: "name", message: "Company name is required" }]],
        [
          4,
          [
            { field: "email", message: "Invalid email address" },
            { field: "status", message: "Invalid enum value" },
          ],
        ],
        [
          5,
          [
            { field: "contactName", message: "Contact name is required" },
            { field: "contactEmail", message: "Invalid email address" },
          ],
        ],
        [6, [{ field: "name", message: "This client is also on row 2 of this file" }]],
      ]);
      const commit = await admin.post(`/api/client-imports/${body.import.id}/commit`, { duplicates: "skip" });
      expect(commit.status).toBe(400);
      expect(commit.body).toEqual({
        code: "BAD_REQUEST",
        message:
          "4 rows have errors. Correct the file and upload it again, or change the mapping; nothing has been imported.",
      });
      expect((await admin.get(`/api/client-imports/${body.import.id}`)).body.status).toBe("previewed");
      expect(await clientsAndContacts(home.firm.id)).toEqual(before);
    });

    it("S-IMPORT-04 a quote never closed is refused naming its row, keeping nothing", async () => {
      const before = await importRowCount(home.firm.id);
      const response = await upload(admin, 'Company,Address\nOpen Quote Ltd,"1 Main St\nNext Ltd,2 Side St\n');
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^Row 2 opens a quoted field that is never closed/);
      expect(await importRowCount(home.firm.id)).toBe(before);
    });
  });

  describe("commit and undo", () => {
    it("S-IMPORT-07 S-IMPORT-08 S-IMPORT-10 S-IMPORT-11 S-IMPORT-15 duplicates updated, new rows created in a job with progress; undo gives back exactly the firm's clients and contacts as before", async () => {
      const { db } = ctx.database;
      const firmId = home.firm.id;
      const acme = await insertClient(db, { firmId, name: "Acme Holdings, Ltd.", email: "office@acme.test" });
      await insertContact(db, { firmId, clientId: acme.id, name: "Old Contact", isPrimary: true });
      const beta = await insertClient(db, { firmId, name: "Beta Works", email: "hello@beta.test" });
      const before = await clientsAndContacts(firmId);
      const file = [
        "Company,Email,Phone,Status,Contact name,Contact title",
        "ACME holdings ltd,,+44 20 7946 0000,inactive,New Contact,Partner",
        "Beta Group,HELLO@beta.test,,,Bea Bright,",
        "Gamma New Ltd,gamma@example.com,,prospect,Gail Gamma,Owner",
        "Delta New Ltd,,,,,",
      ].join("\r\n");
      const uploaded = await upload(admin, file);
      expect(uploaded.body.rows.map((row: { match: unknown }) => row.match)).toEqual([
        { clientId: acme.id, name: "Acme Holdings, Ltd.", by: "name" },
        { clientId: beta.id, name: "Beta Works", by: "email" },
        null,
        null,
      ]);
      const id = uploaded.body.import.id;
      const commit = await admin.post(`/api/client-imports/${id}/commit`, { duplicates: "update" });
      expect(commit.status, commit.text).toBe(202);
      expect(["queued", "running", "done"]).toContain(commit.body.status);
      const done = await finished(admin, id);
      expect(done).toMatchObject({ status: "done", progress: 4, counts: { created: 2, updated: 2, skipped: 0 } });

      const afterImport = await admin.get(`/api/clients/${acme.id}`);
      expect(afterImport.body).toMatchObject({
        name: "ACME holdings ltd",
        phone: "+44 20 7946 0000",
        status: "inactive",
      });
      expect(afterImport.body.email).toBe("office@acme.test");
      expect(afterImport.body.contacts).toMatchObject([{ name: "New Contact", title: "Partner", isPrimary: true }]);
      const gamma = await db
        .select()
        .from(clients)
        .where(and(eq(clients.firmId, firmId), eq(clients.name, "Gamma New Ltd")));
      expect(gamma).toMatchObject([{ status: "prospect", email: "gamma@example.com" }]);
      const rows = await admin.get(`/api/client-imports/${id}/rows`);
      expect(rows.body.map((row: { action: string }) => row.action)).toEqual(["update", "update", "create", "create"]);

      const undo = await undone(superAdmin, id);
      expect(undo).toMatchObject({
        status: "undone",
        undo: { progress: 4, total: 4, removed: 2, archived: 0, restored: 2, kept: 0 },
      });
      expect(await clientsAndContacts(firmId)).toEqual(before);

      const again = await superAdmin.post(`/api/client-imports/${id}/undo`);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: "CONFLICT", message: "This import has already been undone." });
      const events = await db
        .select({ action: auditEvents.action, after: auditEvents.after, actor: auditEvents.actorUserId })
        .from(auditEvents)
        .where(and(eq(auditEvents.firmId, firmId), eq(auditEvents.entityId, firmId)));
      expect(events.filter((event) => event.action.startsWith("client_import."))).toEqual([
        {
          action: "client_import.committed",
          actor: home.users.admin.id,
          after: { importId: id, fileName: "clients.csv", rows: 4, toCreate: 2, toUpdate: 2, toSkip: 0 },
        },
        {
          action: "client_import.undone",
          actor: home.users.super_admin.id,
          after: { importId: id, fileName: "clients.csv", created: 2, updated: 2 },
        },
      ]);
    });

    it("S-IMPORT-07 skip leaves a duplicate alone; create makes a second client of the same name", async () => {
      const firmId = home.firm.id;
      await insertClient(ctx.database.db, { firmId, name: "Skip Me Ltd", phone: "1" });
      const file = "Company,Phone\nskip me ltd,2\nBrand New Skip Ltd,3\n";
      const skipped = await upload(admin, file);
      await admin.post(`/api/client-imports/${skipped.body.import.id}/commit`, { duplicates: "skip" });
      expect((await finished(admin, skipped.body.import.id)).counts).toMatchObject({
        created: 1,
        updated: 0,
        skipped: 1,
      });
      const named = async (name: string) =>
        ctx.database.db
          .select({ phone: clients.phone })
          .from(clients)
          .where(and(eq(clients.firmId, firmId), eq(clients.name, name)));
      expect(await named("Skip Me Ltd")).toEqual([{ phone: "1" }]);
      const created = await upload(admin, "Company,Phone\nSKIP ME LTD,4\n");
      await admin.post(`/api/client-imports/${created.body.import.id}/commit`, { duplicates: "create" });
      expect((await finished(admin, created.body.import.id)).counts).toMatchObject({ created: 1 });
      expect(await named("SKIP ME LTD")).toEqual([{ phone: "4" }]);
      expect(await named("Skip Me Ltd")).toEqual([{ phone: "1" }]);
    });

    it("S-IMPORT-10 undo archives a created client that has since gained a task, and removes the others", async () => {
      const firmId = home.firm.id;
      const { body } = await upload(admin, "Company\nKeeps Work Ltd\nGoes Away Ltd\n");
      await admin.post(`/api/client-imports/${body.import.id}/commit`, { duplicates: "skip" });
      await finished(admin, body.import.id);
      const [kept] = await ctx.database.db
        .select()
        .from(clients)
        .where(and(eq(clients.firmId, firmId), eq(clients.name, "Keeps Work Ltd")));
      if (!kept) throw new Error("the import made the client");
      await insertTask(ctx.database.db, { firmId, clientId: kept.id, name: "Onboarding" });
      const undo = await undone(admin, body.import.id);
      expect(undo.undo).toMatchObject({ removed: 1, archived: 1 });
      const [after] = await ctx.database.db.select().from(clients).where(eq(clients.id, kept.id));
      expect(after?.archivedAt).not.toBeNull();
    });

    it("S-IMPORT-08 a run repeated, or several at once beside the queue's, writes every row once", async () => {
      const firmId = home.firm.id;
      const names = Array.from({ length: 1_200 }, (_, index) => `Repeat Client ${String(index).padStart(4, "0")}`);
      const { body } = await upload(admin, `Company\n${names.join("\n")}\n`);
      const id = body.import.id;
      await admin.post(`/api/client-imports/${id}/commit`, { duplicates: "skip" });
      const data = { firmId, importId: id };
      await Promise.all([
        runClientImport({ db: ctx.appDatabase.db, data, batchSize: 100 }),
        runClientImport({ db: ctx.appDatabase.db, data, batchSize: 100 }),
      ]);
      const done = await finished(admin, id);
      expect(done).toMatchObject({ status: "done", progress: 1_200, counts: { created: 1_200 } });
      expect(await runClientImport({ db: ctx.appDatabase.db, data })).toBeNull();
      const [made] = await ctx.database.db
        .select({ n: count() })
        .from(clients)
        .where(and(eq(clients.firmId, firmId), eq(clients.name, "Repeat Client 0000")));
      expect(made?.n).toBe(1);
      const all = await admin.get("/api/clients?q=Repeat%20Client&limit=500");
      expect(all.status).toBe(200);
      expect((await admin.get(`/api/client-imports/${id}`)).body.counts.created).toBe(1_200);
    });

    it("S-IMPORT-15 an undo runs as a job in batches with its progress: repeated or run twice at once it takes each change back once, and a changed client is kept", async () => {
      const { db } = ctx.database;
      const firmId = home.firm.id;
      const names = Array.from({ length: 1_050 }, (_, index) => `Undo Batch ${String(index).padStart(4, "0")}`);
      const existing = await insertClient(db, { firmId, name: "Undo Batch Existing", phone: "1" });
      const before = await clientsAndContacts(firmId);
      const { body } = await upload(admin, `Company,Phone\n${names.join("\n")}\nUndo Batch Existing,2\n`);
      const id = body.import.id;
      await admin.post(`/api/client-imports/${id}/commit`, { duplicates: "update" });
      expect(await finished(admin, id)).toMatchObject({ counts: { created: 1_050, updated: 1 }, undo: null });
      // The client the import updated is changed again by someone: the undo keeps it as it is now.
      const renamed = await admin.patch(`/api/clients/${existing.id}`, { phone: "3" });
      expect(renamed.status, renamed.text).toBe(200);

      // Asked for, the undo is queued; run here in batches of 100, twice at once beside the queue's.
      const data = { firmId, importId: id };
      const asked = await admin.post(`/api/client-imports/${id}/undo`);
      expect(asked.status).toBe(202);
      expect(asked.body.undo).toMatchObject({ total: 1_051 });
      const second = await admin.post(`/api/client-imports/${id}/undo`);
      expect([second.status, second.body.message]).toEqual([409, "This import is already being undone."]);
      await Promise.all([
        runImportUndo({ db: ctx.appDatabase.db, data, batchSize: 100 }),
        runImportUndo({ db: ctx.appDatabase.db, data, batchSize: 100 }),
      ]);
      const done = await until(
        async () => (await admin.get(`/api/client-imports/${id}`)).body,
        (record) => record.status === "undone",
      );
      expect(done.undo).toEqual({ progress: 1_051, total: 1_051, removed: 1_050, archived: 0, restored: 0, kept: 1 });
      expect(await runImportUndo({ db: ctx.appDatabase.db, data })).toBeNull();
      const after = await clientsAndContacts(firmId);
      expect(after.clients.filter((client) => client.name.startsWith("Undo Batch "))).toMatchObject([
        { id: existing.id, phone: "3" },
      ]);
      expect(after.contacts).toEqual(before.contacts);
    });

    it("S-IMPORT-09 an import past the plan's limit is named at preview and refused at commit, writing nothing", async () => {
      const { db } = ctx.database;
      const small = await seedFirm(db, "Import Small");
      await db.update(firms).set({ plan: "starter" }).where(eq(firms.id, small.firm.id));
      const client = await signIn(ctx.app, small.users.admin);
      // Starter allows 100 clients; the firm has 3.
      const names = Array.from({ length: 98 }, (_, index) => `Plan Client ${index}`);
      const { body } = await upload(client, `Company\n${names.join("\n")}\n`);
      expect(body.import.planProblem).toBe(
        "Your Starter plan allows up to 100 clients and your firm has 3, so this import cannot add 98. Upgrade your plan, or import at most 97 new clients.",
      );
      const before = await clientsAndContacts(small.firm.id);
      const commit = await client.post(`/api/client-imports/${body.import.id}/commit`, { duplicates: "skip" });
      expect(commit.status).toBe(403);
      expect(commit.body).toEqual({ code: "FORBIDDEN", message: body.import.planProblem });
      expect(await clientsAndContacts(small.firm.id)).toEqual(before);
      expect((await client.get(`/api/client-imports/${body.import.id}`)).body.status).toBe("previewed");
    });
  });

  describe("who may import", () => {
    it("S-IMPORT-12 a user is refused with 403 and keeps nothing; another firm's import is a 404 on every route", async () => {
      const user = await signIn(ctx.app, home.users.user);
      const before = await importsOf(home.firm.id);
      const refused = await upload(user, "Company\nNope Ltd\n");
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("FORBIDDEN");
      expect(await importsOf(home.firm.id)).toBe(before);

      const { body } = await upload(admin, "Company\nCross Firm Ltd\n");
      const id = body.import.id;
      const outsider = await signIn(ctx.app, other.users.super_admin);
      const notFound = { code: "NOT_FOUND", message: "Import not found" };
      for (const response of [
        await outsider.get(`/api/client-imports/${id}`),
        await outsider.get(`/api/client-imports/${id}/rows`),
        await outsider.put(`/api/client-imports/${id}/mapping`, { mapping: { name: 0 } }),
        await outsider.post(`/api/client-imports/${id}/commit`, { duplicates: "skip" }),
        await outsider.post(`/api/client-imports/${id}/undo`),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual(notFound);
      }
      expect((await outsider.get("/api/client-imports")).body).toEqual([]);
      expect((await admin.get(`/api/client-imports/${id}`)).body.status).toBe("previewed");
    });
  });
});
