import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { TOTAL_COUNT_HEADER } from "../../../shared/paging";
import type { TaskListItem, TaskStatus } from "../../../shared/tasks";
import { requestJsonWithHeaders, requestPage } from "../../lib/api";

/** Tasks per request: a screenful and a half, so scrolling rarely waits (the API allows 500). */
export const taskPageSize = 50;

export type TaskFilter = { q: string; status: TaskStatus | "all" };
export type TaskPage = { tasks: TaskListItem[]; nextCursor: string | null };

/** One page of GET /api/tasks. */
async function fetchTaskPage(filter: TaskFilter, cursor: string | null, signal: AbortSignal): Promise<TaskPage> {
  const params = new URLSearchParams({ limit: String(taskPageSize) });
  if (filter.q) params.set("q", filter.q);
  if (filter.status !== "all") params.set("status", filter.status);
  if (cursor) params.set("cursor", cursor);
  const { rows, nextCursor } = await requestPage<TaskListItem>(`/api/tasks?${params}`, signal);
  return { tasks: rows, nextCursor };
}

/**
 * The audit list, page by page in the API's audit order (S-TAUD-09's sort). The key starts with
 * "/api/tasks", so whatever refreshes the task list (docs/design/signed-in-app.md) refreshes every
 * loaded page.
 */
export function taskListQueryOptions(filter: TaskFilter) {
  return infiniteQueryOptions({
    queryKey: ["/api/tasks", "list", filter] as const,
    queryFn: ({ pageParam, signal }) => fetchTaskPage(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
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
