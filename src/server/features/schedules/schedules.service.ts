import { and, asc, eq, gt, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import {
  dueDateOf,
  isValidTimeZone,
  type Period,
  periodContaining,
  periodsToMaterialize,
} from "../../../shared/recurrence";
import type { Frequency } from "../../../shared/tasks";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inAnyScope, inFirm } from "../../platform/db/firm-scope";
import { clients, firms, recurringSchedules, taskTemplates } from "../../platform/db/schema";
import { lockFirm } from "../../tenancy/firm-lock";
import { materializeRuleSchedules, type RuleSchedule } from "./rule-schedules";

/*
 * Recurring work (S-STATE-14, decision 0009): each schedule gets exactly one pending task per
 * period of its frequency in the firm's time zone, due at the period's last instant. The
 * scheduler creates the periods from `materialized_until` (the end of the last period it handled)
 * up to the one containing now, then advances `materialized_until`, so a task a user deleted to
 * skip a period stays deleted. The unique (firm_id, schedule_id, due_date) constraint backs this up.
 */

/**
 * Arbitrary constant naming the transaction-level advisory lock that lets one app instance at a
 * time run the scheduler (migrations use 7_246_731_001, the demo seed 7_246_731_002).
 */
export const schedulerLockId = 7_246_731_003;

/** Schedules per transaction: big enough to batch well, small enough to hold firm locks briefly. */
const defaultChunkSize = 500;

type DueSchedule = {
  id: string;
  firmId: string;
  frequency: Frequency;
  startsAt: Date;
  materializedUntil: Date | null;
  timeZone: string;
  // For a template with a statutory due-date rule (rule-schedules.ts).
  dueDateRule: string | null;
  rulePeriodEnd: string | null;
  fiscalYearEnd: string | null;
  state: string | null;
  internalTargetDays: number | null;
  closedDays: { date: string; name: string }[];
};

/**
 * Schedules that may need a task by `now`: running (not ended, client not archived, template not
 * deleted), started, and with the period containing `now` not yet handled.
 */
function needsWork(now: Date): SQL | undefined {
  return and(
    isNull(recurringSchedules.endedAt),
    isNull(clients.archivedAt),
    isNull(taskTemplates.deletedAt),
    lte(recurringSchedules.startsAt, now),
    or(isNull(recurringSchedules.materializedUntil), lte(recurringSchedules.materializedUntil, now)),
  );
}

const idIn = (ids: string[]): SQL => sql`${recurringSchedules.id} = any(${sql.param(ids)}::uuid[])`;

const withClientAndTemplate = {
  client: and(eq(clients.firmId, recurringSchedules.firmId), eq(clients.id, recurringSchedules.clientId)),
  template: and(
    eq(taskTemplates.firmId, recurringSchedules.firmId),
    eq(taskTemplates.id, recurringSchedules.templateId),
  ),
};

/**
 * The schedules among `scheduleIds` that need work, locked against a concurrent materialization of
 * the same schedule (the scheduler and `createSchedule` on an existing schedule).
 */
function lockDueSchedules(tx: DbExecutor, now: Date, scheduleIds: string[]): Promise<DueSchedule[]> {
  return tx
    .select({
      id: recurringSchedules.id,
      firmId: recurringSchedules.firmId,
      frequency: recurringSchedules.frequency,
      startsAt: recurringSchedules.startsAt,
      materializedUntil: recurringSchedules.materializedUntil,
      timeZone: firms.timeZone,
      dueDateRule: taskTemplates.dueDateRule,
      rulePeriodEnd: recurringSchedules.rulePeriodEnd,
      fiscalYearEnd: clients.fiscalYearEnd,
      state: clients.state,
      internalTargetDays: firms.internalTargetDays,
      closedDays: firms.closedDays,
    })
    .from(recurringSchedules)
    .innerJoin(firms, eq(firms.id, recurringSchedules.firmId))
    .innerJoin(clients, withClientAndTemplate.client)
    .innerJoin(taskTemplates, withClientAndTemplate.template)
    .where(and(needsWork(now), idIn(scheduleIds)))
    .orderBy(asc(recurringSchedules.id))
    .for("no key update", { of: recurringSchedules });
}

