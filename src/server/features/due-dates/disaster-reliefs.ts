import { asc, inArray } from "drizzle-orm";
import type { DbExecutor } from "../../platform/db/database";
import { disasterReliefs } from "../../platform/db/schema";
import { formatWeekday, parseCivilDate } from "./civil-date";

/*
 * Disaster relief (IRC 7508A, decision 0053): the IRS postpones every deadline that falls in a
 * window, for taxpayers in the places it covers, to one later day. A firm records each relief it
 * learns of; a day of one of its US clients' tasks that falls in a relief's window, for a client in
 * a covered state, moves to the relief's day. Days are civil dates written YYYY-MM-DD, which
 * compare as text.
 */

export type Relief = {
  id: string;
  name: string;
  states: string[];
  /** The rules whose deadlines it postpones; null for every one. */
  ruleIds: string[] | null;
  windowStart: string;
  windowEnd: string;
  newDueOn: string;
  sourceUrl: string;
};

/** The relief that moves `day` of a task under `ruleId` for a client in `state`, with the day it moves to; undefined when none does. */
export function reliefFor(
  day: string,
  state: string | null,
  ruleId: string,
  reliefs: readonly Relief[],
): { relief: Relief; day: string } | undefined {
  if (state === null) return undefined;
  let moved: { relief: Relief; day: string } | undefined;
  // A relief's day may fall in another relief's window: that one postpones it again. Each step
  // moves the day later, past the window that held it, so this ends.
  for (;;) {
    const current = moved?.day ?? day;
    const next = reliefs
      .filter(
        (relief) =>
          relief.states.includes(state) &&
          (relief.ruleIds === null || relief.ruleIds.includes(ruleId)) &&
          relief.windowStart <= current &&
          current <= relief.windowEnd,
      )
      .sort((a, b) => (a.newDueOn < b.newDueOn ? 1 : -1))[0];
    if (!next) return moved;
    moved = { relief: next, day: next.newDueOn };
  }
}

/** The sentence a task's explanation gains when a relief moves its day. */
export function reliefSentence(relief: Relief): string {
  const day = parseCivilDate(relief.newDueOn);
  return `postponed to ${day ? formatWeekday(day) : relief.newDueOn} by disaster relief (IRC 7508A): ${relief.name}`;
}

/** The reliefs the firms have recorded, oldest first. */
export async function reliefsOf(tx: DbExecutor, firmIds: readonly string[]): Promise<Map<string, Relief[]>> {
  const byFirm = new Map<string, Relief[]>();
  if (firmIds.length === 0) return byFirm;
  const rows = await tx
    .select({
      firmId: disasterReliefs.firmId,
      id: disasterReliefs.id,
      name: disasterReliefs.name,
      states: disasterReliefs.states,
      ruleIds: disasterReliefs.ruleIds,
      windowStart: disasterReliefs.windowStart,
      windowEnd: disasterReliefs.windowEnd,
      newDueOn: disasterReliefs.newDueOn,
      sourceUrl: disasterReliefs.sourceUrl,
    })
    .from(disasterReliefs)
    .where(inArray(disasterReliefs.firmId, [...firmIds]))
    .orderBy(asc(disasterReliefs.createdAt), asc(disasterReliefs.id));
  for (const { firmId, ...relief } of rows) byFirm.set(firmId, [...(byFirm.get(firmId) ?? []), relief]);
  return byFirm;
}
