import { createHmac, hkdfSync } from "node:crypto";
import { eq } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { captureLogs } from "../../../../tests/log-capture";
import { headerOf, useSmtpInbox } from "../../../../tests/smtp-inbox";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { connectDatabase } from "../../platform/db/database";
import { clients, firms, mailOutbox, notificationPreferences, users } from "../../platform/db/schema";
import { deliverDueMail } from "../../platform/mail/outbox";
import type { SealingKey } from "../../platform/sealed-secrets";
import { insertClient, insertFirm, insertTask, insertUser, insertUserClients } from "../../seed/factories";
import { queueMorningReminders } from "./notifications.service";
import { unsubscribeToken } from "./unsubscribe-token";

/*
 * The morning's due-soon reminders (decision 0050): queued once per firm and local date from the
 * firm's 08:00, delivered to a real SMTP server in this process, and turned off by one click.
 * The sweeps are called with the clock passed in: the firms are in New York, where 1 December
 * 2026 08:00 is 13:00 UTC. The app's own clock (what an unsubscribe address is judged at) stands
 * at noon UTC on 8 December 2026, after every sweep here.
 */

let ctx: TestApp;
let smtp: ReturnType<typeof useSmtpInbox>;
let key: SealingKey;
const origin = "https://tendwell.test";
const silent = pino({ level: "silent" });
const logs = captureLogs("info");
const password = "correct horse battery";

/** The app's clock: after every sweep of this file. */
const appNow = new Date("2026-12-08T12:00:00Z");
const DAY_MS = 86_400_000;

/** An instant of New York's 1 December 2026 (UTC-5), from its local time. */
const newYork = (time: string, day = 1) => new Date(`2026-12-${String(day).padStart(2, "0")}T${time}-05:00`);

const sweep = (at: Date, db = ctx.database.db) => queueMorningReminders({ db, key, appOrigin: origin, now: at });
const deliver = () => deliverDueMail({ db: ctx.database.db, sender: smtp.sender, log: silent });
const arrivedFor = (address: string | null) =>
  smtp.inbox.received.filter((mail) => address !== null && mail.envelopeTo.includes(address));

/** A firm in New York whose user is assigned a client with a task due on 4 December, local time. */
async function firmWithTaskDue(options: { taskName?: string; day?: number } = {}) {
  const firm = await insertFirm(ctx.database.db, { name: `Bright & Co ${crypto.randomUUID().slice(0, 6)}` });
  await ctx.database.db.update(firms).set({ timeZone: "America/New_York" }).where(eq(firms.id, firm.id));
  const user = await insertUser(ctx.database.db, { firmId: firm.id, password });
  const client = await insertClient(ctx.database.db, { firmId: firm.id, name: "Acme; Holdings, Ltd" });
  await insertUserClients(ctx.database.db, { firmId: firm.id, userId: user.id, clientIds: [client.id] });
  const task = await insertTask(ctx.database.db, {
    firmId: firm.id,
    clientId: client.id,
    name: options.taskName ?? "VAT return",
    dueDate: newYork("23:59:59.999", options.day ?? 4),
  });
  return { firm, user, client, task };
}

