import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import {
  type DigestFrequency,
  defaultNotificationPreferences,
  MORNING_MAIL_HOUR,
  type NotificationPreferences,
  type UnsubscribeOffer,
  type UnsubscribeTopic,
} from "../../../shared/notifications";
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

const chosen = {
  dueSoonDays: notificationPreferences.dueSoonDays,
  overdueAlerts: notificationPreferences.overdueAlerts,
  digest: notificationPreferences.digest,
};

/** A user's choices as read through a left join: no row (nulls) reads as the defaults. */
function choicesOf(row: {
  dueSoonDays: number | null;
  overdueAlerts: boolean | null;
  digest: DigestFrequency | null;
}): NotificationPreferences {
  const { dueSoonDays, overdueAlerts, digest } = row;
  return overdueAlerts === null || digest === null
    ? defaultNotificationPreferences
    : { dueSoonDays, overdueAlerts, digest };
}

/** GET /api/account/notification-preferences: the user's choices, the defaults where unset. */
export async function myNotificationPreferences(options: {
  db: Database;
  actor: Actor;
}): Promise<NotificationPreferences> {
  const [row] = await options.db.select(chosen).from(notificationPreferences).where(mine(options.actor));
  return row ?? defaultNotificationPreferences;
}

/** PUT /api/account/notification-preferences: replaces the user's choices. */
export async function setNotificationPreferences(options: {
  db: Database;
  actor: Actor;
  input: NotificationPreferences;
  /** When the choice is made: unsubscribe addresses made before it stop working (readUnsubscription). */
  now: Date;
}): Promise<NotificationPreferences> {
  const { firmId, userId } = options.actor;
  await options.db
    .insert(notificationPreferences)
    .values({ firmId, userId, ...options.input, updatedAt: options.now })
    .onConflictDoUpdate({
      target: [notificationPreferences.firmId, notificationPreferences.userId],
      set: { ...options.input, updatedAt: options.now },
    });
  return options.input;
}

/** The preference each kind of message's unsubscribe address turns off. */
const turnedOff: Record<UnsubscribeTopic, Partial<NotificationPreferences>> = {
  due_soon: { dueSoonDays: null },
  overdue: { overdueAlerts: false },
  digest: { digest: "off" },
};

const isOn = (topic: UnsubscribeTopic, preferences: NotificationPreferences) =>
  topic === "due_soon"
    ? preferences.dueSoonDays !== null
    : topic === "overdue"
      ? preferences.overdueAlerts
      : preferences.digest !== "off";

/** The firm, user and current choices a signed unsubscribe address names; 404 when none. */
/** How long an unsubscribe address works after the message that carries it was made. */
export const UNSUBSCRIBE_LINK_DAYS = 365;

/**
 * What an unsubscribe address names, if it still works (decision 0055): it stops a year after its
 * message was made (an address made before addresses carried that time has stopped), and, while
 * its kind of message is on, once the person changed their choices after the message was made:
 * an old message must not undo their turning it back on. A kind already off needs no working
 * address to say so. Such an address is refused with 410.
 */
async function readUnsubscription(db: Database, key: SealingKey, token: string, now: Date) {
  const found = readUnsubscribeToken(key, token);
  if (!found) throw new AppError("NOT_FOUND", "Unsubscribe link not found");
  const scoped = inFirm(db, found.firmId);
  const [user] = await scoped
    .select({ firmName: firms.name, changedAt: notificationPreferences.updatedAt, ...chosen })
    .from(users)
    .innerJoin(firms, eq(firms.id, users.firmId))
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.firmId, users.firmId), eq(notificationPreferences.userId, users.id)),
    )
    .where(and(eq(users.firmId, found.firmId), eq(users.id, found.userId)));
  if (!user) throw new AppError("NOT_FOUND", "Unsubscribe link not found");
  const current = choicesOf(user);
  const { issuedAt } = found;
  // The address's time is a whole second: a change counts as later from the next second on.
  const changedSince =
    issuedAt !== null && user.changedAt !== null && user.changedAt.getTime() >= issuedAt.getTime() + 1000;
  if (
    issuedAt === null ||
    now.getTime() - issuedAt.getTime() > UNSUBSCRIBE_LINK_DAYS * 86_400_000 ||
    (changedSince && isOn(found.topic, current))
  ) {
    throw new AppError("LINK_EXPIRED", "This unsubscribe link has expired");
  }
  return { db: scoped, found, firmName: user.firmName, current };
}

/**
 * GET /api/unsubscribe/{token}: what the address would turn off, for the page its link opens.
 * It changes nothing: mail scanners fetch links, and only a POST unsubscribes (RFC 8058).
 */
export async function unsubscribeOffer(options: {
  db: Database;
  key: SealingKey;
  token: string;
  now: Date;
}): Promise<UnsubscribeOffer> {
  const { found, firmName, current } = await readUnsubscription(options.db, options.key, options.token, options.now);
  return { topic: found.topic, firmName, subscribed: isOn(found.topic, current) };
}

