import { Secret, TOTP } from "otpauth";

/*
 * Authenticator-app codes (TOTP, RFC 6238) as every authenticator app reads them: HMAC-SHA-1,
 * 30-second steps, 6 digits. The RFC's arithmetic is otpauth's (a maintained library over
 * @noble/hashes); what is ours is the policy around it: a code of the step before or after the
 * server's is accepted (a phone's clock may drift), and each step's code works once: the step a
 * code was accepted for is kept, and a code of that step or an earlier one is refused (a replay,
 * ASVS 5.0 6.5.1).
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of the server's own that a code may come from. */
const DRIFT_STEPS = 1;
/** RFC 4226 recommends a shared secret of 160 bits, the length of SHA-1's output. */
const SECRET_BYTES = 20;

const totpOf = (secret: string, label = "") =>
  new TOTP({
    issuer: "Tendwell",
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** What a factor's sealed secret is bound to (platform/sealed-secrets.ts): that factor's row. */
export const totpSealOwner = (factorId: string) => `totp:${factorId}`;

/** A new shared secret, in base32 as authenticator apps take it typed in. */
export const newTotpSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

/** The `otpauth://` address an authenticator app reads from a QR code. */
export const totpUri = (secret: string, account: string): string => totpOf(secret, account).toString();

/** The step (the count of 30-second periods since 1970) a moment falls in. */
export const totpStep = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** The code of a step, as an authenticator app would show it then. */
export const totpCode = (secret: string, step: number): string =>
  totpOf(secret).generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 });

/**
 * The step a code was made for, when it is a code of the step at `at` or one either side, and
 * later than `lastUsedStep` (the step of the code last accepted for this secret, none at first):
 * the step to keep as the new last used one. Undefined for a code that is wrong, malformed, too
 * old or too new, or already used.
 */
export function acceptTotp(options: {
  secret: string;
  code: string;
  at: Date;
  lastUsedStep: number | null;
}): number | undefined {
  const { secret, code, at, lastUsedStep } = options;
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: at.getTime(), window: DRIFT_STEPS });
  if (delta === null) return undefined;
  const step = totpStep(at) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? undefined : step;
}
