import { z } from "zod";
import { emailSchema, registerSchema } from "./auth";
import { planIds, subscriptionStatuses } from "./plans";
import "./validation";

/*
 * Billing's contract (issue 10, decision 0025). Card payments are optional: an installation with
 * Stripe configured takes a card at onboarding (a 14-day trial subscription whose setup intent the
 * browser confirms with Stripe's Payment Element); without it, onboarding says no card is needed
 * and creating the account is the last step.
 */

/** GET /api/billing/config (public): whether this installation takes cards, and Stripe's public key. */
export const billingConfigSchema = z.object({
  /** null when Stripe is not configured: the payment step then needs no card. */
  stripePublishableKey: z.string().nullable(),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;

/** POST /api/create-subscription-setup (public, rate-limited): S-API-07's payload. */
export const subscriptionSetupSchema = z.strictObject({
  email: emailSchema,
  fullName: registerSchema.shape.fullName,
  plan: z.enum(planIds, { error: "Choose a plan: starter, professional or enterprise" }),
});
export type SubscriptionSetupInput = z.infer<typeof subscriptionSetupSchema>;

/** S-ERR-06: the card form cannot start because the provider gave no setup intent to confirm. */
export const paymentNotInitializedMessage = "Failed to initialize payment. Please try again.";

/** Its answer: the client secret of the trial subscription's setup intent (S-API-07). */
export const subscriptionSetupResponseSchema = z.object({ clientSecret: z.string() });
export type SubscriptionSetupResponse = z.infer<typeof subscriptionSetupResponseSchema>;

/** GET /api/billing (super_admin only): the firm's plan and subscription as this installation knows them. */
export const billingSchema = z.object({
  plan: z.enum(planIds),
  subscriptionStatus: z.enum(subscriptionStatuses),
  trialEndsAt: z.iso.datetime(),
  /** Whether the firm's subscription is kept by Stripe (false on an installation without cards). */
  cardBilling: z.boolean(),
});
export type Billing = z.infer<typeof billingSchema>;

/** PUT /api/billing/plan (super_admin only): move the firm to another plan. */
export const changePlanSchema = z.strictObject({
  plan: z.enum(planIds, { error: "Choose a plan: starter, professional or enterprise" }),
});
export type ChangePlanInput = z.infer<typeof changePlanSchema>;
