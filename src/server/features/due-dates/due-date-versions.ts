import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inAnyScope, inFirm } from "../../platform/db/firm-scope";
import { clients, tasks } from "../../platform/db/schema";
import { lockFirm } from "../../tenancy/firm-lock";
import { parseCivilDate } from "./civil-date";
import { type Relief, reliefFor, reliefSentence, reliefsOf } from "./disaster-reliefs";
import { clearByDateFor, datesVersionOf, dueDatesFor } from "./due-date-engine";
import { dueDateRule, dueDateRules } from "./due-date-rules";
import {
  datesBefore,
  ruleTaskDates,
  type TaskDateChange,
  type TaskDates,
  writeTaskDateChanges,
} from "./task-date-changes";

/*
 * A new version of the rules or of a holiday calendar (decision 0053): after an upgrade, every open
 * task whose dates were worked out on an older version has them worked out again. A date that
 * moves is logged once (CALENDAR_VERSION); a task whose dates stay the same only takes the new
 * version. A due day set by a relief or by hand stays as it is; its statutory date still follows
 * the rule. Run with the scheduler: a look at one small index when nothing is stale.
 */

const chunkSize = 500;

/** Each rule's current version, as two parallel arrays for firms_with_stale_due_dates. */
function currentVersions(): { ruleIds: string[]; versions: string[] } {
  return {
    ruleIds: dueDateRules.map((rule) => rule.id),
    versions: dueDateRules.map((rule) => datesVersionOf(rule)),
  };
}

/** A rule task as worked out again: its dates, its rule and period, and its client's state. */
type RuleTask = TaskDates & {
  id: string;
  dueDateRule: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  override: "DISASTER_RELIEF" | "MANUAL" | null;
  explanation: string[] | null;
  state: string | null;
};

/** The task's dates worked out anew, or undefined when its rule is gone (it then keeps what it has). */
export function recomputed(task: RuleTask, reliefs: readonly Relief[]): TaskDateChange["after"] | undefined {
  const rule = task.dueDateRule === null ? undefined : dueDateRule(task.dueDateRule);
  if (!rule || task.periodStart === null || task.periodEnd === null) return undefined;
  const dates = dueDatesFor(rule, {
    periodEnd: task.periodEnd,
    periodStart: task.periodStart,
    ...(rule.jurisdiction === "US" && task.state ? { state: task.state } : {}),
  });
  const extended = task.extendedDueOn !== null;
  const ruleDay = (extended ? dates.extendedDueDate : dates.dueDate)?.toString() ?? task.dueOn;
  // A day set by a relief or by hand stays; any other follows the rule, then the firm's reliefs.
  const relief =
    task.override === null && rule.jurisdiction === "US" ? reliefFor(ruleDay, task.state, rule.id, reliefs) : undefined;
  const day = task.override !== null ? (extended ? task.extendedDueOn : task.dueOn) : (relief?.day ?? ruleDay);
  const dueOn = extended ? dates.dueDate.toString() : (day ?? task.dueOn);
  const kept =
    task.override === null ? [] : (task.explanation ?? []).filter((line) => line.startsWith("postponed to "));
  return {
    statutoryDueOn: dates.statutoryDate.toString(),
    dueOn,
    clearByOn: clearByDateFor(rule, parseCivilDate(dueOn) ?? dates.dueDate)?.toString() ?? null,
    extendedDueOn: extended ? (day ?? task.extendedDueOn) : null,
    override: relief ? "DISASTER_RELIEF" : task.override,
    explanation: [...dates.explanation, ...kept, ...(relief ? [reliefSentence(relief.relief)] : [])],
    version: dates.version,
  };
}

/** A rule task as read (ruleTaskDates): its dates not yet known to be there. */
type RuleTaskRow = Omit<RuleTask, keyof TaskDates> & {
  [K in keyof TaskDates]: TaskDates[K] | null;
} & { datesVersion: string | null };

/** The rule tasks' dates worked out anew, each as a change saying why (`why`). */
function reworked(
  rows: readonly RuleTaskRow[],
  reliefs: readonly Relief[],
  why: (task: RuleTaskRow, fresh: TaskDateChange["after"]) => Pick<TaskDateChange, "reason" | "note" | "changedBy">,
): TaskDateChange[] {
  return rows.flatMap((task) => {
    const before = datesBefore(task);
    const fresh = before && recomputed({ ...task, ...before }, reliefs);
    if (!before || !fresh || task.dueDateRule === null || task.periodEnd === null) return [];
    return [
      {
        taskId: task.id,
        ruleId: task.dueDateRule,
        periodEnd: task.periodEnd,
        before,
        after: fresh,
        ...why(task, fresh),
      },
    ];
  });
}