// The app only stores names isValidTimeZone accepts; should a bad one get in anyway, that firm's
// work is still made (in UTC) rather than one row stopping every firm's scheduler run.
const timeZoneOf = (schedule: DueSchedule) => (isValidTimeZone(schedule.timeZone) ? schedule.timeZone : "UTC");

/** The periods of `schedule` that get a task now, oldest first. */
function periodsDue(schedule: DueSchedule, now: Date): Period[] {
  const timeZone = timeZoneOf(schedule);
  const until = schedule.materializedUntil;
  // Starting the walk at `until` bounds the work by the periods still to create, not by the
  // schedule's age; periodsToMaterialize still caps a long downtime at its latest periods.
  const from = until !== null && until > schedule.startsAt ? until : schedule.startsAt;
  const periods = periodsToMaterialize(schedule.frequency, { startsAt: from }, now, timeZone);
  // After the firm changes its time zone the period containing `until` can start before it; that
  // period was already handled in the old zone.
  return until === null ? periods : periods.filter((period) => period.start >= until);
}

/**
 * Creates the due tasks of `schedules` (locked rows from lockDueSchedules) and advances their
 * `materialized_until`. Returns the number of tasks created.
 */
async function materialize(tx: DbExecutor, schedules: DueSchedule[], now: Date): Promise<number> {
  const ruleSchedules: RuleSchedule[] = [];
  for (const schedule of schedules)
    if (schedule.dueDateRule !== null)
      ruleSchedules.push({ ...schedule, dueDateRule: schedule.dueDateRule, timeZone: timeZoneOf(schedule) });
  const byRule = ruleSchedules.length > 0 ? await materializeRuleSchedules(tx, ruleSchedules, now) : 0;
  return (
    byRule +
    (await materializePeriods(
      tx,
      schedules.filter((schedule) => schedule.dueDateRule === null),
      now,
    ))
  );
}

/** The tasks of schedules without a rule: one per period of the frequency, due at its end. */
async function materializePeriods(tx: DbExecutor, schedules: DueSchedule[], now: Date): Promise<number> {
  const taskIds: string[] = [];
  const taskScheduleIds: string[] = [];
  const dueDates: string[] = [];
  const advancedIds: string[] = [];
  const advancedUntil: string[] = [];
  for (const schedule of schedules) {
    const periods = periodsDue(schedule, now);
    const last = periods.at(-1);
    if (last === undefined) continue;
    for (const period of periods) {
      taskIds.push(uuidv7());
      taskScheduleIds.push(schedule.id);
      dueDates.push(dueDateOf(period).toISOString());
    }
    advancedIds.push(schedule.id);
    advancedUntil.push(last.end.toISOString());
  }
  if (taskIds.length === 0) return 0;
  // One statement per chunk, with the template's text copied by PostgreSQL, so nothing but ids
  // and due dates travels; ON CONFLICT is the backstop should materialized_until ever lag.
  const inserted = await tx.execute(sql`
    insert into tasks (id, firm_id, client_id, template_id, schedule_id, name, description, priority, status, due_date, created_by)
    select v.id, s.firm_id, s.client_id, s.template_id, s.id, t.name, t.description, t.priority, 'pending', v.due_date, null
    from unnest(${sql.param(taskIds)}::uuid[], ${sql.param(taskScheduleIds)}::uuid[], ${sql.param(dueDates)}::timestamptz[])
      as v(id, schedule_id, due_date)
    join recurring_schedules s on s.id = v.schedule_id
    join task_templates t on t.firm_id = s.firm_id and t.id = s.template_id
    on conflict (firm_id, schedule_id, due_date) where due_date_rule is null do nothing`);
  // greatest() ignores nulls, and never moves the mark back should two writers ever race.
  await tx.execute(sql`
    update recurring_schedules s
    set materialized_until = greatest(s.materialized_until, v.until)
    from unnest(${sql.param(advancedIds)}::uuid[], ${sql.param(advancedUntil)}::timestamptz[]) as v(id, until)
    where s.id = v.id`);
  return inserted.rowCount ?? 0;
}

