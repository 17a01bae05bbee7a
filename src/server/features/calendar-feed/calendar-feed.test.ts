import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, apiClient } from "../../../../tests/api-client";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { captureLogs } from "../../../../tests/log-capture";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { FEED_MAX_EVENTS } from "../../../shared/calendar-feed";
import { isoDateIn } from "../../../shared/dates";
import { inFirm } from "../../platform/db/firm-scope";
import { auditEvents, calendarFeeds, firms, tasks, users } from "../../platform/db/schema";
import { insertClient, insertTask, insertUser, insertUserClients } from "../../seed/factories";
import { createRandom } from "../../seed/random";
import { drawSignature } from "../../seed/signature-image";
import { SESSION_COOKIE } from "../auth/sessions";

/*
 * The calendar feed through the API (decision 0047): turning it on, showing, replacing and
 * turning off its address in Settings' routes, and what a calendar app reads at the address,
 * parsed back with an independent parser (ical.js): its events against the tasks, private mode,
 * folding and escaping on nasty names, the ETag, and the secret reaching nothing but the feed.
 */

// ical.js reads the calendar's name as raw text (it knows no NAME or X-WR-CALNAME); both are TEXT.
ICAL.design.defaultSet.property["x-wr-calname"] = { defaultType: "text" };
ICAL.design.defaultSet.property.name = { defaultType: "text" };

const utf8 = new TextDecoder("utf-8", { fatal: true });
const DAY_MS = 86_400_000;
const TIME_ZONE = "America/New_York";

let ctx: TestApp;
const logs = captureLogs("info");
/** Every feed secret this file saw: none may reach a log line. */
const secretsSeen = new Set<string>();

type Feed = { url: string; path: string; token: string };

/** Turns on the caller's feed (or reads the one they have): its address, path and secret. */
async function feedOf(client: ApiClient, body: object = {}): Promise<Feed> {
  const created = await client.post("/api/account/calendar-feed", body);
  const answer = created.status === 201 ? created.body : (await client.get("/api/account/calendar-feed")).body.feed;
  return feedFrom(answer.url);
}

function feedFrom(url: string): Feed {
  const path = new URL(url).pathname;
  const token = /^\/api\/calendar-feeds\/([A-Za-z0-9_-]{43})\.ics$/.exec(path)?.[1];
  if (!token) throw new Error(`not a feed address: ${url}`);
  secretsSeen.add(token);
  return { url, path, token };
}

/** What a calendar app gets at a feed's address: no cookie, no Origin, only the address. */
async function fetchFeed(path: string, headers: Record<string, string> = {}) {
  const response = await ctx.app.inject({ method: "GET", url: path, headers });
  return {
    status: response.statusCode,
    headers: response.headers,
    raw: response.rawPayload,
    text: response.body,
    json: () => JSON.parse(response.body),
  };
}

type ReadEvent = { uid: string; summary: string; description: string; start: string; end: string; stamp: string };

/** The feed as ical.js reads it: the calendar and its events, in their order. */
function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const value = (component: ICAL.Component, name: string) => String(component.getFirstPropertyValue(name));
  const events: ReadEvent[] = calendar.getAllSubcomponents("vevent").map((event) => {
    const start = event.getFirstPropertyValue("dtstart") as ICAL.Time;
    const end = event.getFirstPropertyValue("dtend") as ICAL.Time;
    expect(start.isDate && end.isDate).toBe(true);
    expect(value(event, "transp")).toBe("TRANSPARENT");
    return {
      uid: value(event, "uid"),
      summary: value(event, "summary"),
      description: value(event, "description"),
      start: start.toString(),
      end: end.toString(),
      stamp: value(event, "dtstamp"),
    };
  });
  return { calendar, value: (name: string) => value(calendar, name), events };
}

/** Every physical line of a body: at most 75 octets of whole UTF-8, each ending CRLF. */
function expectFoldedLines(raw: Buffer) {
  let start = 0;
  let lines = 0;
  for (let at = raw.indexOf("\r\n"); at >= 0; at = raw.indexOf("\r\n", start)) {
    const line = raw.subarray(start, at);
    expect(line.length).toBeLessThanOrEqual(75);
    // Decoded on its own: a fold inside a character would leave a broken sequence at either end.
    const text = utf8.decode(line);
    expect(text).not.toMatch(/[\r\n]/);
    start = at + 2;
    lines++;
  }
  expect(start, "the body ends with CRLF").toBe(raw.length);
  return lines;
}

