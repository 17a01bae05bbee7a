import { z } from "zod";

/** GET /api/dashboard: every figure of the Dashboard (S-DASH-04..16), in one answer. */
export const dashboardSchema = z.object({
  clients: z.object({
    total: z.number().int(),
    active: z.number().int(),
    inactive: z.number().int(),
    prospect: z.number().int(),
    /** Clients with at least one overdue task ("clients affected"). */
    withOverdueTasks: z.number().int(),
  }),
  tasks: z.object({
    total: z.number().int(),
    /** Not completed and not past due (overdue ones are counted under overdue). */
    pending: z.number().int(),
    overdue: z.number().int(),
    completed: z.number().int(),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
