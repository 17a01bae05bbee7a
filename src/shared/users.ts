import type { PlanId, SubscriptionStatus } from "./plans";
import type { Role } from "./roles";

/** A user as the API shows them: never a password hash or a session token. */
export type UserSummary = {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  role: Role;
  disabled: boolean;
  createdAt: string;
};

/** GET /api/auth/me */
export type CurrentUser = {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  role: Role;
  firm: {
    id: string;
    name: string;
    plan: PlanId;
    trialEndsAt: string;
    subscriptionStatus: SubscriptionStatus;
  };
};

export type UserClientLink = { userId: string; clientId: string };
