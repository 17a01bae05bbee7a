import { brand } from "../../shared/brand";
import { RECOVERY_CODE_COUNT } from "../../shared/mfa";

/*
 * Recovery codes as people read, keep and count them (decision 0044): each signs in once when the
 * authenticator app is out of reach; a new set voids the old one.
 */

/** From this many left down, the app suggests making a new set. */
export const FEW_RECOVERY_CODES = 3;

/**
 * A code in four groups of four (`abcd-efgh-ijkl-mnop`), however it came: the groups are easier to
 * copy by hand, and the server takes a code with or without dashes.
 */
export function formatRecoveryCode(code: string): string {
  const plain = code.replace(/[\s-]/g, "").toLowerCase();
  return plain.match(/.{1,4}/g)?.join("-") ?? plain;
}

/** How many codes are left, and, when few, what to do about it. */
export function recoveryCodesLeftMessage(left: number): string {
  if (left === 0) return "You have no recovery codes left. Make new ones in Settings now.";
  const count = `You have ${left} of ${RECOVERY_CODE_COUNT} recovery codes left.`;
  return left <= FEW_RECOVERY_CODES ? `${count} Make new ones in Settings soon.` : count;
}

/** The day (YYYY-MM-DD) on the person's own clock, as the file's name and its first lines give it. */
const localDay = (date: Date) => date.toLocaleDateString("en-CA");

/** The text file a person keeps: who and when the codes are for, how to use them, then one code a line. */
export function recoveryCodesText(codes: readonly string[], owner: { username: string; firmName: string }, made: Date) {
  return [
    `${brand.name} recovery codes for ${owner.username} (${owner.firmName})`,
    `Made on ${localDay(made)}. Making new codes voids these.`,
    "",
    "Each code signs you in once when you cannot use your authenticator app.",
    "Keep them somewhere safe, apart from your phone.",
    "",
    ...codes.map(formatRecoveryCode),
    "",
  ].join("\n");
}

/** The file's name: the brand and the day, so a newer set does not overwrite an older file unnoticed. */
export const recoveryCodesFileName = (made: Date) => `${brand.name.toLowerCase()}-recovery-codes-${localDay(made)}.txt`;

/** Hands `text` to the browser as a download named `name`. */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // The browser may still be reading the file when click() returns: the address goes a minute later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
