import { infiniteQueryOptions } from "@tanstack/react-query";
import type { TaskListItem, TaskStatus } from "../../../shared/tasks";
import { requestPage } from "../../lib/api";

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
