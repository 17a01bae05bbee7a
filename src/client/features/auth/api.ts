import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { type ChangePasswordInput, type LoginInput, SIGNED_IN_COOKIE } from "../../../shared/auth";
import type {
  ConfirmTotpInput,
  EnrolledAndSignedIn,
  PasskeyRequestOptions,
  PendingSignIn,
  SecondFactorInput,
  SignedIn,
  TotpEnrolment,
  UsePasskeyInput,
} from "../../../shared/mfa";
import type { CurrentUser } from "../../../shared/users";
import { ApiError, requestJson } from "../../lib/api";
import { signWithPasskey } from "../../lib/passkeys";
import { useStepUp } from "../../lib/step-up";

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

/** A password accepted with a second step still to come: POST /api/auth/login's 202 (decision 0044). */
export const isPendingSignIn = (answer: CurrentUser | PendingSignIn): answer is PendingSignIn => "next" in answer;

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => requestJson<CurrentUser | PendingSignIn>("POST", "/api/auth/login", input),
    onSuccess: async (answer) => {
      // Another user's cached data must never show after a sign-in in the same tab.
      queryClient.clear();
      if (isPendingSignIn(answer)) {
        // No session yet: the second step's screen starts from this answer instead of asking again.
        queryClient.setQueryData(currentUserQueryKey, null);
        queryClient.setQueryData(pendingSignInQueryKey, answer);
        return;
      }
      // S-LOGIN-06: the current-user data is refreshed, then the user goes on.
      await queryClient.fetchQuery({ ...currentUserQueryOptions(), staleTime: 0 });
    },
  });
}

/**
 * A passkey's signature for one of the server's ceremonies: `url`'s options (which also set the
 * ceremony's cookie), the browser's prompt, then the signature sent to `url`.
 */
async function withPasskey<T>(url: string): Promise<T> {
  const options = await requestJson<PasskeyRequestOptions>("POST", `${url}/options`);
  const response = await signWithPasskey(options);
  return requestJson<T>("POST", url, { response } satisfies UsePasskeyInput);
}

/** A sign-in with a passkey alone (POST /api/auth/passkey): no username or password, the session at once. */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => withPasskey<CurrentUser>("/api/auth/passkey"),
    onSuccess: (user) => {
      // As after a password: another user's cached data must never show.
      queryClient.clear();
      queryClient.setQueryData(currentUserQueryKey, user);
    },
  });
}

/*
 * The second step of sign-in (decision 0044): after the password the session cookie holds a
 * pending sign-in for five minutes, which reaches only the routes below. It becomes a session when
 * a second factor is given, or, where the firm requires one and the user has none, once one is set up.
 */

export const pendingSignInQueryKey = ["/api/auth/second-step"] as const;

/** GET /api/auth/second-step: what the pending sign-in waits for; a 401 once it has expired (or never began). */
export function pendingSignInQueryOptions() {
  return queryOptions<PendingSignIn>({ queryKey: pendingSignInQueryKey });
}

/** Whether a second step was refused because there is no pending sign-in (any more) to complete. */
export const isSignInExpired = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

/** POST /api/auth/second-step: an authenticator code or a recovery code; the answer is the signed-in user. */
export function useSecondStep() {
  return useMutation({
    mutationFn: (input: SecondFactorInput) => requestJson<SignedIn>("POST", "/api/auth/second-step", input),
  });
}

/** POST /api/auth/second-step/passkey: one of the user's passkeys signs; the answer is the signed-in user. */
export function usePasskeySecondStep() {
  return useMutation({ mutationFn: () => withPasskey<SignedIn>("/api/auth/second-step/passkey") });
}

/**
 * POST /api/auth/second-step/totp, when the screen asking to set up an authenticator opens. A query,
 * so that one visit asks once (StrictMode mounts twice), forgotten when the screen closes (gcTime 0):
 * each request makes a new secret, and only the latest can be confirmed.
 */
export function pendingTotpEnrolmentQueryOptions() {
  return queryOptions<TotpEnrolment>({
    queryKey: ["/api/auth/second-step/totp"],
    queryFn: ({ signal }) => requestJson("POST", "/api/auth/second-step/totp", undefined, { signal }),
    gcTime: 0,
  });
}

/** POST /api/auth/second-step/totp/confirm: the first factor set up, the sign-in complete, the recovery codes. */
export function useConfirmPendingTotp() {
  return useMutation({
    mutationFn: (input: ConfirmTotpInput) =>
      requestJson<EnrolledAndSignedIn>("POST", "/api/auth/second-step/totp/confirm", input),
  });
}

/**
 * The last move of a sign-in: the user is known, then the app opens. The pending sign-in's data is
 * dropped only after arriving, so the second step's screen, still mounted until then, does not ask
 * the server again for a sign-in that is no longer pending.
 */
export function useFinishSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (user: CurrentUser) => {
    queryClient.setQueryData(currentUserQueryKey, user);
    await navigate("/dashboard", { replace: true });
    queryClient.removeQueries({ queryKey: pendingSignInQueryKey });
  };
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

/** POST /api/auth/change-password: the server keeps this session and ends the user's others. */
export function useChangePassword() {
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      stepUp(() => requestJson<void>("POST", "/api/auth/change-password", input)),
  });
}
