import { z } from "zod";
import "./validation";

/*
 * What e-mail a user receives besides security notices, which always go (decision 0050): a
 * reminder each morning of the tasks falling due a chosen number of days later. Unset
 * preferences read as the defaults below.
 */

/** The days before a task's due date that its reminder goes, unless the user chose otherwise. */
export const DEFAULT_DUE_SOON_DAYS = 3;
export const MAX_DUE_SOON_DAYS = 14;
/** The firm's local time from which its morning's reminders go. */
export const MORNING_MAIL_HOUR = 8;

/** How often a digest of the user's work arrives: never, each morning, or on Monday mornings. */
export const digestFrequencies = ["off", "daily", "weekly"] as const;
export type DigestFrequency = (typeof digestFrequencies)[number];

/** GET and PUT /api/account/notification-preferences. */
export const notificationPreferencesSchema = z.strictObject({
  /** Days before a due date to be reminded of it; null: no reminders. */
  dueSoonDays: z
    .number({ error: "dueSoonDays must be a whole number of days from 1 to 14, or null" })
    .int("dueSoonDays must be a whole number of days from 1 to 14, or null")
    .min(1, "dueSoonDays must be a whole number of days from 1 to 14, or null")
    .max(MAX_DUE_SOON_DAYS, "dueSoonDays must be a whole number of days from 1 to 14, or null")
    .nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** The secret of a one-click unsubscribe address: a signed text, base64url. */
export const unsubscribeTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{44}\.[A-Za-z0-9_-]{22}$/, "Unsubscribe link not found")
  .describe("The signed secret of an unsubscribe address, as a reminder's List-Unsubscribe header gives it");

/** POST /api/unsubscribe/{token}: what was turned off. */
export const unsubscribedSchema = z.object({ unsubscribed: z.literal("due_soon") });
