import type { FastifyReply } from "fastify";
import { SETUP_COOKIE } from "./billing.service";

/**
 * Sent to the API only: the payment step reads it to answer a returning browser's open setup
 * again, and the registration claims the setup with it.
 */
const path = "/api";

/** The card setup's one-time token: HttpOnly, SameSite=Lax, Secure behind HTTPS (as the session cookie). */
export function setSetupCookie(reply: FastifyReply, token: string, expiresAt: Date) {
  reply.setCookie(SETUP_COOKIE, token, {
    path,
    httpOnly: true,
    sameSite: "lax",
    secure: reply.request.protocol === "https",
    maxAge: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearSetupCookie(reply: FastifyReply) {
  reply.clearCookie(SETUP_COOKIE, { path, httpOnly: true, sameSite: "lax" });
}
