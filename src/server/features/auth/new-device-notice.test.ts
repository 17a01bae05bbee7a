import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { type ApiClient, type ApiResponse, apiClient } from "../../../../tests/api-client";
import { headerOf, useSmtpInbox } from "../../../../tests/smtp-inbox";
import { softwareAuthenticator } from "../../../../tests/software-authenticator";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { firmDateFormat } from "../../../shared/dates";
import { inFirm } from "../../platform/db/firm-scope";
import { type firms, mailOutbox, userDevices } from "../../platform/db/schema";
import { deliverDueMail } from "../../platform/mail/outbox";
import { insertFirm, insertUser } from "../../seed/factories";
import { totpCode, totpStep } from "../mfa/totp";
import { KNOWN_DEVICES_PER_USER } from "./known-devices";

/*
 * The security notice of a sign-in from a new browser (issue 21): each completed sign-in records
 * its browser by the device cookie, and one from a browser new to a user who has another sends
 * them a notice, delivered here to a real SMTP server in this process. Each apiClient is a
 * browser with its own cookie jar.
 */

let ctx: TestApp;
let smtp: ReturnType<typeof useSmtpInbox>;
const password = "correct horse battery";
const silent = pino({ level: "silent" });
const subject = "New sign-in to your Tendwell account";

const chromeOnWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const safariOnIphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) " +
  "Version/17.5 Mobile/15E148 Safari/604.1";
const firefoxOnLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A firm in New York whose policy leaves second factors optional, and a user of it with an address. */
async function newUser(firmValues: Partial<typeof firms.$inferInsert> = {}) {
  const firm = await insertFirm(ctx.database.db, {
    name: `Bright & Co ${crypto.randomUUID().slice(0, 6)}`,
    timeZone: "America/New_York",
    mfaPolicy: "optional",
    mfaRequiredFrom: null,
    ...firmValues,
  });
  const user = await insertUser(ctx.database.db, { firmId: firm.id, password });
  return { firm, user };
}

/** A browser: its own cookie jar, address and user agent. */
const browser = (userAgent: string, ip: string) => apiClient(ctx.app, { userAgent, ip });

async function signInFrom(client: ApiClient, username: string, expected = 200): Promise<ApiResponse> {
  const response = await client.post("/api/auth/login", { username, password });
  expect(response.status, response.text).toBe(expected);
  return response;
}

/** The device cookie a response sets, as its Set-Cookie line; undefined when it sets none. */
function deviceCookieLine(response: ApiResponse): string | undefined {
  const lines = [response.headers["set-cookie"] ?? []].flat().map(String);
  return lines.find((line) => line.startsWith("tendwell_device="));
}

function deviceCookieOf(response: ApiResponse): string {
  const line = deviceCookieLine(response);
  if (!line) throw new Error(`no device cookie was set: ${response.status} ${response.text}`);
  return line.slice("tendwell_device=".length, line.indexOf(";"));
}

const devicesOf = (userId: string) =>
  ctx.database.db
    .select()
    .from(userDevices)
    .where(eq(userDevices.userId, userId))
    .orderBy(desc(userDevices.lastSeenAt));

const noticesFor = (userId: string) =>
  ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.subject, subject)));

const deliver = () => deliverDueMail({ db: ctx.database.db, sender: smtp.sender, log: silent });
const arrivedFor = (address: string | null) =>
  smtp.inbox.received.filter(
    (mail) => address !== null && mail.envelopeTo.includes(address) && mail.parsed.subject === subject,
  );

/** The code an authenticator app shows for a secret `steps` steps from now. */
const codeFor = (secret: string, steps = 0) => totpCode(secret.replace(/\s/g, ""), totpStep(new Date()) + steps);

