import { and, eq } from "drizzle-orm";
import { firmDateFormat } from "../../../shared/dates";
import type { FactorKind } from "../../../shared/mfa";
import type { DbExecutor } from "../../platform/db/database";
import { firms, users } from "../../platform/db/schema";
import { composeMail } from "../../platform/mail/compose";
import { queueMail } from "../../platform/mail/outbox";

/** A change to how someone signs in, which their account's owner is always told of. */
export type SecurityEvent =
  | { kind: "password_changed" }
  | { kind: "factor_added" | "factor_removed"; factor: { kind: FactorKind; name: string } }
  | { kind: "factors_reset" }
  /** A completed sign-in from a browser the user had not signed in from before (known-devices.ts). */
  | { kind: "new_sign_in"; sessionId: string; browser: string; ip: string | null };

const factorWords: Record<FactorKind, string> = { totp: "authenticator app", passkey: "passkey" };

/** The subject, and what happened, of each event: `account` names the account and its firm. */
function wordsOf(event: SecurityEvent, account: string, when: string): { subject: string; happened: string } {
  switch (event.kind) {
    case "password_changed":
      return {
        subject: "Your Tendwell password was changed",
        happened: `The password of ${account} was changed on ${when}. Your other sessions were signed out.`,
      };
    case "factor_added":
      return {
        subject: "A sign-in method was added to your Tendwell account",
        happened: `The ${factorWords[event.factor.kind]} “${event.factor.name}” was added to ${account} on ${when}. It can now be used to sign in.`,
      };
    case "factor_removed":
      return {
        subject: "A sign-in method was removed from your Tendwell account",
        happened: `The ${factorWords[event.factor.kind]} “${event.factor.name}” was removed from ${account} on ${when}.`,
      };
    case "factors_reset":
      return {
        subject: "Your Tendwell sign-in methods were reset",
        happened: `An administrator removed every second factor of ${account} on ${when}, and signed out its sessions. You will be asked to add one at your next sign-in.`,
      };
    case "new_sign_in":
      return {
        subject: "New sign-in to your Tendwell account",
        happened:
          `Someone signed in to ${account} on ${when} from a browser not used with it before: ${event.browser}, ` +
          `${event.ip ? `at the IP address ${event.ip}` : "at an unknown IP address"}. ` +
          "A browser whose cookies were cleared looks new too.",
      };
  }
}

/** Unique per event in the firm's outbox: one sign-in is one session, any other change one moment. */
function dedupeKeyOf(event: SecurityEvent, userId: string, at: Date): string {
  return event.kind === "new_sign_in"
    ? `${event.kind}:${userId}:${event.sessionId}`
    : `${event.kind}:${userId}:${at.toISOString()}`;
}

/**
 * Tells a user by e-mail of a change to how they sign in, or of a sign-in from a new browser, in
 * the transaction that made it.
 * Security notices are always sent (no preference turns them off) and carry no unsubscribe link;
 * a user without an e-mail address gets none. The time is written in the firm's time zone.
 */
export async function queueSecurityNotice(
  tx: DbExecutor,
  who: { firmId: string; userId: string },
  event: SecurityEvent,
  at: Date,
): Promise<void> {
  const [recipient] = await tx
    .select({
      email: users.email,
      username: users.username,
      fullName: users.fullName,
      firmName: firms.name,
      timeZone: firms.timeZone,
    })
    .from(users)
    .innerJoin(firms, eq(firms.id, users.firmId))
    .where(and(eq(users.firmId, who.firmId), eq(users.id, who.userId)));
  if (!recipient?.email) return;
  const when = `${firmDateFormat(recipient.timeZone)(at, true)} (${recipient.timeZone})`;
  const account = `your Tendwell account ${recipient.username} at ${recipient.firmName}`;
  const { subject, happened } = wordsOf(event, account, when);
  const content = composeMail({
    greeting: `Hello ${recipient.fullName},`,
    paragraphs: [
      happened,
      "If this was you, there is nothing more to do. If it was not, ask an administrator of your firm " +
        "to disable your account at once, then to reset your password.",
    ],
    footer: "This is a security notice. Tendwell always sends these; they cannot be turned off.",
  });
  await queueMail(tx, {
    firmId: who.firmId,
    userId: who.userId,
    dedupeKey: dedupeKeyOf(event, who.userId, at),
    kind: "security_notice",
    to: { name: recipient.fullName, address: recipient.email },
    senderName: recipient.firmName,
    subject,
    ...content,
  });
}
