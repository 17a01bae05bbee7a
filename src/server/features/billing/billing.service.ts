import { and, eq, gt, isNull, sql } from "drizzle-orm";
import Stripe from "stripe";
import { type Billing, paymentNotInitializedMessage, type SubscriptionSetupInput } from "../../../shared/billing";
import { addDays } from "../../../shared/dates";
import { type PlanId, plans, type SubscriptionStatus, subscriptionStatuses, trialDays } from "../../../shared/plans";
import type { StripeConfig } from "../../platform/config";
import type { Database, DbExecutor } from "../../platform/db/database";
import { inAnyScope, inFirm } from "../../platform/db/firm-scope";
import { billingSetups, firms, stripeEvents } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { hashToken, newToken } from "../../platform/tokens";
import type { Actor } from "../../tenancy/actor";
import { lockFirm, lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { assertPlanFits } from "./plan-usage";
import { callStripe, providerUnavailableMessage, type StripeClient } from "./stripe";

/** Card billing as the routes use it: the configuration and the one SDK client built from it. */
export type CardBilling = { config: StripeConfig; stripe: StripeClient };

type Log = { warn: (details: object, message: string) => void; info: (details: object, message: string) => void };

/** The cookie that lets only the browser that started a card setup claim it at registration. */
export const SETUP_COOKIE = "tendwell_billing_setup";
/** How long a started card setup can be claimed by a registration. */
export const setupLifetimeMs = 24 * 3_600_000;

export const setupNotFoundMessage = "Start the payment step again: the card setup was not found or has expired";
export const cardsNotConfiguredMessage = "Card payments are not set up on this installation";

/**
 * The payment step (S-PAY-10..12, S-API-07): a Stripe customer and a subscription to the plan's
 * price with a 14-day trial, which Stripe cancels at the trial's end if no card was saved. Its
 * pending setup intent's client secret goes to the browser's Payment Element; the setup is kept,
 * under a hashed one-time token, for the registration that follows.
 *
 * `token` is the browser's setup cookie from an earlier visit of the step (decision 0025). For the
 * same name, email and plan, that setup is answered again while its card setup is still open, so
 * coming back to the step makes no new customer; for other details, or a setup Stripe has closed,
 * the earlier customer is deleted (which cancels its trial) before the new one is made.
 */
export async function createSubscriptionSetup(options: {
  db: Database;
  billing: CardBilling;
  input: SubscriptionSetupInput;
  token: string | undefined;
  log: Log;
}): Promise<{ clientSecret: string; token: string; expiresAt: Date }> {
  const { db, billing, input, log } = options;
  const earlier = options.token ? await findOpenSetup(db, options.token) : undefined;
  if (earlier && options.token) {
    const same = earlier.email === input.email && earlier.fullName === input.fullName && earlier.plan === input.plan;
    const clientSecret = same ? await openClientSecret(billing, earlier.stripeSubscriptionId, log) : null;
    if (clientSecret) return { clientSecret, token: options.token, expiresAt: earlier.expiresAt };
    await discardSetup(db, billing, earlier, log);
  }
  const { stripe, config } = billing;
  const customer = await callStripe(log, "creating the customer", () =>
    stripe.customers.create({
      email: input.email,
      name: input.fullName,
      metadata: { plan: input.plan, source: "tendwell-onboarding" },
    }),
  );
  const subscription = await callStripe(log, "creating the trial subscription", () =>
    stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: config.prices[input.plan] }],
      trial_period_days: trialDays,
      payment_settings: { save_default_payment_method: "on_subscription", payment_method_types: ["card"] },
      trial_settings: { end_behavior: { missing_payment_method: "cancel" } },
      metadata: { plan: input.plan },
      expand: ["pending_setup_intent"],
    }),
  );
  const clientSecret = pendingClientSecret(subscription);
  if (!clientSecret) {
    log.warn({ subscription: subscription.id }, "Stripe: the trial subscription has no pending setup intent");
    throw new AppError("SERVICE_UNAVAILABLE", paymentNotInitializedMessage);
  }
  const token = newToken();
  const expiresAt = new Date(Date.now() + setupLifetimeMs);
  await db.insert(billingSetups).values({
    tokenHash: hashToken(token),
    email: input.email,
    fullName: input.fullName,
    plan: input.plan,
    stripeCustomerId: customer.id,
    stripeSubscriptionId: subscription.id,
    expiresAt,
  });
  return { clientSecret, token, expiresAt };
}

