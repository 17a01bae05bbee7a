import { randomBytes } from "node:crypto";
import { RECOVERY_CODE_COUNT } from "../../../shared/mfa";
import { hashToken } from "../../platform/tokens";

/*
 * Recovery codes (decision 0044): ten at a time, each 16 characters of base32 (80 random bits),
 * shown once as four groups of four (`abcd-efgh-ijkl-mnop`). Only the SHA-256 of each is kept:
 * 80 random bits need no slow hash, no list of likely codes exists to try, and the second step's
 * throttle bounds guessing online.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const CODE_LENGTH = 16;

/** A code as the user sees it: four groups of four. */
export const formatRecoveryCode = (code: string) => code.match(/.{1,4}/g)?.join("-") ?? code;

/** The stored form of a code, given as recoveryCodeSchema leaves it (no dashes, lower case). */
export const hashRecoveryCode = (normalized: string) => hashToken(normalized);

/** A new set: the codes to show, and the hashes to keep. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // 16 bytes, each taken modulo 32 (256 is a multiple of 32, so every character is as likely).
    const bytes = randomBytes(CODE_LENGTH);
    return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  });
  return { codes: codes.map(formatRecoveryCode), hashes: codes.map(hashRecoveryCode) };
}