/**
 * Assigns a recurring template to a client: inserts the schedule (starting now) and at once
 * creates the task of the current period, due at its end in the firm's time zone. Runs in the
 * caller's transaction `tx` (e.g. client creation), so both roll back with it. When the client
 * already has a schedule for this template, that one is returned (and brought up to date if the
 * scheduler has not yet done so); it is not restarted, even if it has ended.
 */
export async function createSchedule(
  tx: DbExecutor,
  values: {
    firmId: string;
    clientId: string;
    templateId: string;
    frequency: Frequency;
    createdBy: string | null;
    now?: Date;
  },
): Promise<{ scheduleId: string }> {
  const { firmId, clientId, templateId, frequency, createdBy, now = new Date() } = values;
  const [inserted] = await tx
    .insert(recurringSchedules)
    .values({ firmId, clientId, templateId, frequency, startsAt: now, createdBy })
    .onConflictDoNothing({
      target: [recurringSchedules.firmId, recurringSchedules.clientId, recurringSchedules.templateId],
    })
    .returning({ id: recurringSchedules.id });
  let scheduleId = inserted?.id;
  if (scheduleId === undefined) {
    const [existing] = await tx
      .select({ id: recurringSchedules.id })
      .from(recurringSchedules)
      .where(
        and(
          eq(recurringSchedules.firmId, firmId),
          eq(recurringSchedules.clientId, clientId),
          eq(recurringSchedules.templateId, templateId),
        ),
      );
    if (existing === undefined) throw new Error("the conflicting schedule vanished");
    scheduleId = existing.id;
  }
  await materialize(tx, await lockDueSchedules(tx, now, [scheduleId]), now);
  return { scheduleId };
}

/**
 * One scheduler run: for every running schedule, creates the tasks of the periods from where it
 * left off up to the one containing `now` (missed periods included, at most
 * `maxPeriodsToMaterialize` per schedule), never a period it handled before. The database names
 * the firms with schedules that may be due (firms_with_schedules_due, migration 0015); each is
 * worked through in that firm, in transactions of `chunkSize` schedules (default 500), each holding
 * the scheduler's advisory lock and the firm's lock. When another run holds the advisory lock,
 * this run does nothing and answers `ran: false`; should another run take it between two chunks,
 * this one stops there and the other finishes the work. `schedules` counts the schedules that
 * needed work.
 */
export async function materializeSchedules(
  db: Database,
  options: { now?: Date; chunkSize?: number } = {},
): Promise<{ ran: boolean; schedules: number; tasksCreated: number }> {
  const now = options.now ?? new Date();
  const chunkSize = options.chunkSize ?? defaultChunkSize;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError("chunkSize must be a positive integer");
  const { rows: due } = await inAnyScope(db).execute<{ firm_id: string }>(
    sql`select firm_id from firms_with_schedules_due(${now}) as firm_id`,
  );
  if (due.length === 0) return { ran: true, schedules: 0, tasksCreated: 0 };
  let ran = false;
  let schedules = 0;
  let tasksCreated = 0;
  for (const { firm_id: firmId } of due) {
    const firm = await materializeFirmSchedules(inFirm(db, firmId), firmId, now, chunkSize);
    if (!firm.ran) break;
    ran = true;
    schedules += firm.schedules;
    tasksCreated += firm.tasksCreated;
  }
  return { ran, schedules, tasksCreated };
}

