import { queryOptions } from "@tanstack/react-query";
import type { ClientReport, ReportDays, UserReport } from "../../../shared/reports";
import { requestJson } from "../../lib/api";

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