/** A setup intent still waiting for its card: the client secret of the subscription's, or null. */
function pendingClientSecret(subscription: Stripe.Subscription): string | null {
  const intent = subscription.pending_setup_intent;
  if (typeof intent !== "object" || intent === null) return null;
  const open = ["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status);
  return open ? intent.client_secret : null;
}

/** The browser's setup behind `token`: not yet claimed by a registration, not expired. */
async function findOpenSetup(db: Database, token: string) {
  const [setup] = await db
    .select()
    .from(billingSetups)
    .where(
      and(
        eq(billingSetups.tokenHash, hashToken(token)),
        isNull(billingSetups.claimedAt),
        gt(billingSetups.expiresAt, new Date()),
      ),
    );
  return setup;
}

/**
 * The open card setup of an earlier visit's trial subscription, while it is still trialing; null
 * when it is not, or when the subscription is gone from Stripe (deleted in its dashboard).
 */
async function openClientSecret(billing: CardBilling, subscriptionId: string, log: Log): Promise<string | null> {
  const subscription = await callStripe(log, "reading the trial subscription", async () => {
    try {
      return await billing.stripe.subscriptions.retrieve(subscriptionId, { expand: ["pending_setup_intent"] });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing") return null;
      throw error;
    }
  });
  return subscription?.status === "trialing" ? pendingClientSecret(subscription) : null;
}

/**
 * An earlier visit's setup that the new one replaces: its Stripe customer is deleted, which
 * cancels its trial at once. Stripe failing here does not stop the new setup: the old trial then
 * cancels itself at its end, as it would have without a card.
 */
async function discardSetup(
  db: Database,
  billing: CardBilling,
  setup: typeof billingSetups.$inferSelect,
  log: Log,
): Promise<void> {
  await db.delete(billingSetups).where(and(eq(billingSetups.id, setup.id), isNull(billingSetups.claimedAt)));
  try {
    await callStripe(log, "deleting a replaced setup's customer", () =>
      billing.stripe.customers.del(setup.stripeCustomerId),
    );
  } catch {
    log.info(
      { customer: setup.stripeCustomerId },
      "Stripe: a replaced setup's customer was kept; its trial ends unpaid",
    );
  }
}

export type SetupLink = {
  setupId: string;
  stripeCustomerId: string;
  stripeSubscriptionId: string;
  subscriptionStatus: SubscriptionStatus;
  trialEndsAt: Date;
};

/**
 * Registration with cards on (decision 0025): the browser's own setup, unclaimed and unexpired,
 * for the same email (ignoring case) and plan; then the subscription as Stripe holds it now.
 */
export async function findSetupForRegistration(options: {
  db: Database;
  billing: CardBilling;
  token: string | undefined;
  email: string;
  plan: PlanId;
  log: Log;
}): Promise<SetupLink> {
  const { db, billing, token, log } = options;
  const setup = token ? await findOpenSetup(db, token) : undefined;
  if (!setup || setup.email.toLowerCase() !== options.email.toLowerCase() || setup.plan !== options.plan) {
    throw new AppError("BAD_REQUEST", setupNotFoundMessage);
  }
  const subscription = await callStripe(log, "reading the trial subscription", () =>
    billing.stripe.subscriptions.retrieve(setup.stripeSubscriptionId),
  );
  return {
    setupId: setup.id,
    stripeCustomerId: setup.stripeCustomerId,
    stripeSubscriptionId: setup.stripeSubscriptionId,
    subscriptionStatus: knownStatus(subscription.status) ?? "trialing",
    trialEndsAt: subscription.trial_end ? new Date(subscription.trial_end * 1000) : addDays(new Date(), trialDays),
  };
}

/** Marks a setup claimed by the new firm, in the registration's transaction: one use only. */
export async function claimSetup(tx: DbExecutor, setupId: string, firmId: string): Promise<void> {
  const claimed = await tx
    .update(billingSetups)
    .set({ claimedAt: new Date(), firmId })
    .where(and(eq(billingSetups.id, setupId), isNull(billingSetups.claimedAt)))
    .returning({ id: billingSetups.id });
  if (claimed.length === 0) throw new AppError("BAD_REQUEST", setupNotFoundMessage);
}

const knownStatus = (status: string): SubscriptionStatus | undefined =>
  (subscriptionStatuses as readonly string[]).includes(status) ? (status as SubscriptionStatus) : undefined;

type FirmBilling = Pick<
  typeof firms.$inferSelect,
  "plan" | "subscriptionStatus" | "trialEndsAt" | "stripeSubscriptionId" | "stripeCustomerId"
>;

const toBilling = (firm: FirmBilling): Billing => ({
  plan: firm.plan,
  subscriptionStatus: firm.subscriptionStatus,
  trialEndsAt: firm.trialEndsAt.toISOString(),
  cardBilling: firm.stripeSubscriptionId !== null,
});

async function findFirmBilling(db: DbExecutor, firmId: string): Promise<FirmBilling> {
  const [firm] = await db
    .select({
      plan: firms.plan,
      subscriptionStatus: firms.subscriptionStatus,
      trialEndsAt: firms.trialEndsAt,
      stripeSubscriptionId: firms.stripeSubscriptionId,
      stripeCustomerId: firms.stripeCustomerId,
    })
    .from(firms)
    .where(eq(firms.id, firmId));
  if (!firm) throw new AppError("NOT_FOUND", "Firm not found");
  return firm;
}

export async function getBilling(options: { db: Database; actor: Actor }): Promise<Billing> {
  return toBilling(await findFirmBilling(options.db, options.actor.firmId));
}

/**
 * Moves the firm to another plan. A plan whose client limit is below the firm's active clients is
 * refused (409); with a Stripe subscription its item moves to the new plan's price first, so the
 * firm's plan and what Stripe charges never disagree.
 */
export async function changePlan(options: {
  db: Database;
  billing: CardBilling | undefined;
  actor: Actor;
  plan: PlanId;
  log: Log;
}): Promise<Billing> {
  const { db, billing, actor, plan, log } = options;
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "billing.manage");
    const before = await findFirmBilling(tx, actor.firmId);
    if (before.plan === plan) return toBilling(before);
    const target = plans[plan];
    await assertPlanFits(tx, actor.firmId, target);
    const subscriptionId = before.stripeSubscriptionId;
    if (subscriptionId !== null) {
      if (!billing) throw new AppError("CONFLICT", `${cardsNotConfiguredMessage}: the plan cannot be changed here`);
      const subscription = await callStripe(log, "reading the subscription", () =>
        billing.stripe.subscriptions.retrieve(subscriptionId),
      );
      const item = subscription.items.data[0];
      if (!item) throw new AppError("SERVICE_UNAVAILABLE", providerUnavailableMessage);
      await callStripe(log, "changing the subscription's price", () =>
        billing.stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price: billing.config.prices[plan] }],
          proration_behavior: "create_prorations",
          metadata: { plan },
        }),
      );
    }
    const [row] = await tx
      .update(firms)
      .set({ plan, updatedAt: new Date() })
      .where(eq(firms.id, actor.firmId))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", "Firm not found");
    await recordAudit(tx, actor, {
      action: "billing.plan_changed",
      entityType: "firm",
      entityId: actor.firmId,
      before: { plan: before.plan },
      after: { plan: row.plan, ...(subscriptionId ? { stripeSubscriptionId: subscriptionId } : {}) },
    });
    return toBilling(row);
  });
}

