import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { changePasswordSchema, loginSchema, registerSchema } from "../../../shared/auth";
import { currentUserSchema } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { Database } from "../../platform/db/database";
import type { ZodTypeProvider } from "../../platform/http";
import { type CardBilling, findSetupForRegistration, SETUP_COOKIE } from "../billing/billing.service";
import { clearSetupCookie } from "../billing/setup-cookie";
import { clearSessionCookie, requestOrigin, requireSession, setSessionCookie } from "./access-control";
import { changePassword, getCurrentUser, login, logout, register } from "./auth.service";
import { SESSION_COOKIE } from "./sessions";

export function authRoutes(
  app: FastifyInstance,
  { db, config, cardBilling }: { db: Database; config: Config; cardBilling: CardBilling | undefined },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/auth/register",
    {
      config: { access: "public" },
      schema: {
        summary:
          "Create a firm on a 14-day trial with its first user (super_admin), signed in; with card payments on, " +
          "linked to this browser's card setup (POST /api/create-subscription-setup) for the same email and plan",
        body: registerSchema,
        response: { 201: currentUserSchema },
      },
    },
    async (request, reply) => {
      const { token, user } = await register({
        db,
        config,
        input: request.body,
        origin: requestOrigin(request),
        ...(cardBilling
          ? {
              cardSetup: () =>
                findSetupForRegistration({
                  db,
                  billing: cardBilling,
                  token: request.cookies[SETUP_COOKIE],
                  email: request.body.email,
                  plan: request.body.subscriptionPlan,
                  log: request.log,
                }),
            }
          : {}),
      });
      if (cardBilling) clearSetupCookie(reply);
      setSessionCookie(reply, token, config);
      return reply.status(201).send(user);
    },
  );

  api.post(
    "/api/auth/login",
    {
      config: { access: "public" },
      schema: { summary: "Sign in: a new session", body: loginSchema, response: { 200: currentUserSchema } },
    },
    async (request, reply) => {
      const { token, user } = await login({
        db,
        config,
        input: request.body,
        origin: requestOrigin(request),
        previousToken: request.cookies[SESSION_COOKIE],
      });
      setSessionCookie(reply, token, config);
      return user;
    },
  );

  // Public so that signing out always succeeds, even with an expired session.
  api.post(
    "/api/auth/logout",
    { config: { access: "public" }, schema: { summary: "Sign out: ends the session", response: { 204: z.void() } } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await logout({ db, token, session: request.session, origin: requestOrigin(request) });
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
    async (request) => getCurrentUser({ db, actor: requireSession(request) }),
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
        db,
        actor: requireSession(request),
        input: request.body,
        origin: requestOrigin(request),
      });
      return reply.status(204).send();
    },
  );
}
