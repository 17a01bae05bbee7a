import { queryOptions } from "@tanstack/react-query";
import type { ClientSummary } from "../../../shared/clients";
import { TOTAL_COUNT_HEADER } from "../../../shared/paging";
import type { TaskListItem } from "../../../shared/tasks";
import { requestJson, requestJsonWithHeaders } from "../../lib/api";

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
        { signal },
      ),
  });
}

/** How many overdue tasks the bell's popover lists; the rest are one click away in Task Audit. */
export const bellListed = 8;

/**
 * The bell: GET /api/tasks/overdue (S-API-15), the oldest few and how many there are in all
 * (x-total-count), so a firm far behind does not load every overdue task on every page. The key
 * starts with "/api/tasks/overdue", so whatever refreshes the overdue list after a completion
 * refreshes the bell.
 */
export function overdueTasksQueryOptions() {
  return queryOptions({
    queryKey: ["/api/tasks/overdue", { limit: bellListed }] as const,
    queryFn: async ({ signal }) => {
      const { body, headers } = await requestJsonWithHeaders<TaskListItem[]>(
        "GET",
        `/api/tasks/overdue?limit=${bellListed}`,
        undefined,
        { signal },
      );
      return { tasks: body, total: Number(headers.get(TOTAL_COUNT_HEADER) ?? body.length) };
    },
  });
}
