import { and, desc, eq, inArray } from "drizzle-orm";
import type { DbExecutor } from "../../platform/db/database";
import { userDevices } from "../../platform/db/schema";
import { hashToken, newToken } from "../../platform/tokens";
import type { Actor } from "../../tenancy/actor";
import type { Who } from "./second-factor-state";
import { queueSecurityNotice } from "./security-notices";

/*
 * The browsers a user has signed in from (issue 21). Each browser holds a random 256-bit token in
 * a long-lived cookie, stored only as its SHA-256 in `user_devices`, per user: the same browser
 * is a different row for each account signed in from it. A completed sign-in from a browser the
 * user has not signed in from before tells them by a security notice, but only when they have
 * signed in from another one: a new account's first browser, and each user's first sign-in after
 * this shipped (no rows yet), are nothing to be alarmed by.
 */

export const DEVICE_COOKIE = "tendwell_device";
/** Browsers keep a cookie at most 400 days (RFC 6265bis); each completed sign-in starts them again. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
/** The most recently seen browsers kept per user; an older one signing in again counts as new. */
export const KNOWN_DEVICES_PER_USER = 20;
const USER_AGENT_CHARS = 300;

const deviceTokenShape = /^[A-Za-z0-9_-]{43}$/;

/** The browser's device token: its cookie's, or a new one when it has none (or one we never made). */
export function deviceTokenOf(cookie: string | undefined): string {
  return cookie !== undefined && deviceTokenShape.test(cookie) ? cookie : newToken();
}

/**
 * Records a completed sign-in's browser in the transaction that made its session: first seen now,
 * or seen again; the user's browsers beyond the most recent `KNOWN_DEVICES_PER_USER` are forgotten.
 * A browser new to a user who has another is told of by a security notice.
 */
export async function recordSignInDevice(
  tx: DbExecutor,
  signIn: Who & Pick<Actor, "ip" | "userAgent"> & { sessionId: string; device: string; at: Date },
): Promise<void> {
  const { firmId, userId, at } = signIn;
  const deviceHash = hashToken(signIn.device);
  const userAgent = (signIn.userAgent ?? "").slice(0, USER_AGENT_CHARS);
  const [seen] = await tx
    .insert(userDevices)
    .values({ firmId, userId, deviceHash, userAgent, firstSeenAt: at, lastSeenAt: at })
    .onConflictDoUpdate({
      target: [userDevices.firmId, userDevices.userId, userDevices.deviceHash],
      set: { userAgent, lastSeenAt: at },
    })
    .returning({ firstSeenAt: userDevices.firstSeenAt });
  // First seen at this sign-in's moment: this sign-in made the row. Of two sign-ins racing from
  // one new browser, the second waits for the first's row and finds it, so one notice goes.
  const isNew = seen?.firstSeenAt.getTime() === at.getTime();
  const mine = and(eq(userDevices.firmId, firmId), eq(userDevices.userId, userId));
  const known = await tx
    .select({ deviceHash: userDevices.deviceHash })
    .from(userDevices)
    .where(mine)
    .orderBy(desc(userDevices.lastSeenAt), userDevices.deviceHash);
  const forgotten = known.slice(KNOWN_DEVICES_PER_USER).map((row) => row.deviceHash);
  if (forgotten.length > 0) await tx.delete(userDevices).where(and(mine, inArray(userDevices.deviceHash, forgotten)));
  // `known` holds this browser too: another besides it makes this one news.
  if (isNew && known.length > 1) {
    await queueSecurityNotice(
      tx,
      { firmId, userId },
      { kind: "new_sign_in", sessionId: signIn.sessionId, browser: describeBrowser(userAgent), ip: signIn.ip },
      at,
    );
  }
}

const browsers: [RegExp, string][] = [
  // Edge, Opera and Samsung Internet also name Chrome, and Chrome names Safari: the rarer first.
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+\b.*\bSafari\//, "Safari"],
];

const systems: [RegExp, string][] = [
  // iPhones and iPads say "like Mac OS X", and Android says Linux: the narrower first.
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/**
 * A browser and its system in words, from the user agent it sent ("Chrome on Windows", "Safari on
 * iPhone"); "an unknown browser" for one we do not recognise. It is the browser's own claim.
 */
export function describeBrowser(userAgent: string | null): string {
  const text = userAgent ?? "";
  const browser = browsers.find(([pattern]) => pattern.test(text))?.[1];
  const system = systems.find(([pattern]) => pattern.test(text))?.[1];
  const named = browser ?? "an unknown browser";
  return system === undefined ? named : `${named} on ${system}`;
}
