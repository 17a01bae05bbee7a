import { z } from "zod";
import { versionSchema } from "./versions";
import "./validation";
import { passwordSchema, usernameSchema } from "./auth";
import { planIds, subscriptionStatuses } from "./plans";
import { roles } from "./roles";

/* The new-user form's rules are S-VAL-20..23's; the operation schemas are strict objects. */
const roleSchema = z.enum(roles, { error: "Role must be super_admin, admin or user" });

const fullNameSchema = z
  .string({ error: "Full name is required" })
  .trim()
  .min(2, "Full name is required")
  .max(120, "Full name must be at most 120 characters");

export const createUserSchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  fullName: fullNameSchema,
  role: roleSchema.default("user"),
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

export const updateUserSchema = z
  .strictObject({
    fullName: fullNameSchema.optional(),
    role: roleSchema.optional(),
    disabled: z.boolean({ error: "disabled must be true or false" }).optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Nothing to change");
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

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
  version: versionSchema,
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
