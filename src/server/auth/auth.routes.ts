import type { FastifyInstance } from "fastify";
import { changePasswordSchema, loginSchema, registerSchema } from "../../shared/auth";
import type { Config } from "../config";
import type { Database } from "../db/database";
import { parseBody } from "../http";
import { clearSessionCookie, requestOrigin, requireSession, setSessionCookie } from "./access-control";
import { changePassword, getCurrentUser, login, logout, register } from "./auth.service";
import { SESSION_COOKIE } from "./sessions";

export function authRoutes(app: FastifyInstance, { db, config }: { db: Database; config: Config }) {
  app.post("/api/auth/register", { config: { access: "public" } }, async (request, reply) => {
    const input = parseBody(registerSchema, request.body);
    const { token, user } = await register({ db, config, input, origin: requestOrigin(request) });
    setSessionCookie(reply, token, config);
    return reply.status(201).send(user);
  });

  app.post("/api/auth/login", { config: { access: "public" } }, async (request, reply) => {
    const input = parseBody(loginSchema, request.body);
    const { token, user } = await login({
      db,
      config,
      input,
      origin: requestOrigin(request),
      previousToken: request.cookies[SESSION_COOKIE],
    });
    setSessionCookie(reply, token, config);
    return user;
  });

  // Public so that signing out always succeeds, even with an expired session.
  app.post("/api/auth/logout", { config: { access: "public" } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await logout({ db, token, session: request.session, origin: requestOrigin(request) });
    clearSessionCookie(reply);
    return reply.status(204).send();
  });

  app.get("/api/auth/me", { config: { access: "signedIn" } }, async (request) =>
    getCurrentUser(db, requireSession(request)),
  );

  app.post("/api/auth/change-password", { config: { access: "signedIn" } }, async (request, reply) => {
    const input = parseBody(changePasswordSchema, request.body);
    await changePassword({ db, session: requireSession(request), input, origin: requestOrigin(request) });
    return reply.status(204).send();
  });
}
