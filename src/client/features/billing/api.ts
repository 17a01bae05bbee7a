import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { RegisterInput } from "../../../shared/auth";
import type { BillingConfig, SubscriptionSetupInput, SubscriptionSetupResponse } from "../../../shared/billing";
import type { CurrentUser } from "../../../shared/users";
import { requestJson } from "../../lib/api";
import { currentUserQueryKey } from "../auth/api";

const billingConfigKey = "/api/billing/config";
const subscriptionSetupKey = "subscription-setup";
const onboardingQueryRoots = new Set<string>([billingConfigKey, subscriptionSetupKey]);

/** GET /api/billing/config: whether this installation takes a card (Stripe's public key) or not. */
export function billingConfigQueryOptions() {
  return queryOptions<BillingConfig>({ queryKey: [billingConfigKey] });
}

/**
 * POST /api/create-subscription-setup, called when the payment screen loads (S-PAY-10). A query, so
 * that one visit asks once (StrictMode mounts twice), and forgotten when the screen closes
 * (gcTime 0): the server ties registration to the latest setup of this browser (its setup cookie,
 * decision 0025), so a later visit, perhaps with another plan, must start a new one.
 */
export function subscriptionSetupQueryOptions(input: SubscriptionSetupInput) {
  return queryOptions<SubscriptionSetupResponse>({
    queryKey: [subscriptionSetupKey, input.email, input.fullName, input.plan],
    queryFn: ({ signal }) => requestJson("POST", "/api/create-subscription-setup", input, { signal }),
    gcTime: 0,
  });
}

/**
 * POST /api/auth/register: creates the firm and its super_admin and signs them in. The answer is
 * the current user, so the session check of the next screens needs no second request.
 */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) => requestJson<CurrentUser>("POST", "/api/auth/register", input),
    onSuccess: (user) => {
      // As a sign-in does: nothing cached for whoever used this tab before may show to the new firm.
      queryClient.removeQueries({ predicate: (query) => !onboardingQueryRoots.has(String(query.queryKey[0])) });
      queryClient.setQueryData(currentUserQueryKey, user);
    },
  });
}
