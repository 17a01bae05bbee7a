import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReportDays, UserActivity } from "../../../shared/reports";
import type { CreateUserInput, UpdateUserInput, UserSummary } from "../../../shared/users";
import { type Change, requestJson } from "../../lib/api";
import { useStepUp } from "../../lib/step-up";

/*
 * The people screens' data (S-API-22..26, docs/design/people-screens.md). Keys are URLs split at
 * "/" (S-API-29's default fetch joins them back), so a prefix refreshes everything under it:
 * ["/api/users"] is the list, each user and each user's activity.
 */

/** GET /api/users: the firm's users. */
export function usersQueryOptions() {
  return queryOptions<UserSummary[]>({ queryKey: ["/api/users"] });
}

/** GET /api/users/{id} (S-UPROF-12). */
export function userQueryOptions(userId: string) {
  return queryOptions<UserSummary>({ queryKey: ["/api/users", userId] });
}

/**
 * GET /api/users/{id}/activity?days=: the profile's totals, audit trail and assigned clients over a
 * range. Like the user audit it is a snapshot as of now (staleTime 0), so the two screens, opened
 * one after the other, count the same sign-offs.
 */
export function userActivityQueryOptions(userId: string, days: ReportDays) {
  return queryOptions({
    queryKey: ["/api/users", userId, "activity", { days }] as const,
    queryFn: ({ signal }) =>
      requestJson<UserActivity>("GET", `/api/users/${userId}/activity?days=${days}`, undefined, { signal }),
    staleTime: 0,
  });
}

/** POST /api/users; a new admin or super admin may ask the actor to confirm it's them first (decision 0054). */
export function useCreateUser() {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: ({ input, ...options }: Change<CreateUserInput>) =>
      stepUp(() => requestJson<UserSummary>("POST", "/api/users", input, options)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["/api/users"] }),
  });
}

/**
 * PATCH /api/users/{id}; a role change, or enabling an admin again, may ask the actor to confirm
 * it's them first (decision 0054).
 */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: ({ userId, input, ...options }: { userId: string } & Change<UpdateUserInput>) =>
      stepUp(() => requestJson<UserSummary>("PATCH", `/api/users/${userId}`, input, options)),
    // Names and roles also show in the client detail's team; a role change of a `user` changes
    // which clients they see, which the actor's own lists do not show.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["/api/users"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/clients"], predicate: isClientDetail }),
      ]),
  });
}

/** A client detail's query (["/api/clients", id]), not a list's or a search's. */
const isClientDetail = (query: { queryKey: readonly unknown[] }) =>
  query.queryKey.length === 2 && typeof query.queryKey[1] === "string";
