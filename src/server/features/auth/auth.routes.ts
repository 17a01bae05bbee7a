import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { changePasswordSchema, loginSchema } from "../../../shared/auth";
import { pendingSignInSchema } from "../../../shared/mfa";
import { currentUserSchema } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { ZodTypeProvider } from "../../platform/http";
import { requestOrigin, requireActor } from "../../tenancy/actor";
import { clearSessionCookie, deviceOf, setPendingSignInCookie, setSessionCookie } from "./access-control";
import { changePassword, getCurrentUser, login, logout } from "./auth.service";
import { SESSION_COOKIE } from "./sessions";

export function authRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/auth/login",
    {
      config: { access: "public" },
      schema: {
        summary: "Sign in: a new session, or (202) a sign-in that waits for the second factor or for enrolment",
        body: loginSchema,
        response: { 200: currentUserSchema, 202: pendingSignInSchema },
      },
    },
    async (request, reply) => {
      const device = deviceOf(request);
      const outcome = await login({
        db: request.db,
        config,
        input: request.body,
        origin: requestOrigin(request),
        previousToken: request.cookies[SESSION_COOKIE],
        device,
      });
      if (outcome.stage === "active") {
        setSessionCookie(reply, { token: outcome.token, device }, config);
        return outcome.user;
      }
      setPendingSignInCookie(reply, outcome.token);
      return reply.status(202).send(outcome.pending);
    },
  );

  // Public so that signing out always succeeds, even with an expired session.
  api.post(
    "/api/auth/logout",
    { config: { access: "public" }, schema: { summary: "Sign out: ends the session", response: { 204: z.void() } } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await logout({ db: request.db, token, actor: request.actor });
      clearSessionCookie(reply);
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/auth/me",
    {
      config: { access: "signedIn" },
      schema: { summary: "The signed-in user and their firm", response: { 200: currentUserSchema } },
    },
    async (request) => getCurrentUser({ db: request.db, actor: requireActor(request) }),
  );

  api.post(
    "/api/auth/change-password",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "Change the signed-in user's password; ends their other sessions",
        body: changePasswordSchema,
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await changePassword({
        db: request.db,
        actor: requireActor(request),
        verifiedAt: request.verifiedAt,
        input: request.body,
      });
      return reply.status(204).send();
    },
  );
}
