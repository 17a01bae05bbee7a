import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationPreferences, UnsubscribeOffer } from "../../../shared/notifications";
import { requestJson } from "../../lib/api";

/** An e-mail's unsubscribe address (decision 0052): its signed token is the proof, no session is needed. */
const unsubscribeUrl = (token: string) => `/api/unsubscribe/${encodeURIComponent(token)}`;

/** GET /api/unsubscribe/{token}: what the link turns off, and whether it is still on. */
export function unsubscribeOfferQueryOptions(token: string) {
  return queryOptions<UnsubscribeOffer>({ queryKey: [unsubscribeUrl(token)], retry: false });
}

/** POST /api/unsubscribe/{token}: the same address a mail program's one-click unsubscribe posts to. */
export function useUnsubscribe(token: string) {
  return useMutation({ mutationFn: () => requestJson("POST", unsubscribeUrl(token)) });
}

/*
 * E-mail preferences (decisions 0050, 0052): the signed-in user's own. A change answers the
 * preferences as saved, which replace what the GET last said.
 */

const notificationPreferencesQueryKey = ["/api/account/notification-preferences"] as const;

export function notificationPreferencesQueryOptions() {
  return queryOptions<NotificationPreferences>({ queryKey: notificationPreferencesQueryKey });
}

/** PUT /api/account/notification-preferences: every choice at once. */
export function useSetNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferences) =>
      requestJson<NotificationPreferences>("PUT", "/api/account/notification-preferences", input),
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesQueryKey, saved),
  });
}
