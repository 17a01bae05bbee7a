import { sql } from "drizzle-orm";
import { roleLabels, scopeOf } from "../../../shared/permissions";
import type { ReportDays, UserActivity } from "../../../shared/reports";
import type { Database } from "../../platform/db/database";
import { AppError } from "../../platform/errors";
import type { Actor } from "../../tenancy/actor";
import { userWork } from "../reports/user-work";
import { getUser } from "./users.service";

/*
 * The user profile's activity (S-UPROF-02..10, docs/design/people-screens.md): the user's work
 * over a range, counted exactly as their user audit counts it (reports/user-work.ts, S-EDGE-03),
 * and the clients assigned to them. Archived clients leave the list, as they leave every list.
 */

type ClientRow = {
  id: string;
  name: string;
  industry: string | null;
  status: "active" | "inactive" | "prospect";
};

/**
 * Everything the profile shows about `userId` over the last `days` days, as of `now`. S-ROLE-16:
 * super admins and admins see anyone's; a `user` sees only their own (the user audit is "self"
 * for them), since another user's work lies on clients they may not see.
 */
export async function getUserActivity(options: {
  db: Database;
  actor: Actor;
  userId: string;
  days: ReportDays;
  now?: Date;
}): Promise<UserActivity> {
  const { db, actor, userId, days, now = new Date() } = options;
  // Firm-scoped: another firm's id is a 404, before any rule about whose activity it is.
  const user = await getUser({ db, actor, userId });
  if (scopeOf(actor.role, "reports.userAudit") === "self" && user.id !== actor.userId) {
    throw new AppError("FORBIDDEN", `Your role (${roleLabels[actor.role]}) allows you to see only your own activity`);
  }
  const { firmId } = actor;
  const [work, clientRows] = await Promise.all([
    userWork({ db, firmId, userId, days, now }),
    db.execute<ClientRow>(sql`
      select c.id, c.name, c.industry, c.status
      from user_clients uc
      join clients c on c.firm_id = uc.firm_id and c.id = uc.client_id and c.archived_at is null
      where uc.firm_id = ${firmId} and uc.user_id = ${userId}
      order by c.name, c.id`),
  ]);
  return {
    user: {
      id: user.id,
      username: user.username,
      fullName: user.fullName,
      email: user.email,
      role: user.role,
      disabled: user.disabled,
      createdAt: user.createdAt,
    },
    range: work.range,
    totals: work.totals,
    tasks: work.tasks,
    assignedClients: clientRows.rows.map((row) => ({
      id: row.id,
      name: row.name,
      industry: row.industry,
      status: row.status,
    })),
  };
}
