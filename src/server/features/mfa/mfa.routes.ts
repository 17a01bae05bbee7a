import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  accountSecuritySchema,
  confirmTotpSchema,
  enrolledAndSignedInSchema,
  enrolledSchema,
  factorSchema,
  firmMfaPolicySchema,
  pendingSignInSchema,
  recoveryCodesSchema,
  renameFactorSchema,
  secondFactorSchema,
  signedInSchema,
  stepUpSchema,
  totpEnrolmentSchema,
  updateMfaPolicySchema,
} from "../../../shared/mfa";
import type { Config } from "../../platform/config";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import type { SealingKey } from "../../platform/sealed-secrets";
import { requestOrigin, requireActor } from "../../tenancy/actor";
import { type PendingSignInSession, setSessionCookie } from "../auth/access-control";
import {
  accountSecurity,
  confirmTotpEnrolment,
  enrolAndSignIn,
  passSecondStep,
  pendingSignInView,
  regenerateRecoveryCodes,
  removeFactor,
  renameFactor,
  resetFactors,
  setMfaPolicy,
  startSignInEnrolment,
  startTotpEnrolment,
  stepUp,
} from "./mfa.service";

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
      const { cookie, signedIn } = await passSecondStep({
        db: request.db,
        config,
        key,
        pending: requirePending(request),
        origin: requestOrigin(request),
        input: request.body,
      });
      setSessionCookie(reply, cookie, config);
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
      const { cookie, enrolled, user } = await enrolAndSignIn({
        db: request.db,
        config,
        key,
        pending: requirePending(request),
        origin: requestOrigin(request),
        input: request.body,
      });
      setSessionCookie(reply, cookie, config);
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
      await stepUp({ db: request.db, key, actor: requireActor(request), input: request.body });
      return reply.status(204).send();
    },
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

/** The pending sign-in of a route whose access rule guarantees one. */
function requirePending(request: FastifyRequest): PendingSignInSession {
  if (!request.pendingSignIn) throw new Error("a pendingSignIn route ran without a pending sign-in");
  return request.pendingSignIn;
}
