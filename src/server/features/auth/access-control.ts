import cookie from "@fastify/cookie";
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestHookHandler,
  RouteOptions,
} from "fastify";
import { SIGNED_IN_COOKIE } from "../../../shared/auth";
import { PENDING_SIGN_IN_MINUTES } from "../../../shared/mfa";
import { type Action, can, forbiddenMessage } from "../../../shared/permissions";
import type { Role } from "../../../shared/roles";
import type { Config } from "../../platform/config";
import type { Database } from "../../platform/db/database";
import { inFirm } from "../../platform/db/firm-scope";
import { AppError } from "../../platform/errors";
import { hooksOf } from "../../platform/http";
import { requestOrigin } from "../../tenancy/actor";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, deviceTokenOf } from "./known-devices";
import { assertFreshProof } from "./second-factor-state";
import { findSession, SESSION_COOKIE } from "./sessions";

/**
 * Every /api route states who may call it: anyone, any signed-in user, or the holders of an
 * action in the role table (src/shared/permissions.ts). A route that states nothing makes the
 * app refuse to start, so no route is unguarded by accident.
 */
export type RouteAccess = "public" | "signedIn" | "pendingSignIn" | Action;

/** A sign-in the password began, waiting for the second factor or for enrolment (decision 0044). */
export type PendingSignInSession = {
  sessionId: string;
  userId: string;
  firmId: string;
  username: string;
  stage: "second_factor" | "enrol";
  expiresAt: Date;
};

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * A provider's signed webhook (Stripe's): the signature is its proof, so the same-origin rule
     * and the session lookup do not apply. The route must verify the signature itself.
     */
    webhook?: boolean;
    /**
     * A sensitive change (the password, the factors, the firm's sign-in policy, resetting someone's
     * factors): the session must have passed a fresh proof within the last five minutes
     * (requireStepUp), or the answer is 403 STEP_UP_REQUIRED.
     */
    stepUp?: boolean;
  }
  interface FastifyRequest {
    /**
     * The database as this request may see it: acting in its actor's firm, so that row-level
     * security shows it that firm's rows only (platform/db/firm-scope.ts); without a session, in
     * no firm. What every handler hands its service.
     */
    db: Database;
    /** Set by the guard when the request carries a sign-in waiting for its second step (access "pendingSignIn"). */
    pendingSignIn: PendingSignInSession | null;
    /** The signed-in session's last fresh proof (password or second factor); null without a session. */
    verifiedAt: Date | null;
  }
  interface FastifyInstance {
    /** Every /api route with its access rule, in registration order (HEAD twins left out). */
    apiRoutes: ApiRoute[];
  }
}

export type ApiRoute = { method: string; url: string; access: RouteAccess; schema: FastifySchema | undefined };

/** Whether a route's rule lets a signed-in user of `role` call it (a pending sign-in's routes let no session). */
export function allowsRole(access: RouteAccess, role: Role): boolean {
  if (access === "pendingSignIn") return false;
  return access === "public" || access === "signedIn" || can(role, access);
}

const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function registerAccessControl(app: FastifyInstance, options: { db: Database; config: Config }) {
  await app.register(cookie);
  app.decorateRequest("actor", null);
  app.decorateRequest("db", null as unknown as Database);
  app.decorateRequest("pendingSignIn", null);
  app.decorateRequest("verifiedAt", null);
  const apiRoutes: ApiRoute[] = [];
  app.decorate("apiRoutes", apiRoutes);

  // Each route gets its own guard as it registers, with its rule worked out once: a hook per route
  // reads no route options per request (Fastify builds that object anew on each read), and a page
  // or a webhook runs none of what only a signed-in API route needs.
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (!route.url.startsWith("/api/")) {
      // Only the API changes state: a page route that did would escape the origin check.
      if (methods.some((method) => stateChanging.has(method)))
        throw new Error(`Route ${String(route.method)} ${route.url} changes state outside /api/`);
      return;
    }
    route.onRequest = [apiGuard(route.method, route.url, route.config, options), ...hooksOf(route.onRequest)];
    const access = route.config?.access as RouteAccess;
    for (const method of methods) {
      if (method !== "HEAD") apiRoutes.push({ method, url: route.url, access, schema: route.schema });
    }
  });
}

/**
 * An API route's guard: a state-changing request must come from our own site; the session, if
 * any, makes the request's actor and its database handle (the actor's firm); then the route's
 * rule decides. A webhook's signature is its proof: its guard only hands it the database acting in
 * no firm, whose functions find the firm an event is for.
 */
