import { z } from "zod";
import { civilDateSchema } from "./date-range";
import { planIds, subscriptionStatuses } from "./plans";
import { isValidTimeZone } from "./recurrence";
import { versionSchema } from "./versions";
import "./validation";

/** The longest name a closed day may have. */
export const maxClosedDayNameLength = 100;

/** A day the firm is closed, which its internal targets skip. */
export const closedDaySchema = z.strictObject({
  date: civilDateSchema("date"),
  name: z
    .string({ error: "Name the closed day" })
    .trim()
    .min(1, "Name the closed day")
    .max(maxClosedDayNameLength, `A closed day's name must be at most ${maxClosedDayNameLength} characters`),
});
export type ClosedDay = z.infer<typeof closedDaySchema>;

/** The most closed days a firm keeps. */
export const maxClosedDays = 100;

/** An internal target is this many business days before the due date, at least and at most. */
export const minInternalTargetDays = 1;
export const maxInternalTargetDays = 60;
const internalTargetMessage = `The internal target is a number of business days from ${minInternalTargetDays} to ${maxInternalTargetDays}, or none`;

/**
 * PATCH /api/firm: the firm's name, the time zone its due dates and "today" are computed in, and
 * for statutory work its internal target (business days before the due date; null for none) and
 * its own closed days.
 */
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
    internalTargetDays: z
      .number({ error: internalTargetMessage })
      .int("The internal target is a whole number of business days")
      .min(minInternalTargetDays, internalTargetMessage)
      .max(maxInternalTargetDays, internalTargetMessage)
      .nullable()
      .optional(),
    closedDays: z
      .array(closedDaySchema, { error: "closedDays is a list of { date, name }" })
      .max(maxClosedDays, `A firm keeps at most ${maxClosedDays} closed days`)
      .optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), "Nothing to change");
export type UpdateFirmInput = z.infer<typeof updateFirmSchema>;

export const firmSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  plan: z.enum(planIds),
  trialEndsAt: z.iso.datetime(),
  subscriptionStatus: z.enum(subscriptionStatuses),
  timeZone: z.string(),
  /** Statutory work falls due for the firm this many business days before its due date; null for none. */
  internalTargetDays: z.number().int().nullable(),
  /** The firm's own closed days, by date. */
  closedDays: z.array(z.object({ date: z.string(), name: z.string() })),
  version: versionSchema,
});
export type Firm = z.infer<typeof firmSchema>;
