import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { MailKind } from "../../../shared/mail-outbox";
import type { Database } from "../db/database";
import { inAnyScope, inFirm } from "../db/firm-scope";
import { mailOutbox, users } from "../db/schema";
import type { MailSender, OutgoingMail, SendOutcome } from "./mail-sender";

/** A message to one user of a firm, as a change writes it to the outbox (its Message-ID comes from its row). */
export type QueuedMail = Omit<OutgoingMail, "messageId"> & {
  firmId: string;
  userId: string;
  /** Names the message among its firm's: a second write of the same key is ignored. */
  dedupeKey: string;
  kind: MailKind;
};

/** Tries of one message before it is marked failed; the waits between them grow (backoff). */
export const MAX_MAIL_ATTEMPTS = 6;
const RETRY_BASE_SECONDS = 60;
/** Messages one delivery run takes at most; the next run (a minute later) takes the rest. */
const DELIVERY_BATCH = 200;

/**
 * Writes a message to the outbox inside the caller's transaction, so it exists exactly when the
 * change it tells of commits (decision 0049); the deliver-mail job sends it.
 */
export async function queueMail(tx: Pick<Database, "insert">, mail: QueuedMail): Promise<void> {
  await tx
    .insert(mailOutbox)
    .values({
      firmId: mail.firmId,
      userId: mail.userId,
      dedupeKey: mail.dedupeKey,
      kind: mail.kind,
      toAddress: mail.to.address,
      toName: mail.to.name,
      senderName: mail.senderName,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      unsubscribeUrl: mail.unsubscribeUrl ?? null,
    })
    .onConflictDoNothing({ target: [mailOutbox.firmId, mailOutbox.dedupeKey] });
}

export type DeliveryResult = { sent: number; kept: number; retrying: number; failed: number };

/**
 * Delivers the messages that are due, in every firm: each is taken (status `sending`, committed
 * before anything is sent, so no other run or instance takes it again, and a crash between the
 * send and its record leaves it `sending`, never sent twice), sent, and settled. Without a sender
 * (no SMTP_URL) each is written to the log and kept. A message to a user disabled since it was
 * written, or who no longer has that address, fails without being sent.
 */
export async function deliverDueMail(options: {
  db: Database;
  sender: MailSender | undefined;
  log: Logger;
  now?: Date;
}): Promise<DeliveryResult> {
  const { db, sender, log } = options;
  const now = options.now ?? new Date();
  const result: DeliveryResult = { sent: 0, kept: 0, retrying: 0, failed: 0 };
  const { rows: due } = await inAnyScope(db).execute<{ firm_id: string; id: string }>(
    sql`select firm_id, id from mail_due(${now}, ${DELIVERY_BATCH})`,
  );
  for (const { firm_id: firmId, id } of due) {
    const firmDb = inFirm(db, firmId);
    const [taken] = await firmDb
      .update(mailOutbox)
      .set({ status: "sending", attempts: sql`${mailOutbox.attempts} + 1` })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "pending")))
      .returning();
    // Another run took it first.
    if (!taken) continue;
    const [recipient] = await firmDb
      .select({ email: users.email, disabledAt: users.disabledAt })
      .from(users)
      .where(and(eq(users.firmId, firmId), eq(users.id, taken.userId)));
    const reachable =
      recipient !== undefined &&
      recipient.disabledAt === null &&
      recipient.email?.toLowerCase() === taken.toAddress.toLowerCase();
    const outcome: SendOutcome | "kept" = !reachable
      ? { status: "permanent", reason: "The recipient is disabled or no longer has this address" }
      : sender
        ? await sender.send(outgoing(taken))
        : "kept";
    if (outcome === "kept") {
      log.info(
        { mail: taken.id, to: taken.toAddress, subject: taken.subject, text: taken.textBody },
        "mail kept in the outbox, not sent: no SMTP_URL is set",
      );
    } else if (outcome.status !== "sent") {
      const level = outcome.status === "permanent" ? "warn" : "info";
      log[level]({ mail: taken.id, to: taken.toAddress, reason: outcome.reason }, `mail refused (${outcome.status})`);
    }
    const settled = settle(outcome, taken.attempts, now);
    await firmDb.update(mailOutbox).set(settled).where(eq(mailOutbox.id, taken.id));
    result[settled.status === "pending" ? "retrying" : settled.status] += 1;
  }
  return result;
}

function outgoing(row: typeof mailOutbox.$inferSelect): OutgoingMail {
  return {
    messageId: `<${row.id}@tendwell.mail>`,
    to: { name: row.toName, address: row.toAddress },
    senderName: row.senderName,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    ...(row.unsubscribeUrl ? { unsubscribeUrl: row.unsubscribeUrl } : {}),
  };
}

/** A message's state after one try: done, waiting for the next try, or failed for good. */
function settle(outcome: SendOutcome | "kept", attempts: number, now: Date) {
  if (outcome === "kept") return { status: "kept" as const, settledAt: now, lastError: null };
  if (outcome.status === "sent") return { status: "sent" as const, settledAt: now, lastError: null };
  if (outcome.status === "temporary" && attempts < MAX_MAIL_ATTEMPTS) {
    const waitSeconds = RETRY_BASE_SECONDS * 2 ** (attempts - 1);
    return {
      status: "pending" as const,
      nextAttemptAt: new Date(now.getTime() + waitSeconds * 1000),
      lastError: outcome.reason,
    };
  }
  return { status: "failed" as const, settledAt: now, lastError: outcome.reason };
}
