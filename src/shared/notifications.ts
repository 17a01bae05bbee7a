import { z } from "zod";
import "./validation";

/*
 * What e-mail a user receives besides security notices, which always go (decisions 0050, 0052):
 * each morning, a reminder of the tasks falling due a chosen number of days later and an alert
 * of those that fell due the day before and are still open; and, if they choose, a digest of
 * their work every morning or on Monday mornings. Unset preferences read as the defaults below.
 */

/** The days before a task's due date that its reminder goes, unless the user chose otherwise. */
export const DEFAULT_DUE_SOON_DAYS = 3;
export const MAX_DUE_SOON_DAYS = 14;
/** The firm's local time from which its morning's reminders go. */
export const MORNING_MAIL_HOUR = 8;

/** How often a digest of the user's work arrives: never, each morning, or on Monday mornings. */
export const digestFrequencies = ["off", "daily", "weekly"] as const;
export type DigestFrequency = (typeof digestFrequencies)[number];

const digestMessage = 'digest must be "off", "daily" or "weekly"';

/** GET and PUT /api/account/notification-preferences. */
export const notificationPreferencesSchema = z.strictObject({
  /** Days before a due date to be reminded of it; null: no reminders. */
  dueSoonDays: z
    .number({ error: "dueSoonDays must be a whole number of days from 1 to 14, or null" })
    .int("dueSoonDays must be a whole number of days from 1 to 14, or null")
    .min(1, "dueSoonDays must be a whole number of days from 1 to 14, or null")
    .max(MAX_DUE_SOON_DAYS, "dueSoonDays must be a whole number of days from 1 to 14, or null")
    .nullable(),
  /** An alert the morning after a task of mine fell due and was not signed off. */
  overdueAlerts: z.boolean({ error: "overdueAlerts must be true or false" }),
  /** A digest of my work: never, every morning, or on Monday mornings. */
  digest: z.enum(digestFrequencies, { error: digestMessage }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const defaultNotificationPreferences: NotificationPreferences = {
  dueSoonDays: DEFAULT_DUE_SOON_DAYS,
  overdueAlerts: true,
  digest: "off",
};

/** What one unsubscribe address turns off: each kind of message carries its own. */
export const unsubscribeTopics = ["due_soon", "overdue", "digest"] as const;
export type UnsubscribeTopic = (typeof unsubscribeTopics)[number];

/** The secret of a one-click unsubscribe address: a signed text, base64url (44 characters before it carried its time). */
export const unsubscribeTokenSchema = z
  .string()
  .regex(/^(?:[A-Za-z0-9_-]{44}|[A-Za-z0-9_-]{50})\.[A-Za-z0-9_-]{22}$/, "Unsubscribe link not found")
  .describe("The signed secret of an unsubscribe address, as a reminder's List-Unsubscribe header gives it");

/** POST /api/unsubscribe/{token}: what was turned off. */
export const unsubscribedSchema = z.object({ unsubscribed: z.enum(unsubscribeTopics) });

/**
 * GET /api/unsubscribe/{token}: what the address would turn off, for the page a person reaches by
 * following the link (a GET changes nothing: mail scanners follow links), and whether it is on.
 */
export const unsubscribeOfferSchema = z.object({
  topic: z.enum(unsubscribeTopics),
  firmName: z.string(),
  subscribed: z.boolean(),
});
export type UnsubscribeOffer = z.infer<typeof unsubscribeOfferSchema>;
