import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AssignClientsInput, UserAssignment, UserClientLink } from "../../../shared/assignments";
import { requestJson } from "../../lib/api";

/* Who works on which client: the links, and the Assign Clients dialog the people screens open. */

/** GET /api/user-clients: who serves which client (a `user` sees only their own links). */
export function userClientsQueryOptions() {
  return queryOptions<UserClientLink[]>({ queryKey: ["/api/user-clients"] });
}

/**
 * POST /api/user-clients/assign. Afterwards exactly what shows the assignment is refreshed: the
 * users (cards, the profile's assigned clients), the links, and the Assigned Team of each client
 * that gained or lost the user.
 */
export function useAssignClients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AssignClientsInput & { previousClientIds: readonly string[] }) =>
      requestJson<UserAssignment>("POST", "/api/user-clients/assign", {
        userId: input.userId,
        clientIds: input.clientIds,
      }),
    onSuccess: (_result, input) => refreshAssignment(queryClient, input.previousClientIds, input.clientIds),
  });
}

function refreshAssignment(queryClient: QueryClient, before: readonly string[], after: readonly string[]) {
  const changed = changedClientIds(before, after);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ["/api/users"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/user-clients"] }),
    ...changed.map((clientId) => queryClient.invalidateQueries({ queryKey: ["/api/clients", clientId], exact: true })),
  ]);
}

/** The clients in one list and not the other: those whose team changes. */
export function changedClientIds(before: readonly string[], after: readonly string[]): string[] {
  const was = new Set(before);
  const is = new Set(after);
  return [...[...was].filter((id) => !is.has(id)), ...[...is].filter((id) => !was.has(id))];
}
