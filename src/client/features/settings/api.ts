import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChangePasswordInput } from "../../../shared/auth";
import type { Firm, UpdateFirmInput } from "../../../shared/firm";
import type { AuditEntity, AuditEvent, AuditVerification } from "../../../shared/reports";
import type { UserSummary } from "../../../shared/users";
import { type Change, requestJson, requestPage } from "../../lib/api";
import { firmQueryOptions } from "../../lib/firm";
import { currentUserQueryKey } from "../auth/api";

/** POST /api/auth/change-password: the server keeps this session and ends the user's others. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => requestJson<void>("POST", "/api/auth/change-password", input),
  });
}

/** PATCH /api/firm; the shell shows the firm's name from /api/auth/me, so both are refreshed. */
export function useUpdateFirm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, ...options }: Change<UpdateFirmInput>) =>
      requestJson<Firm>("PATCH", "/api/firm", input, options),
    onSuccess: (firm) => {
      queryClient.setQueryData(firmQueryOptions().queryKey, firm);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
        // Dates everywhere are shown in the firm's zone; the trail's day filters move with it.
        queryClient.invalidateQueries({ queryKey: ["/api/audit-events"] }),
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
