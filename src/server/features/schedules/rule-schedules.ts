import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { maxPeriodsToMaterialize } from "../../../shared/recurrence";
import type { DbExecutor } from "../../platform/db/database";
import { dayAt, parseCivilDate, startOfDay } from "../due-dates/civil-date";
import { reliefFor, reliefSentence, reliefsOf } from "../due-dates/disaster-reliefs";
import { clearByDateFor } from "../due-dates/due-date-engine";
import { dueDateRule } from "../due-dates/due-date-rules";
import { dueInstantFor, policyOf } from "../due-dates/internal-targets";
import { periodsDueBy } from "../due-dates/rule-periods";

/*
 * Schedules whose template follows a statutory due-date rule (decision 0053): a period's task is
 * made the day after the period ends (in the firm's time zone), or on its first day when the
 * deadline falls inside it (estimated tax), due on the rule's date for that
 * period, with its statutory date, clear-by date and explanation; each date is logged (reason
 * RULE). A due date that falls in a disaster relief window the firm recorded, for a client in a
 * covered state, moves to the relief's day, logged as such (DISASTER_RELIEF). The task falls due
 * at the end of its due day, or of the firm's internal target before it. `rule_period_end` is the
 * end of the last period handled; `materialized_until` the start of the day the next period's task
 * is made, when the schedule next has work.
 */

export type RuleSchedule = {
  id: string;
  firmId: string;
  dueDateRule: string;
  rulePeriodEnd: string | null;
  fiscalYearEnd: string | null;
  state: string | null;
  timeZone: string;
  internalTargetDays: number | null;
  closedDays: { date: string; name: string }[];
};

