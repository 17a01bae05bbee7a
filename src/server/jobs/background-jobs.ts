import type { Logger } from "pino";
import { clientImportJob } from "../features/client-import/client-import.job";
import { clientImportUndoJob } from "../features/client-import/client-import-undo.job";
import { recomputeStaleDueDates } from "../features/due-dates/due-date-versions";
import { queueMorningReminders } from "../features/notifications/notifications.service";
import { materializeSchedules } from "../features/schedules/schedules.service";
import type { Config } from "../platform/config";
import type { Database } from "../platform/db/database";
import { inAnyScope } from "../platform/db/firm-scope";
import type { JobKind } from "../platform/jobs/job-queue";
import type { MailSender } from "../platform/mail/mail-sender";
import { deliverDueMail } from "../platform/mail/outbox";
import type { SealingKey } from "../platform/sealed-secrets";
import { purgeExpired } from "./housekeeping";

/** The kinds of background job every instance works on (decision 0046). */
export const RECURRING_WORK = "recurring-work";
export const HOUSEKEEPING = "housekeeping";
export const DELIVER_MAIL = "deliver-mail";
export const MORNING_MAIL = "morning-mail";

export function backgroundJobs(options: {
  db: Database;
  config: Config;
  log: Logger;
  /** Sends e-mail; undefined (no SMTP_URL) keeps each message in the outbox and the log. */
  mail: MailSender | undefined;
  /** The app's sealing key, which also signs the reminders' unsubscribe addresses. */
  key: SealingKey;
  /** The moment a run works at; the wall clock unless a test fixes it. */
  clock?: () => Date;
}): JobKind[] {
  const { db, config, log } = options;
  const clock = options.clock ?? (() => new Date());
  // Links in e-mail need the address people reach the app at; a developer's is this machine.
  const appOrigin = config.appOrigin ?? `http://localhost:${config.port}`;
  return [
    {
      // Each recurring schedule's task of every period begun: idempotent (one task per schedule and
      // period, decision 0009), so a repeated or overlapping run creates nothing twice. Then, after
      // an upgrade with a new version of the rules or a holiday calendar, the open rule tasks'
      // dates worked out again (decision 0053), each change logged once.
      name: RECURRING_WORK,
      cron: "*/5 * * * *",
      policy: "stately",
      retryLimit: 5,
      retryDelaySeconds: 30,
      expireSeconds: 15 * 60,
      run: async () => {
        const now = clock();
        const result = await materializeSchedules(db, { now });
        if (result.tasksCreated > 0) log.info(result, "scheduler: created recurring tasks");
        const recomputed = await recomputeStaleDueDates(db, { now });
        if (recomputed.tasks > 0)
          log.info(recomputed, "scheduler: worked out due dates on the new rules and calendars");
      },
    },
    {
      // The outbox's messages that are due, in every firm (decision 0049): each is taken before it
      // is sent, so a repeated or overlapping run sends nothing twice.
      name: DELIVER_MAIL,
      cron: "* * * * *",
      policy: "stately",
      retryLimit: 3,
      retryDelaySeconds: 20,
      expireSeconds: 5 * 60,
      run: async () => {
        const result = await deliverDueMail({ db, sender: options.mail, log, now: clock() });
        if (result.sent + result.kept + result.retrying + result.failed > 0) log.info(result, "mail: delivery run");
      },
    },
    {
      // Each firm's morning reminders once its local morning has come (decision 0050): a sweep
      // every quarter of an hour reaches every time zone's 08:00, half and quarter hours
      // included; a firm's morning is queued once, however many sweeps and instances.
      name: MORNING_MAIL,
      cron: "*/15 * * * *",
      policy: "stately",
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireSeconds: 15 * 60,
      run: async () => {
        const result = await queueMorningReminders({ db, key: options.key, appOrigin, now: clock() });
        if (result.messages > 0) log.info(result, "mail: queued the morning's reminders");
      },
    },
    // A client import's commit and its undo, each queued by its route (decisions 0051, 0056).
    clientImportJob({ db, log }),
    clientImportUndoJob({ db, log }),
    {
      // What can no longer matter: expired sessions, stale failed sign-ins and the like.
      name: HOUSEKEEPING,
      cron: "*/15 * * * *",
      policy: "stately",
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireSeconds: 15 * 60,
      run: async () => {
        const purged = await purgeExpired(inAnyScope(db), config, clock());
        log.debug(purged, "housekeeping: purged expired rows");
      },
    },
  ];
}
