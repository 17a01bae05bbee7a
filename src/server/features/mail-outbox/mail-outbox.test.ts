import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, apiClient } from "../../../../tests/api-client";
import { type SeededFirm, type SeededUser, seedFirm, signIn } from "../../../../tests/fixtures";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import type { MailKind, MailOutboxPage, MailStatus } from "../../../shared/mail-outbox";
import { mailOutbox } from "../../platform/db/schema";
import { insertUser } from "../../seed/factories";

/*
 * Settings' "Outgoing mail" through the API (decision 0049): GET /api/mail-outbox, for a firm's
 * super admins, against a real PostgreSQL. Messages are written as the outbox holds them, at
 * chosen instants, in two firms; one comes from a real password change.
 */

const MINUTE_MS = 60_000;

let ctx: TestApp;
let home: SeededFirm;
let elsewhere: SeededFirm;
let superAdmin: ApiClient;

let sequence = 0;
/** A message of `user`'s firm to `user`, created `minutesAgo` before now, as the outbox holds it. */
async function insertMessage(
  user: SeededUser,
  minutesAgo: number,
  fields: { status?: MailStatus; kind?: MailKind; subject?: string } = {},
) {
  sequence += 1;
  const createdAt = new Date(Date.now() - minutesAgo * MINUTE_MS);
  const status = fields.status ?? "kept";
  const settled = status === "sent" || status === "kept" || status === "failed";
  const [row] = await ctx.database.db
    .insert(mailOutbox)
    .values({
      id: uuidv7(),
      firmId: user.firmId,
      userId: user.id,
      dedupeKey: `test:${sequence}`,
      kind: fields.kind ?? "due_soon",
      toAddress: user.email ?? "someone@example.com",
      toName: user.fullName,
      senderName: "The Firm",
      subject: fields.subject ?? `Message ${sequence}`,
      textBody: `Hello ${user.fullName},\n\nLine one.\nLine two.`,
      htmlBody: "<p>Hello</p>",
      status,
      attempts: status === "pending" ? 0 : 1,
      createdAt,
      settledAt: settled ? new Date(createdAt.getTime() + MINUTE_MS) : null,
      lastError: status === "failed" ? "550 5.1.1 No such mailbox" : null,
    })
    .returning();
  if (!row) throw new Error("the message was not inserted");
  return row;
}

