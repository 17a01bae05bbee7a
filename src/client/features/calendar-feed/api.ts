import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  CalendarFeed,
  CreateCalendarFeedInput,
  MyCalendarFeed,
  UpdateCalendarFeedInput,
} from "../../../shared/calendar-feed";
import { requestJson } from "../../lib/api";

/*
 * The calendar feed (decision 0047): the signed-in user's own, one at most. Each change answers the
 * feed as it now stands, which replaces what GET /api/account/calendar-feed last said.
 */

const calendarFeedQueryKey = ["/api/account/calendar-feed"] as const;

export function calendarFeedQueryOptions() {
  return queryOptions<MyCalendarFeed>({ queryKey: calendarFeedQueryKey });
}

function useCalendarFeedChange<Input>(send: (input: Input) => Promise<CalendarFeed | undefined>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (feed) => queryClient.setQueryData<MyCalendarFeed>(calendarFeedQueryKey, { feed: feed ?? null }),
  });
}

/** POST /api/account/calendar-feed: the feed, at a new secret address. */
export function useCreateCalendarFeed() {
  return useCalendarFeedChange((input: CreateCalendarFeedInput) =>
    requestJson<CalendarFeed>("POST", "/api/account/calendar-feed", input),
  );
}

/** PUT /api/account/calendar-feed: private mode on or off. */
export function useUpdateCalendarFeed() {
  return useCalendarFeedChange((input: UpdateCalendarFeedInput) =>
    requestJson<CalendarFeed>("PUT", "/api/account/calendar-feed", input),
  );
}

/** POST /api/account/calendar-feed/regenerate: a new address; the old one stops working. */
export function useRegenerateCalendarFeed() {
  return useCalendarFeedChange(() => requestJson<CalendarFeed>("POST", "/api/account/calendar-feed/regenerate"));
}

/** DELETE /api/account/calendar-feed: no feed any more. */
export function useTurnOffCalendarFeed() {
  return useCalendarFeedChange(async () => {
    await requestJson<void>("DELETE", "/api/account/calendar-feed");
    return undefined;
  });
}
