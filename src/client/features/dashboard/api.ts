import { queryOptions } from "@tanstack/react-query";
import type { Dashboard } from "../../../shared/dashboard";

/** GET /api/dashboard: every figure of the dashboard in one answer (src/shared/dashboard.ts). */
export function dashboardQueryOptions() {
  return queryOptions<Dashboard>({ queryKey: ["/api/dashboard"] });
}