const uidOf = (taskId: string) => `task-${taskId}@tendwell`;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const stampOf = (...instants: Date[]) =>
  new Date(Math.floor(Math.max(...instants.map((instant) => instant.getTime())) / 1000) * 1000)
    .toISOString()
    .replace(".000Z", "Z");

let home: SeededFirm;
let elsewhere: SeededFirm;
/** A user of the home firm with two clients of their own, and the tasks on them. */
let owner: Awaited<ReturnType<typeof insertUser>>;
let ownerClient: ApiClient;

/** A new user of the home firm with a client assigned (named `clientName`), signed in. */
async function userWithClient(clientName: string, role: "user" | "admin" | "super_admin" = "user") {
  const { db } = ctx.database;
  const user = await insertUser(db, { firmId: home.firm.id, role });
  const client = await insertClient(db, { firmId: home.firm.id, name: clientName });
  await insertUserClients(db, { firmId: home.firm.id, userId: user.id, clientIds: [client.id] });
  return { user, client, session: await signIn(ctx.app, user) };
}

describe("the calendar feed", () => {
  ctx = useTestApp({ logger: logs.logger });
  beforeAll(async () => {
    const { db } = ctx.database;
    home = await seedFirm(db, "Hart & Co, LLP; \\ 🏛");
    elsewhere = await seedFirm(db, "Elsewhere Partners");
    await db.update(firms).set({ timeZone: TIME_ZONE }).where(eq(firms.id, home.firm.id));
    owner = await insertUser(db, { firmId: home.firm.id, role: "user", fullName: "O'Brien, Ana; \\ 🎯" });
    ownerClient = await signIn(ctx.app, owner);
  });

  it("S-CAL-02 S-CAL-03 S-CAL-04 a new feed's secret address serves the user's open tasks as all-day events", async () => {
    const { db } = ctx.database;
    const acme = await insertClient(db, { firmId: home.firm.id, name: "Acme Holdings" });
    const birch = await insertClient(db, { firmId: home.firm.id, name: "Birch Lane Dental" });
    await insertUserClients(db, { firmId: home.firm.id, userId: owner.id, clientIds: [acme.id, birch.id] });
    const now = Date.now();
    // 03:30 UTC is the evening before in New York: the event is on the firm's date.
    const lateEvening = new Date(Math.floor((now + 10 * DAY_MS) / DAY_MS) * DAY_MS + 3.5 * 3_600_000);
    const made = [
      await insertTask(db, {
        firmId: home.firm.id,
        clientId: acme.id,
        name: "File the annual return",
        dueDate: lateEvening,
        priority: "high",
      }),
      await insertTask(db, {
        firmId: home.firm.id,
        clientId: birch.id,
        name: "Payroll review",
        dueDate: new Date(now + 3 * DAY_MS),
      }),
      await insertTask(db, {
        firmId: home.firm.id,
        clientId: acme.id,
        name: "Overdue bookkeeping",
        dueDate: new Date(now - 20 * DAY_MS),
      }),
    ];

    const created = await ownerClient.post("/api/account/calendar-feed", {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ hideClientNames: false });
    const feed = feedFrom(created.body.url);
    expect(feed.url).toBe(`http://localhost:80${feed.path}`);
    expect((await ownerClient.get("/api/account/calendar-feed")).body).toEqual({ feed: created.body });
    // One feed per user.
    const again = await ownerClient.post("/api/account/calendar-feed", {});
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "You already have a calendar feed", code: "CONFLICT" });

    // Kept as its hash and sealed, never in the clear.
    const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, owner.id));
    expect(row?.tokenHash).toBe(createHash("sha256").update(feed.token).digest("hex"));
    expect(row?.tokenSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(feed.token);

    const response = await fetchFeed(feed.path);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const read = parseFeed(response.text);
    expect(read.value("version")).toBe("2.0");
    expect(read.value("prodid")).toBe("-//Tendwell//Calendar feed//EN");
    expect(read.value("calscale")).toBe("GREGORIAN");
    expect(read.value("method")).toBe("PUBLISH");
    expect(read.value("x-wr-calname")).toBe(`Tendwell: O'Brien, Ana; \\ 🎯 at Hart & Co, LLP; \\ 🏛`);
    expect(read.value("refresh-interval")).toBe("PT1H");
    expect(read.calendar.getFirstProperty("refresh-interval")?.type).toBe("duration");
    expect(read.value("x-published-ttl")).toBe("PT1H");

    // Each task once, the earliest due first, every field from the task and its client.
    const byDue = [...made].sort((a, b) => (a.dueDate?.getTime() ?? 0) - (b.dueDate?.getTime() ?? 0));
    expect(read.events.map((event) => event.uid)).toEqual(byDue.map((task) => uidOf(task.id)));
    for (const task of made) {
      const event = read.events.find((each) => each.uid === uidOf(task.id));
      const client = task.clientId === acme.id ? acme : birch;
      const day = isoDateIn(TIME_ZONE, task.dueDate ?? new Date());
      expect(event).toEqual({
        uid: uidOf(task.id),
        summary: `${task.name} — ${client.name}`,
        description: `Client: ${client.name}\n${task.priority === "high" ? "High" : "Medium"} priority\nOpen in Tendwell: http://localhost:80/client/${client.id}`,
        start: day,
        end: dayAfter(day),
        stamp: stampOf(task.updatedAt, client.updatedAt),
      });
    }
    expect(read.events.find((event) => event.uid === uidOf(made[0]?.id ?? ""))?.start).toBe(
      new Date(lateEvening.getTime() - DAY_MS).toISOString().slice(0, 10),
    );

    // Stable: the same UIDs and text at the next fetch.
    expect((await fetchFeed(feed.path)).text).toBe(response.text);
  });

  it("S-CAL-05 only the user's open, dated tasks within the window, on live clients, ever appear; signed-off work leaves", async () => {
    const { db } = ctx.database;
    const { user, client, session } = await userWithClient("Cedar Works");
    const other = await insertClient(db, { firmId: home.firm.id, name: "Not Theirs Ltd" });
    const archived = await insertClient(db, { firmId: home.firm.id, name: "Archived Co", archivedAt: new Date() });
    await insertUserClients(db, { firmId: home.firm.id, userId: user.id, clientIds: [archived.id] });
    const now = Date.now();
    const task = (clientId: string, name: string, dueDate: Date | null, firmId = home.firm.id) =>
      insertTask(db, { firmId, clientId, name, dueDate });
    const shown = [
      await task(client.id, "Shown in 2 days", new Date(now + 2 * DAY_MS)),
      await task(client.id, "Shown 89 days ago", new Date(now - 89 * DAY_MS)),
      await task(client.id, "Shown in 399 days", new Date(now + 399 * DAY_MS)),
      await task(client.id, "To be signed off", new Date(now + 5 * DAY_MS)),
    ];
    const hidden = [
      await task(client.id, "No due date", null),
      await task(client.id, "91 days ago", new Date(now - 91 * DAY_MS)),
      await task(client.id, "401 days ahead", new Date(now + 401 * DAY_MS)),
      await task(other.id, "Another user's client", new Date(now + DAY_MS)),
      await task(archived.id, "Archived client", new Date(now + DAY_MS)),
      await task(elsewhere.assignedClient.id, "Another firm", new Date(now + DAY_MS), elsewhere.firm.id),
      await insertTask(db, {
        firmId: home.firm.id,
        clientId: client.id,
        name: "Signed off already",
        dueDate: new Date(now + DAY_MS),
        completed: { by: user },
      }),
    ];
    // Another firm's user, with a feed of their own, reads only their firm.
    const foreign = await signIn(ctx.app, elsewhere.users.user);
    const foreignFeed = await feedOf(foreign);
    const foreignRead = parseFeed((await fetchFeed(foreignFeed.path)).text);
    expect(foreignRead.events.map((event) => event.uid)).toEqual([uidOf(hidden[5]?.id ?? "")]);

    const feed = await feedOf(session);
    const uids = () => fetchFeed(feed.path).then((answer) => parseFeed(answer.text).events.map((event) => event.uid));
    const expected = [...shown].sort((a, b) => (a.dueDate?.getTime() ?? 0) - (b.dueDate?.getTime() ?? 0));
    expect(await uids()).toEqual(expected.map((each) => uidOf(each.id)));

    // Signed off through the task's own route: it leaves the feed.
    const signedOff = shown[3];
    if (!signedOff) throw new Error("no task");
    const completed = await session.patch(`/api/tasks/${signedOff.id}/complete`, {
      printedName: user.fullName,
      signature: drawSignature(user.fullName, createRandom(3)).dataUrl,
    });
    expect(completed.status, completed.text).toBe(200);
    expect(await uids()).toEqual(expected.filter((each) => each.id !== signedOff.id).map((each) => uidOf(each.id)));
  });

  it(`S-CAL-05 holds at most ${FEED_MAX_EVENTS} events, the earliest due`, async () => {
    const { db } = ctx.database;
    const { client, session } = await userWithClient("Busy Client Inc");
    const start = Date.now() + DAY_MS;
    const rows = Array.from({ length: FEED_MAX_EVENTS + 5 }, (_, index) => ({
      firmId: home.firm.id,
      clientId: client.id,
      name: `Task ${index}`,
      dueDate: new Date(start + index * 60_000),
    }));
    const ids = (await db.insert(tasks).values(rows).returning({ id: tasks.id, dueDate: tasks.dueDate }))
      .sort((a, b) => (a.dueDate?.getTime() ?? 0) - (b.dueDate?.getTime() ?? 0))
      .map((row) => uidOf(row.id));
    const read = parseFeed((await fetchFeed((await feedOf(session)).path)).text);
    expect(read.events.map((event) => event.uid)).toEqual(ids.slice(0, FEED_MAX_EVENTS));
  });

  it("S-CAL-06 private mode names tasks only: no client name anywhere in the feed", async () => {
    const clientName = "Zephyrine Quillfeather Holdings";
    const { client, session } = await userWithClient(clientName);
    const task = await insertTask(ctx.database.db, {
      firmId: home.firm.id,
      clientId: client.id,
      name: "Quarter-end close",
      dueDate: new Date(Date.now() + 4 * DAY_MS),
    });
    const feed = await feedOf(session, { hideClientNames: true });
    expect((await session.get("/api/account/calendar-feed")).body.feed.hideClientNames).toBe(true);
    const hiddenText = (await fetchFeed(feed.path)).text;
    expect(hiddenText).not.toContain("Zephyrine");
    const hidden = parseFeed(hiddenText);
    expect(hidden.events).toHaveLength(1);
    expect(hidden.events[0]?.summary).toBe("Quarter-end close");
    expect(hidden.events[0]?.description).toBe(
      `Medium priority\nOpen in Tendwell: http://localhost:80/client/${client.id}`,
    );
    // The firm is the user's own: its name stays in the calendar's name.
    expect(hidden.value("x-wr-calname")).toContain("Hart & Co, LLP");

    const shown = await session.put("/api/account/calendar-feed", { hideClientNames: false });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ hideClientNames: false, url: feed.url });
    const read = parseFeed((await fetchFeed(feed.path)).text);
    expect(read.events[0]?.summary).toBe(`Quarter-end close — ${clientName}`);
    expect(read.events[0]?.uid).toBe(uidOf(task.id));
    const hiddenAgain = await session.put("/api/account/calendar-feed", { hideClientNames: true });
    expect(hiddenAgain.body.hideClientNames).toBe(true);
    expect((await fetchFeed(feed.path)).text).not.toContain(clientName);
  });

  it("S-CAL-07 nasty names read back exactly through ical.js, in lines of at most 75 octets of whole UTF-8 ending CRLF", async () => {
    const { db } = ctx.database;
    const names = [
      "Smith, Jones; Partners \\ Co.",
      "Line one\nLine two",
      "🦄 Unicorn Ventures 👩‍💻 — Zürich",
      `Long ${"ß".repeat(150)} Ltd`,
    ];
    const titles = [
      Array.from("Review Q3, Q4; fees \\ é ✓ 😀 ".repeat(10)).slice(0, 200).join(""),
      "a".repeat(200),
      "😀".repeat(60),
      "Semi;colon, comma\\backslash\nnew line",
    ];
    const { user, session } = await userWithClient("First of several");
    const made: { id: string; summary: string }[] = [];
    for (const [index, name] of names.entries()) {
      const client = await insertClient(db, { firmId: home.firm.id, name });
      await insertUserClients(db, { firmId: home.firm.id, userId: user.id, clientIds: [client.id] });
      const title = titles[index] ?? "";
      const task = await insertTask(db, {
        firmId: home.firm.id,
        clientId: client.id,
        name: title,
        dueDate: new Date(Date.now() + (index + 1) * DAY_MS),
      });
      made.push({ id: task.id, summary: `${title} — ${name}` });
    }
    const response = await fetchFeed((await feedOf(session)).path);
    const lines = expectFoldedLines(response.raw);
    expect(lines).toBeGreaterThan(20);
    // Long values were folded: continuation lines exist, and one carries a 4-octet character.
    expect(response.text).toMatch(/\r\n [^\r]*😀/u);
    const read = parseFeed(response.text);
    expect(read.events.map((event) => ({ id: event.uid, summary: event.summary }))).toEqual(
      made.map((each) => ({ id: uidOf(each.id), summary: each.summary })),
    );
    for (const [index, event] of read.events.entries()) {
      expect(event.description.startsWith(`Client: ${names[index]}\n`)).toBe(true);
    }
  });

  it("S-CAL-08 answers an ETag and a modest private Cache-Control; If-None-Match with it is a 304 until the feed changes", async () => {
    const { client, session } = await userWithClient("Etag Partners");
    const task = await insertTask(ctx.database.db, {
      firmId: home.firm.id,
      clientId: client.id,
      name: "Before the rename",
      dueDate: new Date(Date.now() + 6 * DAY_MS),
    });
    const feed = await feedOf(session);
    const first = await fetchFeed(feed.path);
    const etag = String(first.headers.etag);
    expect(etag).toBe(`"${createHash("sha256").update(first.raw).digest("base64url")}"`);
    expect(first.headers["cache-control"]).toBe("private, max-age=300");

    const unchanged = await fetchFeed(feed.path, { "if-none-match": etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.raw.length).toBe(0);
    expect(unchanged.headers.etag).toBe(etag);
    expect((await fetchFeed(feed.path, { "if-none-match": '"something else"' })).status).toBe(200);

    const renamed = await session.patch(`/api/tasks/${task.id}`, { name: "After the rename" });
    expect(renamed.status).toBe(200);
    const changed = await fetchFeed(feed.path, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseFeed(changed.text).events[0]?.summary).toBe("After the rename — Etag Partners");
  });

  it("S-CAL-09 a replaced address, a feed turned off, an unknown or malformed secret and a disabled user's feed all answer 404 JSON", async () => {
    const { db } = ctx.database;
    const { user, session } = await userWithClient("Regenerate LLC");
    const old = await feedOf(session);
    expect((await fetchFeed(old.path)).status).toBe(200);

    const regenerated = await session.post("/api/account/calendar-feed/regenerate");
    expect(regenerated.status).toBe(200);
    const fresh = feedFrom(regenerated.body.url);
    expect(fresh.token).not.toBe(old.token);
    const gone = await fetchFeed(old.path);
    expect(gone.status).toBe(404);
    expect(gone.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(gone.json()).toEqual({ message: "Calendar feed not found", code: "NOT_FOUND" });
    expect((await fetchFeed(fresh.path)).status).toBe(200);

    for (const path of [
      `/api/calendar-feeds/${randomBytes(32).toString("base64url")}.ics`,
      "/api/calendar-feeds/abc.ics",
      `/api/calendar-feeds/${fresh.token}x.ics`,
      `/api/calendar-feeds/${fresh.token.slice(0, 42)}!.ics`,
    ]) {
      const answer = await fetchFeed(path);
      expect(answer.status, path).toBe(404);
      expect(answer.json()).toEqual({ message: "Calendar feed not found", code: "NOT_FOUND" });
    }

    // A disabled user's feed is not found, like a feed that does not exist.
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    expect((await fetchFeed(fresh.path)).json()).toEqual({ message: "Calendar feed not found", code: "NOT_FOUND" });
    await db.update(users).set({ disabledAt: null }).where(eq(users.id, user.id));
    expect((await fetchFeed(fresh.path)).status).toBe(200);

    const revoked = await (await signIn(ctx.app, user)).delete("/api/account/calendar-feed");
    expect(revoked.status).toBe(204);
    expect((await fetchFeed(fresh.path)).status).toBe(404);
    expect((await session.get("/api/account/calendar-feed")).body).toEqual({ feed: null });
    expect(await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, user.id))).toEqual([]);
  });

  it("S-CAL-10 the secret reaches nothing but the feed: as a cookie, a bearer or a query elsewhere it is 401, and it is never logged", async () => {
    const { user, client, session } = await userWithClient("Secret Keepers");
    const task = await insertTask(ctx.database.db, {
      firmId: home.firm.id,
      clientId: client.id,
      name: "Keep the secret",
      dueDate: new Date(Date.now() + 2 * DAY_MS),
    });
    const feed = await feedOf(session);
    expect((await fetchFeed(feed.path)).status).toBe(200);
    // Every feed this file made was fetched by now: the request log holds none of their secrets.
    const logged = logs.lines.map((line) => JSON.stringify(line)).join("\n");
    expect(logged).toContain("/api/calendar-feeds/[redacted]");
    for (const secret of secretsSeen) expect(logged).not.toContain(secret);

    for (const url of ["/api/auth/me", "/api/account/calendar-feed", "/api/tasks", "/api/account/security"]) {
      const asCookie = await ctx.app.inject({
        method: "GET",
        url,
        headers: { cookie: `${SESSION_COOKIE}=${feed.token}` },
      });
      expect(asCookie.statusCode, url).toBe(401);
      const asBearer = await ctx.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${feed.token}` } });
      expect(asBearer.statusCode, url).toBe(401);
      const asQuery = await ctx.app.inject({ method: "GET", url: `${url}?token=${feed.token}` });
      expect(asQuery.statusCode, url).toBe(401);
    }
    // Nor does it change the feed: a write with it is refused as any unsigned request is.
    const write = await ctx.app.inject({
      method: "DELETE",
      url: "/api/account/calendar-feed",
      headers: { cookie: `${SESSION_COOKIE}=${feed.token}` },
    });
    expect(write.statusCode).toBe(401);
    expect((await fetchFeed(feed.path)).status).toBe(200);
    // Another user's session does not change whose feed the address serves.
    const withCookie = apiClient(ctx.app);
    withCookie.setSessionToken(ownerClient.sessionToken() ?? "");
    const read = parseFeed((await withCookie.get(feed.path)).text);
    expect(read.events.map((event) => event.uid)).toEqual([uidOf(task.id)]);
    expect(read.value("x-wr-calname")).toBe(`Tendwell: ${user.fullName} at ${home.firm.name}`);
  });

  it("S-CAL-11 turning on, changing, replacing and turning off the feed are audit events on the user, without the address", async () => {
    const { user, session } = await userWithClient("Audited Inc");
    const feed = await feedOf(session);
    expect((await session.put("/api/account/calendar-feed", { hideClientNames: true })).status).toBe(200);
    // The same setting again changes nothing, and records nothing.
    expect((await session.put("/api/account/calendar-feed", { hideClientNames: true })).status).toBe(200);
    const replaced = feedFrom((await session.post("/api/account/calendar-feed/regenerate")).body.url);
    expect((await session.delete("/api/account/calendar-feed")).status).toBe(204);
    const events = await ctx.database.db
      .select({
        action: auditEvents.action,
        entityType: auditEvents.entityType,
        entityId: auditEvents.entityId,
        before: auditEvents.before,
        after: auditEvents.after,
      })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorUserId, user.id), sql`${auditEvents.action} like 'calendar_feed.%'`))
      .orderBy(auditEvents.seq);
    expect(events).toEqual([
      {
        action: "calendar_feed.created",
        entityType: "user",
        entityId: user.id,
        before: null,
        after: { hideClientNames: false },
      },
      {
        action: "calendar_feed.updated",
        entityType: "user",
        entityId: user.id,
        before: { hideClientNames: false },
        after: { hideClientNames: true },
      },
      { action: "calendar_feed.address_replaced", entityType: "user", entityId: user.id, before: null, after: null },
      {
        action: "calendar_feed.revoked",
        entityType: "user",
        entityId: user.id,
        before: { hideClientNames: true },
        after: null,
      },
    ]);
    const trail = JSON.stringify(
      await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.actorUserId, user.id)),
    );
    for (const secret of [feed.token, replaced.token]) expect(trail).not.toContain(secret);
  });

  it("S-CAL-12 the settings routes refuse bad bodies, other sites and a missing feed, and change nothing", async () => {
    const { db } = ctx.database;
    const { user, session } = await userWithClient("Careful Co");
    const state = async () => ({
      feeds: await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, user.id)),
      audit: (await db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.actorUserId, user.id)))
        .length,
    });
    const empty = await state();
    for (const [method, url] of [
      ["PUT", "/api/account/calendar-feed"],
      ["POST", "/api/account/calendar-feed/regenerate"],
      ["DELETE", "/api/account/calendar-feed"],
    ] as const) {
      const answer = await session.request(method, url, method === "PUT" ? { hideClientNames: true } : undefined);
      expect(answer.status, url).toBe(404);
      expect(answer.body).toEqual({ message: "You have no calendar feed", code: "NOT_FOUND" });
    }
    for (const body of [{ hideClientNames: "yes" }, { hideClientNames: true, userId: owner.id }, [], "on", null]) {
      const answer = await session.post("/api/account/calendar-feed", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(typeof answer.body.message).toBe("string");
    }
    const crossSite = await session.request(
      "POST",
      "/api/account/calendar-feed",
      {},
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe("CROSS_SITE_REQUEST");
    const anonymous = await apiClient(ctx.app).post("/api/account/calendar-feed", {});
    expect(anonymous.status).toBe(401);
    expect(await state()).toEqual(empty);

    const feed = await feedOf(session);
    const made = await state();
    for (const body of [{}, { hideClientNames: null }, { hideClientNames: 1 }, { hideClientNames: true, url: "x" }]) {
      const answer = await session.put("/api/account/calendar-feed", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await session.request(
          "PUT",
          "/api/account/calendar-feed",
          { hideClientNames: true },
          { "sec-fetch-site": "cross-site" },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await session.request("POST", "/api/account/calendar-feed/regenerate", undefined, {
          origin: "https://evil.example",
        })
      ).status,
    ).toBe(403);
    expect(
      (await session.request("DELETE", "/api/account/calendar-feed", undefined, { origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    expect(await state()).toEqual(made);
    expect((await fetchFeed(feed.path)).status).toBe(200);
  });

  it("S-CAL-13 the secret's firm comes from one database function run as the owner; the app role reads no feed outside its firm", async () => {
    const { session } = await userWithClient("Least Privilege Ltd");
    const feed = await feedOf(session);
    const hash = createHash("sha256").update(feed.token).digest("hex");
    const app = ctx.appDatabase.db;
    const firmOf = async (tokenHash: string) =>
      (await app.execute<{ firm_id: string | null }>(sql`select firm_of_calendar_feed(${tokenHash}) as firm_id`))
        .rows[0]?.firm_id;
    expect(await firmOf(hash)).toBe(home.firm.id);
    expect(await firmOf(createHash("sha256").update("nothing").digest("hex"))).toBeNull();
    // The function answers the firm and nothing else: the feed's row stays behind the policy.
    expect((await app.execute(sql`select user_id from calendar_feeds where token_hash = ${hash}`)).rows).toEqual([]);
    const fromElsewhere = await inFirm(app, elsewhere.firm.id).select().from(calendarFeeds);
    expect(fromElsewhere.every((row) => row.firmId === elsewhere.firm.id)).toBe(true);
    const inHome = await inFirm(app, home.firm.id)
      .select()
      .from(calendarFeeds)
      .where(eq(calendarFeeds.tokenHash, hash));
    expect(inHome).toHaveLength(1);
  });
});
