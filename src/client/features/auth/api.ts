import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { LoginInput } from "../../../shared/auth";
import type { CurrentUser } from "../../../shared/users";
import { requestJson } from "../../lib/api";

export const currentUserQueryKey = ["/api/auth/me"] as const;

/**
 * GET /api/auth/me, read by the guard, the login page and the shell. S-API-05: no retry. A failed
 * check is not repeated when another screen mounts either (retryOnMount), so a visitor sent from
 * /dashboard to /login causes exactly one request.
 */
export function currentUserQueryOptions() {
  return queryOptions<CurrentUser>({ queryKey: currentUserQueryKey, retryOnMount: false });
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
    mutationFn: () => requestJson<void>("POST", "/api/auth/logout"),
    onSuccess: () => {
      // S-API-06: on success the cache is cleared and the user goes to /login. Leaving first means
      // no signed-in screen is still mounted to refetch what the clear removes.
      navigate("/login", { replace: true });
      queryClient.clear();
    },
  });
}
