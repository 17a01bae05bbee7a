import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { DEFAULT_DUE_SOON_DAYS, MORNING_MAIL_HOUR, type NotificationPreferences } from "../../../shared/notifications";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inAnyScope, inFirm } from "../../platform/db/firm-scope";
import { firms, morningMailRuns, notificationPreferences, users } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { composeMail } from "../../platform/mail/compose";
import { queueMail } from "../../platform/mail/outbox";
import type { SealingKey } from "../../platform/sealed-secrets";
import type { Actor } from "../../tenancy/actor";
import { readUnsubscribeToken, unsubscribeToken } from "./unsubscribe-token";

const mine = (who: { firmId: string; userId: string }) =>
  and(eq(notificationPreferences.firmId, who.firmId), eq(notificationPreferences.userId, who.userId));

/** GET /api/account/notification-preferences: the user's choices, the defaults where unset. */
export async function myNotificationPreferences(options: {
  db: Database;
  actor: Actor;
}): Promise<NotificationPreferences> {
  const [row] = await options.db
    .select({ dueSoonDays: notificationPreferences.dueSoonDays })
    .from(notificationPreferences)
    .where(mine(options.actor));
  return { dueSoonDays: row ? row.dueSoonDays : DEFAULT_DUE_SOON_DAYS };
}

/** PUT /api/account/notification-preferences: replaces the user's choices. */
export async function setNotificationPreferences(options: {
  db: Database;
  actor: Actor;
  input: NotificationPreferences;
}): Promise<NotificationPreferences> {
  await savePreferences(options.db, options.actor, options.input);
  return options.input;
}

async function savePreferences(
  db: DbExecutor,
  who: { firmId: string; userId: string },
  input: NotificationPreferences,
) {
  await db
    .insert(notificationPreferences)
    .values({ firmId: who.firmId, userId: who.userId, dueSoonDays: input.dueSoonDays })
    .onConflictDoUpdate({
      target: [notificationPreferences.firmId, notificationPreferences.userId],
      set: { dueSoonDays: input.dueSoonDays, updatedAt: new Date() },
    });
}

/**
 * POST /api/unsubscribe/{token}: one click in a mail program (RFC 8058) turns off what the signed
 * address names, without a sign-in. Repeating it changes nothing more; an address this server did
 * not sign, or whose user is gone, is "not found".
 */
export async function unsubscribe(options: { db: Database; key: SealingKey; token: string }) {
  const found = readUnsubscribeToken(options.key, options.token);
  if (!found) throw new AppError("NOT_FOUND", "Unsubscribe link not found");
  const db = inFirm(options.db, found.firmId);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.firmId, found.firmId), eq(users.id, found.userId)));
  if (!user) throw new AppError("NOT_FOUND", "Unsubscribe link not found");
  await savePreferences(db, found, { dueSoonDays: null });
  return { unsubscribed: found.topic };
}

type DueTaskRow = { id: string; title: string; client_name: string };

/**
 * A user's open tasks falling due on one calendar date of the firm's zone, on the live clients
 * assigned to them (the calendar feed's tasks): each client's range of the open-task index.
 */
async function tasksDueOn(
  tx: DbExecutor,
  who: { firmId: string; userId: string },
  dueDay: string,
  timeZone: string,
): Promise<DueTaskRow[]> {
  const { rows } = await tx.execute<DueTaskRow>(sql`
    select t.id, t.name as title, c.name as client_name
    from user_clients uc
    join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
    join tasks t on t.firm_id = uc.firm_id and t.client_id = uc.client_id
    where uc.firm_id = ${who.firmId} and uc.user_id = ${who.userId} and t.status = 'pending'
      and t.due_date >= (${dueDay}::date::timestamp at time zone ${timeZone})
      and t.due_date < ((${dueDay}::date + 1)::timestamp at time zone ${timeZone})
    order by c.name, t.name, t.id`);
  return rows;
}

