import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, apiClient } from "../../../../tests/api-client";
import { type SeededFirm, seedFirm } from "../../../../tests/fixtures";
import { softwareAuthenticator } from "../../../../tests/software-authenticator";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { auditEvents, sessions, userFactors, users } from "../../platform/db/schema";
import { insertUser } from "../../seed/factories";

/*
 * Passkeys through the API (decision 0044), signed by a software authenticator
 * (tests/software-authenticator.ts) and checked by the server's real WebAuthn verification. The
 * app under inject answers as http://localhost:80, so that is the relying party's origin.
 */

let ctx: TestApp;
const password = "correct horse battery";
const origin = "http://localhost:80";
let firm: SeededFirm;

async function signedIn(username: string, ip = "10.1.0.1"): Promise<ApiClient> {
  const client = apiClient(ctx.app, { ip });
  expect((await client.post("/api/auth/login", { username, password })).status).toBe(200);
  return client;
}

/** A new user with a passkey added from Settings; their authenticator and the recovery codes. */
async function userWithPasskey(options: { counts?: boolean } = {}) {
  const user = await insertUser(ctx.database.db, { firmId: firm.firm.id, role: "user", password });
  const client = await signedIn(user.username);
  const authenticator = softwareAuthenticator(origin, options);
  const created = await client.post("/api/account/factors/passkey/options");
  expect(created.status).toBe(200);
  const added = await client.post("/api/account/factors/passkey", {
    name: "Laptop",
    response: authenticator.register(created.body),
  });
  expect(added.status, added.text).toBe(200);
  return { user, client, authenticator, added: added.body };
}

