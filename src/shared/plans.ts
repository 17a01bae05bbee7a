/**
 * The one source of truth for plans: the landing page, onboarding and limit enforcement all
 * read this (S-PLANS-07, S-CONST-21). `null` means unlimited.
 */
export const planIds = ["starter", "professional", "enterprise"] as const;
export type PlanId = (typeof planIds)[number];

export type Plan = {
  id: PlanId;
  name: string;
  monthlyPriceUsd: number;
  description: string;
  maxClients: number | null;
  maxCustomTemplates: number | null;
  support: string;
  popular: boolean;
};

export const plans: Record<PlanId, Plan> = {
  starter: {
    id: "starter",
    name: "Starter",
    monthlyPriceUsd: 149,
    description: "For small practices getting their client work in order.",
    maxClients: 100,
    maxCustomTemplates: 20,
    support: "Email support",
    popular: false,
  },
  professional: {
    id: "professional",
    name: "Professional",
    monthlyPriceUsd: 249,
    description: "For growing firms that run recurring work across a team.",
    maxClients: 250,
    maxCustomTemplates: 50,
    support: "Priority email support",
    popular: true,
  },
  enterprise: {
    id: "enterprise",
    name: "Enterprise",
    monthlyPriceUsd: 319,
    description: "For established firms with many clients and custom needs.",
    maxClients: null,
    maxCustomTemplates: null,
    support: "Priority phone support, custom integrations and a dedicated account manager",
    popular: false,
  },
};

export const defaultPlanId: PlanId = "professional";
export const trialDays = 14;

/** Stripe's subscription states, plus `trialing` before any card is on file. */
export const subscriptionStatuses = [
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "incomplete",
  "incomplete_expired",
  "paused",
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
