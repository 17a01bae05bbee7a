import { queryOptions } from "@tanstack/react-query";
import type { AccountSecurity } from "../../shared/mfa";

export const accountSecurityQueryKey = ["/api/account/security"] as const;

/**
 * GET /api/account/security: the signed-in user's factors, recovery codes left and the firm's
 * policy. Settings shows it, and the step-up dialog reads the factors to know what to ask for.
 */
export function accountSecurityQueryOptions() {
  return queryOptions<AccountSecurity>({ queryKey: accountSecurityQueryKey });
}
