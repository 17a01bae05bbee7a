import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, apiClient } from "../../../../tests/api-client";
import { type SeededFirm, seedFirm } from "../../../../tests/fixtures";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { auditEvents, firms, sessions, userFactors } from "../../platform/db/schema";
import { insertUser } from "../../seed/factories";
import { createSession } from "../auth/sessions";
import { totpCode, totpStep } from "./totp";

/*
 * Multi-factor sign-in through the API (decision 0044): the pending sign-in and its second step,
 * enrolment, recovery codes, the firm's policy, the step-up check and a super admin's reset.
 * Time is moved by changing the rows that hold it (a session's last proof, a firm's grace), never
 * by waiting.
 */

let ctx: TestApp;
const password = "correct horse battery";

/** The code an authenticator app shows for a secret `steps` steps from now. */
const codeFor = (secret: string, steps = 0) => totpCode(secret.replace(/\s/g, ""), totpStep(new Date()) + steps);

async function newUser(firm: SeededFirm, role: "super_admin" | "admin" | "user" = "user") {
  return insertUser(ctx.database.db, { firmId: firm.firm.id, role, password });
}

async function signedIn(username: string, ip = "10.0.0.1"): Promise<ApiClient> {
  const client = apiClient(ctx.app, { ip });
  const answer = await client.post("/api/auth/login", { username, password });
  expect(answer.status).toBe(200);
  return client;
}

/** Adds an authenticator app from Settings; the secret, and the recovery codes of a first factor. */
async function enrol(client: ApiClient) {
  const started = await client.post("/api/account/factors/totp");
  expect(started.status).toBe(200);
  const secret: string = started.body.secret;
  const confirmed = await client.post("/api/account/factors/totp/confirm", { code: codeFor(secret), name: "My phone" });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] | null, factorId: confirmed.body.factor.id };
}

/** Moves the session's last proof back past the step-up window. */
async function staleProof(client: ApiClient) {
  const token = client.sessionToken();
  if (!token) throw new Error("no session");
  const firmId = token.slice(0, token.indexOf("."));
  await ctx.database.db
    .update(sessions)
    .set({ verifiedAt: sql`now() - interval '6 minutes'` })
    .where(and(eq(sessions.firmId, firmId), eq(sessions.stage, "active")));
}

let firm: SeededFirm;

