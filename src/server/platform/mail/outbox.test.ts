import { eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { useSmtpInbox } from "../../../../tests/smtp-inbox";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { totpCode, totpStep } from "../../features/mfa/totp";
import { insertFirm, insertUser } from "../../seed/factories";
import { connectDatabase } from "../db/database";
import { firms, mailOutbox, users } from "../db/schema";
import type { MailSender } from "./mail-sender";
import { deliverDueMail, MAX_MAIL_ATTEMPTS } from "./outbox";

/*
 * E-mail through the outbox (decision 0049), delivered to a real SMTP server in this process and
 * read back by mailparser: what arrives, once, and what becomes of refusals, crashes and
 * disabled users. Delivery runs are called directly (the deliver-mail job's one step), with the
 * clock passed in to reach a retry's time instead of waiting for it.
 */

let ctx: TestApp;
let smtp: ReturnType<typeof useSmtpInbox>;
const password = "correct horse battery";
const silent = pino({ level: "silent" });

type LogLine = { level: number; msg: string; [key: string]: unknown };

const deliver = (options: { now?: Date; via?: MailSender | undefined } = {}) =>
  deliverDueMail({
    db: ctx.database.db,
    sender: "via" in options ? options.via : smtp.sender,
    log: silent,
    now: options.now,
  });

/** A user of a new firm in New York, signed in, who then changes their password. */
async function passwordChanged(overrides: { email?: string | null } = {}) {
  const firm = await insertFirm(ctx.database.db, { name: `Bright & Co ${crypto.randomUUID().slice(0, 6)}` });
  await ctx.database.db.update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, firm.id));
  const user = await insertUser(ctx.database.db, { firmId: firm.id, password, ...overrides });
  const client = apiClient(ctx.app);
  expect((await client.post("/api/auth/login", { username: user.username, password })).status).toBe(200);
  const changed = await client.post("/api/auth/change-password", {
    currentPassword: password,
    newPassword: "a much longer passphrase 42",
  });
  expect(changed.status).toBe(204);
  return { firm, user };
}

const outboxOf = (userId: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, userId));
const arrivedFor = (address: string) => smtp.inbox.received.filter((mail) => mail.envelopeTo.includes(address));