/** One firm's part of a scheduler run, in that firm: `ran` is false if another run held the lock. */
async function materializeFirmSchedules(
  db: Database,
  firmId: string,
  now: Date,
  chunkSize: number,
): Promise<{ ran: boolean; schedules: number; tasksCreated: number }> {
  let after: string | undefined;
  let ran = false;
  let schedules = 0;
  let tasksCreated = 0;
  for (;;) {
    const chunk = await db.transaction(async (tx) => {
      const lock = await tx.execute<{ locked: boolean }>(
        sql`select pg_try_advisory_xact_lock(${schedulerLockId}::bigint) as locked`,
      );
      if (lock.rows[0]?.locked !== true) return null;
      const candidates = await tx
        .select({ id: recurringSchedules.id })
        .from(recurringSchedules)
        .innerJoin(clients, withClientAndTemplate.client)
        .innerJoin(taskTemplates, withClientAndTemplate.template)
        .where(
          and(
            eq(recurringSchedules.firmId, firmId),
            needsWork(now),
            after === undefined ? undefined : gt(recurringSchedules.id, after),
          ),
        )
        .orderBy(asc(recurringSchedules.id))
        .limit(chunkSize);
      const last = candidates.at(-1);
      if (last === undefined) return { last: undefined, schedules: 0, tasksCreated: 0 };
      // Locking the firm, as every firm writer does first, means a client being archived or
      // purged, or a template being deleted, is seen before tasks are added to it.
      await lockFirm(tx, firmId);
      // Read again under the locks: anything that changed while waiting for them counts.
      const due = await lockDueSchedules(
        tx,
        now,
        candidates.map((candidate) => candidate.id),
      );
      return {
        last: candidates.length === chunkSize ? last.id : undefined,
        schedules: due.length,
        tasksCreated: await materialize(tx, due, now),
      };
    });
    if (chunk === null) break;
    ran = true;
    schedules += chunk.schedules;
    tasksCreated += chunk.tasksCreated;
    if (chunk.last === undefined) break;
    after = chunk.last;
  }
  return { ran, schedules, tasksCreated };
}

/**
 * For a client coming back from the archive: its schedules resume with the current period, instead
 * of the scheduler making every period missed meanwhile (up to 1000 overdue tasks nobody owed).
 */
export async function resumeSchedules(
  tx: DbExecutor,
  values: { firmId: string; clientId: string; now?: Date },
): Promise<void> {
  const { firmId, clientId, now = new Date() } = values;
  const [firm] = await tx.select({ timeZone: firms.timeZone }).from(firms).where(eq(firms.id, firmId));
  const timeZone = firm && isValidTimeZone(firm.timeZone) ? firm.timeZone : "UTC";
  const running = await tx
    .select({ id: recurringSchedules.id, frequency: recurringSchedules.frequency })
    .from(recurringSchedules)
    .where(
      and(
        eq(recurringSchedules.firmId, firmId),
        eq(recurringSchedules.clientId, clientId),
        isNull(recurringSchedules.endedAt),
      ),
    );
  for (const schedule of running) {
    const { start } = periodContaining(schedule.frequency, now, timeZone);
    await tx
      .update(recurringSchedules)
      .set({
        materializedUntil: sql`greatest(${recurringSchedules.materializedUntil}, ${start.toISOString()}::timestamptz)`,
      })
      .where(and(eq(recurringSchedules.firmId, firmId), eq(recurringSchedules.id, schedule.id)));
  }
  // A rule schedule makes the latest ended period's task if still due, not the periods missed.
  await revisitRuleSchedules(tx, { firmId, clientId, afresh: true, now });
}

/**
 * Has the scheduler look again, at its next run, at the rule schedules of a client or a template
 * whose inputs changed (decision 0053): a client's fiscal year end or state moves its periods and
 * dates; a template whose rule was set, changed or cleared starts afresh (`afresh`: as if just
 * assigned, so under a rule only the latest ended period still due gets a task; without one, the
 * next period of its frequency does).
 */
export async function revisitRuleSchedules(
  tx: DbExecutor,
  values: { firmId: string; clientId?: string; templateId?: string; afresh?: boolean; now?: Date },
): Promise<void> {
  const { firmId, clientId, templateId, afresh = false, now = new Date() } = values;
  await tx.execute(sql`
    update recurring_schedules s
    set materialized_until = least(s.materialized_until, ${now.toISOString()}::timestamptz)
      ${afresh ? sql`, rule_period_end = null` : sql``}
    from task_templates t
    where s.firm_id = ${firmId} and t.firm_id = s.firm_id and t.id = s.template_id and s.ended_at is null
      ${clientId === undefined ? sql`` : sql`and s.client_id = ${clientId}`}
      ${templateId === undefined ? sql`and t.due_date_rule is not null` : sql`and s.template_id = ${templateId}`}`);
}
