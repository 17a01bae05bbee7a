import { createHash, randomBytes } from "node:crypto";

/*
 * Bearer tokens kept by the browser in a cookie (sessions, card setups): 256 random bits, of
 * which only the SHA-256 is stored, so a database leak yields no usable token.
 */

export const newToken = () => randomBytes(32).toString("base64url");

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