function apiGuard(
  method: RouteOptions["method"],
  url: string,
  config: FastifyContextConfig | undefined,
  options: { db: Database; config: Config },
): onRequestHookHandler {
  const access = config?.access;
  if (!access) throw new Error(`Route ${String(method)} ${url} declares no access rule (config.access)`);
  if (config?.webhook === true) {
    if (access !== "public")
      throw new Error(`Route ${String(method)} ${url}: a webhook skips the session, so it must be public`);
    return (request, _reply, done) => {
      request.db = options.db;
      done();
    };
  }
  if (config?.stepUp === true && (access === "public" || access === "pendingSignIn"))
    throw new Error(`Route ${String(method)} ${url}: a step-up needs a signed-in session`);
  const stepUp = config?.stepUp === true;
  const checksOrigin = [method].flat().some((each) => stateChanging.has(each));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    request.db = options.db;
    if (checksOrigin) refuseCrossSite(request, options.config);
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await findSession(options.db, token, options.config) : undefined;
    // The request's one actor (src/server/tenancy/actor.ts): what every route hands its service.
    // Written out: on Node 20 an object of two spreads costs about 4 µs, here on every request.
    request.actor = null;
    request.pendingSignIn = null;
    request.verifiedAt = null;
    if (session?.stage === "active") {
      const { ip, userAgent } = requestOrigin(request);
      const { sessionId, userId, firmId, role, username } = session;
      request.actor = { sessionId, userId, firmId, role, username, ip, userAgent };
      request.verifiedAt = session.verifiedAt;
      request.db = inFirm(options.db, firmId);
    } else if (session) {
      // A pending sign-in is no session: only the second step's routes see it.
      const { sessionId, userId, firmId, username, expiresAt } = session;
      const stage = session.stage as PendingSignInSession["stage"];
      request.pendingSignIn = { sessionId, userId, firmId, username, stage, expiresAt };
      request.db = inFirm(options.db, firmId);
    }
    if (access === "public") return;
    if (access === "pendingSignIn") {
      if (!request.pendingSignIn) throw new AppError("UNAUTHENTICATED", "Please sign in to continue");
      return;
    }
    const { actor } = request;
    if (!actor) {
      if (request.pendingSignIn) {
        throw new AppError("SECOND_FACTOR_REQUIRED", "Confirm your sign-in with your second factor to go on");
      }
      // The browser's cookies name a session that has ended (expired, or signed out elsewhere): they
      // are cleared, so the app stops asking about a session it does not have.
      if (token !== undefined || request.cookies[SIGNED_IN_COOKIE] !== undefined) clearSessionCookie(reply);
      throw new AppError("UNAUTHENTICATED", "Please sign in to continue");
    }
    if (access !== "signedIn" && !can(actor.role, access)) {
      throw new AppError("FORBIDDEN", forbiddenMessage(actor.role, access));
    }
    if (stepUp) requireStepUp(request);
  };
}

/**
 * The step-up check for a request (second-factor-state.ts's assertFreshProof). A route states it
 * with `config.stepUp`; a route where only some changes are sensitive (a user's role) calls it.
 */
export function requireStepUp(request: FastifyRequest): void {
  assertFreshProof(request.verifiedAt);
}

/**
 * CSRF defence (decision 0005): a state-changing request from a browser must come from our
 * own origin. Browsers send Origin (and Sec-Fetch-Site) on such requests; other clients cannot
 * carry a victim's cookie, and non-JSON bodies are refused (415) before any handler runs.
 */
function refuseCrossSite(request: FastifyRequest, config: Config) {
  const site = request.headers["sec-fetch-site"];
  const origin = request.headers.origin;
  const ownOrigin = config.appOrigin ?? `${request.protocol}://${request.host}`;
  if (
    (site !== undefined && site !== "same-origin" && site !== "none") ||
    (origin !== undefined && origin !== ownOrigin)
  ) {
    throw new AppError("CROSS_SITE_REQUEST", "Cross-site requests are not allowed");
  }
}

/**
 * A completed sign-in's cookies: the session's, its readable companion for the app
 * (SIGNED_IN_COOKIE) with the same lifetime, and the browser's device token (known-devices.ts),
 * which outlives sessions and sign-outs and is kept another 400 days from each sign-in.
 */
export function setSessionCookie(reply: FastifyReply, cookies: { token: string; device: string }, config: Config) {
  const options = {
    path: "/",
    sameSite: "lax",
    secure: reply.request.protocol === "https",
    maxAge: Math.floor(config.session.absoluteMs / 1000),
  } as const;
  reply.setCookie(SESSION_COOKIE, cookies.token, { ...options, httpOnly: true });
  reply.setCookie(SIGNED_IN_COOKIE, "1", options);
  reply.setCookie(DEVICE_COOKIE, cookies.device, {
    ...options,
    httpOnly: true,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}

/** The browser's device token: its cookie's, or a new one that a completed sign-in records and sets. */
export const deviceOf = (request: FastifyRequest): string => deviceTokenOf(request.cookies[DEVICE_COOKIE]);

/** A pending sign-in's cookie: the session cookie for five minutes, without its readable companion. */
export function setPendingSignInCookie(reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    sameSite: "lax",
    secure: reply.request.protocol === "https",
    maxAge: PENDING_SIGN_IN_MINUTES * 60,
    httpOnly: true,
  });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: "/", sameSite: "lax" });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax" });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: "/", sameSite: "lax" });
}
