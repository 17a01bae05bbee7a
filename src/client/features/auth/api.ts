import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { type LoginInput, SIGNED_IN_COOKIE } from "../../../shared/auth";
import type { CurrentUser } from "../../../shared/users";
import { requestJson } from "../../lib/api";

export const currentUserQueryKey = ["/api/auth/me"] as const;

/** Whether this browser may hold a session: the server sets SIGNED_IN_COOKIE beside the session's own. */
function hasSignedInCookie(): boolean {
  return document.cookie.split("; ").some((cookie) => cookie.startsWith(`${SIGNED_IN_COOKIE}=`));
}

/**
 * GET /api/auth/me, read by the guard, the login page and the shell; `null` when the browser has
 * no session, known without asking. S-API-05: no retry. A failed check is not repeated when another
 * screen mounts either (retryOnMount), so a visitor sent from /dashboard to /login causes at most
 * one request.
 */
export function currentUserQueryOptions() {
  return queryOptions<CurrentUser | null>({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) =>
      hasSignedInCookie() ? requestJson<CurrentUser>("GET", "/api/auth/me", undefined, { signal }) : null,
    retryOnMount: false,
  });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => requestJson<CurrentUser>("POST", "/api/auth/login", input),
    onSuccess: async () => {
      // Another user's cached data must never show after a sign-in in the same tab.
      queryClient.clear();
      // S-LOGIN-06: the current-user data is refreshed, then the user goes on.
      await queryClient.fetchQuery({ ...currentUserQueryOptions(), staleTime: 0 });
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      // What the screen is still loading would be refused once the session has ended, and the
      // browser logs each refusal: it is stopped before the session ends.
      await queryClient.cancelQueries();
      await requestJson<void>("POST", "/api/auth/logout");
    },
    onSuccess: async () => {
      // S-API-06: on success the user goes to /login and the cache is cleared. No user is known from
      // here, so /login shows its form; clearing after arriving means no signed-in screen is still
      // mounted to refetch what the clear removes.
      queryClient.setQueryData(currentUserQueryKey, null);
      await navigate("/login", { replace: true });
      queryClient.clear();
    },
    // Still signed in: what was stopped above and had nothing to show yet is loaded again.
    onError: () =>
      queryClient.refetchQueries({ type: "active", predicate: (query) => query.state.status === "pending" }),
  });
}
