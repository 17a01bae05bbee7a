import type { FastifyRequest } from "fastify";
import type { Role } from "../../shared/roles";
import { AppError } from "../platform/errors";

/**
 * Who is acting: the signed-in user of a request (their firm, which is the tenant, their role as
 * the session found it) and where the request came from. The guard builds it once per request;
 * routes hand it to services, which scope every query by `firmId` and record it in the audit trail.
 */
export type Actor = {
  firmId: string;
  userId: string;
  role: Role;
  username: string;
  sessionId: string;
  ip: string | null;
  userAgent: string | null;
};

/** The actor of a change made without a signed-in user (a provider's webhook): the firm, no user. */
export type EventSource = Pick<Actor, "firmId" | "ip" | "userAgent"> & { userId: string | null };

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the guard (features/auth/access-control.ts) when the request carries a live session. */
    actor: Actor | null;
  }
}

/** Where a request came from, for the audit trail and the session record. */
export function requestOrigin(request: FastifyRequest): Pick<Actor, "ip" | "userAgent"> {
  return { ip: request.ip || null, userAgent: request.headers["user-agent"]?.slice(0, 512) ?? null };
}

/** The actor of a route whose access rule guarantees a signed-in user. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError("UNAUTHENTICATED", "Please sign in to continue");
  return request.actor;
}
