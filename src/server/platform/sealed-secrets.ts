import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/*
 * Secrets the app must read back (an authenticator app's shared secret), kept encrypted at rest:
 * AES-256-GCM under a key from configuration, a fresh 96-bit nonce per sealing, and the secret's
 * owner (e.g. "totp:<user id>") as associated data, so a sealed value copied into another row
 * does not open there. A database leak without the key yields nothing usable; a changed byte,
 * the wrong key or the wrong owner fails to open rather than giving a wrong secret.
 *
 * A sealed value is text: `v1.<nonce>.<ciphertext and tag>`, both base64url; the version names
 * the scheme, so a later one can be told apart from it.
 */

const VERSION = "v1";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A sealing key: 32 bytes. */
export type SealingKey = Buffer & { readonly sealingKey: unique symbol };

/** A key from its configured text: 32 bytes in base64 (or base64url). Throws on anything else. */
export function sealingKeyFrom(text: string): SealingKey {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, "base64");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new Error(`a sealing key is ${KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
  }
  return key as SealingKey;
}

/** A new random key, and its text for configuration or a key file. */
export function newSealingKey(): { key: SealingKey; text: string } {
  const key = randomBytes(KEY_BYTES) as SealingKey;
  return { key, text: key.toString("base64") };
}

export function seal(key: SealingKey, secret: string, owner: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${nonce.toString("base64url")}.${sealed.toString("base64url")}`;
}

/** The secret `seal` sealed for `owner` under `key`; throws if anything about it differs. */
export function unseal(key: SealingKey, sealed: string, owner: string): string {
  const [version, nonceText, bodyText, ...rest] = sealed.split(".");
  const nonce = Buffer.from(nonceText ?? "", "base64url");
  const body = Buffer.from(bodyText ?? "", "base64url");
  if (version !== VERSION || rest.length > 0 || nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) {
    throw new Error("not a sealed secret of this version");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(Buffer.from(owner, "utf8"));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
}