/** Creates the due tasks of `schedules` (locked by the caller) and moves them on. Returns the tasks created. */
export async function materializeRuleSchedules(tx: DbExecutor, schedules: RuleSchedule[], now: Date): Promise<number> {
  const made = {
    id: [] as string[],
    scheduleId: [] as string[],
    dueDate: [] as string[],
    rule: [] as string[],
    periodStart: [] as string[],
    periodEnd: [] as string[],
    statutoryDueOn: [] as string[],
    dueOn: [] as string[],
    clearByOn: [] as (string | null)[],
    explanation: [] as string[],
    version: [] as string[],
    override: [] as (string | null)[],
    targetOn: [] as (string | null)[],
  };
  const logged = {
    id: [] as string[],
    taskId: [] as string[],
    field: [] as string[],
    from: [] as (string | null)[],
    to: [] as string[],
    reason: [] as string[],
    note: [] as (string | null)[],
    sourceUrl: [] as (string | null)[],
  };
  const log = (
    taskId: string,
    field: string,
    from: string | null,
    to: string,
    reason: string,
    note?: string,
    source?: string,
  ) => {
    logged.id.push(uuidv7());
    logged.taskId.push(taskId);
    logged.field.push(field);
    logged.from.push(from);
    logged.to.push(to);
    logged.reason.push(reason);
    logged.note.push(note ?? null);
    logged.sourceUrl.push(source ?? null);
  };
  const reliefs = await reliefsOf(tx, [
    ...new Set(schedules.filter((schedule) => schedule.state !== null).map((schedule) => schedule.firmId)),
  ]);
  const moved = { id: [] as string[], handledThrough: [] as string[], nextWorkAt: [] as string[] };
  for (const schedule of schedules) {
    const rule = dueDateRule(schedule.dueDateRule);
    // The template's check keeps unknown ids out; a rule since withdrawn makes nothing more.
    if (!rule) continue;
    const today = dayAt(now, schedule.timeZone);
    const policy = policyOf(schedule);
    const work = periodsDueBy({
      rule,
      fiscalYearEnd: schedule.fiscalYearEnd,
      state: schedule.state,
      handledThrough: schedule.rulePeriodEnd,
      today,
      max: maxPeriodsToMaterialize,
    });
    for (const { period, dates } of work.made) {
      const id = uuidv7();
      const ruleDue = dates.dueDate.toString();
      const relief =
        rule.jurisdiction === "US"
          ? reliefFor(ruleDue, schedule.state, rule.id, reliefs.get(schedule.firmId) ?? [])
          : undefined;
      const dueOn = relief ? (parseCivilDate(relief.day) ?? dates.dueDate) : dates.dueDate;
      made.id.push(id);
      made.scheduleId.push(schedule.id);
      const due = dueInstantFor(rule, dueOn, period.end, policy);
      made.dueDate.push(due.dueDate.toISOString());
      made.targetOn.push(due.targetOn);
      made.rule.push(rule.id);
      made.periodStart.push(period.start.toString());
      made.periodEnd.push(period.end.toString());
      made.statutoryDueOn.push(dates.statutoryDate.toString());
      made.dueOn.push(dueOn.toString());
      made.clearByOn.push(clearByDateFor(rule, dueOn)?.toString() ?? null);
      made.explanation.push(
        JSON.stringify(relief ? [...dates.explanation, reliefSentence(relief.relief)] : dates.explanation),
      );
      made.version.push(dates.version);
      made.override.push(relief ? "DISASTER_RELIEF" : null);
      log(id, "statutory", null, dates.statutoryDate.toString(), "RULE");
      log(id, "due", null, ruleDue, "RULE");
      if (relief) log(id, "due", ruleDue, relief.day, "DISASTER_RELIEF", relief.relief.name, relief.relief.sourceUrl);
    }
    moved.id.push(schedule.id);
    moved.handledThrough.push(work.handledThrough.toString());
    moved.nextWorkAt.push(startOfDay(work.nextMadeOn, schedule.timeZone).toISOString());
  }
  let created = 0;
  if (made.id.length > 0) {
    // The template's text is copied by PostgreSQL; each new task's dates are logged in the same
    // statement. The period's unique key is the backstop should rule_period_end ever lag: a period
    // already made is neither made nor logged again.
    const inserted = await tx.execute<{ created: number }>(sql`
      with made as (
        insert into tasks (id, firm_id, client_id, template_id, schedule_id, name, description, priority, status,
          due_date, created_by, due_date_rule, period_start, period_end, statutory_due_on, due_on, clear_by_on,
          due_explanation, due_dates_version, due_override, target_on)
        select v.id, s.firm_id, s.client_id, s.template_id, s.id, t.name, t.description, t.priority, 'pending',
          v.due_date, null, v.rule, v.period_start, v.period_end, v.statutory_due_on, v.due_on, v.clear_by_on,
          v.explanation, v.version, v.override, v.target_on
        from unnest(${sql.param(made.id)}::uuid[], ${sql.param(made.scheduleId)}::uuid[],
            ${sql.param(made.dueDate)}::timestamptz[], ${sql.param(made.rule)}::text[],
            ${sql.param(made.periodStart)}::date[], ${sql.param(made.periodEnd)}::date[],
            ${sql.param(made.statutoryDueOn)}::date[], ${sql.param(made.dueOn)}::date[],
            ${sql.param(made.clearByOn)}::date[], ${sql.param(made.explanation)}::jsonb[],
            ${sql.param(made.version)}::text[], ${sql.param(made.override)}::text[],
            ${sql.param(made.targetOn)}::date[])
          as v(id, schedule_id, due_date, rule, period_start, period_end, statutory_due_on, due_on, clear_by_on,
            explanation, version, override, target_on)
        join recurring_schedules s on s.id = v.schedule_id
        join task_templates t on t.firm_id = s.firm_id and t.id = s.template_id
        on conflict (firm_id, schedule_id, period_end) where due_date_rule is not null do nothing
        returning id, firm_id, due_date_rule, due_dates_version
      ),
      logged as (
        insert into task_due_date_changes (id, firm_id, task_id, field, from_on, to_on, reason, rule_id,
          due_dates_version, note, source_url)
        select l.id, m.firm_id, m.id, l.field, l.from_on, l.to_on, l.reason, m.due_date_rule, m.due_dates_version,
          l.note, l.source_url
        from made m
        join unnest(${sql.param(logged.id)}::uuid[], ${sql.param(logged.taskId)}::uuid[],
            ${sql.param(logged.field)}::text[], ${sql.param(logged.from)}::date[], ${sql.param(logged.to)}::date[],
            ${sql.param(logged.reason)}::text[], ${sql.param(logged.note)}::text[],
            ${sql.param(logged.sourceUrl)}::text[])
          as l(id, task_id, field, from_on, to_on, reason, note, source_url)
          on l.task_id = m.id
      )
      select count(*)::int as created from made`);
    created = inserted.rows[0]?.created ?? 0;
  }
  if (moved.id.length === 0) return created;
  await tx.execute(sql`
    update recurring_schedules s
    set rule_period_end = greatest(s.rule_period_end, v.handled_through), materialized_until = v.next_work_at
    from unnest(${sql.param(moved.id)}::uuid[], ${sql.param(moved.handledThrough)}::date[],
        ${sql.param(moved.nextWorkAt)}::timestamptz[]) as v(id, handled_through, next_work_at)
    where s.id = v.id`);
  return created;
}
