import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { v7 as uuidv7 } from "uuid";
import { type DisasterRelief, type DisasterReliefInput, usStateCodes } from "../../../shared/due-dates";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clients, disasterReliefs, tasks, users } from "../../platform/db/schema";
import { fieldError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { parseCivilDate } from "./civil-date";
import { type Relief, reliefFor, reliefSentence } from "./disaster-reliefs";
import { dueDateRule } from "./due-date-rules";
import { datesBefore, ruleTaskDates, type TaskDateChange, writeTaskDateChanges } from "./task-date-changes";

/*
 * The firm's disaster reliefs (decision 0053): recording one postpones, at once, every open task
 * of a client in a covered state whose due day (its extended due day once an extension is filed)
 * falls in the window, each logged once (DISASTER_RELIEF, with the relief's name and source); the
 * scheduler and a later extension apply it to what they make. A relief stays as recorded.
 */

const creator = alias(users, "creator");

/** The longest window a relief may have: the IRS's run to months, never years. */
const longestWindowDays = 2 * 366;

function reliefOf(input: DisasterReliefInput) {
  const windowStart = parseCivilDate(input.windowStart);
  if (!windowStart) throw fieldError("windowStart", "windowStart must be a real date written YYYY-MM-DD");
  const windowEnd = parseCivilDate(input.windowEnd);
  if (!windowEnd) throw fieldError("windowEnd", "windowEnd must be a real date written YYYY-MM-DD");
  const newDueOn = parseCivilDate(input.newDueOn);
  if (!newDueOn) throw fieldError("newDueOn", "newDueOn must be a real date written YYYY-MM-DD");
  if (windowEnd.toString() < windowStart.toString())
    throw fieldError("windowEnd", "windowEnd must be on or after windowStart");
  if (windowStart.until(windowEnd).days > longestWindowDays)
    throw fieldError("windowEnd", "A relief's window must be at most two years long");
  if (newDueOn.toString() <= windowEnd.toString())
    throw fieldError("newDueOn", "newDueOn must be after windowEnd: it is the day the postponed deadlines fall due");
  const unknown = input.states.find((state) => !usStateCodes.includes(state));
  if (unknown !== undefined) throw fieldError("states", `${unknown} is not a US state's two-letter code`);
  const notUs = input.ruleIds?.find((id) => dueDateRule(id)?.jurisdiction !== "US");
  if (notUs !== undefined) throw fieldError("ruleIds", `${notUs} is not a US deadline's rule`);
  return {
    name: input.name,
    states: [...new Set(input.states)].sort(),
    ruleIds: input.ruleIds === undefined ? null : [...new Set(input.ruleIds)].sort(),
    windowStart: windowStart.toString(),
    windowEnd: windowEnd.toString(),
    newDueOn: newDueOn.toString(),
    sourceUrl: input.sourceUrl,
  };
}

/** GET /api/disaster-reliefs: the reliefs the firm recorded, newest first. */
export async function listReliefs(options: { db: Database; actor: Actor }): Promise<DisasterRelief[]> {
  return readReliefs(options.db, options.actor.firmId);
}

/** The firm's reliefs, newest first (only `id`'s when given). */
async function readReliefs(db: DbExecutor, firmId: string, id?: string): Promise<DisasterRelief[]> {
  const rows = await db
    .select({
      id: disasterReliefs.id,
      name: disasterReliefs.name,
      states: disasterReliefs.states,
      ruleIds: disasterReliefs.ruleIds,
      windowStart: disasterReliefs.windowStart,
      windowEnd: disasterReliefs.windowEnd,
      newDueOn: disasterReliefs.newDueOn,
      sourceUrl: disasterReliefs.sourceUrl,
      createdById: disasterReliefs.createdBy,
      creatorName: creator.fullName,
      createdAt: disasterReliefs.createdAt,
    })
    .from(disasterReliefs)
    .leftJoin(creator, and(eq(creator.firmId, disasterReliefs.firmId), eq(creator.id, disasterReliefs.createdBy)))
    .where(and(eq(disasterReliefs.firmId, firmId), id === undefined ? undefined : eq(disasterReliefs.id, id)))
    .orderBy(desc(disasterReliefs.createdAt), desc(disasterReliefs.id));
  return rows.map(({ createdById, creatorName, createdAt, ...relief }) => ({
    ...relief,
    jurisdiction: "US" as const,
    createdBy: createdById !== null && creatorName !== null ? { id: createdById, fullName: creatorName } : null,
    createdAt: createdAt.toISOString(),
  }));
}

/**
 * POST /api/disaster-reliefs: records a relief and postpones the open tasks it covers. Answers the
 * relief and how many tasks moved.
 */
export async function recordRelief(options: {
  db: Database;
  actor: Actor;
  input: DisasterReliefInput;
}): Promise<{ relief: DisasterRelief; tasksMoved: number }> {
  const { db, actor } = options;
  const values = reliefOf(options.input);
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "dueDates.override");
    const now = new Date();
    const relief: Relief = { id: uuidv7(), ...values };
    await tx
      .insert(disasterReliefs)
      .values({ ...relief, firmId: actor.firmId, createdBy: actor.userId, createdAt: now });
    // The open rule tasks of clients in the covered states whose due day falls in the window.
    const dueDay = sql<string>`coalesce(${tasks.extendedDueOn}, ${tasks.dueOn})`;
    const covered = await tx
      .select(ruleTaskDates)
      .from(tasks)
      .innerJoin(clients, and(eq(clients.firmId, tasks.firmId), eq(clients.id, tasks.clientId)))
      .where(
        and(
          eq(tasks.firmId, actor.firmId),
          eq(tasks.status, "pending"),
          isNotNull(tasks.dueDateRule),
          inArray(clients.state, relief.states),
          sql`${dueDay} between ${relief.windowStart} and ${relief.windowEnd}`,
        ),
      )
      .for("update", { of: tasks });
    const changes: TaskDateChange[] = [];
    for (const task of covered) {
      const rule = task.dueDateRule === null ? undefined : dueDateRule(task.dueDateRule);
      const before = datesBefore(task);
      if (rule?.jurisdiction !== "US" || !before || task.periodEnd === null) continue;
      const moved = reliefFor(before.extendedDueOn ?? before.dueOn, task.state, rule.id, [relief]);
      if (!moved) continue;
      changes.push({
        taskId: task.id,
        ruleId: rule.id,
        periodEnd: task.periodEnd,
        before,
        after: {
          ...before,
          ...(task.extendedDueOn === null ? { dueOn: moved.day } : { extendedDueOn: moved.day }),
          override: "DISASTER_RELIEF",
          explanation: [...(task.explanation ?? []), reliefSentence(relief)],
          version: task.datesVersion ?? "",
        },
        reason: "DISASTER_RELIEF",
        note: relief.name,
        sourceUrl: relief.sourceUrl,
        changedBy: actor.userId,
      });
    }
    await writeTaskDateChanges(tx, actor.firmId, changes, now);
    await recordAudit(tx, actor, {
      action: "disaster_relief.recorded",
      entityType: "firm",
      entityId: actor.firmId,
      after: { ...values, tasksMoved: changes.length },
    });
    const [recorded] = await readReliefs(tx, actor.firmId, relief.id);
    if (!recorded) throw new Error("the relief just recorded is not there");
    return { relief: recorded, tasksMoved: changes.length };
  });
}
