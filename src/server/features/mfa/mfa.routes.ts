import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { brand } from "../../../shared/brand";
import {
  accountSecuritySchema,
  addPasskeySchema,
  confirmTotpSchema,
  enrolledAndSignedInSchema,
  enrolledSchema,
  factorSchema,
  firmMfaPolicySchema,
  PENDING_SIGN_IN_MINUTES,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  pendingSignInSchema,
  recoveryCodesSchema,
  renameFactorSchema,
  secondFactorSchema,
  signedInSchema,
  stepUpSchema,
  totpEnrolmentSchema,
  updateMfaPolicySchema,
  usePasskeySchema,
} from "../../../shared/mfa";
import { currentUserSchema } from "../../../shared/users";
import type { Config } from "../../platform/config";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import type { SealingKey } from "../../platform/sealed-secrets";
import { requestOrigin, requireActor } from "../../tenancy/actor";
import { deviceOf, type PendingSignInSession, setSessionCookie } from "../auth/access-control";
import { accountSecurity, regenerateRecoveryCodes, removeFactor, renameFactor } from "./factors.service";
import { passSecondStep, pendingSignInView, stepUp } from "./mfa.service";
import { resetFactors, setMfaPolicy } from "./mfa-policy.service";
import {
  addPasskey,
  passkeyCreationOptions,
  passkeyRequestOptions,
  passSecondStepWithPasskey,
  type RelyingParty,
  signInWithPasskey,
  stepUpWithPasskey,
  WEBAUTHN_COOKIE,
} from "./passkeys";
import {
  confirmTotpEnrolment,
  enrolAndSignIn,
  startSignInEnrolment,
  startTotpEnrolment,
} from "./totp-enrolment.service";

/*
 * Multi-factor sign-in's routes (decision 0044). The second step's act on a pending sign-in (the
 * session cookie of a sign-in the password began); the rest on a signed-in session, the
 * sensitive ones behind the step-up check (`stepUp`).
 */
