import { createSchedule } from "../src/server/features/schedules/schedules.service";
import type { DbExecutor } from "../src/server/platform/db/database";
import { insertTaskTemplate } from "../src/server/seed/factories";
import type { SeededFirm } from "./fixtures";

/**
 * Assigns a client of `firm` a new yearly template that follows `ruleId`, as of `now` (decision
 * 0053): the scheduler makes the latest ended period's task at once if it is still due. Answers
 * the schedule's id.
 */
export async function assignRule(
  db: DbExecutor,
  options: { firm: SeededFirm; clientId: string; ruleId: string; now: string },
): Promise<string> {
  const { firm, clientId, ruleId, now } = options;
  const template = await insertTaskTemplate(db, {
    firmId: firm.firm.id,
    createdBy: firm.users.super_admin.id,
    frequency: "annually",
    dueDateRule: ruleId,
  });
  const { scheduleId } = await createSchedule(db, {
    firmId: firm.firm.id,
    clientId,
    templateId: template.id,
    frequency: "annually",
    createdBy: null,
    now: new Date(now),
  });
  return scheduleId;
}
