import { roleLabels } from "../../../shared/permissions";
import { defaultReportDays, type ReportDays, reportDays } from "../../../shared/reports";
import type { Role } from "../../../shared/roles";

/*
 * Pure rules of the people screens (S-USERS-01..05, S-CONST-27, S-CONST-31), unit-tested in people.test.ts.
 */

/** S-CONST-31: user cards show 3 client names. */
export const cardClientNames = 3;

/** The names a card shows and how many more there are ("+N more"). */
export function clientNamesPreview(names: readonly string[], shown = cardClientNames) {
  return { shown: names.slice(0, shown), more: Math.max(0, names.length - shown) };
}

/**
 * S-USERS-01..03: search by username, full name or role. Case-insensitive and ignoring spaces around it;
 * the role matches its value ("super_admin") or its label ("super admin").
 */
export function matchesUserSearch(user: { username: string; fullName: string; role: Role }, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return [user.username, user.fullName, user.role, roleLabels[user.role]].some((value) =>
    value.toLowerCase().includes(needle),
  );
}

export type RateTone = "good" | "fair" | "poor" | "none";

/** S-CONST-27, user profile: green at 80 or above, yellow at 60 or above, red below; none without tasks. */
export function completionRateTone(rate: number | null): RateTone {
  if (rate === null) return "none";
  if (rate >= 80) return "good";
  if (rate >= 60) return "fair";
  return "poor";
}

/** A rate as shown: "57%", or "—" when there is nothing to divide (issue 9). */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${rate}%`;
}

/** Average days as shown: "3 days", "1 day", or "—" when nothing was completed. */
export function formatDays(days: number | null): string {
  if (days === null) return "—";
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** The profile's range from its URL (`?days=90`): one of the user audit's, 30 when absent or unknown. */
export function profileDays(params: URLSearchParams): ReportDays {
  return reportDays.find((days) => String(days) === params.get("days")) ?? defaultReportDays;
}

/** The user's User Audit report over the same range, where the same figures are read. */
export function userReportLink(userId: string, days: ReportDays): string {
  const params = new URLSearchParams({ tab: "user", user: userId });
  if (days !== defaultReportDays) params.set("days", String(days));
  return `/reports?${params}`;
}
