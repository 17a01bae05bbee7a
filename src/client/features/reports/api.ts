import { queryOptions } from "@tanstack/react-query";
import type { ClientSummary } from "../../../shared/clients";
import type { ClientReport, ReportDays, UserReport } from "../../../shared/reports";
import type { UserSummary } from "../../../shared/users";
import { requestJson } from "../../lib/api";

/** How many clients the report's client picker lists per search (a firm may have 10,000). */
export const clientPickerLimit = 20;

/**
 * The client picker: GET /api/clients?q=…&limit=20, name order. The API scopes the list to the
 * signed-in user's clients (S-ROLE-15: a `user` sees assigned clients only). The key starts with
 * "/api/clients", so whatever refreshes the client list refreshes it too.
 */
export function reportClientsQueryOptions(q: string) {
  return queryOptions({
    queryKey: ["/api/clients", "report-picker", { q, limit: clientPickerLimit }] as const,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(clientPickerLimit) });
      if (q) params.set("q", q);
      return requestJson<ClientSummary[]>("GET", `/api/clients?${params}`, undefined, { signal });
    },
  });
}

/** GET /api/users: the firm's users by name (tens, not thousands, so the picker filters them here). */
export function usersQueryOptions() {
  return queryOptions<UserSummary[]>({ queryKey: ["/api/users"] });
}

export function clientReportUrl(clientId: string, days: ReportDays, format: "json" | "csv" = "json"): string {
  const params = new URLSearchParams({ days: String(days) });
  if (format === "csv") params.set("format", "csv");
  return `/api/reports/clients/${clientId}?${params}`;
}

export function userReportUrl(userId: string, days: ReportDays, format: "json" | "csv" = "json"): string {
  const params = new URLSearchParams({ days: String(days) });
  if (format === "csv") params.set("format", "csv");
  return `/api/reports/users/${userId}?${params}`;
}

/*
 * A report is a snapshot computed when asked ("as of" its range's `to`), so unlike the lists it is
 * asked again whenever it is shown anew (staleTime 0): a task signed off a minute ago counts.
 * Switching back to a range already seen shows the kept answer at once while the new one loads.
 */
export function clientReportQueryOptions(clientId: string, days: ReportDays) {
  return queryOptions({
    queryKey: ["/api/reports/clients", clientId, { days }] as const,
    queryFn: ({ signal }) => requestJson<ClientReport>("GET", clientReportUrl(clientId, days), undefined, { signal }),
    staleTime: 0,
  });
}

export function userReportQueryOptions(userId: string, days: ReportDays) {
  return queryOptions({
    queryKey: ["/api/reports/users", userId, { days }] as const,
    queryFn: ({ signal }) => requestJson<UserReport>("GET", userReportUrl(userId, days), undefined, { signal }),
    staleTime: 0,
  });
}
