import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  AccountSecurity,
  ConfirmTotpInput,
  Enrolled,
  Factor,
  FirmMfaPolicy,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  RecoveryCodes,
  StepUpInput,
  TotpEnrolment,
  UpdateMfaPolicyInput,
} from "../../../shared/mfa";
import { requestJson } from "../../lib/api";
import { createPasskey, signWithPasskey } from "../../lib/passkeys";
import { useStepUp } from "../../lib/step-up";

export const accountSecurityQueryKey = ["/api/account/security"] as const;

/**
 * GET /api/account/security: the signed-in user's factors, recovery codes left and the firm's
 * policy. Settings shows it, and the step-up dialog reads the factors to know what to ask for.
 */
export function accountSecurityQueryOptions() {
  return queryOptions<AccountSecurity>({ queryKey: accountSecurityQueryKey });
}

/*
 * Sign-in security (decision 0044): the user's second factors, their recovery codes and, for a
 * super admin, the firm's policy. Each change may need a fresh proof first (lib/step-up.ts), and
 * each refreshes GET /api/account/security, which holds all three.
 */

function useSecurityChange<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: (input: Input) => stepUp(() => send(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSecurityQueryKey }),
  });
}

/** POST /api/account/factors/totp: a new secret to show; nothing is added until a code confirms it. */
export function useStartTotp() {
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: () => stepUp(() => requestJson<TotpEnrolment>("POST", "/api/account/factors/totp")),
  });
}

/** POST /api/account/factors/totp/confirm: the app added; the recovery codes too when it is the first factor. */
export function useConfirmTotp() {
  return useSecurityChange((input: ConfirmTotpInput) =>
    requestJson<Enrolled>("POST", "/api/account/factors/totp/confirm", input),
  );
}

const passkeyOptions = () => requestJson<PasskeyCreationOptions>("POST", "/api/account/factors/passkey/options");

/**
 * POST /api/account/factors/passkey/options, when "Add a passkey" is chosen: the fresh proof it
 * needs is asked for before the dialog opens, as for an app, and the browser's prompt can then
 * follow the dialog's button at once (some browsers show it only right after a click).
 */
export function useStartPasskey() {
  const stepUp = useStepUp();
  return useMutation({ mutationFn: () => stepUp(passkeyOptions) });
}

/**
 * The browser makes the passkey with `options` (or, on a later try, options asked for again: each
 * challenge answers once), then POST /api/account/factors/passkey keeps it; the recovery codes come
 * too when it is the first factor.
 */
export function useAddPasskey() {
  return useSecurityChange(async ({ name, options }: { name: string; options: PasskeyCreationOptions | undefined }) => {
    const response = await createPasskey(options ?? (await passkeyOptions()));
    return requestJson<Enrolled>("POST", "/api/account/factors/passkey", { name, response });
  });
}

export function useRenameFactor() {
  return useSecurityChange(({ factorId, name }: { factorId: string; name: string }) =>
    requestJson<Factor>("PATCH", `/api/account/factors/${factorId}`, { name }),
  );
}

export function useRemoveFactor() {
  return useSecurityChange((factorId: string) => requestJson<void>("DELETE", `/api/account/factors/${factorId}`));
}

/** POST /api/account/recovery-codes: a new set, shown once; the old set stops working. */
export function useMakeRecoveryCodes() {
  return useSecurityChange(() => requestJson<RecoveryCodes>("POST", "/api/account/recovery-codes"));
}

/** PUT /api/firm/mfa-policy (super admins); the answer is the policy as it now stands. */
export function useUpdateMfaPolicy() {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: (input: UpdateMfaPolicyInput) =>
      stepUp(() => requestJson<FirmMfaPolicy>("PUT", "/api/firm/mfa-policy", input)),
    onSuccess: (firmPolicy) =>
      queryClient.setQueryData<AccountSecurity>(accountSecurityQueryKey, (security) =>
        security ? { ...security, firmPolicy } : security,
      ),
  });
}

/** POST /api/auth/step-up: a fresh proof for the next five minutes of sensitive changes. */
export function useStepUpCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StepUpInput) => requestJson<void>("POST", "/api/auth/step-up", input),
    // The account's `stepUpUntil` moved.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSecurityQueryKey }),
  });
}

/** POST /api/auth/step-up with one of the user's passkeys (its options from /api/auth/step-up/passkey/options). */
export function usePasskeyStepUpCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const options = await requestJson<PasskeyRequestOptions>("POST", "/api/auth/step-up/passkey/options");
      const response = await signWithPasskey(options);
      await requestJson<void>("POST", "/api/auth/step-up", { method: "passkey", response } satisfies StepUpInput);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSecurityQueryKey }),
  });
}

/**
 * DELETE /api/users/{id}/factors (super admins): the user's authenticator apps, passkeys and
 * recovery codes are removed, and they set up a second step again. Nothing the screens show changes.
 */
export function useResetFactors() {
  const stepUp = useStepUp();
  return useMutation({
    mutationFn: (userId: string) => stepUp(() => requestJson<void>("DELETE", `/api/users/${userId}/factors`)),
  });
}