/** Every page of the outbox for `query`, following x-next-cursor. */
async function allPages(client: ApiClient, query = "") {
  const pages: MailOutboxPage[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 20; guard++) {
    const separator = query ? "&" : "";
    const response = await client.get(
      `/api/mail-outbox?${query}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(response.status, response.text).toBe(200);
    pages.push(response.body);
    cursor = response.headers["x-next-cursor"] as string | undefined;
    if (!cursor) return pages;
  }
  throw new Error("the pages never ended");
}

describe("the outbox in Settings (GET /api/mail-outbox)", () => {
  ctx = useTestApp();

  beforeAll(async () => {
    home = await seedFirm(ctx.database.db, "Outbox Home");
    elsewhere = await seedFirm(ctx.database.db, "Outbox Elsewhere");
    superAdmin = await signIn(ctx.app, home.users.super_admin);
  });

  it("S-MAIL-13 answers a super admin their firm's messages newest first, 50 a page, each with where it stands and its text, and says mail is kept without SMTP_URL", async () => {
    const { user, admin } = home.users;
    // 55 messages a minute apart, and one the same instant as another (the id breaks the tie).
    const made = [];
    for (let n = 0; n < 55; n++) made.push(await insertMessage(n % 2 ? user : admin, 1000 - n));
    made.push(await insertMessage(user, 1000 - 54));
    const failed = await insertMessage(user, 1, { status: "failed", kind: "security_notice", subject: "Refused" });
    // Another firm's, newer than all of them: never shown here.
    const foreign = await insertMessage(elsewhere.users.user, 0, { subject: "Elsewhere's" });

    const pages = await allPages(superAdmin);
    expect(pages.map((page) => page.messages.length)).toEqual([50, 7]);
    expect(pages.every((page) => page.delivery === "kept")).toBe(true);
    const listed = pages.flatMap((page) => page.messages);
    const expected = [...made, failed]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((row) => row.id);
    expect(listed.map((message) => message.id)).toEqual(expected);
    expect(listed.map((message) => message.id)).not.toContain(foreign.id);

    expect(listed[0]).toEqual({
      id: failed.id,
      kind: "security_notice",
      to: { name: user.fullName, address: user.email },
      subject: "Refused",
      status: "failed",
      attempts: 1,
      nextAttemptAt: null,
      lastError: "550 5.1.1 No such mailbox",
      createdAt: failed.createdAt.toISOString(),
      settledAt: failed.settledAt?.toISOString(),
      text: `Hello ${user.fullName},\n\nLine one.\nLine two.`,
    });
    expect(Object.keys(listed[0] ?? {})).not.toContain("html");

    // One status only.
    const onlyFailed = await allPages(superAdmin, "status=failed");
    expect(onlyFailed.flatMap((page) => page.messages).map((message) => message.id)).toEqual([failed.id]);
    const pending = await insertMessage(user, 0, { status: "pending", kind: "digest" });
    const waiting = (await allPages(superAdmin, "status=pending")).flatMap((page) => page.messages);
    expect(waiting).toMatchObject([{ id: pending.id, status: "pending", kind: "digest", settledAt: null }]);
    expect(waiting[0]?.nextAttemptAt).toBe(pending.nextAttemptAt.toISOString());
  });

  it("S-MAIL-13 lists the security notice of a password just changed, waiting for its delivery", async () => {
    // A super admin of their own: the change ends their other sessions.
    const owner = await insertUser(ctx.database.db, { firmId: home.firm.id, role: "super_admin" });
    const client = apiClient(ctx.app);
    expect((await client.post("/api/auth/login", { username: owner.username, password: owner.password })).status).toBe(
      200,
    );
    const changed = await client.post("/api/auth/change-password", {
      currentPassword: owner.password,
      newPassword: "a much longer passphrase 42",
    });
    expect(changed.status).toBe(204);
    const [newest] = (await client.get("/api/mail-outbox")).body.messages;
    expect(newest).toMatchObject({
      kind: "security_notice",
      to: { address: owner.email },
      status: "pending",
      attempts: 0,
      settledAt: null,
    });
    expect(newest.text).toContain("password");
    const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, newest.id));
    expect(row?.userId).toBe(owner.id);
  });

  it("S-MAIL-13 shows another firm's super admin only that firm's messages", async () => {
    const other = await signIn(ctx.app, elsewhere.users.super_admin);
    const listed = (await allPages(other)).flatMap((page) => page.messages);
    const own = await ctx.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.firmId, elsewhere.firm.id));
    expect(own.length).toBeGreaterThan(0);
    expect(listed.map((message) => message.id).sort()).toEqual(own.map((row) => row.id).sort());
  });

  it("S-MAIL-14 refuses admins and users with 403, and a caller who is not signed in with 401", async () => {
    for (const role of ["admin", "user"] as const) {
      const response = await (await signIn(ctx.app, home.users[role])).get("/api/mail-outbox");
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        code: "FORBIDDEN",
        message: `Your role (${role}) does not allow you to view the firm's outgoing e-mail`,
      });
    }
    expect((await apiClient(ctx.app).get("/api/mail-outbox")).status).toBe(401);
  });

  it("S-MAIL-14 refuses an unknown parameter, a status it does not know and a cursor it did not give out with 400", async () => {
    const validation = (at: string, message: string) => ({
      code: "VALIDATION_FAILED",
      message: expect.any(String),
      issues: [expect.objectContaining({ path: [at], message })],
    });
    const statusMessage = `status must be one of pending, sending, sent, kept, failed`;
    const cases: [string, unknown][] = [
      ["status=delivered", validation("status", statusMessage)],
      ["status=", validation("status", statusMessage)],
      ["limit=5", expect.objectContaining({ code: "VALIDATION_FAILED" })],
      ["cursor=nope", { code: "BAD_REQUEST", message: "The cursor is not one this list gave out" }],
      [
        `cursor=${Buffer.from(JSON.stringify(["m", "2026-02-30T00:00:00.000000Z", home.firm.id])).toString("base64url")}`,
        { code: "BAD_REQUEST", message: "The cursor is not one this list gave out" },
      ],
      [
        `cursor=${Buffer.from(JSON.stringify(["a", 5])).toString("base64url")}`,
        { code: "BAD_REQUEST", message: "The cursor is not one this list gave out" },
      ],
      [`cursor=${"a".repeat(201)}`, validation("cursor", "Invalid cursor")],
    ];
    for (const [query, body] of cases) {
      const response = await superAdmin.get(`/api/mail-outbox?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual(body);
    }
  });
});

describe("the outbox of a server that sends mail", () => {
  const sending = useTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:2525" } });

  it("S-MAIL-13 says mail is sent over SMTP when SMTP_URL is set", async () => {
    const firm = await seedFirm(sending.database.db, "Sending Firm");
    const response = await (await signIn(sending.app, firm.users.super_admin)).get("/api/mail-outbox");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ delivery: "smtp", messages: [] });
    expect(response.headers["x-next-cursor"]).toBeUndefined();
  });
});
