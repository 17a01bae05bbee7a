import { brand } from "../../../shared/brand";
import { FEED_REFRESH_MINUTES } from "../../../shared/calendar-feed";
import type { TaskPriority } from "../../../shared/tasks";
import { dateValue, nextDay, textProperty, utcDateTimeValue, writeLines } from "./ical-writer";

/*
 * The feed as a calendar (decision 0047): one all-day event per open task on its due date, as
 * calendar apps show a subscribed feed (they ignore to-dos in one). What each event says comes
 * from the task, its client and its link in the app; nothing else of the firm is written.
 */

/** What an event is made from: one open task with a due date. */
export type FeedTask = {
  id: string;
  title: string;
  priority: TaskPriority;
  clientId: string;
  clientName: string;
  /** The due date as the firm reads it: the calendar date in the firm's time zone, YYYY-MM-DD. */
  dueDay: string;
  /** The last change to what the event says: the task's, or its client's (whose name it carries). */
  changedAt: Date;
};

export type FeedCalendar = {
  /** The calendar's name in the app that subscribes ("Tendwell: Ann Lee at Hart & Co"). */
  name: string;
  /** Private mode: the task's title alone, and no client name anywhere in the text. */
  hideClientNames: boolean;
  /** The app's public origin, for each event's link to its client's page (where its task is). */
  appOrigin: string;
  tasks: readonly FeedTask[];
};

const priorityLabels: Record<TaskPriority, string> = { high: "High", medium: "Medium", low: "Low" };
/** The refresh interval as a DURATION (3.3.6): PT1H. */
const refresh = FEED_REFRESH_MINUTES % 60 === 0 ? `PT${FEED_REFRESH_MINUTES / 60}H` : `PT${FEED_REFRESH_MINUTES}M`;

/** The calendar's name: whose tasks, in which firm (the user's own firm: no client is named). */
export const feedCalendarName = (fullName: string, firmName: string): string =>
  `${brand.name}: ${fullName} at ${firmName}`;

/** An event's stable UID: the same task is the same event at every refresh, whatever else changes. */
export const eventUid = (taskId: string): string => `task-${taskId}@tendwell`;

/** The feed's whole text: a VCALENDAR of the tasks' events, in the order given. */
export function calendarDocument(calendar: FeedCalendar): string {
  return writeLines([
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Tendwell//Calendar feed//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    textProperty("NAME", calendar.name),
    textProperty("X-WR-CALNAME", calendar.name),
    `REFRESH-INTERVAL;VALUE=DURATION:${refresh}`,
    `X-PUBLISHED-TTL:${refresh}`,
    ...calendar.tasks.flatMap((task) => eventLines(task, calendar)),
    "END:VCALENDAR",
  ]);
}

function eventLines(task: FeedTask, calendar: FeedCalendar): string[] {
  const link = `${calendar.appOrigin}/client/${task.clientId}`;
  const description = [
    ...(calendar.hideClientNames ? [] : [`Client: ${task.clientName}`]),
    `${priorityLabels[task.priority]} priority`,
    `Open in ${brand.name}: ${link}`,
  ].join("\n");
  return [
    "BEGIN:VEVENT",
    `UID:${eventUid(task.id)}`,
    `DTSTAMP:${utcDateTimeValue(task.changedAt)}`,
    `DTSTART;VALUE=DATE:${dateValue(task.dueDay)}`,
    `DTEND;VALUE=DATE:${dateValue(nextDay(task.dueDay))}`,
    textProperty("SUMMARY", calendar.hideClientNames ? task.title : `${task.title} — ${task.clientName}`),
    textProperty("DESCRIPTION", description),
    `URL:${link}`,
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
  ];
}