/** The subscription events that move a firm's status; everything else is acknowledged only. */
const subscriptionEvents = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
]);

export type WebhookOutcome = "applied" | "ignored" | "stale" | "duplicate";

/**
 * A verified Stripe event (decision 0025). Each event id is recorded in the same transaction as
 * its effect, so a replayed or retried event is never applied twice ("duplicate"). A subscription
 * event updates the firm holding that subscription (or, failing that, that customer): its status
 * and trial end, with an audit event that has no actor (the system). An event older than the last
 * one applied to the same subscription is recorded as "stale" and not applied; an event for no
 * firm we know, or of a type we do not act on, is "ignored". All are acknowledged with a 200.
 */
/**
 * The firm holding a subscription, else the customer's firm with none recorded yet: a database
 * function answers it as the tables' owner (migration 0014), so the app role never reads across firms.
 */
async function firmOfStripeSubscription(db: Database, subscription: Stripe.Subscription): Promise<string | undefined> {
  const customerId = typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id;
  const { rows } = await inAnyScope(db).execute<{ firm_id: string | null }>(
    sql`select firm_of_stripe_subscription(${subscription.id}, ${customerId}) as firm_id`,
  );
  return rows[0]?.firm_id ?? undefined;
}

export async function applyStripeEvent(db: Database, event: Stripe.Event, log: Log): Promise<WebhookOutcome> {
  const subscription = subscriptionEvents.has(event.type) ? (event.data.object as Stripe.Subscription) : undefined;
  const stripeCreatedAt = new Date(event.created * 1000);
  // Which firm an event is for is known only from the subscription it names; the event is applied in that firm.
  const firmId = subscription ? await firmOfStripeSubscription(db, subscription) : undefined;
  return (firmId ? inFirm(db, firmId) : db).transaction(async (tx) => {
    const recorded = await tx
      .insert(stripeEvents)
      .values({
        id: event.id,
        type: event.type,
        stripeSubscriptionId: subscription?.id ?? null,
        stripeCreatedAt,
        outcome: "ignored",
      })
      .onConflictDoNothing({ target: stripeEvents.id })
      .returning({ id: stripeEvents.id });
    if (recorded.length === 0) return "duplicate";
    if (!subscription) return "ignored";

    const [firm] = firmId ? await tx.select().from(firms).where(eq(firms.id, firmId)) : [];
    if (!firm) {
      log.info({ event: event.id, subscription: subscription.id }, "Stripe event for no known firm: acknowledged");
      return "ignored";
    }
    const status = knownStatus(subscription.status);
    if (!status) {
      log.warn({ event: event.id, status: subscription.status }, "Stripe event with an unknown status: acknowledged");
      return "ignored";
    }
    await lockFirm(tx, firm.id);
    const [newer] = await tx
      .select({ id: stripeEvents.id })
      .from(stripeEvents)
      .where(
        and(
          eq(stripeEvents.stripeSubscriptionId, subscription.id),
          eq(stripeEvents.outcome, "applied"),
          gt(stripeEvents.stripeCreatedAt, stripeCreatedAt),
        ),
      )
      .limit(1);
    if (newer) {
      await tx.update(stripeEvents).set({ outcome: "stale", firmId: firm.id }).where(eq(stripeEvents.id, event.id));
      return "stale";
    }
    const trialEndsAt = subscription.trial_end ? new Date(subscription.trial_end * 1000) : firm.trialEndsAt;
    const [current] = await tx.select().from(firms).where(eq(firms.id, firm.id));
    if (!current) return "ignored";
    if (
      current.subscriptionStatus !== status ||
      current.trialEndsAt.getTime() !== trialEndsAt.getTime() ||
      current.stripeSubscriptionId !== subscription.id
    ) {
      await tx
        .update(firms)
        .set({
          subscriptionStatus: status,
          trialEndsAt,
          stripeSubscriptionId: subscription.id,
          updatedAt: new Date(),
        })
        .where(eq(firms.id, firm.id));
      await recordAudit(
        tx,
        { firmId: firm.id, userId: null, ip: null, userAgent: null },
        {
          action: "billing.subscription_updated",
          entityType: "firm",
          entityId: firm.id,
          before: { subscriptionStatus: current.subscriptionStatus, trialEndsAt: current.trialEndsAt.toISOString() },
          after: {
            subscriptionStatus: status,
            trialEndsAt: trialEndsAt.toISOString(),
            stripeEvent: event.id,
            stripeEventType: event.type,
          },
        },
      );
    }
    await tx.update(stripeEvents).set({ outcome: "applied", firmId: firm.id }).where(eq(stripeEvents.id, event.id));
    return "applied";
  });
}