/**
 * POST /api/unsubscribe/{token}: one click in a mail program (RFC 8058), or the button on the
 * link's page, turns off what the signed address names (and only that), without a sign-in.
 * Repeating it changes nothing more; an address this server did not sign, or whose user is gone,
 * is "not found", and one that no longer works is refused (readUnsubscription).
 */
export async function unsubscribe(options: { db: Database; key: SealingKey; token: string; now: Date }) {
  const { db, found, current } = await readUnsubscription(options.db, options.key, options.token, options.now);
  const changed = { ...current, ...turnedOff[found.topic] };
  await db
    .insert(notificationPreferences)
    .values({ firmId: found.firmId, userId: found.userId, ...changed, updatedAt: options.now })
    .onConflictDoUpdate({
      target: [notificationPreferences.firmId, notificationPreferences.userId],
      set: { ...turnedOff[found.topic], updatedAt: options.now },
    });
  return { unsubscribed: found.topic };
}

type TaskLine = { title: string; client_name: string };
type Recipient = {
  firmId: string;
  userId: string;
  email: string;
  fullName: string;
  firmName: string;
  timeZone: string;
};

/** The instant a calendar date of the firm's zone begins. */
const dayStart = (isoDate: string, timeZone: string) => sql`(${isoDate}::date::timestamp at time zone ${timeZone})`;

/**
 * A user's open tasks due from one calendar date of the firm's zone (or ever before) up to another,
 * on the live clients assigned to them (the calendar feed's tasks), at most `limit` of them, with
 * how many there are: each client's range of the open-task index.
 */
async function openTasksDue(
  tx: DbExecutor,
  who: Recipient,
  range: { from?: string; until: string },
  limit: number,
): Promise<{ tasks: TaskLine[]; total: number }> {
  const { rows } = await tx.execute<TaskLine & { total: number }>(sql`
    select t.name as title, c.name as client_name, count(*) over ()::int as total
    from user_clients uc
    join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
    join tasks t on t.firm_id = uc.firm_id and t.client_id = uc.client_id
    where uc.firm_id = ${who.firmId} and uc.user_id = ${who.userId} and t.status = 'pending'
      and t.due_date >= ${range.from ? dayStart(range.from, who.timeZone) : sql`'-infinity'`}
      and t.due_date < ${dayStart(range.until, who.timeZone)}
    order by t.due_date, c.name, t.name, t.id
    limit ${limit}`);
  return { tasks: rows, total: rows[0]?.total ?? 0 };
}

/** How many tasks the user signed off from one calendar date of the firm's zone to another. */
async function signedOffBetween(tx: DbExecutor, who: Recipient, from: string, until: string): Promise<number> {
  const { rows } = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from tasks
    where firm_id = ${who.firmId} and completed_by = ${who.userId}
      and completed_at >= ${dayStart(from, who.timeZone)} and completed_at < ${dayStart(until, who.timeZone)}`);
  return rows[0]?.n ?? 0;
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
      return queueFirmReminders(tx, { key: options.key, appOrigin: options.appOrigin, now, firmId, localDate });
    });
  }
  return { firms: due.length, messages };
}

/** Tasks a message lists by name; beyond them it says how many more. */
const LISTED_TASKS = 20;

const taskLines = ({ tasks, total }: { tasks: TaskLine[]; total: number }) => [
  ...tasks.map((task) => `• ${task.title} — ${task.client_name}`),
  ...(total > tasks.length ? [`…and ${total - tasks.length} more`] : []),
];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The day of the week of an ISO date, 1 (Monday) to 7. */
const isoWeekday = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`).getUTCDay() || 7;

type Morning = { key: SealingKey; appOrigin: string; localDate: string; now: Date };

/** One message of the morning for a recipient, with the unsubscribe address of its topic. */
async function queueMorningMail(
  tx: DbExecutor,
  morning: Morning,
  recipient: Recipient,
  message: { topic: UnsubscribeTopic; dedupeKey: string; subject: string; paragraphs: string[]; why: string },
) {
  const token = unsubscribeToken(morning.key, { ...recipient, topic: message.topic }, morning.now);
  const content = composeMail({
    greeting: `Hello ${recipient.fullName},`,
    paragraphs: [...message.paragraphs, `Open Tendwell: ${morning.appOrigin}/tasks`],
    footer:
      `You receive this because ${message.why} on for your account at ${recipient.firmName}. ` +
      `Change them in Settings (${morning.appOrigin}/settings), or stop them: ${morning.appOrigin}/unsubscribe/${token}`,
  });
  await queueMail(tx, {
    firmId: recipient.firmId,
    userId: recipient.userId,
    dedupeKey: message.dedupeKey,
    kind: message.topic,
    to: { name: recipient.fullName, address: recipient.email },
    senderName: recipient.firmName,
    subject: message.subject,
    ...content,
    unsubscribeUrl: `${morning.appOrigin}/api/unsubscribe/${token}`,
  });
}