describe("e-mail through the outbox", () => {
  ctx = useTestApp();
  smtp = useSmtpInbox();

  it("S-MAIL-03 a password change writes its security notice in the same change, delivered once, from the firm's name, in its time zone", async () => {
    const { firm, user } = await passwordChanged();
    const [queued] = await outboxOf(user.id);
    expect(queued).toMatchObject({ kind: "security_notice", status: "pending", toAddress: user.email });
    expect((await deliver()).sent).toBeGreaterThanOrEqual(1);
    const arrived = arrivedFor(user.email ?? "");
    expect(arrived).toHaveLength(1);
    const mail = arrived[0]?.parsed;
    expect(mail?.subject).toBe("Your Tendwell password was changed");
    expect(mail?.from?.value).toEqual([{ name: firm.name, address: "notifications@tendwell.test" }]);
    expect(mail?.to).toMatchObject({ value: [{ name: user.fullName, address: user.email }] });
    expect(mail?.text).toContain(`Hello ${user.fullName},`);
    expect(mail?.text).toContain(`at ${firm.name} was changed on`);
    expect(mail?.text).toContain("(America/New_York)");
    expect(mail?.html).toContain(firm.name.replace("&", "&amp;"));
    // A security notice cannot be declined: no unsubscribe headers.
    expect(arrived[0]?.raw).not.toMatch(/^List-Unsubscribe/im);
    const [sent] = await outboxOf(user.id);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    // Another run finds nothing due: still one message.
    await deliver();
    expect(arrivedFor(user.email ?? "")).toHaveLength(1);
  });

  it("S-MAIL-09 adding or removing a second factor, and an administrator's reset of them, each send a security notice", async () => {
    const firm = await insertFirm(ctx.database.db, { name: `Harbor Law ${crypto.randomUUID().slice(0, 6)}` });
    await ctx.database.db
      .update(firms)
      .set({ mfaPolicy: "optional", mfaRequiredFrom: null })
      .where(eq(firms.id, firm.id));
    const user = await insertUser(ctx.database.db, { firmId: firm.id, password });
    const admin = await insertUser(ctx.database.db, { firmId: firm.id, role: "super_admin", password });
    const client = apiClient(ctx.app);
    expect((await client.post("/api/auth/login", { username: user.username, password })).status).toBe(200);
    const addPhone = async (name: string) => {
      const secret: string = (await client.post("/api/account/factors/totp")).body.secret.replace(/\s/g, "");
      const confirmed = await client.post("/api/account/factors/totp/confirm", {
        code: totpCode(secret, totpStep(new Date())),
        name,
      });
      expect(confirmed.status).toBe(200);
      return confirmed.body.factor.id as string;
    };
    const phone = await addPhone("Work phone");
    expect((await client.delete(`/api/account/factors/${phone}`)).status).toBe(204);
    await addPhone("New phone");
    const adminClient = apiClient(ctx.app);
    expect((await adminClient.post("/api/auth/login", { username: admin.username, password })).status).toBe(200);
    expect((await adminClient.delete(`/api/users/${user.id}/factors`)).status).toBe(204);

    await deliver();
    const subjects = arrivedFor(user.email ?? "").map((mail) => mail.parsed.subject);
    expect(subjects).toEqual([
      "A sign-in method was added to your Tendwell account",
      "A sign-in method was removed from your Tendwell account",
      "A sign-in method was added to your Tendwell account",
      "Your Tendwell sign-in methods were reset",
    ]);
    const texts = arrivedFor(user.email ?? "").map((mail) => mail.parsed.text ?? "");
    expect(texts[0]).toContain(
      `The authenticator app “Work phone” was added to your Tendwell account ${user.username}`,
    );
    expect(texts[1]).toContain("“Work phone” was removed");
    expect(texts[3]).toContain("An administrator removed every second factor");
    for (const mail of arrivedFor(user.email ?? "")) expect(mail.raw).not.toMatch(/^List-Unsubscribe/im);
    // The administrator who reset them is told of nothing.
    expect(arrivedFor(admin.email ?? "")).toEqual([]);
  });

  it("S-MAIL-04 a delivery that dies between the send and its record sends nothing again", async () => {
    const { user } = await passwordChanged();
    const dying: MailSender = {
      send: async (mail) => {
        await smtp.sender.send(mail);
        throw new Error("the process died here");
      },
      close: () => {},
    };
    await expect(deliver({ via: dying })).rejects.toThrow("the process died here");
    expect(arrivedFor(user.email ?? "")).toHaveLength(1);
    // The job is tried again, by this instance or another: the message stays taken.
    await deliver();
    await deliver({ now: new Date(Date.now() + 86_400_000) });
    expect(arrivedFor(user.email ?? "")).toHaveLength(1);
    expect((await outboxOf(user.id))[0]).toMatchObject({ status: "sending", attempts: 1 });
  });

  it("S-MAIL-05 a refusal for now is tried again later with growing waits; one for good, or too many, marks it failed", async () => {
    const { user } = await passwordChanged();
    const address = user.email ?? "";
    smtp.inbox.refuse(address, 451, "Greylisted, try again later");
    const start = Date.now();
    await deliver({ now: new Date(start) });
    const [first] = await outboxOf(user.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("451") });
    expect(first?.nextAttemptAt.getTime()).toBe(start + 60_000);
    // Not due yet: nothing happens.
    await deliver({ now: new Date(start + 30_000) });
    expect((await outboxOf(user.id))[0]?.attempts).toBe(1);
    await deliver({ now: new Date(start + 60_000) });
    expect((await outboxOf(user.id))[0]?.nextAttemptAt.getTime()).toBe(start + 60_000 + 120_000);
    // The server takes it now.
    smtp.inbox.refuse(address, 0, "");
    await deliver({ now: new Date(start + 180_000) });
    expect((await outboxOf(user.id))[0]).toMatchObject({ status: "sent", attempts: 3 });
    expect(arrivedFor(address)).toHaveLength(1);

    const gone = await passwordChanged();
    smtp.inbox.refuse(gone.user.email ?? "", 550, "No such user here");
    await deliver();
    expect((await outboxOf(gone.user.id))[0]).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining("550"),
    });

    const busy = await passwordChanged();
    smtp.inbox.refuse(busy.user.email ?? "", 421, "Too busy");
    for (let attempt = 0; attempt < MAX_MAIL_ATTEMPTS; attempt++) {
      await deliver({ now: new Date(Date.now() + 2 ** attempt * 86_400_000) });
    }
    expect((await outboxOf(busy.user.id))[0]).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS });
    expect(arrivedFor(busy.user.email ?? "")).toHaveLength(0);
  });

  it("S-MAIL-06 no mail reaches a user disabled or given another address before it went, and a user without an address gets none", async () => {
    const { user } = await passwordChanged();
    await ctx.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    await deliver();
    expect(arrivedFor(user.email ?? "")).toHaveLength(0);
    expect((await outboxOf(user.id))[0]).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining("disabled"),
    });

    const moved = await passwordChanged();
    await ctx.database.db
      .update(users)
      .set({ email: `new-${moved.user.email}` })
      .where(eq(users.id, moved.user.id));
    await deliver();
    expect(
      smtp.inbox.received.filter(
        (mail) =>
          mail.parsed.subject?.includes("password") &&
          mail.envelopeTo.some((to) => to.endsWith(moved.user.email ?? "")),
      ),
    ).toEqual([]);
    expect((await outboxOf(moved.user.id))[0]).toMatchObject({ status: "failed" });

    const without = await passwordChanged({ email: null });
    expect(await outboxOf(without.user.id)).toEqual([]);
  });

  it("S-MAIL-07 without SMTP_URL a message is kept in the outbox and written to the log, not sent", async () => {
    const { user } = await passwordChanged();
    const lines: LogLine[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
    await deliverDueMail({ db: ctx.database.db, sender: undefined, log });
    expect((await outboxOf(user.id))[0]).toMatchObject({ status: "kept", attempts: 1 });
    const kept = lines.find((line) => line.to === user.email);
    expect(kept).toMatchObject({ msg: "mail kept in the outbox, not sent: no SMTP_URL is set" });
    expect(kept?.subject).toBe("Your Tendwell password was changed");
    expect(arrivedFor(user.email ?? "")).toHaveLength(0);
  });

  it("S-MAIL-08 two instances delivering at once send each message once", async () => {
    const changed = await Promise.all([passwordChanged(), passwordChanged(), passwordChanged()]);
    const url = ctx.database.pool.options.connectionString;
    if (url === undefined) throw new Error("the test pool has no connection string");
    const other = connectDatabase({ url, poolSize: 2 });
    try {
      await Promise.all([
        deliverDueMail({ db: ctx.database.db, sender: smtp.sender, log: silent }),
        deliverDueMail({ db: other.db, sender: smtp.sender, log: silent }),
      ]);
    } finally {
      await other.close();
    }
    for (const { user } of changed) expect(arrivedFor(user.email ?? "")).toHaveLength(1);
  });
});
