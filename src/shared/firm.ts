import { z } from "zod";
import { planIds, subscriptionStatuses } from "./plans";
import { isValidTimeZone } from "./recurrence";
import { versionSchema } from "./versions";
import "./validation";

/** PATCH /api/firm: the firm's name and the time zone its due dates and "today" are computed in. */
export const updateFirmSchema = z
  .strictObject({
    name: z
      .string({ error: "Firm name is required" })
      .trim()
      .min(1, "Firm name is required")
      .max(200, "Firm name must be at most 200 characters")
      .optional(),
    timeZone: z
      .string({ error: "Choose a time zone" })
      .max(64, "Choose a time zone from the list")
      .refine(isValidTimeZone, "Choose a time zone from the list")
      .optional(),
  })
  .refine((value) => value.name !== undefined || value.timeZone !== undefined, "Nothing to change");
export type UpdateFirmInput = z.infer<typeof updateFirmSchema>;

export const firmSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  plan: z.enum(planIds),
  trialEndsAt: z.iso.datetime(),
  subscriptionStatus: z.enum(subscriptionStatuses),
  timeZone: z.string(),
  version: versionSchema,
});
export type Firm = z.infer<typeof firmSchema>;
