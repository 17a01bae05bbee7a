import { and, eq, isNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import {
  type CalendarFeed,
  type CreateCalendarFeedInput,
  FEED_DAYS_AHEAD,
  FEED_DAYS_BEFORE,
  FEED_MAX_EVENTS,
  type MyCalendarFeed,
  type UpdateCalendarFeedInput,
} from "../../../shared/calendar-feed";
import { addDays } from "../../../shared/dates";
import type { TaskPriority } from "../../../shared/tasks";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inAnyScope, inFirm } from "../../platform/db/firm-scope";
import { preparedSql } from "../../platform/db/prepared";
import { calendarFeeds, firms, users } from "../../platform/db/schema";
import { AppError, uniqueViolation } from "../../platform/errors";
import { type SealingKey, seal, unseal } from "../../platform/sealed-secrets";
import { hashToken, newToken } from "../../platform/tokens";
import type { Actor } from "../../tenancy/actor";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { calendarDocument, feedCalendarName } from "./calendar-document";

/*
 * A user's calendar feed (decision 0047). Settings makes, shows, changes, replaces and turns off
 * the signed-in user's own feed; a calendar app reads it with the secret of its address and
 * nothing else: the secret finds the feed's firm through the database's firm_of_calendar_feed, run
 * as the tables' owner, and everything after is read in that firm, as a sign-in is.
 *
 * The feed holds the open tasks, with a due date, of the live clients assigned to the user (a
 * user's work, as their profile counts it: S-EDGE-03), whatever their role.
 */

/** The secret's sealed copy opens only in its own feed's row. */
export const feedSealOwner = (feedId: string) => `calendar-feed:${feedId}`;

/** Where a feed is read, under the app's public origin. */
const feedPath = (token: string) => `/api/calendar-feeds/${token}.ics`;

const noFeed = () => new AppError("NOT_FOUND", "You have no calendar feed");
const feedNotFound = () => new AppError("NOT_FOUND", "Calendar feed not found");

const mine = (actor: Pick<Actor, "firmId" | "userId">) =>
  and(eq(calendarFeeds.firmId, actor.firmId), eq(calendarFeeds.userId, actor.userId));

type FeedRow = typeof calendarFeeds.$inferSelect;

/** A feed as Settings shows it; its address only if its sealed secret still opens (the same key). */
function toCalendarFeed(row: FeedRow, key: SealingKey, appOrigin: string): CalendarFeed {
  let url: string | null = null;
  try {
    url = `${appOrigin}${feedPath(unseal(key, row.tokenSealed, feedSealOwner(row.id)))}`;
  } catch {
    // Sealed under another key: the address cannot be shown again, only replaced.
  }
  return { url, hideClientNames: row.hideClientNames, addressCreatedAt: row.addressCreatedAt.toISOString() };
}

/** A new secret for a feed's address: its hash to find it by, and its sealed copy to show it by. */
function newAddress(key: SealingKey, feedId: string) {
  const token = newToken();
  return { tokenHash: hashToken(token), tokenSealed: seal(key, token, feedSealOwner(feedId)) };
}

/** The user's feed, locked for a change in `tx`. */
async function lockedFeed(tx: DbExecutor, actor: Actor): Promise<FeedRow> {
  const [row] = await tx.select().from(calendarFeeds).where(mine(actor)).for("update");
  if (!row) throw noFeed();
  return row;
}

/** GET /api/account/calendar-feed. */
export async function myCalendarFeed(options: {
  db: Database;
  key: SealingKey;
  actor: Actor;
  appOrigin: string;
}): Promise<MyCalendarFeed> {
  const [row] = await options.db.select().from(calendarFeeds).where(mine(options.actor));
  return { feed: row ? toCalendarFeed(row, options.key, options.appOrigin) : null };
}

/** POST /api/account/calendar-feed: the user's feed, at a new secret address. One per user. */
export async function createCalendarFeed(options: {
  db: Database;
  key: SealingKey;
  actor: Actor;
  appOrigin: string;
  input: CreateCalendarFeedInput;
}): Promise<CalendarFeed> {
  const { db, key, actor, input } = options;
  const alreadyOne = () => new AppError("CONFLICT", "You already have a calendar feed");
  const created = await db
    .transaction(async (tx) => {
      const [existing] = await tx.select({ id: calendarFeeds.id }).from(calendarFeeds).where(mine(actor));
      if (existing) throw alreadyOne();
      const id = uuidv7();
      const [row] = await tx
        .insert(calendarFeeds)
        .values({
          id,
          firmId: actor.firmId,
          userId: actor.userId,
          hideClientNames: input.hideClientNames,
          ...newAddress(key, id),
        })
        .returning();
      if (!row) throw new Error("the calendar feed was not inserted");
      await recordAudit(tx, actor, {
        action: "calendar_feed.created",
        entityType: "user",
        entityId: actor.userId,
        after: { hideClientNames: row.hideClientNames },
      });
      return row;
    })
    .catch((error: unknown) => {
      // Two creates at once: the second meets the first's row at the unique index.
      if (uniqueViolation(error) === "calendar_feeds_firm_id_user_id_key") throw alreadyOne();
      throw error;
    });
  return toCalendarFeed(created, key, options.appOrigin);
}

