import { z } from "zod";
import { registerSchema } from "./auth";
import "./validation";

/*
 * The /signup form (S-SIGNUP-02, S-VAL-01..07): registration's own field rules, without the plan
 * (chosen on the next screen) and with the password typed twice. Its keys run in S-VAL-06's order,
 * so the first issue zod reports is the one message the form shows; the confirmation is checked
 * last, and only once every field is valid.
 */
export const signupFieldOrder = ["fullName", "email", "username", "password", "confirmPassword"] as const;
export type SignupField = (typeof signupFieldOrder)[number];

export const signupFormSchema = registerSchema
  .omit({ subscriptionPlan: true })
  .extend({ confirmPassword: z.string({ error: "Passwords do not match" }) })
  .refine((value) => value.confirmPassword === value.password, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
export type SignupFormInput = z.input<typeof signupFormSchema>;
export type SignupFormOutput = z.output<typeof signupFormSchema>;

/** What the onboarding keeps in session storage between its screens: never the password (S-SIGNUP-07). */
export const signupDataSchema = registerSchema.pick({ fullName: true, email: true, username: true });
export type SignupData = z.infer<typeof signupDataSchema>;
