import { queryOptions } from "@tanstack/react-query";
import type { ClientSummary } from "../../../shared/clients";
import type { TaskListItem } from "../../../shared/tasks";
import { requestJson } from "../../lib/api";

/** How many clients the header search lists. */
export const clientSearchLimit = 8;

/**
 * The header search: GET /api/clients?q=…&limit=8. The key starts with "/api/clients", so
 * whatever refreshes the client list after a change refreshes open searches too.
 */
export function clientSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: ["/api/clients", { q, limit: clientSearchLimit }] as const,
    queryFn: ({ signal }) =>
      requestJson<ClientSummary[]>(
        "GET",
        `/api/clients?${new URLSearchParams({ q, limit: String(clientSearchLimit) })}`,
        undefined,
        signal,
      ),
  });
}

/** The bell: GET /api/tasks/overdue (spec 7), refreshed by whatever completes a task. */
export function overdueTasksQueryOptions() {
  return queryOptions<TaskListItem[]>({ queryKey: ["/api/tasks/overdue"] });
}
