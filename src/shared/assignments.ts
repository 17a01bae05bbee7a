import { z } from "zod";
import "./validation";

/** POST /api/user-clients/assign: replaces a user's clients with the list, which may be empty. */
export const assignClientsSchema = z.strictObject({
  userId: z.uuid("userId must be a user id"),
  clientIds: z
    .array(z.uuid("clientIds must be client ids"), { error: "clientIds must be a list of client ids" })
    .max(10_000, "Too many clients at once"),
});
export type AssignClientsInput = z.infer<typeof assignClientsSchema>;

/**
 * GET /api/user-clients: one user-client link, with the client's name and whether it is archived,
 * so the Users page can name a user's clients without loading the whole client list.
 */
export const userClientLinkSchema = z.object({
  userId: z.uuid(),
  clientId: z.uuid(),
  clientName: z.string(),
  clientArchived: z.boolean(),
});
export type UserClientLink = z.infer<typeof userClientLinkSchema>;

/** The answer to POST /api/user-clients/assign: the user's clients after the change. */
export const userAssignmentSchema = z.object({ userId: z.uuid(), clientIds: z.array(z.uuid()) });
export type UserAssignment = z.infer<typeof userAssignmentSchema>;
