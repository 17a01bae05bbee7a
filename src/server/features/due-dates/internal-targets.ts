import { and, eq, isNotNull, sql } from "drizzle-orm";
import { isValidTimeZone } from "../../../shared/recurrence";
import type { DbExecutor } from "../../platform/db/database";
import { firms, tasks } from "../../platform/db/schema";
import { before, type CivilDate, endOfDay, isWeekend, parseCivilDate } from "./civil-date";
import { type DueDateRule, dueDateRule } from "./due-date-rules";
import { type HolidayCalendarId, holidayCalendar, holidayOn } from "./holiday-calendars";

/*
 * A firm's internal target for statutory work (decision 0053): "10 business days before the due
 * date". A rule task then falls due for the firm (its `due_date`, which every list, count, overdue
 * check, health and reminder reads) at the end of its target day; its statutory dates stay as they
 * are and are shown beside it. Business days skip weekends, the holidays of the calendar the rule
 * moves or clears on (else its jurisdiction's), and the firm's own closed days. A target never falls before the day the task
 * is made (the day after its period ends).
 */

/** What decides a firm's rule tasks' due instants: its zone, its target and its closed days. */
export type DuePolicy = {
  timeZone: string;
  internalTargetDays: number | null;
  closedDays: readonly { date: string; name: string }[];
};

export async function duePolicyOf(tx: DbExecutor, firmId: string): Promise<DuePolicy> {
  const [firm] = await tx
    .select({ timeZone: firms.timeZone, internalTargetDays: firms.internalTargetDays, closedDays: firms.closedDays })
    .from(firms)
    .where(eq(firms.id, firmId));
  return policyOf(firm ?? { timeZone: "UTC", internalTargetDays: null, closedDays: [] });
}

/** A firm row's policy, its zone checked. */
export function policyOf(firm: DuePolicy): DuePolicy {
  return { ...firm, timeZone: isValidTimeZone(firm.timeZone) ? firm.timeZone : "UTC" };
}

/**
 * The holidays a target's business days skip when the rule itself moves on none (a Companies House
 * filing): its jurisdiction's, the IRS's days or England and Wales' bank holidays (decision 0065).
 */
const workingCalendarOf: Record<DueDateRule["jurisdiction"], HolidayCalendarId> = { US: "us-irs", UK: "uk-eaw" };

/** The firm's target day for a task due on `dueDay`, or null when the firm sets none. */
export function targetDayFor(
  rule: DueDateRule,
  dueDay: CivilDate,
  periodEnd: CivilDate,
  policy: Pick<DuePolicy, "internalTargetDays" | "closedDays">,
): CivilDate | null {
  if (policy.internalTargetDays === null) return null;
  const calendar = holidayCalendar(rule.shiftOn ?? rule.clearByOn ?? workingCalendarOf[rule.jurisdiction]);
  const closed = new Set(policy.closedDays.map((day) => day.date));
  const businessDay = (day: CivilDate) =>
    !isWeekend(day) && !(calendar && holidayOn(calendar, day)) && !closed.has(day.toString());
  let day = dueDay;
  for (let left = policy.internalTargetDays; left > 0; ) {
    day = day.subtract({ days: 1 });
    if (businessDay(day)) left -= 1;
  }
  // Not before the day the task is made, nor after the day it is due.
  const made = periodEnd.add({ days: 1 });
  if (!before(day, made)) return day;
  return before(dueDay, made) ? dueDay : made;
}

/** The instant a rule task falls due for the firm, and its target day (null without a target). */
export function dueInstantFor(
  rule: DueDateRule,
  dueDay: CivilDate,
  periodEnd: CivilDate,
  policy: DuePolicy,
): { dueDate: Date; targetOn: string | null } {
  const target = targetDayFor(rule, dueDay, periodEnd, policy);
  return { dueDate: endOfDay(target ?? dueDay, policy.timeZone), targetOn: target?.toString() ?? null };
}

/**
 * Brings the firm's open rule tasks' targets and due instants in line with its policy, after a new
 * target, new closed days or a new time zone. Returns how many tasks moved. Targets are the firm's
 * policy, not dates of the obligation: the due-date log does not record them.
 */
export async function retargetOpenRuleTasks(tx: DbExecutor, firmId: string): Promise<number> {
  const policy = await duePolicyOf(tx, firmId);
  const open = await tx
    .select({
      id: tasks.id,
      dueDateRule: tasks.dueDateRule,
      periodEnd: tasks.periodEnd,
      dueOn: tasks.dueOn,
      extendedDueOn: tasks.extendedDueOn,
      targetOn: tasks.targetOn,
      dueDate: tasks.dueDate,
    })
    .from(tasks)
    .where(and(eq(tasks.firmId, firmId), eq(tasks.status, "pending"), isNotNull(tasks.dueDateRule)))
    .for("update");
  const moved = { id: [] as string[], dueDate: [] as string[], targetOn: [] as (string | null)[] };
  for (const task of open) {
    const rule = task.dueDateRule === null ? undefined : dueDateRule(task.dueDateRule);
    const dueDay = parseCivilDate(task.extendedDueOn ?? task.dueOn ?? "");
    const periodEnd = parseCivilDate(task.periodEnd ?? "");
    if (!rule || !dueDay || !periodEnd) continue;
    const next = dueInstantFor(rule, dueDay, periodEnd, policy);
    if (next.targetOn === task.targetOn && next.dueDate.getTime() === task.dueDate?.getTime()) continue;
    moved.id.push(task.id);
    moved.dueDate.push(next.dueDate.toISOString());
    moved.targetOn.push(next.targetOn);
  }
  if (moved.id.length === 0) return 0;
  await tx.execute(sql`
    update tasks t set due_date = v.due_date, target_on = v.target_on, updated_at = now()
    from unnest(${sql.param(moved.id)}::uuid[], ${sql.param(moved.dueDate)}::timestamptz[],
        ${sql.param(moved.targetOn)}::date[]) as v(id, due_date, target_on)
    where t.firm_id = ${firmId} and t.id = v.id`);
  return moved.id.length;
}