/** Adds an authenticator app from Settings of a signed-in browser; its secret and recovery codes. */
async function addAuthenticator(client: ApiClient) {
  const secret: string = (await client.post("/api/account/factors/totp")).body.secret;
  const confirmed = await client.post("/api/account/factors/totp/confirm", { code: codeFor(secret), name: "Phone" });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

describe("the notice of a sign-in from a new browser", () => {
  ctx = useTestApp();
  smtp = useSmtpInbox();

  it("S-MAIL-10 a user's first browser tells nobody, nor does it again; another browser brings one notice naming it, its address and the time in the firm's time zone, without unsubscribe headers", async () => {
    const { firm, user } = await newUser();
    const laptop = browser(chromeOnWindows, "203.0.113.10");
    const first = await signInFrom(laptop, user.username);
    const laptopToken = deviceCookieOf(first);
    expect(await devicesOf(user.id)).toEqual([
      expect.objectContaining({ firmId: firm.id, deviceHash: sha256(laptopToken), userAgent: chromeOnWindows }),
    ]);
    expect(await noticesFor(user.id)).toEqual([]);

    // The same browser again: known, seen again, nothing sent. Its cookie is kept another 400 days.
    const [before] = await devicesOf(user.id);
    const again = await signInFrom(laptop, user.username);
    expect(deviceCookieOf(again)).toBe(laptopToken);
    const [seenAgain] = await devicesOf(user.id);
    expect(seenAgain?.lastSeenAt.getTime()).toBeGreaterThan(before?.lastSeenAt.getTime() ?? Infinity);
    expect(seenAgain?.firstSeenAt).toEqual(before?.firstSeenAt);
    expect(await noticesFor(user.id)).toEqual([]);

    // Another browser: one notice; the same one again: none more.
    const phone = browser(safariOnIphone, "198.51.100.7");
    const fromPhone = await signInFrom(phone, user.username);
    await signInFrom(phone, user.username);
    const phoneRow = (await devicesOf(user.id)).find((row) => row.deviceHash === sha256(deviceCookieOf(fromPhone)));
    if (!phoneRow) throw new Error("the phone was not recorded");
    expect(await noticesFor(user.id)).toEqual([
      expect.objectContaining({ kind: "security_notice", toAddress: user.email }),
    ]);

    await deliver();
    const arrived = arrivedFor(user.email);
    expect(arrived).toHaveLength(1);
    const text = arrived[0]?.parsed.text ?? "";
    const when = `${firmDateFormat("America/New_York")(phoneRow.firstSeenAt, true)} (America/New_York)`;
    expect(text).toContain(
      `Someone signed in to your Tendwell account ${user.username} at ${firm.name} on ${when} ` +
        "from a browser not used with it before: Safari on iPhone, at the IP address 198.51.100.7.",
    );
    expect(text).toContain("If it was not, ask an administrator of your firm to disable your account at once");
    expect(arrived[0]?.parsed.html).toContain("Safari on iPhone");
    expect(arrived[0]?.parsed.from?.value).toEqual([{ name: firm.name, address: "notifications@tendwell.test" }]);
    expect(headerOf(arrived[0]?.raw ?? "", "List-Unsubscribe")).toBeUndefined();
    expect(headerOf(arrived[0]?.raw ?? "", "List-Unsubscribe-Post")).toBeUndefined();
    await deliver();
    expect(arrivedFor(user.email)).toHaveLength(1);
  });

  it("S-MAIL-11 the device cookie holds 256 random bits, HttpOnly, SameSite=Lax, Path=/, for 400 days; only its SHA-256 is kept, with the user agent cut to 300 characters; a cookie we never made is replaced", async () => {
    const { user } = await newUser();
    const longAgent = `Mozilla/5.0 (X11; Linux x86_64) ${"x".repeat(600)}`;
    const response = await signInFrom(browser(longAgent, "203.0.113.11"), user.username);
    expect(deviceCookieLine(response)).toMatch(
      /^tendwell_device=[A-Za-z0-9_-]{43}; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const token = deviceCookieOf(response);
    const [row] = await devicesOf(user.id);
    expect(row?.deviceHash).toBe(sha256(token));
    expect(row?.userAgent).toBe(longAgent.slice(0, 300));
    const { rows } = await ctx.database.pool.query(
      "select count(*)::int as n from user_devices where device_hash = $1",
      [token],
    );
    expect(rows[0]?.n).toBe(0);

    // A value of another shape is no token of ours: the browser gets a new one, as a new browser.
    const tampered = browser(firefoxOnLinux, "203.0.113.12");
    const sent = await tampered.request(
      "POST",
      "/api/auth/login",
      { username: user.username, password },
      {
        cookie: "tendwell_device=not-a-token",
      },
    );
    expect(sent.status).toBe(200);
    expect(deviceCookieOf(sent)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await devicesOf(user.id)).toHaveLength(2);
    expect(await noticesFor(user.id)).toHaveLength(1);
  });

  it("S-MAIL-11 S-MAIL-10 every way a sign-in completes records its browser and sets the device cookie: a registration, the password alone, the second step by code, recovery code or passkey, a passkey alone, and enrolment", async () => {
    // A registration: the new user's first browser.
    const registering = browser(chromeOnWindows, "203.0.113.20");
    const username = `new.${crypto.randomUUID().slice(0, 8)}`;
    const registered = await registering.post("/api/auth/register", {
      fullName: "Ada Lane",
      email: `${username}@example.com`,
      username,
      password: "a much longer passphrase 42",
      subscriptionPlan: "starter",
    });
    expect(registered.status, registered.text).toBe(201);
    expect(await devicesOf(registered.body.id)).toEqual([
      expect.objectContaining({ deviceHash: sha256(deviceCookieOf(registered)) }),
    ]);
    expect(await noticesFor(registered.body.id)).toEqual([]);

    // The password alone, then factors added from Settings in that browser.
    const { user } = await newUser();
    const settings = browser(chromeOnWindows, "203.0.113.21");
    deviceCookieOf(await signInFrom(settings, user.username));
    const { secret, recoveryCodes } = await addAuthenticator(settings);
    const authenticator = softwareAuthenticator("http://localhost:80");
    const created = await settings.post("/api/account/factors/passkey/options");
    const added = await settings.post("/api/account/factors/passkey", {
      name: "Laptop",
      response: authenticator.register(created.body),
    });
    expect(added.status, added.text).toBe(200);

    const secondSteps: [string, (client: ApiClient) => Promise<ApiResponse>][] = [
      ["code", (client) => client.post("/api/auth/second-step", { method: "totp", code: codeFor(secret, 1) })],
      [
        "recovery code",
        (client) => client.post("/api/auth/second-step", { method: "recovery_code", code: recoveryCodes[0] }),
      ],
      [
        "passkey",
        async (client) => {
          const requested = await client.post("/api/auth/second-step/passkey/options");
          return client.post("/api/auth/second-step/passkey", { response: authenticator.assert(requested.body) });
        },
      ],
    ];
    let known = 1;
    for (const [way, pass] of secondSteps) {
      const client = browser(firefoxOnLinux, `203.0.113.${30 + known}`);
      expect(deviceCookieLine(await signInFrom(client, user.username, 202)), way).toBeUndefined();
      const passed = await pass(client);
      expect(passed.status, `${way}: ${passed.text}`).toBe(200);
      known += 1;
      expect(
        (await devicesOf(user.id)).map((row) => row.deviceHash),
        way,
      ).toContain(sha256(deviceCookieOf(passed)));
      expect(await devicesOf(user.id), way).toHaveLength(known);
      expect(await noticesFor(user.id), way).toHaveLength(known - 1);
    }

    // A passkey alone, without the password.
    const withPasskey = browser(safariOnIphone, "203.0.113.40");
    const requested = await withPasskey.post("/api/auth/passkey/options");
    const passkeyOnly = await withPasskey.post("/api/auth/passkey", { response: authenticator.assert(requested.body) });
    expect(passkeyOnly.status, passkeyOnly.text).toBe(200);
    expect((await devicesOf(user.id)).map((row) => row.deviceHash)).toContain(sha256(deviceCookieOf(passkeyOnly)));
    expect(await noticesFor(user.id)).toHaveLength(known);

    // Enrolment where the firm requires a factor the user has not got: the sign-in completes with it.
    const strict = await newUser({ mfaPolicy: "required", mfaRequiredFrom: new Date(Date.now() - 60_000) });
    const enrolling = browser(chromeOnWindows, "203.0.113.41");
    expect(deviceCookieLine(await signInFrom(enrolling, strict.user.username, 202))).toBeUndefined();
    const started = await enrolling.post("/api/auth/second-step/totp");
    const enrolled = await enrolling.post("/api/auth/second-step/totp/confirm", { code: codeFor(started.body.secret) });
    expect(enrolled.status, enrolled.text).toBe(200);
    expect(await devicesOf(strict.user.id)).toEqual([
      expect.objectContaining({ deviceHash: sha256(deviceCookieOf(enrolled)) }),
    ]);
    expect(await noticesFor(strict.user.id)).toEqual([]);
  });

  it("S-MAIL-12 a wrong password, a wrong code, or a sign-in left waiting for its second step sets no device cookie, records no browser and sends nothing; the notice comes when the second step completes", async () => {
    const { user } = await newUser();
    const laptop = browser(chromeOnWindows, "203.0.113.50");
    await signInFrom(laptop, user.username);
    const { secret } = await addAuthenticator(laptop);

    const guessing = browser(firefoxOnLinux, "203.0.113.51");
    const wrong = await guessing.post("/api/auth/login", { username: user.username, password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(deviceCookieLine(wrong)).toBeUndefined();

    const waiting = browser(safariOnIphone, "203.0.113.52");
    expect(deviceCookieLine(await signInFrom(waiting, user.username, 202))).toBeUndefined();
    const wrongCode = await waiting.post("/api/auth/second-step", { method: "totp", code: "000000" });
    expect(wrongCode.status).toBe(400);
    expect(deviceCookieLine(wrongCode)).toBeUndefined();
    expect(await devicesOf(user.id)).toHaveLength(1);
    expect(await noticesFor(user.id)).toEqual([]);

    const completing = browser(safariOnIphone, "203.0.113.53");
    await signInFrom(completing, user.username, 202);
    expect(await noticesFor(user.id)).toEqual([]);
    const passed = await completing.post("/api/auth/second-step", { method: "totp", code: codeFor(secret, 1) });
    expect(passed.status, passed.text).toBe(200);
    expect(await devicesOf(user.id)).toHaveLength(2);
    expect(await noticesFor(user.id)).toHaveLength(1);
    await deliver();
    expect(arrivedFor(user.email).map((mail) => mail.parsed.text)).toEqual([
      expect.stringContaining("Safari on iPhone, at the IP address 203.0.113.53."),
    ]);
  });

  it("S-MAIL-11 a browser is known per user: one known to firm B's user is new to firm A's user, and neither firm sees the other's rows", async () => {
    const a = await newUser();
    const b = await newUser();
    const shared = browser(chromeOnWindows, "203.0.113.60");
    const token = deviceCookieOf(await signInFrom(shared, b.user.username));
    // Firm A's user signs in from the browser firm B's user used: their first, which tells nobody.
    expect(deviceCookieOf(await signInFrom(shared, a.user.username))).toBe(token);
    expect((await devicesOf(a.user.id)).map((row) => row.deviceHash)).toEqual([sha256(token)]);
    expect(await noticesFor(a.user.id)).toEqual([]);

    // A second browser of firm A's user is new to them; to firm B's user as well.
    const other = browser(firefoxOnLinux, "203.0.113.61");
    await signInFrom(other, a.user.username);
    expect(await noticesFor(a.user.id)).toHaveLength(1);
    await signInFrom(other, b.user.username);
    expect(await noticesFor(b.user.id)).toHaveLength(1);

    // Under row-level security, the app in firm A's scope sees firm A's browsers alone.
    const seenByA = await inFirm(ctx.appDatabase.db, a.firm.id).select().from(userDevices);
    expect(new Set(seenByA.map((row) => row.userId))).toEqual(new Set([a.user.id]));
    expect(seenByA).toHaveLength(2);
  });

  it(`S-MAIL-11 each user keeps their ${KNOWN_DEVICES_PER_USER} most recently seen browsers; an older one is forgotten`, async () => {
    const { firm, user } = await newUser();
    const now = Date.now();
    await ctx.database.db.insert(userDevices).values(
      Array.from({ length: KNOWN_DEVICES_PER_USER }, (_, index) => ({
        firmId: firm.id,
        userId: user.id,
        deviceHash: `old-${index}`,
        userAgent: chromeOnWindows,
        firstSeenAt: new Date(now - 86_400_000 * (index + 1)),
        lastSeenAt: new Date(now - 86_400_000 * (index + 1)),
      })),
    );
    const response = await signInFrom(browser(firefoxOnLinux, "203.0.113.70"), user.username);
    const kept = await devicesOf(user.id);
    expect(kept).toHaveLength(KNOWN_DEVICES_PER_USER);
    expect(kept[0]?.deviceHash).toBe(sha256(deviceCookieOf(response)));
    // The least recently seen went.
    expect(kept.map((row) => row.deviceHash)).not.toContain(`old-${KNOWN_DEVICES_PER_USER - 1}`);
    expect(kept.map((row) => row.deviceHash)).toContain(`old-${KNOWN_DEVICES_PER_USER - 2}`);
    expect(await noticesFor(user.id)).toHaveLength(1);
  });
});