/**
 * After a client's state changed (decision 0053): its open rule tasks' dates worked out again for
 * the new state (a statewide holiday moves a US filing), each date that moves logged (RULE, by the
 * person who changed the client). A day set by a relief or by hand stays.
 */
export async function reworkClientDueDates(
  tx: DbExecutor,
  values: { firmId: string; clientId: string; changedBy: string; now: Date },
): Promise<number> {
  const { firmId, clientId, changedBy, now } = values;
  const open = await tx
    .select(ruleTaskDates)
    .from(tasks)
    .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
    .where(
      and(
        eq(tasks.firmId, firmId),
        eq(tasks.clientId, clientId),
        eq(tasks.status, "pending"),
        isNotNull(tasks.dueDateRule),
      ),
    )
    .for("update", { of: tasks });
  if (open.length === 0) return 0;
  const reliefs = (await reliefsOf(tx, [firmId])).get(firmId) ?? [];
  const changes = reworked(open, reliefs, (task) => ({
    reason: "RULE",
    note: task.state ? `The client's state is now ${task.state}` : "The client's state was cleared",
    changedBy,
  }));
  return (await writeTaskDateChanges(tx, firmId, changes, now)).moved;
}

/** One firm's stale tasks, a chunk at a time under the firm's lock. Returns the tasks looked at and the dates moved. */
async function recomputeFirm(db: Database, firmId: string, now: Date) {
  const { ruleIds, versions } = currentVersions();
  let tasksSeen = 0;
  let datesMoved = 0;
  let after: string | undefined;
  for (;;) {
    const chunk = await db.transaction(async (tx: DbExecutor) => {
      await lockFirm(tx, firmId);
      const stale = await tx
        .select(ruleTaskDates)
        .from(tasks)
        .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
        .where(
          and(
            eq(tasks.firmId, firmId),
            eq(tasks.status, "pending"),
            isNotNull(tasks.dueDateRule),
            sql`not exists (select 1 from unnest(${sql.param(ruleIds)}::text[], ${sql.param(versions)}::text[])
              as v(rule_id, version) where v.rule_id = ${tasks.dueDateRule} and v.version = ${tasks.dueDatesVersion})`,
            after === undefined ? undefined : gt(tasks.id, after),
          ),
        )
        .orderBy(asc(tasks.id))
        .limit(chunkSize)
        .for("update", { of: tasks });
      const reliefs = (await reliefsOf(tx, [firmId])).get(firmId) ?? [];
      const changes = reworked(stale, reliefs, (task, fresh) => ({
        reason: "CALENDAR_VERSION",
        note: `Worked out again on ${fresh.version} (was ${task.datesVersion ?? "unknown"})`,
        changedBy: null,
      }));
      const { moved } = await writeTaskDateChanges(tx, firmId, changes, now);
      return { last: stale.length === chunkSize ? stale.at(-1)?.id : undefined, seen: stale.length, moved };
    });
    tasksSeen += chunk.seen;
    datesMoved += chunk.moved;
    if (chunk.last === undefined) break;
    after = chunk.last;
  }
  return { tasksSeen, datesMoved };
}

/**
 * Works out again the dates of every open rule task, in every firm, that were worked out on an
 * older version of the rules or calendars. Idempotent: a task brought up to date is not looked at
 * again, so each change is logged once however many runs and instances.
 */
export async function recomputeStaleDueDates(
  db: Database,
  options: { now?: Date } = {},
): Promise<{ firms: number; tasks: number; datesMoved: number }> {
  const now = options.now ?? new Date();
  const { ruleIds, versions } = currentVersions();
  const { rows } = await inAnyScope(db).execute<{ firm_id: string }>(
    sql`select firm_id from firms_with_stale_due_dates(${sql.param(ruleIds)}::text[], ${sql.param(versions)}::text[]) as firm_id`,
  );
  let taskCount = 0;
  let datesMoved = 0;
  for (const { firm_id: firmId } of rows) {
    const firm = await recomputeFirm(inFirm(db, firmId), firmId, now);
    taskCount += firm.tasksSeen;
    datesMoved += firm.datesMoved;
  }
  return { firms: rows.length, tasks: taskCount, datesMoved };
}
