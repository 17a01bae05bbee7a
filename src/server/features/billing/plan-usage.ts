import { and, count, eq, isNull } from "drizzle-orm";
import { type Plan, plans } from "../../../shared/plans";
import type { DbExecutor } from "../../platform/db/database";
import { clients, firms, taskTemplates } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";

/*
 * What a firm uses of its plan's limits, counted one way for adding a client or a template and
 * for changing plans: active clients (archived ones do not count) and custom templates (those
 * not added from the library; deleted ones do not count). Callers hold the firm's lock, so the
 * count cannot change between the check and the write.
 */

type Meter = {
  limit: (plan: Plan) => number | null;
  count: (tx: DbExecutor, firmId: string) => Promise<number>;
  /** Refusing one more under the firm's own plan. */
  full: (plan: Plan, limit: number) => string;
  /** Refusing a plan the firm already uses more of than it allows. */
  over: (plan: Plan, limit: number, used: number) => string;
};

const meters = {
  clients: {
    limit: (plan) => plan.maxClients,
    count: async (tx, firmId) => {
      const [row] = await tx
        .select({ n: count() })
        .from(clients)
        .where(and(eq(clients.firmId, firmId), isNull(clients.archivedAt)));
      return row?.n ?? 0;
    },
    full: (plan, limit) => `Your ${plan.name} plan allows up to ${limit} clients. Upgrade to add more.`,
    over: (plan, limit, used) =>
      `The ${plan.name} plan allows up to ${limit} active clients; your firm has ${used}. Archive clients first or choose a larger plan.`,
  },
  customTemplates: {
    limit: (plan) => plan.maxCustomTemplates,
    count: async (tx, firmId) => {
      const [row] = await tx
        .select({ n: count() })
        .from(taskTemplates)
        .where(
          and(eq(taskTemplates.firmId, firmId), isNull(taskTemplates.deletedAt), isNull(taskTemplates.libraryKey)),
        );
      return row?.n ?? 0;
    },
    full: (plan, limit) => `Your ${plan.name} plan allows up to ${limit} custom templates. Upgrade to add more.`,
    over: (plan, limit, used) =>
      `The ${plan.name} plan allows up to ${limit} custom task templates; your firm has ${used}. Delete templates first or choose a larger plan.`,
  },
} satisfies Record<string, Meter>;

export type MeterName = keyof typeof meters;

/** Refuses (403) one more client or custom template when the firm's plan is full. */
export async function assertRoomFor(tx: DbExecutor, firmId: string, name: MeterName): Promise<void> {
  const meter: Meter = meters[name];
  const [firm] = await tx.select({ plan: firms.plan }).from(firms).where(eq(firms.id, firmId));
  const plan = plans[firm?.plan ?? "starter"];
  const limit = meter.limit(plan);
  if (limit !== null && (await meter.count(tx, firmId)) >= limit) {
    throw new AppError("FORBIDDEN", meter.full(plan, limit));
  }
}

/** What the firm's plan allows of a meter (null: no limit) and what it uses now, for adding many at once. */
export async function meterUse(
  tx: DbExecutor,
  firmId: string,
  name: MeterName,
): Promise<{ plan: Plan; limit: number | null; used: number }> {
  const meter: Meter = meters[name];
  const [firm] = await tx.select({ plan: firms.plan }).from(firms).where(eq(firms.id, firmId));
  const plan = plans[firm?.plan ?? "starter"];
  return { plan, limit: meter.limit(plan), used: await meter.count(tx, firmId) };
}

/** Refuses (409) a plan whose limits the firm's current use already exceeds. */
export async function assertPlanFits(tx: DbExecutor, firmId: string, plan: Plan): Promise<void> {
  for (const meter of Object.values(meters) as Meter[]) {
    const limit = meter.limit(plan);
    if (limit === null) continue;
    const used = await meter.count(tx, firmId);
    if (used > limit) throw new AppError("CONFLICT", meter.over(plan, limit, used));
  }
}