export function mfaRoutes(app: FastifyInstance, { config, key }: { config: Config; key: SealingKey }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/auth/second-step",
    {
      config: { access: "pendingSignIn" },
      schema: { summary: "The sign-in waiting for its second step", response: { 200: pendingSignInSchema } },
    },
    async (request) => pendingSignInView({ db: request.db, pending: requirePending(request) }),
  );

  api.post(
    "/api/auth/second-step",
    {
      config: { access: "pendingSignIn" },
      schema: {
        summary: "The second factor of a pending sign-in (an authenticator code or a recovery code): a session",
        body: secondFactorSchema,
        response: { 200: signedInSchema },
      },
    },
    async (request, reply) => {
      const device = deviceOf(request);
      const { cookie, signedIn } = await passSecondStep({
        db: request.db,
        config,
        key,
        pending: requirePending(request),
        origin: requestOrigin(request),
        device,
        input: request.body,
      });
      setSessionCookie(reply, { token: cookie, device }, config);
      return signedIn;
    },
  );

  api.post(
    "/api/auth/second-step/totp",
    {
      config: { access: "pendingSignIn" },
      schema: {
        summary: "Start adding an authenticator app, where the firm requires a factor the user has not got",
        response: { 200: totpEnrolmentSchema },
      },
    },
    async (request) => startSignInEnrolment({ db: request.db, key, pending: requirePending(request) }),
  );

  api.post(
    "/api/auth/second-step/totp/confirm",
    {
      config: { access: "pendingSignIn" },
      schema: {
        summary: "Confirm the authenticator app with one of its codes: the sign-in completes, with recovery codes",
        body: confirmTotpSchema,
        response: { 200: enrolledAndSignedInSchema },
      },
    },
    async (request, reply) => {
      const device = deviceOf(request);
      const { cookie, enrolled, user } = await enrolAndSignIn({
        db: request.db,
        config,
        key,
        pending: requirePending(request),
        origin: requestOrigin(request),
        device,
        input: request.body,
      });
      setSessionCookie(reply, { token: cookie, device }, config);
      return { ...enrolled, user };
    },
  );

  api.post(
    "/api/auth/step-up",
    {
      config: { access: "signedIn" },
      schema: {
        summary:
          "A fresh proof (a second factor, or the password for a user without one) for five minutes of sensitive changes",
        body: stepUpSchema,
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const actor = requireActor(request);
      if (body.method === "passkey") {
        await stepUpWithPasskey({
          db: request.db,
          relyingParty: relyingPartyOf(request, config),
          actor,
          challengeId: takeCeremonyCookie(request, reply),
          input: body,
        });
      } else {
        await stepUp({ db: request.db, key, actor, input: body });
      }
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/auth/step-up/passkey/options",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "What the browser needs to confirm with a passkey",
        response: { 200: passkeyRequestOptionsSchema },
      },
    },
    async (request, reply) =>
      ceremony(
        reply,
        passkeyRequestOptions({
          db: request.db,
          relyingParty: relyingPartyOf(request, config),
          purpose: "step_up",
          who: requireActor(request),
        }),
      ),
  );

  api.post(
    "/api/auth/passkey/options",
    {
      config: { access: "public" },
      schema: {
        summary: "What the browser needs to sign in with a passkey alone (no password)",
        response: { 200: passkeyRequestOptionsSchema },
      },
    },
    async (request, reply) =>
      ceremony(
        reply,
        passkeyRequestOptions({
          db: request.db,
          relyingParty: relyingPartyOf(request, config),
          purpose: "sign_in",
          who: null,
        }),
      ),
  );

  api.post(
    "/api/auth/passkey",
    {
      config: { access: "public" },
      schema: {
        summary: "Sign in with a passkey alone: it names its user, and is itself two factors",
        body: usePasskeySchema,
        response: { 200: currentUserSchema },
      },
    },
    async (request, reply) => {
      const device = deviceOf(request);
      const { cookie, user } = await signInWithPasskey({
        db: request.db,
        config,
        relyingParty: relyingPartyOf(request, config),
        origin: requestOrigin(request),
        device,
        challengeId: takeCeremonyCookie(request, reply),
        input: request.body,
      });
      setSessionCookie(reply, { token: cookie, device }, config);
      return user;
    },
  );

  api.post(
    "/api/auth/second-step/passkey/options",
    {
      config: { access: "pendingSignIn" },
      schema: {
        summary: "What the browser needs to pass the second step with one of the user's passkeys",
        response: { 200: passkeyRequestOptionsSchema },
      },
    },
    async (request, reply) =>
      ceremony(
        reply,
        passkeyRequestOptions({
          db: request.db,
          relyingParty: relyingPartyOf(request, config),
          purpose: "second_factor",
          who: requirePending(request),
        }),
      ),
  );

  api.post(
    "/api/auth/second-step/passkey",
    {
      config: { access: "pendingSignIn" },
      schema: {
        summary: "The second step with a passkey: a session",
        body: usePasskeySchema,
        response: { 200: signedInSchema },
      },
    },
    async (request, reply) => {
      const device = deviceOf(request);
      const { cookie, signedIn } = await passSecondStepWithPasskey({
        db: request.db,
        config,
        relyingParty: relyingPartyOf(request, config),
        pending: requirePending(request),
        origin: requestOrigin(request),
        device,
        challengeId: takeCeremonyCookie(request, reply),
        input: request.body,
      });
      setSessionCookie(reply, { token: cookie, device }, config);
      return signedIn;
    },
  );

  api.post(
    "/api/account/factors/passkey/options",
    {
      config: { access: "signedIn", stepUp: true },
      schema: { summary: "What the browser needs to make a passkey", response: { 200: passkeyCreationOptionsSchema } },
    },
    async (request, reply) =>
      ceremony(
        reply,
        passkeyCreationOptions({
          db: request.db,
          relyingParty: relyingPartyOf(request, config),
          actor: requireActor(request),
        }),
      ),
  );

  api.post(
    "/api/account/factors/passkey",
    {
      config: { access: "signedIn", stepUp: true },
      schema: {
        summary: "Add the passkey the browser made; a first factor comes with recovery codes",
        body: addPasskeySchema,
        response: { 200: enrolledSchema },
      },
    },
    async (request, reply) =>
      addPasskey({
        db: request.db,
        relyingParty: relyingPartyOf(request, config),
        actor: requireActor(request),
        challengeId: takeCeremonyCookie(request, reply),
        input: request.body,
      }),
  );

  api.get(
    "/api/account/security",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "The signed-in user's sign-in factors, recovery codes left, and the firm's policy",
        response: { 200: accountSecuritySchema },
      },
    },
    async (request) =>
      accountSecurity({ db: request.db, actor: requireActor(request), verifiedAt: request.verifiedAt }),
  );

  api.post(
    "/api/account/factors/totp",
    {
      config: { access: "signedIn", stepUp: true },
      schema: { summary: "Start adding an authenticator app", response: { 200: totpEnrolmentSchema } },
    },
    async (request) => startTotpEnrolment({ db: request.db, key, who: requireActor(request) }),
  );

  api.post(
    "/api/account/factors/totp/confirm",
    {
      config: { access: "signedIn", stepUp: true },
      schema: {
        summary: "Confirm the authenticator app with one of its codes; a first factor comes with recovery codes",
        body: confirmTotpSchema,
        response: { 200: enrolledSchema },
      },
    },
    async (request) => confirmTotpEnrolment({ db: request.db, key, actor: requireActor(request), input: request.body }),
  );

  api.patch(
    "/api/account/factors/:id",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "Rename one of the signed-in user's factors",
        params: idParams("Factor"),
        body: renameFactorSchema,
        response: { 200: factorSchema },
      },
    },
    async (request) =>
      renameFactor({
        db: request.db,
        actor: requireActor(request),
        factorId: request.params.id,
        name: request.body.name,
      }),
  );

  api.delete(
    "/api/account/factors/:id",
    {
      config: { access: "signedIn", stepUp: true },
      schema: {
        summary: "Remove one of the signed-in user's factors (not the last where the firm requires one)",
        params: idParams("Factor"),
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await removeFactor({ db: request.db, actor: requireActor(request), factorId: request.params.id });
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/account/recovery-codes",
    {
      config: { access: "signedIn", stepUp: true },
      schema: { summary: "A new set of recovery codes, voiding the old", response: { 200: recoveryCodesSchema } },
    },
    async (request) => ({ codes: await regenerateRecoveryCodes({ db: request.db, actor: requireActor(request) }) }),
  );

  api.put(
    "/api/firm/mfa-policy",
    {
      config: { access: "security.manage", stepUp: true },
      schema: {
        summary: "Require a second factor of everyone in the firm, at once, or make it optional",
        body: updateMfaPolicySchema,
        response: { 200: firmMfaPolicySchema },
      },
    },
    async (request) => setMfaPolicy({ db: request.db, actor: requireActor(request), policy: request.body.policy }),
  );

  api.delete(
    "/api/users/:id/factors",
    {
      config: { access: "security.manage", stepUp: true },
      schema: {
        summary: "Reset another user's sign-in factors (a lost phone): they sign in again and enrol again",
        params: idParams("User"),
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await resetFactors({ db: request.db, actor: requireActor(request), userId: request.params.id });
      return reply.status(204).send();
    },
  );
}

/**
 * The relying party of passkeys: APP_ORIGIN's, or without it the request's own origin (which the
 * same-origin check of every state-changing request has already held to the site's).
 */
function relyingPartyOf(request: FastifyRequest, config: Config): RelyingParty {
  const origin = config.appOrigin ?? `${request.protocol}://${request.host}`;
  return { id: new URL(origin).hostname, origin, name: brand.name };
}

/** Hands the browser a ceremony's options, with its challenge's id in the ceremony's cookie. */
async function ceremony<Options>(
  reply: FastifyReply,
  started: Promise<{ challengeId: string; options: Options }>,
): Promise<Options> {
  const { challengeId, options } = await started;
  setCeremonyCookie(reply, challengeId);
  return options;
}

/** A ceremony's challenge id, in a cookie of its own for the five minutes a ceremony may take. */
function setCeremonyCookie(reply: FastifyReply, challengeId: string) {
  reply.setCookie(WEBAUTHN_COOKIE, challengeId, {
    path: "/api/",
    httpOnly: true,
    sameSite: "strict",
    secure: reply.request.protocol === "https",
    maxAge: PENDING_SIGN_IN_MINUTES * 60,
  });
}

/** The ceremony's challenge id, and the cookie cleared: a challenge answers once. */
function takeCeremonyCookie(request: FastifyRequest, reply: FastifyReply): string | undefined {
  reply.clearCookie(WEBAUTHN_COOKIE, { path: "/api/", httpOnly: true, sameSite: "strict" });
  return request.cookies[WEBAUTHN_COOKIE];
}

/** The pending sign-in of a route whose access rule guarantees one. */
function requirePending(request: FastifyRequest): PendingSignInSession {
  if (!request.pendingSignIn) throw new Error("a pendingSignIn route ran without a pending sign-in");
  return request.pendingSignIn;
}
