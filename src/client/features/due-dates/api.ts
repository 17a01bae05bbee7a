import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  DisasterRelief,
  DisasterReliefInput,
  DueDateRuleSummary,
  ManualDueDateChange,
  TaskDueDates,
} from "../../../shared/due-dates";
import { type Change, requestJson } from "../../lib/api";

/*
 * Statutory due dates (decision 0053): the rules, a task's dates with its extension and changes by
 * hand, and the firm's disaster reliefs.
 */

/** The statutory due-date rules a recurring template may follow; the same for every firm and rarely changed. */
export function dueDateRulesQueryOptions() {
  return queryOptions<DueDateRuleSummary[]>({ queryKey: ["/api/due-date-rules"], staleTime: 60 * 60 * 1000 });
}

/**
 * GET /api/tasks/{id}/due-dates: a task's statutory dates, their reasons and log. The key starts
 * with "/api/tasks", so whatever refreshes the task list refreshes it too.
 */
export function taskDueDatesQueryOptions(taskId: string) {
  return queryOptions<TaskDueDates>({ queryKey: ["/api/tasks", taskId, "due-dates"] });
}

/** Due dates moved (a task's, or a relief's tasks'): every view of tasks and counts refreshes. */
const refreshTaskViews = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/clients"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] }),
  ]);

/** POST /api/tasks/{id}/extension: the task's due date moves, so every view of tasks and counts refreshes. */
export function useFileExtension(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey }: { idempotencyKey: string }) =>
      requestJson<TaskDueDates>("POST", `/api/tasks/${taskId}/extension`, undefined, { idempotencyKey }),
    onSuccess: () => refreshTaskViews(queryClient),
  });
}

/**
 * POST /api/tasks/{id}/due-date: a person moves the day the task is due, with a reason. The answer
 * is the section's new dates, shown at once while the task's views refresh.
 */
export function useChangeDueDate(taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: Change<ManualDueDateChange>) =>
      requestJson<TaskDueDates>("POST", `/api/tasks/${taskId}/due-date`, input, { idempotencyKey }),
    onSuccess: (answer) => {
      queryClient.setQueryData(taskDueDatesQueryOptions(taskId).queryKey, answer);
      return refreshTaskViews(queryClient);
    },
  });
}

/*
 * Disaster reliefs (IRC 7508A): the firm's, newest first. Recording one moves open tasks at once,
 * so besides the list, every view of tasks and counts refreshes.
 */

const disasterReliefsQueryKey = ["/api/disaster-reliefs"] as const;

export function disasterReliefsQueryOptions() {
  return queryOptions<DisasterRelief[]>({ queryKey: disasterReliefsQueryKey });
}

/** POST /api/disaster-reliefs: the relief as recorded and how many open tasks it moved. */
export function useRecordDisasterRelief() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: Change<DisasterReliefInput>) =>
      requestJson<{ relief: DisasterRelief; tasksMoved: number }>("POST", "/api/disaster-reliefs", input, {
        idempotencyKey,
      }),
    onSuccess: ({ relief }) => {
      queryClient.setQueryData<DisasterRelief[]>(disasterReliefsQueryKey, (reliefs) => [relief, ...(reliefs ?? [])]);
      return refreshTaskViews(queryClient);
    },
  });
}
