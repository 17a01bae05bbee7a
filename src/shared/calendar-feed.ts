import { z } from "zod";
import "./validation";

/*
 * A user's calendar feed (decision 0047): a secret address serving the open tasks of the clients
 * assigned to the user as all-day events, for a calendar app to subscribe to. Settings shows the
 * address, hides client names in it on request, replaces it and turns it off; the address itself
 * reaches nothing but the feed.
 */

/** Open tasks due this many days ago at the earliest are in the feed: older overdue work is left out. */
export const FEED_DAYS_BEFORE = 90;
/** ...and this many days ahead at the latest: a recurring task's far periods are left out. */
export const FEED_DAYS_AHEAD = 400;
/** At most this many events, the earliest due first: a calendar app reads the whole feed at every refresh. */
export const FEED_MAX_EVENTS = 2000;
/** How often a calendar app is asked to fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const FEED_REFRESH_MINUTES = 60;

/**
 * The secret of a feed's address: 32 random bytes in base64url, 43 characters. A path segment
 * that cannot be one is answered like an unknown feed (404).
 */
export const calendarFeedTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, "Calendar feed not found")
  .describe("The feed's secret, as its address in Settings gives it");

/** The signed-in user's feed, as Settings shows it. */
export const calendarFeedSchema = z.object({
  /**
   * The address to subscribe to; null when the server can no longer read it back (its sealing
   * key changed): a new address then has to be made.
   */
  url: z.string().nullable(),
  /** Private mode: events name the task only, never its client. */
  hideClientNames: z.boolean(),
  /** When the current address was made (by creating the feed or replacing its address). */
  addressCreatedAt: z.iso.datetime(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** GET /api/account/calendar-feed: the user's feed, or null when they have none. */
export const myCalendarFeedSchema = z.object({ feed: calendarFeedSchema.nullable() });
export type MyCalendarFeed = z.infer<typeof myCalendarFeedSchema>;

const hideClientNames = z.boolean({ error: "hideClientNames must be true or false" });

/** POST /api/account/calendar-feed: a new feed, with client names shown unless asked otherwise. */
export const createCalendarFeedSchema = z.strictObject({ hideClientNames: hideClientNames.default(false) });
export type CreateCalendarFeedInput = z.infer<typeof createCalendarFeedSchema>;

/** PUT /api/account/calendar-feed: the feed's settings; the address stays. */
export const updateCalendarFeedSchema = z.strictObject({ hideClientNames });
export type UpdateCalendarFeedInput = z.infer<typeof updateCalendarFeedSchema>;