describe("the morning's due-soon reminders", () => {
  ctx = useTestApp({ logger: logs.logger, clock: () => appNow });
  smtp = useSmtpInbox();
  beforeAll(() => {
    if (!ctx.config.mfaKey) throw new Error("the test app has no sealing key");
    key = ctx.config.mfaKey;
  });

  it("S-NOTIF-01 a task due in 3 days is reminded once, from 08:00 in the firm's time zone, with one-click unsubscribe", async () => {
    const { firm, user } = await firmWithTaskDue();
    await sweep(newYork("07:59"));
    await deliver();
    expect(arrivedFor(user.email)).toHaveLength(0);
    await sweep(newYork("08:00"));
    await sweep(newYork("08:15"));
    await deliver();
    await sweep(newYork("11:45"));
    await deliver();
    const arrived = arrivedFor(user.email);
    expect(arrived).toHaveLength(1);
    const mail = arrived[0];
    expect(mail?.parsed.subject).toBe("Due Friday 4 December: VAT return");
    expect(mail?.parsed.from?.value).toEqual([{ name: firm.name, address: "notifications@tendwell.test" }]);
    expect(mail?.parsed.text).toContain("• VAT return — Acme; Holdings, Ltd");
    expect(mail?.parsed.text).toContain("in 3 days");
    expect(mail?.parsed.html).toContain("Acme; Holdings, Ltd");
    expect(headerOf(mail?.raw ?? "", "List-Unsubscribe")).toMatch(
      /^<https:\/\/tendwell\.test\/api\/unsubscribe\/[A-Za-z0-9_-]{50}\.[A-Za-z0-9_-]{22}>$/,
    );
    expect(headerOf(mail?.raw ?? "", "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // The next morning the task is 2 days away: nothing more.
    await sweep(newYork("08:00", 2));
    await deliver();
    expect(arrivedFor(user.email)).toHaveLength(1);
  });

  it("S-NOTIF-02 one click unsubscribes by a POST without a session, from any site; a tampered address changes nothing", async () => {
    const { user } = await firmWithTaskDue({ day: 5 });
    await sweep(newYork("08:00", 2));
    await deliver();
    const [mail] = arrivedFor(user.email);
    const address = /^<(.+)>$/.exec(headerOf(mail?.raw ?? "", "List-Unsubscribe") ?? "")?.[1] ?? "";
    const path = new URL(address).pathname;
    const tampered = `${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`;
    const oneClick = {
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://mail.example.com",
        "sec-fetch-site": "cross-site",
      },
      payload: "List-Unsubscribe=One-Click",
    };
    const refused = await ctx.app.inject({ method: "POST", url: tampered, ...oneClick });
    expect(refused.statusCode).toBe(404);
    expect(
      await ctx.database.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id)),
    ).toEqual([]);
    const clicked = await ctx.app.inject({ method: "POST", url: path, ...oneClick });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.json()).toEqual({ unsubscribed: "due_soon" });
    const again = await ctx.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "multipart/form-data; boundary=x" },
      payload: "--x--",
    });
    expect(again.statusCode).toBe(200);
    // A task due three days after the next morning: no reminder now.
    await insertTask(ctx.database.db, {
      firmId: user.firmId,
      clientId: (await ctx.database.db.select().from(clients).where(eq(clients.firmId, user.firmId)))[0]?.id ?? "",
      name: "Payroll",
      dueDate: newYork("12:00", 6),
    });
    await sweep(newYork("08:00", 3));
    await deliver();
    expect(arrivedFor(user.email)).toHaveLength(1);
  });

  it("S-NOTIF-03 each user chooses the days before (1 to 14) or none, overdue alerts and a digest, in their account's preferences", async () => {
    const { user } = await firmWithTaskDue({ day: 2 });
    const client = apiClient(ctx.app);
    expect((await client.post("/api/auth/login", { username: user.username, password })).status).toBe(200);
    expect((await client.get("/api/account/notification-preferences")).body).toEqual({
      dueSoonDays: 3,
      overdueAlerts: true,
      digest: "off",
    });
    const choice = { dueSoonDays: 1, overdueAlerts: false, digest: "weekly" };
    const set = await client.put("/api/account/notification-preferences", choice);
    expect(set.status).toBe(200);
    expect((await client.get("/api/account/notification-preferences")).body).toEqual(choice);
    await sweep(newYork("08:00"));
    await deliver();
    expect(arrivedFor(user.email).map((mail) => mail.parsed.subject)).toEqual(["Due Wednesday 2 December: VAT return"]);
    const none = { dueSoonDays: null, overdueAlerts: true, digest: "daily" };
    expect((await client.put("/api/account/notification-preferences", none)).status).toBe(200);
    expect((await client.get("/api/account/notification-preferences")).body).toEqual(none);
    // A replacement names every choice.
    expect((await client.put("/api/account/notification-preferences", { dueSoonDays: 2 })).status).toBe(400);
    expect((await client.get("/api/account/notification-preferences")).body).toEqual(none);
  });

  it("S-NOTIF-04 two instances sweeping the same morning at once queue each reminder once", async () => {
    const { user } = await firmWithTaskDue({ day: 7 });
    const url = ctx.database.pool.options.connectionString;
    if (url === undefined) throw new Error("the test pool has no connection string");
    const other = connectDatabase({ url, poolSize: 2 });
    try {
      await Promise.all([sweep(newYork("09:00", 4)), sweep(newYork("09:00", 4), other.db)]);
    } finally {
      await other.close();
    }
    await deliver();
    expect(arrivedFor(user.email)).toHaveLength(1);
  });

  it("S-NOTIF-05 no reminder for a disabled user, one without an address, a signed-off task, an archived or unassigned client", async () => {
    const disabled = await firmWithTaskDue({ day: 8 });
    await ctx.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.user.id));
    const withoutAddress = await firmWithTaskDue({ day: 8 });
    await ctx.database.db.update(users).set({ email: null }).where(eq(users.id, withoutAddress.user.id));
    const archived = await firmWithTaskDue({ day: 8 });
    await ctx.database.db.update(clients).set({ archivedAt: new Date() }).where(eq(clients.id, archived.client.id));
    const signedOff = await firmWithTaskDue({ day: 8 });
    await insertTask(ctx.database.db, {
      firmId: signedOff.firm.id,
      clientId: signedOff.client.id,
      name: "Done already",
      dueDate: newYork("12:00", 8),
      completed: { by: signedOff.user },
    });
    const colleague = await insertUser(ctx.database.db, { firmId: signedOff.firm.id });
    await sweep(newYork("08:30", 5));
    await deliver();
    for (const { user } of [disabled, archived]) expect(arrivedFor(user.email)).toEqual([]);
    expect(arrivedFor(colleague.email)).toEqual([]);
    expect(arrivedFor(signedOff.user.email).map((mail) => mail.parsed.text ?? "")).toEqual([
      expect.not.stringContaining("Done already"),
    ]);
    const queued = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, withoutAddress.user.id));
    expect(queued).toEqual([]);
  });
  it("S-NOTIF-06 a task that fell due yesterday and is still open brings one overdue alert that morning, unless turned off", async () => {
    const { firm, user } = await firmWithTaskDue({ day: 4, taskName: "Payroll run" });
    const quiet = await insertUser(ctx.database.db, { firmId: firm.id });
    const [client] = await ctx.database.db.select().from(clients).where(eq(clients.firmId, firm.id));
    await insertUserClients(ctx.database.db, { firmId: firm.id, userId: quiet.id, clientIds: [client?.id ?? ""] });
    await ctx.database.db
      .insert(notificationPreferences)
      .values({ firmId: firm.id, userId: quiet.id, dueSoonDays: null, overdueAlerts: false, digest: "off" });
    await sweep(newYork("08:00", 4));
    await sweep(newYork("08:00", 5));
    await sweep(newYork("08:00", 6));
    await deliver();
    const alerts = arrivedFor(user.email).filter((mail) => mail.parsed.subject?.startsWith("Overdue"));
    expect(alerts.map((mail) => mail.parsed.subject)).toEqual(["Overdue: Payroll run"]);
    const text = alerts[0]?.parsed.text ?? "";
    expect(text).toContain("This task fell due yesterday, Friday 4 December, and is not signed off:");
    expect(text).toContain("• Payroll run — Acme; Holdings, Ltd");
    expect(headerOf(alerts[0]?.raw ?? "", "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(arrivedFor(quiet.email)).toEqual([]);
  });

  it("S-NOTIF-07 a weekly digest comes on Monday mornings, a daily one every morning: overdue, due today, due in the next 6 days, signed off", async () => {
    const { firm, user, client } = await firmWithTaskDue({ day: 4, taskName: "Overdue return" });
    const daily = await insertUser(ctx.database.db, { firmId: firm.id });
    await insertUserClients(ctx.database.db, { firmId: firm.id, userId: daily.id, clientIds: [client.id] });
    const task = (name: string, day: number) =>
      insertTask(ctx.database.db, { firmId: firm.id, clientId: client.id, name, dueDate: newYork("12:00", day) });
    await task("Today's filing", 7);
    await task("Thursday's payroll", 10);
    await task("Later accounts", 20);
    await insertTask(ctx.database.db, {
      firmId: firm.id,
      clientId: client.id,
      name: "Signed off",
      dueDate: newYork("12:00", 3),
      completed: { by: user, at: newYork("15:00", 3) },
    });
    for (const [who, digest] of [
      [user, "weekly"],
      [daily, "daily"],
    ] as const) {
      await ctx.database.db
        .insert(notificationPreferences)
        .values({ firmId: firm.id, userId: who.id, dueSoonDays: null, overdueAlerts: false, digest });
    }
    // 6 December 2026 is a Sunday, 7 December a Monday.
    await sweep(newYork("08:00", 6));
    await sweep(newYork("08:00", 7));
    await sweep(newYork("08:00", 8));
    await deliver();
    const weekly = arrivedFor(user.email);
    expect(weekly.map((mail) => mail.parsed.subject)).toEqual([
      `Your week at ${firm.name}: 1 overdue task, 2 due this week`,
    ]);
    const text = weekly[0]?.parsed.text ?? "";
    expect(text).toContain("Your work on Monday 7 December.");
    expect(text).toMatch(/Overdue \(1\):\s+• Overdue return — Acme; Holdings, Ltd/);
    expect(text).toMatch(/Due today \(1\):\s+• Today's filing — Acme; Holdings, Ltd/);
    expect(text).toMatch(/Due in the next 6 days \(1\):\s+• Thursday's payroll — Acme; Holdings, Ltd/);
    expect(text).not.toContain("Later accounts");
    expect(text).toContain("You signed off 1 task in the last 7 days.");
    expect(weekly[0]?.parsed.html).toContain("Today's filing");
    // The daily digest: Sunday's, Monday's and Tuesday's (when Monday's filing is overdue too).
    expect(
      arrivedFor(daily.email)
        .map((mail) => mail.parsed.subject ?? "")
        .sort(),
    ).toEqual([
      `Your day at ${firm.name}: 1 overdue task, 2 due this week`,
      `Your day at ${firm.name}: 1 overdue task, 2 due this week`,
      `Your day at ${firm.name}: 2 overdue tasks, 1 due this week`,
    ]);
  });

  it("S-NOTIF-08 each message's unsubscribe link opens a page that asks first: its GET changes nothing, its POST turns off that kind of message only", async () => {
    const { user } = await firmWithTaskDue({ day: 4 });
    await sweep(newYork("08:00", 5));
    await deliver();
    const [alert] = arrivedFor(user.email);
    expect(alert?.parsed.subject).toBe("Overdue: VAT return");
    const address = /^<(.+)>$/.exec(headerOf(alert?.raw ?? "", "List-Unsubscribe") ?? "")?.[1] ?? "";
    const token = new URL(address).pathname.split("/").pop() ?? "";
    expect(alert?.parsed.text).toContain(`${origin}/unsubscribe/${token}`);
    const offer = await ctx.app.inject({ method: "GET", url: `/api/unsubscribe/${token}` });
    expect(offer.statusCode).toBe(200);
    expect(offer.json()).toEqual({ topic: "overdue", firmName: expect.any(String), subscribed: true });
    expect(
      await ctx.database.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id)),
    ).toEqual([]);
    const clicked = await ctx.app.inject({ method: "POST", url: `/api/unsubscribe/${token}` });
    expect(clicked.json()).toEqual({ unsubscribed: "overdue" });
    const [kept] = await ctx.database.db
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, user.id));
    expect(kept).toMatchObject({ dueSoonDays: 3, overdueAlerts: false, digest: "off" });
    expect((await ctx.app.inject({ method: "GET", url: `/api/unsubscribe/${token}` })).json()).toMatchObject({
      subscribed: false,
    });
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect((await ctx.app.inject({ method: "GET", url: `/api/unsubscribe/${tampered}` })).statusCode).toBe(404);
  });

  it("S-NOTIF-09 an unsubscribe address stops working a year after its message, and once its kind was turned back on since; the log never shows one", async () => {
    const { user } = await firmWithTaskDue({ day: 4 });
    const who = { firmId: user.firmId, userId: user.id };
    const expired = { message: "This unsubscribe link has expired", code: "LINK_EXPIRED" };
    const get = (token: string) => ctx.app.inject({ method: "GET", url: `/api/unsubscribe/${token}` });
    const post = (token: string) => ctx.app.inject({ method: "POST", url: `/api/unsubscribe/${token}` });
    const choices = () =>
      ctx.database.db
        .select({
          dueSoonDays: notificationPreferences.dueSoonDays,
          overdueAlerts: notificationPreferences.overdueAlerts,
        })
        .from(notificationPreferences)
        .where(eq(notificationPreferences.userId, user.id));

    // A year and a day old: refused, nothing changes; a day under a year still works.
    const old = unsubscribeToken(key, { ...who, topic: "due_soon" }, new Date(appNow.getTime() - 366 * DAY_MS));
    for (const answer of [await get(old), await post(old)]) {
      expect(answer.statusCode).toBe(410);
      expect(answer.json()).toEqual(expired);
    }
    expect(await choices()).toEqual([]);
    const recent = unsubscribeToken(key, { ...who, topic: "due_soon" }, new Date(appNow.getTime() - 364 * DAY_MS));
    expect((await get(recent)).json()).toMatchObject({ subscribed: true });

    // An overdue alert's address, sent on 5 December; the person then turns the alerts off and on
    // again in Settings: the old address no longer turns them off.
    await sweep(newYork("08:00", 5));
    await deliver();
    const [alert] = arrivedFor(user.email);
    const address = /^<(.+)>$/.exec(headerOf(alert?.raw ?? "", "List-Unsubscribe") ?? "")?.[1] ?? "";
    const token = new URL(address).pathname.split("/").pop() ?? "";
    expect((await get(token)).json()).toMatchObject({ topic: "overdue", subscribed: true });
    const session = apiClient(ctx.app);
    expect((await session.post("/api/auth/login", { username: user.username, password })).status).toBe(200);
    const put = (overdueAlerts: boolean) =>
      session.put("/api/account/notification-preferences", { dueSoonDays: 3, overdueAlerts, digest: "off" });
    expect((await put(false)).status).toBe(200);
    // While the alerts are off, the address says so and changes nothing.
    expect((await get(token)).json()).toMatchObject({ subscribed: false });
    expect((await post(token)).json()).toEqual({ unsubscribed: "overdue" });
    expect((await put(true)).status).toBe(200);
    for (const answer of [await get(token), await post(token)]) {
      expect(answer.statusCode).toBe(410);
      expect(answer.json()).toEqual(expired);
    }
    expect(await choices()).toEqual([{ dueSoonDays: 3, overdueAlerts: true }]);

    // An address made before addresses carried their time (33 bytes, signed the same way) has stopped.
    const mac = createHmac(
      "sha256",
      Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "tendwell one-click unsubscribe", 32)),
    );
    const payload = Buffer.concat([
      Buffer.from(user.firmId.replaceAll("-", ""), "hex"),
      Buffer.from(user.id.replaceAll("-", ""), "hex"),
      Buffer.from([0]),
    ]).toString("base64url");
    const legacy = `${payload}.${mac.update(payload).digest().subarray(0, 16).toString("base64url")}`;
    expect(legacy).toHaveLength(67);
    expect((await get(legacy)).json()).toEqual(expired);

    // The request log names none of these addresses.
    const logged = logs.lines.map((line) => JSON.stringify(line)).join("\n");
    expect(logged).toContain("/api/unsubscribe/[redacted]");
    for (const secret of [old, recent, token, legacy]) expect(logged).not.toContain(secret);
  });
});
