import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Firm, UpdateFirmInput } from "../../../shared/firm";
import { type Change, requestJson } from "../../lib/api";
import { firmQueryOptions } from "../../lib/firm";
import { currentUserQueryKey } from "../auth/api";

/*
 * The firm's settings. GET /api/firm is read by every screen that shows a date, through lib/firm.ts;
 * the firm's cards change it here.
 */

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
        // A new zone, internal target or closed days moves statutory tasks' due dates, and overdue with them.
        queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/clients"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] }),
      ]);
    },
  });
}
