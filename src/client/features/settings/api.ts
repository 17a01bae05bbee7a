import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { DisasterRelief, DisasterReliefInput } from "../../../shared/due-dates";
import type {
  AccountSecurity,
  ConfirmTotpInput,
  Enrolled,
  Factor,
  FirmMfaPolicy,
  PasskeyCreationOptions,
  RecoveryCodes,
  TotpEnrolment,
  UpdateMfaPolicyInput,
} from "../../../shared/mfa";
import type { AuditEntity, AuditEvent, AuditVerification } from "../../../shared/reports";
import type { UserSummary } from "../../../shared/users";
import { accountSecurityQueryKey } from "../../lib/account-security";
import { type Change, requestJson, requestPage } from "../../lib/api";
import { createPasskey } from "../../lib/passkeys";
import { useStepUp } from "../../lib/step-up";

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
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/clients"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] }),
      ]);
    },
  });
}

export function firmUsersQueryOptions() {
  return queryOptions<UserSummary[]>({ queryKey: ["/api/users"] });
}

export type AuditFilter = { entity: AuditEntity | "all"; userId: string | "all"; from: string; to: string };
export const emptyAuditFilter: AuditFilter = { entity: "all", userId: "all", from: "", to: "" };
/** Events per request: a few screens' worth (the API allows 100). */
export const taskPageSize = 50;

type AuditPage = { events: AuditEvent[]; nextCursor: string | null };

async function fetchAuditPage(filter: AuditFilter, cursor: string | null, signal: AbortSignal): Promise<AuditPage> {
  const params = new URLSearchParams({ limit: String(taskPageSize) });
  if (filter.entity !== "all") params.set("entity", filter.entity);
  if (filter.userId !== "all") params.set("userId", filter.userId);
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (cursor) params.set("cursor", cursor);
  const { rows, nextCursor } = await requestPage<AuditEvent>(`/api/audit-events?${params}`, signal);
  return { events: rows, nextCursor };
}

/** GET /api/audit-events page by page, newest first. */
export function auditEventsQueryOptions(filter: AuditFilter, enabled: boolean) {
  return infiniteQueryOptions({
    queryKey: ["/api/audit-events", "list", filter] as const,
    queryFn: ({ pageParam, signal }) => fetchAuditPage(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

export function auditVerificationQueryOptions(enabled: boolean) {
  return queryOptions<AuditVerification>({ queryKey: ["/api/audit-events/verify"], enabled });
}

/** Where a full re-verification is: how many events it verified of how many, or its verdict. */
export type FullVerification =
  | { status: "idle" }
  | { status: "running" | "stopped"; events: number; total: number | null }
  | { status: "failed"; error: unknown; events: number; total: number | null }
  | { status: "done"; result: AuditVerification };

/**
 * The full re-verification, driven from the browser: GET /api/audit-events/verify?full=true one
 * slice at a time (the server's most per request, each well under a second), going on from each
 * answer's `next` until the newest event or a break. Every request is short, so any app instance
 * may answer any slice and a deploy or a closed tab ends it cleanly. Leaving the page, or Stop,
 * aborts the request in flight.
 */
export function useFullAuditVerification() {
  const [state, setState] = useState<FullVerification>({ status: "idle" });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    let progress: { events: number; total: number | null } = { events: 0, total: null };
    setState({ status: "running", ...progress });
    try {
      for (let after = 0; ; ) {
        const slice = await requestJson<AuditVerification>(
          "GET",
          `/api/audit-events/verify?full=true&after=${after}`,
          undefined,
          { signal: controller.signal },
        );
        if (!slice.intact || slice.next === null) {
          setState({ status: "done", result: slice });
          return;
        }
        progress = { events: slice.events, total: slice.total };
        setState({ status: "running", ...progress });
        after = slice.next;
      }
    } catch (error) {
      if (!controller.signal.aborted) setState({ status: "failed", error, ...progress });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const stop = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState((current) => (current.status === "running" ? { ...current, status: "stopped" } : current));
  }, []);

  return { state, start, stop };
}
