import { eq, sql } from "drizzle-orm";
import type { ClosedDay, Firm, UpdateFirmInput } from "../../../shared/firm";
import { changedFields, previousValues } from "../../platform/changes";
import type { Database, DbExecutor } from "../../platform/db/database";
import { preparedStatement } from "../../platform/db/prepared";
import { firms } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { parseCivilDate } from "../due-dates/civil-date";
import { retargetOpenRuleTasks } from "../due-dates/internal-targets";

type FirmRow = typeof firms.$inferSelect;

const firmById = preparedStatement("firm_by_id", (db) =>
  db
    .select({
      id: firms.id,
      name: firms.name,
      plan: firms.plan,
      trialEndsAt: firms.trialEndsAt,
      subscriptionStatus: firms.subscriptionStatus,
      timeZone: firms.timeZone,
      internalTargetDays: firms.internalTargetDays,
      closedDays: firms.closedDays,
      version: firms.version,
    })
    .from(firms)
    .where(eq(firms.id, sql.placeholder("firmId"))),
);

export async function getFirm(options: { db: Database; actor: Actor }): Promise<Firm> {
  const [row] = await firmById(options.db).execute({ firmId: options.actor.firmId });
  if (!row) throw new AppError("NOT_FOUND", "Firm not found");
  return toFirm(row);
}

/** The closed days as kept: each real date once, in date order. */
function closedDaysOf(days: ClosedDay[]): ClosedDay[] {
  const seen = new Set<string>();
  const refuse = (index: number, message: string) =>
    new AppError("VALIDATION_FAILED", message, { issues: [{ path: ["closedDays", index, "date"], message }] });
  days.forEach((day, index) => {
    const date = parseCivilDate(day.date);
    if (!date) throw refuse(index, `${day.date} is not a real date`);
    if (seen.has(date.toString())) throw refuse(index, `${day.date} is listed twice`);
    seen.add(date.toString());
  });
  return [...days].sort((a, b) => a.date.localeCompare(b.date));
}

/**
 * Renames the firm, sets its time zone, or its internal target and closed days; a super admin's
 * business, like billing (S-ROLE-17). A new target, new closed days or a new zone moves the firm's
 * open statutory tasks' due instants with them (decision 0053).
 */
export async function updateFirm(options: {
  db: Database;
  actor: Actor;
  input: UpdateFirmInput;
  ifMatch?: IfMatch;
}): Promise<Firm> {
  const { db, actor, input } = options;
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "firm.manage");
    const before = await findFirm(tx, actor.firmId);
    assertVersion(before.version, options.ifMatch, "firm's settings");
    const { closedDays, ...rest } = input;
    const kept = closedDays === undefined ? undefined : closedDaysOf(closedDays);
    const changes: Partial<UpdateFirmInput> = {
      ...changedFields(before, rest),
      ...(kept !== undefined && JSON.stringify(kept) !== JSON.stringify(before.closedDays) ? { closedDays: kept } : {}),
    };
    if (Object.keys(changes).length === 0) return toFirm(before);
    const [row] = await tx
      .update(firms)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(firms.id, actor.firmId))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", "Firm not found");
    if (changes.internalTargetDays !== undefined || changes.closedDays !== undefined || changes.timeZone !== undefined)
      await retargetOpenRuleTasks(tx, actor.firmId);
    await recordAudit(tx, actor, {
      action: "firm.updated",
      entityType: "firm",
      entityId: actor.firmId,
      before: previousValues(before, changes),
      after: changes,
    });
    return toFirm(row);
  });
}

async function findFirm(db: DbExecutor, firmId: string): Promise<FirmRow> {
  const [row] = await db.select().from(firms).where(eq(firms.id, firmId));
  if (!row) throw new AppError("NOT_FOUND", "Firm not found");
  return row;
}

function toFirm(row: Pick<FirmRow, keyof Firm>): Firm {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    trialEndsAt: row.trialEndsAt.toISOString(),
    subscriptionStatus: row.subscriptionStatus,
    timeZone: row.timeZone,
    internalTargetDays: row.internalTargetDays,
    closedDays: row.closedDays,
    version: row.version,
  };
}
