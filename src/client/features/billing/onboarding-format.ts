import { addDays } from "../../../shared/dates";
import { type Plan, trialDays } from "../../../shared/plans";

/** The trial ends, and the first monthly charge falls, 14 days from today: on day 15 (S-CONST-03). */
export function trialEndDate(today: Date = new Date()): Date {
  return addDays(today, trialDays);
}

const longDate = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric" });

/** "December 7, 2026". */
export function formatLongDate(date: Date): string {
  return longDate.format(date);
}

/** "$249/mo". */
export function formatMonthlyPrice(plan: Plan): string {
  return `$${plan.monthlyPriceUsd}/mo`;
}

/** What a plan card lists (S-PLANS-07..09): its limits, what every plan has, and its support. */
export function planFeatures(plan: Plan): string[] {
  return [
    plan.maxClients === null ? "Unlimited clients" : `Up to ${plan.maxClients} clients`,
    plan.maxCustomTemplates === null
      ? "Unlimited custom templates"
      : `Up to ${plan.maxCustomTemplates} custom templates`,
    "Unlimited users",
    "All features included",
    "Role-based access",
    plan.support,
  ];
}