/** PUT /api/account/calendar-feed: private mode on or off; the address stays. */
export async function updateCalendarFeed(options: {
  db: Database;
  key: SealingKey;
  actor: Actor;
  appOrigin: string;
  input: UpdateCalendarFeedInput;
}): Promise<CalendarFeed> {
  const { db, actor, input } = options;
  const row = await db.transaction(async (tx) => {
    const feed = await lockedFeed(tx, actor);
    if (feed.hideClientNames === input.hideClientNames) return feed;
    const [updated] = await tx
      .update(calendarFeeds)
      .set({ hideClientNames: input.hideClientNames })
      .where(and(mine(actor), eq(calendarFeeds.id, feed.id)))
      .returning();
    if (!updated) throw noFeed();
    await recordAudit(tx, actor, {
      action: "calendar_feed.updated",
      entityType: "user",
      entityId: actor.userId,
      before: { hideClientNames: feed.hideClientNames },
      after: { hideClientNames: updated.hideClientNames },
    });
    return updated;
  });
  return toCalendarFeed(row, options.key, options.appOrigin);
}

/** POST /api/account/calendar-feed/regenerate: a new secret address; the old one answers 404 from now on. */
export async function replaceCalendarFeedAddress(options: {
  db: Database;
  key: SealingKey;
  actor: Actor;
  appOrigin: string;
}): Promise<CalendarFeed> {
  const { db, key, actor } = options;
  const row = await db.transaction(async (tx) => {
    const feed = await lockedFeed(tx, actor);
    const [replaced] = await tx
      .update(calendarFeeds)
      .set({ ...newAddress(key, feed.id), addressCreatedAt: new Date() })
      .where(and(mine(actor), eq(calendarFeeds.id, feed.id)))
      .returning();
    if (!replaced) throw noFeed();
    await recordAudit(tx, actor, {
      action: "calendar_feed.address_replaced",
      entityType: "user",
      entityId: actor.userId,
    });
    return replaced;
  });
  return toCalendarFeed(row, key, options.appOrigin);
}

/** DELETE /api/account/calendar-feed: the feed is gone, and its address answers 404. */
export async function revokeCalendarFeed(options: { db: Database; actor: Actor }): Promise<void> {
  const { db, actor } = options;
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(calendarFeeds)
      .where(mine(actor))
      .returning({ hideClientNames: calendarFeeds.hideClientNames });
    if (!removed) throw noFeed();
    await recordAudit(tx, actor, {
      action: "calendar_feed.revoked",
      entityType: "user",
      entityId: actor.userId,
      before: { hideClientNames: removed.hideClientNames },
    });
  });
}

/**
 * The firm a feed's secret belongs to, if any: the database's `firm_of_calendar_feed` answers it
 * as the tables' owner, so the app role itself never reads across firms (decision 0033).
 */
async function firmOfCalendarFeed(db: Database, tokenHash: string): Promise<string | undefined> {
  const { rows } = await inAnyScope(db).execute<{ firm_id: string | null }>(
    sql`select firm_of_calendar_feed(${tokenHash}) as firm_id`,
  );
  return rows[0]?.firm_id ?? undefined;
}

type FeedTaskRow = {
  id: string;
  title: string;
  priority: TaskPriority;
  client_id: string;
  client_name: string;
  due_day: string;
  changed_at: Date;
};

/**
 * A user's open tasks with a due date in the feed's window, on the live clients assigned to them,
 * the earliest due first: each client's range of the (firm, client, due date) index of open
 * tasks, so the read grows with the user's own clients, never with the firm. The due date is the
 * calendar date it falls on in the firm's zone ($3).
 */
const feedTasks = preparedSql<FeedTaskRow>(
  "calendar_feed_tasks",
  `select t.id, t.name as title, t.priority, t.client_id, c.name as client_name,
          to_char(t.due_date at time zone $3, 'YYYY-MM-DD') as due_day,
          greatest(t.updated_at, c.updated_at) as changed_at
   from user_clients uc
   join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
   join tasks t on t.firm_id = uc.firm_id and t.client_id = uc.client_id
   where uc.firm_id = $1 and uc.user_id = $2 and t.status = 'pending'
     and t.due_date >= $4::timestamptz and t.due_date < $5::timestamptz
   order by t.due_date, t.id
   limit $6`,
);

/**
 * GET /api/calendar-feeds/{token}.ics: the feed's text. An unknown or replaced secret, a feed
 * turned off and a disabled user's feed are all "not found", alike.
 */
export async function calendarFeedText(options: {
  db: Database;
  token: string;
  appOrigin: string;
  now?: Date;
}): Promise<string> {
  const { token, now = new Date() } = options;
  const tokenHash = hashToken(token);
  const firmId = await firmOfCalendarFeed(options.db, tokenHash);
  if (firmId === undefined) throw feedNotFound();
  const db = inFirm(options.db, firmId);
  const [feed] = await db
    .select({
      userId: calendarFeeds.userId,
      hideClientNames: calendarFeeds.hideClientNames,
      fullName: users.fullName,
      firmName: firms.name,
      timeZone: firms.timeZone,
    })
    .from(calendarFeeds)
    .innerJoin(users, and(eq(users.firmId, calendarFeeds.firmId), eq(users.id, calendarFeeds.userId)))
    .innerJoin(firms, eq(firms.id, calendarFeeds.firmId))
    .where(and(eq(calendarFeeds.firmId, firmId), eq(calendarFeeds.tokenHash, tokenHash), isNull(users.disabledAt)));
  if (!feed) throw feedNotFound();
  const rows = await feedTasks(db, [
    firmId,
    feed.userId,
    feed.timeZone,
    addDays(now, -FEED_DAYS_BEFORE),
    addDays(now, FEED_DAYS_AHEAD),
    FEED_MAX_EVENTS,
  ]);
  return calendarDocument({
    name: feedCalendarName(feed.fullName, feed.firmName),
    hideClientNames: feed.hideClientNames,
    appOrigin: options.appOrigin,
    tasks: rows.map((row) => ({
      id: row.id,
      title: row.title,
      priority: row.priority,
      clientId: row.client_id,
      clientName: row.client_name,
      dueDay: row.due_day,
      changedAt: row.changed_at,
    })),
  });
}
