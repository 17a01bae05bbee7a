import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { z } from "zod";
import {
  billingConfigSchema,
  billingSchema,
  changePlanSchema,
  subscriptionSetupResponseSchema,
  subscriptionSetupSchema,
} from "../../../shared/billing";
import type { Config } from "../../platform/config";
import { AppError } from "../../platform/errors";
import type { ZodTypeProvider } from "../../platform/http";
import { addressKey, type RateLimits, rateLimited } from "../../platform/rate-limit/rate-limit";
import { requireActor } from "../../tenancy/actor";
import {
  applyStripeEvent,
  type CardBilling,
  cardsNotConfiguredMessage,
  changePlan,
  createSubscriptionSetup,
  getBilling,
  SETUP_COOKIE,
} from "./billing.service";
import { setSetupCookie } from "./setup-cookie";

/** The payment step is public and each call makes a Stripe customer: 10 per client address in 10 minutes. */
export const setupRateLimit = { name: "billing-setup", max: 10, windowMs: 10 * 60_000 } as const;

const webhookAnswerSchema = z.object({
  received: z.literal(true),
  /** What the event did: applied, ignored (no firm, or a type we do not act on), stale, or duplicate. */
  outcome: z.enum(["applied", "ignored", "stale", "duplicate"]),
});

/** Billing's routes (issue 10, decision 0025): card payments with Stripe when it is configured. */
export async function billingRoutes(
  app: FastifyInstance,
  { config, cardBilling, rateLimits }: { config: Config; cardBilling: CardBilling | undefined; rateLimits: RateLimits },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Its own count, apart from the general API limit.
  const setupLimit = rateLimits.limit(setupRateLimit);

  api.get(
    "/api/billing/config",
    {
      config: { access: "public" },
      schema: {
        summary: "Whether this installation takes cards (Stripe's publishable key, or null: no card is needed)",
        response: { 200: billingConfigSchema },
      },
    },
    async () => ({ stripePublishableKey: config.stripe?.publishableKey ?? null }),
  );

  api.post(
    "/api/create-subscription-setup",
    {
      config: { access: "public" },
      onRequest: async (request) => {
        const limit = await setupLimit.hit(addressKey(request.ip));
        if (limit && !limit.allowed) throw rateLimited(limit);
      },
      schema: {
        summary:
          "The payment step: a Stripe customer and a 14-day trial subscription to the plan; answers its setup " +
          "intent's client secret and sets this browser's one-time setup cookie. A browser coming back with the " +
          "same details gets its open setup again (409 without card payments; 10 calls per address in 10 minutes)",
        body: subscriptionSetupSchema,
        response: { 200: subscriptionSetupResponseSchema },
      },
    },
    async (request, reply) => {
      if (!cardBilling) throw new AppError("CONFLICT", cardsNotConfiguredMessage);
      const setup = await createSubscriptionSetup({
        db: request.db,
        billing: cardBilling,
        input: request.body,
        token: request.cookies[SETUP_COOKIE],
        log: request.log,
      });
      setSetupCookie(reply, setup.token, setup.expiresAt);
      return { clientSecret: setup.clientSecret };
    },
  );

  api.get(
    "/api/billing",
    {
      config: { access: "billing.manage" },
      schema: { summary: "The firm's plan and subscription", response: { 200: billingSchema } },
    },
    async (request) => getBilling({ db: request.db, actor: requireActor(request) }),
  );

  api.put(
    "/api/billing/plan",
    {
      config: { access: "billing.manage" },
      schema: {
        summary:
          "Move the firm to another plan (with Stripe, the subscription's price too); 409 when the firm has more " +
          "active clients than the plan allows",
        body: changePlanSchema,
        response: { 200: billingSchema },
      },
    },
    async (request) =>
      changePlan({
        db: request.db,
        billing: cardBilling,
        actor: requireActor(request),
        plan: request.body.plan,
        log: request.log,
      }),
  );

  // Stripe signs the exact bytes it sends, so this one route reads its body as text: its own
  // content-type parser, in a scope of its own, leaves the rest of the API's JSON parsing alone.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/stripe/webhook",
      {
        config: { access: "public", webhook: true },
        schema: {
          summary:
            "Stripe's webhook: the raw JSON event, verified with the Stripe-Signature header; keeps the firm's " +
            "subscription status and trial end in step. A replayed event is acknowledged and not applied again " +
            "(404 without card payments)",
          response: { 200: webhookAnswerSchema },
        },
      },
      async (request) => {
        if (!cardBilling) throw new AppError("NOT_FOUND", cardsNotConfiguredMessage);
        const signature = request.headers["stripe-signature"];
        if (typeof signature !== "string" || typeof request.body !== "string") {
          throw new AppError("BAD_REQUEST", "A Stripe event needs its JSON body and Stripe-Signature header");
        }
        let event: Stripe.Event;
        try {
          event = cardBilling.stripe.webhooks.constructEvent(request.body, signature, cardBilling.config.webhookSecret);
        } catch (error) {
          if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
            request.log.warn({ err: error }, "Stripe webhook: signature refused");
            throw new AppError("BAD_REQUEST", `The webhook signature could not be verified: ${error.message}`);
          }
          throw error;
        }
        const outcome = await applyStripeEvent(request.db, event, request.log);
        request.log.info({ event: event.id, type: event.type, outcome }, "Stripe webhook event");
        return { received: true as const, outcome };
      },
    );
  });
}
