import { z } from "zod";
import "./validation";

/*
 * The firm's outgoing e-mail as the outbox holds it (decision 0049), for its super admins: what
 * was sent, kept, is waiting or failed, and whether this server sends mail at all.
 * GET /api/mail-outbox?status=&cursor= answers the newest messages first, 50 a page, with
 * `x-next-cursor` when more follow (src/shared/paging.ts).
 */

/** What a message is about; the outbox's `kind` (src/server/platform/db/schema.ts mailKinds). */
export const mailKinds = ["security_notice", "due_soon", "overdue", "digest"] as const;
export type MailKind = (typeof mailKinds)[number];

/** Where a message stands: waiting for a try, taken by one, or settled (sent, kept or failed). */
export const mailStatuses = ["pending", "sending", "sent", "kept", "failed"] as const;
export type MailStatus = (typeof mailStatuses)[number];

/** Messages a page holds. */
export const MAIL_OUTBOX_PAGE_SIZE = 50;

/** Days a settled message (sent, kept or failed) stays in the outbox before housekeeping removes it. */
export const MAIL_RETENTION_DAYS = 90;

export const mailOutboxQuerySchema = z.strictObject({
  status: z
    .enum(mailStatuses, { error: `status must be one of ${mailStatuses.join(", ")}` })
    .optional()
    .describe("Only the messages in this state"),
  cursor: z.string().max(200, "Invalid cursor").optional(),
});
export type MailOutboxQuery = z.infer<typeof mailOutboxQuerySchema>;

export const outboxMessageSchema = z.object({
  id: z.uuid(),
  kind: z.enum(mailKinds),
  to: z.object({ name: z.string(), address: z.string() }),
  subject: z.string(),
  status: z.enum(mailStatuses),
  /** Tries so far (a kept message counts its one). */
  attempts: z.number().int(),
  /** When a waiting message is next tried; null once it is taken or settled. */
  nextAttemptAt: z.iso.datetime().nullable(),
  /** The SMTP server's last refusal, or why the message was not sent; null when none. */
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** When it was sent, kept or failed; null while it waits or is being sent. */
  settledAt: z.iso.datetime().nullable(),
  /** The plain-text part, as the recipient reads it. */
  text: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/**
 * A page of the outbox, and how this server delivers mail: "smtp" when SMTP_URL is set, "kept"
 * when it is not (each message is then kept in the outbox and written to the log, never sent).
 */
export const mailOutboxPageSchema = z.object({
  delivery: z.enum(["smtp", "kept"]),
  messages: z.array(outboxMessageSchema),
});
export type MailOutboxPage = z.infer<typeof mailOutboxPageSchema>;