describe("multi-factor sign-in through the API", () => {
  ctx = useTestApp();
  beforeAll(async () => {
    firm = await seedFirm(ctx.database.db, "MFA firm");
  });

  describe("sign-in with a second factor", () => {
    it("S-MFA-13 the password alone makes a pending sign-in that reaches only the second step; the right code makes a session with a new token", async () => {
      const user = await newUser(firm);
      const { secret } = await enrol(await signedIn(user.username));

      const client = apiClient(ctx.app, { ip: "10.0.1.1" });
      const first = await client.post("/api/auth/login", { username: user.username, password });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ next: "second_factor", methods: ["totp", "recovery_code"] });
      const expiresIn = Date.parse(first.body.expiresAt) - Date.now();
      expect(expiresIn).toBeGreaterThan(4 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);
      const pendingToken = client.sessionToken();
      expect(pendingToken).toBeDefined();

      // Nothing but the second step: every signed-in route says the second factor is wanted.
      for (const url of ["/api/auth/me", "/api/clients", "/api/account/security"]) {
        const refused = await client.get(url);
        expect(refused.status, url).toBe(401);
        expect(refused.body.code).toBe("SECOND_FACTOR_REQUIRED");
      }
      expect((await client.get("/api/auth/second-step")).body.next).toBe("second_factor");

      const done = await client.post("/api/auth/second-step", { method: "totp", code: codeFor(secret, 1) });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ user: { username: user.username }, recoveryCodesLeft: null });
      expect(client.sessionToken()).not.toBe(pendingToken);
      expect((await client.get("/api/auth/me")).status).toBe(200);
      // The pending sign-in is spent: its second step is gone.
      expect((await client.get("/api/auth/second-step")).status).toBe(401);

      const [signIn] = await ctx.database.db
        .select({ after: auditEvents.after })
        .from(auditEvents)
        .where(and(eq(auditEvents.actorUserId, user.id), eq(auditEvents.action, "session.signed_in")))
        .orderBy(sql`${auditEvents.seq} desc`)
        .limit(1);
      expect(signIn?.after).toEqual({ secondFactor: "totp" });
    });

    it("S-MFA-14 a code is refused when replayed, wrong or malformed; wrong codes count toward the user's throttle", async () => {
      const user = await newUser(firm);
      const { secret } = await enrol(await signedIn(user.username));
      const client = apiClient(ctx.app, { ip: "10.0.2.1" });
      expect((await client.post("/api/auth/login", { username: user.username, password })).status).toBe(202);

      // The enrolment used this step's code: it does not work again.
      const replayed = await client.post("/api/auth/second-step", { method: "totp", code: codeFor(secret) });
      expect(replayed.status).toBe(400);
      expect(replayed.body.issues[0].path).toEqual(["code"]);
      const malformed = await client.post("/api/auth/second-step", { method: "totp", code: "12ab56" });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toBe("Enter the 6-digit code from your authenticator app");

      // Four more wrong codes make five failures (the replay was one; the malformed code never reached the check).
      for (let attempt = 0; attempt < 4; attempt++) {
        const wrong = await client.post("/api/auth/second-step", { method: "totp", code: codeFor(secret, 5) });
        expect(wrong.status).toBe(400);
      }
      const limited = await client.post("/api/auth/second-step", { method: "totp", code: codeFor(secret, 1) });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe("RATE_LIMITED");
      expect(limited.headers["retry-after"]).toBeDefined();
    });

    it("S-MFA-13 S-MFA-17 a pending sign-in, waiting for a factor or for enrolment, reaches no route but the second step's", async () => {
      const routes = ctx.app.apiRoutes.filter((route) => route.access !== "public" && route.access !== "pendingSignIn");
      expect(routes.length).toBeGreaterThan(40);
      for (const stage of ["second_factor", "enrol"] as const) {
        const user = await newUser(firm, "super_admin");
        const client = apiClient(ctx.app, { ip: "10.0.9.1" });
        const { cookie } = await createSession(ctx.database.db, {
          userId: user.id,
          firmId: firm.firm.id,
          ip: null,
          userAgent: null,
          absoluteMs: 60_000,
          stage,
        });
        client.setSessionToken(cookie);
        const before = await ctx.database.db.select({ n: count() }).from(auditEvents);
        for (const route of routes) {
          const url = route.url.replace(/:[a-z]+/gi, firm.users.user.id);
          const answer = await client.request(route.method as "GET", url, route.method === "GET" ? undefined : {});
          expect([answer.status, answer.body?.code], `${stage}: ${route.method} ${route.url}`).toEqual([
            401,
            "SECOND_FACTOR_REQUIRED",
          ]);
        }
        expect(await ctx.database.db.select({ n: count() }).from(auditEvents)).toEqual(before);
        expect((await client.get("/api/auth/second-step")).body.next).toBe(stage);
      }
    });

    it("S-MFA-13 a pending sign-in lasts five minutes", async () => {
      const user = await newUser(firm);
      const { secret } = await enrol(await signedIn(user.username));
      const client = apiClient(ctx.app, { ip: "10.0.3.1" });
      await client.post("/api/auth/login", { username: user.username, password });
      await ctx.database.db
        .update(sessions)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(and(eq(sessions.userId, user.id), eq(sessions.stage, "second_factor")));
      const late = await client.post("/api/auth/second-step", { method: "totp", code: codeFor(secret, 1) });
      expect(late.status).toBe(401);
      expect(late.body.code).toBe("UNAUTHENTICATED");
    });
  });

  describe("factors and recovery codes", () => {
    it("S-MFA-15 adding an authenticator app: a secret, its otpauth address and QR code; one code confirms it; the secret is kept sealed", async () => {
      const user = await newUser(firm);
      const client = await signedIn(user.username);
      const started = await client.post("/api/account/factors/totp");
      expect(started.status).toBe(200);
      expect(started.body.secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4}){7}$/);
      const plain = started.body.secret.replace(/ /g, "");
      expect(started.body.uri).toBe(
        `otpauth://totp/Tendwell:${user.username}?issuer=Tendwell&secret=${plain}&algorithm=SHA1&digits=6&period=30`,
      );
      expect(started.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(started.body.qrCode.split(",")[1], "base64").toString()).toContain("<svg");

      // Not a factor until confirmed.
      expect((await client.get("/api/account/security")).body.factors).toEqual([]);
      const wrong = await client.post("/api/account/factors/totp/confirm", { code: codeFor(plain, 4) });
      expect(wrong.status).toBe(400);
      const confirmed = await client.post("/api/account/factors/totp/confirm", {
        code: codeFor(plain),
        name: "Work phone",
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.factor).toMatchObject({ kind: "totp", name: "Work phone" });
      expect(confirmed.body.recoveryCodes).toHaveLength(10);
      for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);

      const [stored] = await ctx.database.db.select().from(userFactors).where(eq(userFactors.userId, user.id));
      expect(stored?.totpSecret).toMatch(/^v1\./);
      expect(stored?.totpSecret).not.toContain(plain);
      expect(JSON.stringify(await client.get("/api/account/security"))).not.toContain(plain);

      // A second app comes without a new set of recovery codes.
      const second = await enrol(client);
      expect(second.recoveryCodes).toBeNull();
      const security = (await client.get("/api/account/security")).body;
      expect(security.factors.map((factor: { name: string }) => factor.name)).toEqual(["Work phone", "My phone"]);
      expect(security.recoveryCodesLeft).toBe(10);
    });

    it("S-MFA-16 a recovery code signs in once and says how many remain; a new set voids the old", async () => {
      const user = await newUser(firm);
      const settings = await signedIn(user.username);
      const { recoveryCodes } = await enrol(settings);
      const [code, another] = recoveryCodes ?? [];
      if (!code || !another) throw new Error("no recovery codes");

      const client = apiClient(ctx.app, { ip: "10.0.4.1" });
      await client.post("/api/auth/login", { username: user.username, password });
      const used = await client.post("/api/auth/second-step", { method: "recovery_code", code: code.toUpperCase() });
      expect(used.status).toBe(200);
      expect(used.body.recoveryCodesLeft).toBe(9);
      const [event] = await ctx.database.db
        .select({ after: auditEvents.after })
        .from(auditEvents)
        .where(and(eq(auditEvents.actorUserId, user.id), eq(auditEvents.action, "mfa.recovery_code_used")));
      expect(event?.after).toEqual({ recoveryCodesLeft: 9 });

      const again = apiClient(ctx.app, { ip: "10.0.4.2" });
      await again.post("/api/auth/login", { username: user.username, password });
      const spent = await again.post("/api/auth/second-step", { method: "recovery_code", code });
      expect(spent.status).toBe(400);
      // Said for a recovery code, not as for an authenticator app's (whose clock may be wrong).
      expect(spent.body.message).toBe(
        "That recovery code is not right, or it has been used. Check it against the codes you saved.",
      );

      // A new set (the sign-in just now is a fresh proof) voids the old.
      const replaced = await settings.post("/api/account/recovery-codes");
      expect(replaced.status).toBe(200);
      expect(replaced.body.codes).toHaveLength(10);
      expect((await again.post("/api/auth/second-step", { method: "recovery_code", code: another })).status).toBe(400);
      const fresh = await again.post("/api/auth/second-step", {
        method: "recovery_code",
        code: replaced.body.codes[0],
      });
      expect(fresh.status).toBe(200);
      expect(fresh.body.recoveryCodesLeft).toBe(9);
    });

    it("S-MFA-20 codes and secrets appear in no audit payload", async () => {
      const user = await newUser(firm);
      const client = await signedIn(user.username);
      const { secret, recoveryCodes } = await enrol(client);
      const events = await ctx.database.db
        .select({ before: auditEvents.before, after: auditEvents.after })
        .from(auditEvents)
        .where(eq(auditEvents.actorUserId, user.id));
      const payloads = JSON.stringify(events);
      expect(payloads).toContain("My phone");
      expect(payloads).not.toContain(secret.replace(/ /g, ""));
      for (const code of recoveryCodes ?? []) expect(payloads).not.toContain(code);
    });
  });

  describe("the firm's policy", () => {
    it("S-MFA-17 a new firm requires a second factor after seven days' grace; after it, a user without one enrols before anything else", async () => {
      const own = await seedFirm(ctx.database.db, "Policy firm");
      const [row] = await ctx.database.db.select().from(firms).where(eq(firms.id, own.firm.id));
      expect(row?.mfaPolicy).toBe("required");
      const grace = (row?.mfaRequiredFrom?.getTime() ?? 0) - Date.now();
      expect(grace).toBeGreaterThan(7 * 86_400_000 - 60_000);
      expect(grace).toBeLessThanOrEqual(7 * 86_400_000);

      const user = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "user", password });
      // In the grace, the password alone still signs in, to a session due for a factor when the grace ends.
      const early = await signedIn(user.username, "10.0.5.1");
      const [session] = await ctx.database.db
        .select({ due: sessions.secondFactorDueAt })
        .from(sessions)
        .where(eq(sessions.userId, user.id));
      expect(session?.due).toEqual(row?.mfaRequiredFrom);
      // The grace ends: that session must now pass a second factor, and the user has none.
      await ctx.database.db
        .update(firms)
        .set({ mfaRequiredFrom: sql`now() - interval '1 minute'` })
        .where(eq(firms.id, own.firm.id));
      await ctx.database.db
        .update(sessions)
        .set({ secondFactorDueAt: sql`now() - interval '1 minute'` })
        .where(eq(sessions.userId, user.id));
      const stopped = await early.get("/api/clients");
      expect(stopped.status).toBe(401);
      expect(stopped.body.code).toBe("SECOND_FACTOR_REQUIRED");
      expect((await early.get("/api/auth/second-step")).body).toMatchObject({ next: "enrol", methods: [] });

      const client = apiClient(ctx.app, { ip: "10.0.5.2" });
      const login = await client.post("/api/auth/login", { username: user.username, password });
      expect(login.status).toBe(202);
      expect(login.body.next).toBe("enrol");
      expect((await client.post("/api/auth/second-step", { method: "totp", code: "123456" })).status).toBe(409);
      const started = await client.post("/api/auth/second-step/totp");
      expect(started.status).toBe(200);
      const done = await client.post("/api/auth/second-step/totp/confirm", { code: codeFor(started.body.secret) });
      expect(done.status).toBe(200);
      expect(done.body.user.username).toBe(user.username);
      expect(done.body.recoveryCodes).toHaveLength(10);
      expect((await client.get("/api/clients")).status).toBe(200);
    });

    it("S-MFA-17 requiring it takes effect at once: password-only sessions pass a second factor at their next request", async () => {
      const own = await seedFirm(ctx.database.db, "Switch firm");
      await ctx.database.db
        .update(firms)
        .set({ mfaPolicy: "optional", mfaRequiredFrom: null })
        .where(eq(firms.id, own.firm.id));
      const boss = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "super_admin", password });
      const member = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "user", password });
      const bossClient = await signedIn(boss.username, "10.0.6.1");
      const memberClient = await signedIn(member.username, "10.0.6.2");

      // A super admin without a factor would lock themselves out.
      const refused = await bossClient.put("/api/firm/mfa-policy", { policy: "required" });
      expect(refused.status).toBe(409);
      await enrol(bossClient);
      const required = await bossClient.put("/api/firm/mfa-policy", { policy: "required" });
      expect(required.status).toBe(200);
      expect(required.body.policy).toBe("required");
      expect(Date.parse(required.body.requiredFrom)).toBeLessThanOrEqual(Date.now());

      // The super admin passed a factor in this session; the member did not.
      expect((await bossClient.get("/api/clients")).status).toBe(200);
      const member401 = await memberClient.get("/api/clients");
      expect(member401.body.code).toBe("SECOND_FACTOR_REQUIRED");
      const [change] = await ctx.database.db
        .select({ before: auditEvents.before, after: auditEvents.after })
        .from(auditEvents)
        .where(and(eq(auditEvents.firmId, own.firm.id), eq(auditEvents.action, "firm.mfa_policy_changed")));
      expect(change).toEqual({
        before: { mfaPolicy: "optional", requiredFrom: null },
        after: { mfaPolicy: "required", requiredFrom: required.body.requiredFrom },
      });

      // Only a super admin sets it.
      const admin = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "admin", password });
      await ctx.database.db
        .update(firms)
        .set({ mfaPolicy: "optional", mfaRequiredFrom: null })
        .where(eq(firms.id, own.firm.id));
      const adminClient = await signedIn(admin.username, "10.0.6.3");
      expect((await adminClient.put("/api/firm/mfa-policy", { policy: "required" })).status).toBe(403);
    });
  });

  describe("step-up and reset", () => {
    it("S-MFA-18 sensitive changes need a proof of the last five minutes; a step-up with a code or, without a factor, the password gives one", async () => {
      const user = await newUser(firm);
      const client = await signedIn(user.username);
      // No factor: the password is the proof.
      await staleProof(client);
      const stale = await client.post("/api/account/factors/totp");
      expect(stale.status).toBe(403);
      expect(stale.body.code).toBe("STEP_UP_REQUIRED");
      expect((await client.post("/api/auth/step-up", { method: "password", password: "wrong one" })).status).toBe(400);
      expect((await client.post("/api/auth/step-up", { method: "password", password })).status).toBe(204);
      const { secret, factorId } = await enrol(client);

      // With a factor: the password no longer does; a code does.
      await staleProof(client);
      for (const [method, url, body] of [
        ["DELETE", `/api/account/factors/${factorId}`, undefined],
        ["POST", "/api/account/recovery-codes", undefined],
        ["POST", "/api/auth/change-password", { currentPassword: password, newPassword: "another good one 42" }],
      ] as const) {
        const answer = await client.request(method, url, body);
        expect(answer.status, url).toBe(403);
        expect(answer.body.code, url).toBe("STEP_UP_REQUIRED");
      }
      const byPassword = await client.post("/api/auth/step-up", { method: "password", password });
      expect(byPassword.status).toBe(400);
      expect((await client.post("/api/auth/step-up", { method: "totp", code: codeFor(secret, 1) })).status).toBe(204);
      expect((await client.get("/api/account/security")).body.stepUpUntil).not.toBeNull();
      expect((await client.post("/api/account/recovery-codes")).status).toBe(200);
    });

    it("S-MFA-18 the firm's policy and a reset need a step-up too; a proof counts for five minutes, not six", async () => {
      const boss = await newUser(firm, "super_admin");
      const member = await newUser(firm, "user");
      const client = await signedIn(boss.username);
      // Four minutes old: still fresh.
      await ctx.database.db
        .update(sessions)
        .set({ verifiedAt: sql`now() - interval '4 minutes'` })
        .where(and(eq(sessions.userId, boss.id), eq(sessions.stage, "active")));
      expect((await client.delete(`/api/users/${member.id}/factors`)).status).toBe(204);
      await staleProof(client);
      for (const [method, url, body] of [
        ["PUT", "/api/firm/mfa-policy", { policy: "optional" }],
        ["DELETE", `/api/users/${member.id}/factors`, undefined],
      ] as const) {
        const answer = await client.request(method, url, body);
        expect([answer.status, answer.body.code], url).toEqual([403, "STEP_UP_REQUIRED"]);
      }
    });

    it("S-MFA-18 a change of role needs a step-up; a change of name does not", async () => {
      const boss = await newUser(firm, "super_admin");
      const member = await newUser(firm, "user");
      const client = await signedIn(boss.username);
      await staleProof(client);
      expect((await client.patch(`/api/users/${member.id}`, { fullName: "Renamed Person" })).status).toBe(200);
      const role = await client.patch(`/api/users/${member.id}`, { role: "admin" });
      expect(role.status).toBe(403);
      expect(role.body.code).toBe("STEP_UP_REQUIRED");
      expect((await client.post("/api/auth/step-up", { method: "password", password })).status).toBe(204);
      expect((await client.patch(`/api/users/${member.id}`, { role: "admin" })).status).toBe(200);
    });

    it("S-MFA-19 a super admin resets another user's factors: their sessions end and they enrol again; others may not", async () => {
      const own = await seedFirm(ctx.database.db, "Reset firm");
      const boss = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "super_admin", password });
      const member = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "user", password });
      const admin = await insertUser(ctx.database.db, { firmId: own.firm.id, role: "admin", password });
      const memberClient = await signedIn(member.username, "10.0.7.1");
      await enrol(memberClient);

      const adminClient = await signedIn(admin.username, "10.0.7.2");
      expect((await adminClient.delete(`/api/users/${member.id}/factors`)).status).toBe(403);
      const bossClient = await signedIn(boss.username, "10.0.7.3");
      expect((await bossClient.delete(`/api/users/${boss.id}/factors`)).status).toBe(400);
      // Another firm's user is not found.
      expect((await bossClient.delete(`/api/users/${firm.users.user.id}/factors`)).status).toBe(404);
      expect((await bossClient.delete(`/api/users/${member.id}/factors`)).status).toBe(204);

      expect((await memberClient.get("/api/auth/me")).status).toBe(401);
      expect(await ctx.database.db.select().from(userFactors).where(eq(userFactors.userId, member.id))).toEqual([]);
      const [event] = await ctx.database.db
        .select({ entityId: auditEvents.entityId, before: auditEvents.before })
        .from(auditEvents)
        .where(and(eq(auditEvents.firmId, own.firm.id), eq(auditEvents.action, "mfa.factors_reset")));
      expect(event).toEqual({ entityId: member.id, before: { factors: 1 } });
      // With the grace over, the next sign-in is enrolment.
      await ctx.database.db
        .update(firms)
        .set({ mfaRequiredFrom: sql`now() - interval '1 minute'` })
        .where(eq(firms.id, own.firm.id));
      const next = await apiClient(ctx.app, { ip: "10.0.7.4" }).post("/api/auth/login", {
        username: member.username,
        password,
      });
      expect(next.status).toBe(202);
      expect(next.body.next).toBe("enrol");
    });
  });
});
