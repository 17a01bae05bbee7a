import { z } from "zod";
import { planIds, subscriptionStatuses } from "./plans";
import { roles } from "./roles";

/*
 * What the API answers about users. The server serializes every answer through these schemas,
 * so a field not listed here (a password hash, a session token) can never leave it.
 */

/** Who a user is: what every answer about a user shows. */
const userIdentitySchema = z.object({
  id: z.uuid(),
  username: z.string(),
  fullName: z.string(),
  email: z.string().nullable(),
  role: z.enum(roles),
});

/** A user as the API lists them. */
export const userSummarySchema = userIdentitySchema.extend({
  disabled: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** GET /api/auth/me: the signed-in user and their firm. */
export const currentUserSchema = userIdentitySchema.extend({
  firm: z.object({
    id: z.uuid(),
    name: z.string(),
    plan: z.enum(planIds),
    trialEndsAt: z.iso.datetime(),
    subscriptionStatus: z.enum(subscriptionStatuses),
  }),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const userClientLinkSchema = z.object({ userId: z.uuid(), clientId: z.uuid() });
export type UserClientLink = z.infer<typeof userClientLinkSchema>;

/** POST /api/user-clients/assign: the user's clients after the change. */
export const userAssignmentSchema = z.object({ userId: z.uuid(), clientIds: z.array(z.uuid()) });
export type UserAssignment = z.infer<typeof userAssignmentSchema>;