/** The calendar date `days` after an ISO date (YYYY-MM-DD). */
function isoDatePlus(isoDate: string, days: number): string {
  const [year = 0, month = 1, day = 1] = isoDate.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** "Monday, 30 November": how a reminder names a date. */
const spokenDate = (isoDate: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

/**
 * The morning's reminders of every firm whose morning has come (its local time at or past
 * MORNING_MAIL_HOUR): once a firm's local date, whatever the number of sweeps or instances, one
 * message per user listing their open tasks due their chosen number of days later (decision
 * 0050). A firm whose morning passed while no instance ran gets it at the next sweep that day.
 */
export async function queueMorningReminders(options: {
  db: Database;
  key: SealingKey;
  appOrigin: string;
  now?: Date;
}): Promise<{ firms: number; messages: number }> {
  const now = options.now ?? new Date();
  const { rows: due } = await inAnyScope(options.db).execute<{ firm_id: string; local_date: string }>(
    sql`select firm_id, local_date::text as local_date from firms_due_for_morning_mail(${now}, ${MORNING_MAIL_HOUR})`,
  );
  let messages = 0;
  for (const { firm_id: firmId, local_date: localDate } of due) {
    messages += await inFirm(options.db, firmId).transaction(async (tx) => {
      const [run] = await tx
        .insert(morningMailRuns)
        .values({ firmId, localDate })
        .onConflictDoNothing()
        .returning({ firmId: morningMailRuns.firmId });
      // Another sweep took this morning first.
      if (!run) return 0;
      return queueFirmReminders(tx, { ...options, firmId, localDate });
    });
  }
  return { firms: due.length, messages };
}

async function queueFirmReminders(
  tx: DbExecutor,
  options: { key: SealingKey; appOrigin: string; firmId: string; localDate: string },
): Promise<number> {
  const { firmId, localDate } = options;
  const recipients = await tx
    .select({
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      firmName: firms.name,
      timeZone: firms.timeZone,
      chosen: notificationPreferences.userId,
      dueSoonDays: notificationPreferences.dueSoonDays,
    })
    .from(users)
    .innerJoin(firms, eq(firms.id, users.firmId))
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.firmId, users.firmId), eq(notificationPreferences.userId, users.id)),
    )
    .where(and(eq(users.firmId, firmId), isNull(users.disabledAt), isNotNull(users.email)));
  let queued = 0;
  for (const recipient of recipients) {
    const days = recipient.chosen === null ? DEFAULT_DUE_SOON_DAYS : recipient.dueSoonDays;
    if (days === null || !recipient.email) continue;
    const dueDay = isoDatePlus(localDate, days);
    const tasks = await tasksDueOn(tx, { firmId, userId: recipient.userId }, dueDay, recipient.timeZone);
    if (tasks.length === 0) continue;
    const when = spokenDate(dueDay);
    const subject = tasks.length === 1 ? `Due ${when}: ${tasks[0]?.title}` : `${tasks.length} tasks due ${when}`;
    const token = unsubscribeToken(options.key, { firmId, userId: recipient.userId, topic: "due_soon" });
    const content = composeMail({
      greeting: `Hello ${recipient.fullName},`,
      paragraphs: [
        `${tasks.length === 1 ? "This task falls" : "These tasks fall"} due on ${when}, in ${days} ${days === 1 ? "day" : "days"}:`,
        ...tasks.map((task) => `• ${task.title} — ${task.client_name}`),
        `Open Tendwell: ${options.appOrigin}/tasks`,
      ],
      footer:
        `You receive this because reminders are on for your account at ${recipient.firmName}. ` +
        `Change them in Settings (${options.appOrigin}/settings), or use your mail program's Unsubscribe to stop them.`,
    });
    await queueMail(tx, {
      firmId,
      userId: recipient.userId,
      dedupeKey: `due-soon:${recipient.userId}:${dueDay}`,
      kind: "due_soon",
      to: { name: recipient.fullName, address: recipient.email },
      senderName: recipient.firmName,
      subject,
      ...content,
      unsubscribeUrl: `${options.appOrigin}/api/unsubscribe/${token}`,
    });
    queued += 1;
  }
  return queued;
}
