import { queryOptions, useMutation } from "@tanstack/react-query";
import type { UnsubscribeOffer } from "../../../shared/notifications";
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
