import { z } from "zod";
import "./validation";
import { planIds } from "./plans";

/*
 * One schema per operation, shared by the forms and the routes. Messages are those of the S-VAL
 * requirements where they give one. Objects are strict: an unknown field is an error, never written.
 */

export const usernameSchema = z
  .string({ error: "Username must be at least 3 characters" })
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(50, "Username must be at most 50 characters")
  .regex(/^[A-Za-z0-9._-]+$/, "Username may contain only letters, digits, dots, dashes and underscores");

/** The longest password any form or route takes. */
export const maxPasswordLength = 256;

export const passwordSchema = z
  .string({ error: "Password must be at least 6 characters" })
  .min(6, "Password must be at least 6 characters")
  .max(maxPasswordLength, `Password must be at most ${maxPasswordLength} characters`);

export const emailSchema = z
  .string({ error: "Valid email is required" })
  .trim()
  .max(254, "Valid email is required")
  .pipe(z.email("Valid email is required"));

export const registerSchema = z.strictObject({
  fullName: z
    .string({ error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(120, "Full name must be at most 120 characters"),
  email: emailSchema,
  username: usernameSchema,
  password: passwordSchema,
  subscriptionPlan: z.enum(planIds, { error: "Choose a plan: starter, professional or enterprise" }),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/**
 * A readable companion of the HttpOnly session cookie, set and cleared with it: it holds no secret,
 * only tells the app that this browser may be signed in. Without it the app knows there is no
 * session and does not ask GET /api/auth/me, whose 401 the browser would log as a failed request.
 */
export const SIGNED_IN_COOKIE = "tendwell_signed_in";

const loginMessage = "Please enter both username and password";
/** The one answer to a failed sign-in, whether the user exists or not (S-ERR-03). */
export const invalidLoginMessage = "Invalid username or password";
export const loginSchema = z.strictObject({
  username: z.string({ error: loginMessage }).trim().min(1, loginMessage).max(256, invalidLoginMessage),
  password: z.string({ error: loginMessage }).min(1, loginMessage).max(256, invalidLoginMessage),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const changePasswordSchema = z.strictObject({
  currentPassword: z
    .string({ error: "Enter your current password" })
    .min(1, "Enter your current password")
    .max(maxPasswordLength),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The change-password form: the API's fields and the new password typed twice (S-VAL-05's message). */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string({ error: "Passwords do not match" }) })
  .refine((value) => value.confirmPassword === value.newPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
export type ChangePasswordFormInput = z.infer<typeof changePasswordFormSchema>;