/** The reminder of the open tasks due `days` after the morning's date; false when there are none. */
async function queueDueSoon(tx: DbExecutor, morning: Morning, recipient: Recipient, days: number) {
  const dueDay = isoDatePlus(morning.localDate, days);
  const due = await openTasksDue(tx, recipient, { from: dueDay, until: isoDatePlus(dueDay, 1) }, LISTED_TASKS);
  if (due.total === 0) return false;
  const when = spokenDate(dueDay);
  await queueMorningMail(tx, morning, recipient, {
    topic: "due_soon",
    dedupeKey: `due-soon:${recipient.userId}:${dueDay}`,
    subject: due.total === 1 ? `Due ${when}: ${due.tasks[0]?.title}` : `${due.total} tasks due ${when}`,
    paragraphs: [
      `${due.total === 1 ? "This task falls" : "These tasks fall"} due on ${when}, in ${plural(days, "day", "days")}:`,
      ...taskLines(due),
    ],
    why: "reminders are",
  });
  return true;
}

/** The alert of the open tasks that fell due the day before the morning's date. */
async function queueOverdue(tx: DbExecutor, morning: Morning, recipient: Recipient) {
  const yesterday = isoDatePlus(morning.localDate, -1);
  const late = await openTasksDue(tx, recipient, { from: yesterday, until: morning.localDate }, LISTED_TASKS);
  if (late.total === 0) return false;
  await queueMorningMail(tx, morning, recipient, {
    topic: "overdue",
    dedupeKey: `overdue:${recipient.userId}:${yesterday}`,
    subject: late.total === 1 ? `Overdue: ${late.tasks[0]?.title}` : `${late.total} tasks are overdue`,
    paragraphs: [
      `${late.total === 1 ? "This task" : "These tasks"} fell due yesterday, ${spokenDate(yesterday)}, and ${late.total === 1 ? "is" : "are"} not signed off:`,
      ...taskLines(late),
    ],
    why: "overdue alerts are",
  });
  return true;
}

/**
 * The digest of the user's work: what is overdue, due today and due in the six days after, and
 * how many tasks they signed off since the last digest (the day before, or the week before on a
 * Monday). Nothing to say, nothing sent.
 */
async function queueDigest(tx: DbExecutor, morning: Morning, recipient: Recipient, weekly: boolean) {
  const today = morning.localDate;
  const tomorrow = isoDatePlus(today, 1);
  const overdue = await openTasksDue(tx, recipient, { until: today }, LISTED_TASKS);
  const dueToday = await openTasksDue(tx, recipient, { from: today, until: tomorrow }, LISTED_TASKS);
  const dueThisWeek = await openTasksDue(tx, recipient, { from: tomorrow, until: isoDatePlus(today, 7) }, LISTED_TASKS);
  const since = isoDatePlus(today, weekly ? -7 : -1);
  const signedOff = await signedOffBetween(tx, recipient, since, today);
  if (overdue.total + dueToday.total + dueThisWeek.total + signedOff === 0) return false;
  const section = (heading: string, lines: { tasks: TaskLine[]; total: number }) =>
    lines.total === 0 ? [] : [`${heading} (${lines.total}):`, ...taskLines(lines)];
  await queueMorningMail(tx, morning, recipient, {
    topic: "digest",
    dedupeKey: `digest:${recipient.userId}:${today}`,
    subject: `${weekly ? "Your week" : "Your day"} at ${recipient.firmName}: ${plural(overdue.total, "overdue task", "overdue tasks")}, ${dueToday.total + dueThisWeek.total} due this week`,
    paragraphs: [
      `Your work on ${spokenDate(today)}.`,
      ...section("Overdue", overdue),
      ...section("Due today", dueToday),
      ...section("Due in the next 6 days", dueThisWeek),
      `You signed off ${plural(signedOff, "task", "tasks")} ${weekly ? "in the last 7 days" : "yesterday"}.`,
    ],
    why: `${weekly ? "weekly" : "daily"} digests are`,
  });
  return true;
}

/** The morning's messages of one firm, for each of its users who wants them. */
async function queueFirmReminders(tx: DbExecutor, options: Morning & { firmId: string }): Promise<number> {
  const { firmId, localDate } = options;
  const rows = await tx
    .select({
      firmId: users.firmId,
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      firmName: firms.name,
      timeZone: firms.timeZone,
      ...chosen,
    })
    .from(users)
    .innerJoin(firms, eq(firms.id, users.firmId))
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.firmId, users.firmId), eq(notificationPreferences.userId, users.id)),
    )
    .where(and(eq(users.firmId, firmId), isNull(users.disabledAt), isNotNull(users.email)));
  const monday = isoWeekday(localDate) === 1;
  let queued = 0;
  for (const { email, dueSoonDays, overdueAlerts, digest, ...recipient } of rows) {
    if (!email) continue;
    const to = { ...recipient, email };
    const wants = choicesOf({ dueSoonDays, overdueAlerts, digest });
    if (wants.dueSoonDays !== null && (await queueDueSoon(tx, options, to, wants.dueSoonDays))) queued += 1;
    if (wants.overdueAlerts && (await queueOverdue(tx, options, to))) queued += 1;
    if (
      (wants.digest === "daily" || (wants.digest === "weekly" && monday)) &&
      (await queueDigest(tx, options, to, wants.digest === "weekly"))
    )
      queued += 1;
  }
  return queued;
}
