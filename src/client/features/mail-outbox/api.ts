import { infiniteQueryOptions } from "@tanstack/react-query";
import type { MailOutboxPage } from "../../../shared/mail-outbox";
import { NEXT_CURSOR_HEADER } from "../../../shared/paging";
import { requestJsonWithHeaders } from "../../lib/api";

export type OutboxPage = MailOutboxPage & { nextCursor: string | null };

/** GET /api/mail-outbox page by page, newest first (super admins only; decision 0049). */
export function mailOutboxQueryOptions(enabled: boolean) {
  return infiniteQueryOptions({
    queryKey: ["/api/mail-outbox"] as const,
    queryFn: async ({ pageParam, signal }): Promise<OutboxPage> => {
      const query = pageParam ? `?${new URLSearchParams({ cursor: pageParam })}` : "";
      const { body, headers } = await requestJsonWithHeaders<MailOutboxPage>(
        "GET",
        `/api/mail-outbox${query}`,
        undefined,
        {
          signal,
        },
      );
      return { ...body, nextCursor: headers.get(NEXT_CURSOR_HEADER) };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}