describe("passkeys through the API", () => {
  ctx = useTestApp();
  beforeAll(async () => {
    firm = await seedFirm(ctx.database.db, "Passkey firm");
  });

  it("S-MFA-22 adding a passkey: options for this site with user verification required; the browser's answer is checked and kept; a first factor comes with recovery codes", async () => {
    const user = await insertUser(ctx.database.db, { firmId: firm.firm.id, role: "user", password });
    const client = await signedIn(user.username);
    const authenticator = softwareAuthenticator(origin);
    const created = await client.post("/api/account/factors/passkey/options");
    expect(created.body).toMatchObject({
      rp: { id: "localhost", name: "Tendwell" },
      user: { name: user.username, displayName: user.fullName },
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      excludeCredentials: [],
    });
    // No user verification: refused, and the challenge is spent.
    const unverified = await client.post("/api/account/factors/passkey", {
      response: authenticator.register(created.body, { userVerified: false }),
    });
    expect(unverified.status).toBe(400);
    expect(unverified.body.message).toBe("The passkey was not accepted. Try again, or use another way.");
    const spent = await client.post("/api/account/factors/passkey", { response: authenticator.register(created.body) });
    expect(spent.status).toBe(400);

    // Made for another site: refused.
    const other = await client.post("/api/account/factors/passkey/options");
    const phished = await client.post("/api/account/factors/passkey", {
      response: authenticator.register(other.body, { origin: "https://tendwell.example.net" }),
    });
    expect(phished.status).toBe(400);

    const fresh = await client.post("/api/account/factors/passkey/options");
    const added = await client.post("/api/account/factors/passkey", {
      name: "Laptop",
      response: authenticator.register(fresh.body),
    });
    expect(added.status).toBe(200);
    expect(added.body.factor).toMatchObject({ kind: "passkey", name: "Laptop", lastUsedAt: null });
    expect(added.body.recoveryCodes).toHaveLength(10);
    const [stored] = await ctx.database.db.select().from(userFactors).where(eq(userFactors.userId, user.id));
    expect(stored).toMatchObject({ kind: "passkey", signCount: 0, totpSecret: null, transports: ["internal"] });
    // The next options name it, so the browser does not make a second one on the same authenticator.
    const next = await client.post("/api/account/factors/passkey/options");
    expect(next.body.excludeCredentials).toEqual([
      { id: stored?.credentialId, type: "public-key", transports: ["internal"] },
    ]);
  });

  it("S-MFA-23 a passkey passes the second step of sign-in; its signature works once and its counter moves on", async () => {
    const { user, authenticator } = await userWithPasskey();
    const client = apiClient(ctx.app, { ip: "10.1.1.1" });
    const login = await client.post("/api/auth/login", { username: user.username, password });
    expect(login.status).toBe(202);
    expect(login.body.methods).toEqual(["passkey", "recovery_code"]);
    const requested = await client.post("/api/auth/second-step/passkey/options");
    expect(requested.body).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(requested.body.allowCredentials).toHaveLength(1);
    const signature = authenticator.assert(requested.body);
    const done = await client.post("/api/auth/second-step/passkey", { response: signature });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ user: { id: user.id }, recoveryCodesLeft: null });
    expect((await client.get("/api/auth/me")).status).toBe(200);
    const [factor] = await ctx.database.db.select().from(userFactors).where(eq(userFactors.userId, user.id));
    expect(factor?.signCount).toBe(1);
    expect(factor?.lastUsedAt).not.toBeNull();

    // The same signature again, on a new pending sign-in: refused.
    const again = apiClient(ctx.app, { ip: "10.1.1.2" });
    await again.post("/api/auth/login", { username: user.username, password });
    await again.post("/api/auth/second-step/passkey/options");
    expect((await again.post("/api/auth/second-step/passkey", { response: signature })).status).toBe(400);
  });

  it("S-MFA-24 a passkey alone signs in, without a password, as a sign-in with its factor; a disabled user or an unknown passkey is refused", async () => {
    const { user, authenticator } = await userWithPasskey({ counts: false });
    const client = apiClient(ctx.app, { ip: "10.1.2.1" });
    const requested = await client.post("/api/auth/passkey/options");
    expect(requested.status).toBe(200);
    expect(requested.body.allowCredentials).toEqual([]);
    const signedIn = await client.post("/api/auth/passkey", { response: authenticator.assert(requested.body) });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ id: user.id, firm: { id: firm.firm.id } });
    expect((await client.get("/api/clients")).status).toBe(200);
    const [session] = await ctx.database.db
      .select({ secondFactorAt: sessions.secondFactorAt })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.stage, "active")))
      .orderBy(sql`${sessions.createdAt} desc`)
      .limit(1);
    expect(session?.secondFactorAt).not.toBeNull();
    const [event] = await ctx.database.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorUserId, user.id), eq(auditEvents.action, "session.signed_in")))
      .orderBy(sql`${auditEvents.seq} desc`)
      .limit(1);
    expect(event?.after).toEqual({ secondFactor: "passkey" });

    // Without the options' cookie, or with a passkey no one added: refused.
    const stranger = apiClient(ctx.app, { ip: "10.1.2.2" });
    expect((await stranger.post("/api/auth/passkey", { response: authenticator.assert(requested.body) })).status).toBe(
      400,
    );
    const unknown = softwareAuthenticator(origin);
    unknown.register({
      ...requested.body,
      rp: { id: "localhost", name: "x" },
      user: { id: "AAAA", name: "x", displayName: "x" },
    } as never);
    const asked = await stranger.post("/api/auth/passkey/options");
    expect((await stranger.post("/api/auth/passkey", { response: unknown.assert(asked.body) })).status).toBe(400);

    await ctx.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const later = apiClient(ctx.app, { ip: "10.1.2.3" });
    const options = await later.post("/api/auth/passkey/options");
    const refused = await later.post("/api/auth/passkey", { response: authenticator.assert(options.body) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ACCOUNT_DISABLED");
  });

  it("S-MFA-26 failed passkey sign-ins are throttled per address and per passkey: one address's failures never refuse another address's passkey", async () => {
    const { authenticator } = await userWithPasskey({ counts: false });
    const signInFrom = async (ip: string, signer = authenticator) => {
      const client = apiClient(ctx.app, { ip });
      const requested = await client.post("/api/auth/passkey/options");
      return client.post("/api/auth/passkey", { response: signer.assert(requested.body) });
    };

    // Five failures from one address with a passkey no one added, then that passkey is refused there.
    const stranger = softwareAuthenticator(origin);
    const options = await apiClient(ctx.app).post("/api/auth/passkey/options");
    stranger.register({
      ...options.body,
      rp: { id: "localhost", name: "x" },
      user: { id: "AAAA", name: "x", displayName: "x" },
    });
    for (let attempt = 0; attempt < 5; attempt++) expect((await signInFrom("10.1.3.1", stranger)).status).toBe(400);
    const throttled = await signInFrom("10.1.3.1", stranger);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(0);
    // Another address's passkey still signs in.
    expect((await signInFrom("10.1.3.2")).status).toBe(200);

    // Failures naming the user's passkey (an answer without the options' challenge) count for that
    // passkey from any address: after five, it waits.
    const requested = await apiClient(ctx.app).post("/api/auth/passkey/options");
    for (let attempt = 0; attempt < 5; attempt++) {
      const replayed = apiClient(ctx.app, { ip: `10.1.4.${attempt + 1}` });
      expect(
        (await replayed.post("/api/auth/passkey", { response: authenticator.assert(requested.body) })).status,
      ).toBe(400);
    }
    expect((await signInFrom("10.1.4.9")).status).toBe(429);

    // An address's failures with ever new passkeys stop at fifty, for that address only.
    const { user: other, authenticator: others } = await userWithPasskey({ counts: false });
    const flooder = apiClient(ctx.app, { ip: "10.1.5.1" });
    const bogus = stranger.assert((await flooder.post("/api/auth/passkey/options")).body);
    for (let attempt = 0; attempt < 50; attempt++) {
      const id = `bogus-${attempt}`;
      const failed = await flooder.post("/api/auth/passkey", { response: { ...bogus, id, rawId: id } });
      expect(failed.status).toBe(400);
    }
    expect((await signInFrom("10.1.5.1", others)).status).toBe(429);
    const elsewhere = await signInFrom("10.1.5.2", others);
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.body.id).toBe(other.id);
  });

  it("S-MFA-25 a passkey gives a step-up; it may be removed like any factor", async () => {
    const { user, client, authenticator, added } = await userWithPasskey();
    await ctx.database.db
      .update(sessions)
      .set({ verifiedAt: sql`now() - interval '6 minutes'` })
      .where(eq(sessions.userId, user.id));
    expect((await client.delete(`/api/account/factors/${added.factor.id}`)).body.code).toBe("STEP_UP_REQUIRED");
    const requested = await client.post("/api/auth/step-up/passkey/options");
    const stepped = await client.post("/api/auth/step-up", {
      method: "passkey",
      response: authenticator.assert(requested.body),
    });
    expect(stepped.status, stepped.text).toBe(204);
    // The firm requires a factor after its grace; the firm here is in its grace, so the last one may go.
    await ctx.database.db.execute(
      sql`update firms set mfa_policy = 'optional', mfa_required_from = null where id = ${firm.firm.id}`,
    );
    expect((await client.delete(`/api/account/factors/${added.factor.id}`)).status).toBe(204);
    expect(await ctx.database.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
  });
});
