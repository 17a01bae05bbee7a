import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClientDetail, ClientNameMatch, ClientSummary, CreateClientInput } from "../../../shared/clients";
import { type Change, requestJson, requestPage } from "../../lib/api";

/**
 * Clients per request of the grid. A multiple of 1, 2 and 3 so every page fills whole rows at
 * each column count; small enough that a firm of 10,000 clients costs one quick page per scroll.
 */
export const clientPageSize = 60;

export type ClientPage = { clients: ClientSummary[]; nextCursor: string | null };

/** One page of GET /api/clients?q=…&limit=…&cursor=…; the next cursor travels in a header. */
async function fetchClientPage(q: string, cursor: string | null, signal: AbortSignal): Promise<ClientPage> {
  const params = new URLSearchParams({ limit: String(clientPageSize) });
  if (q) params.set("q", q);
  if (cursor) params.set("cursor", cursor);
  const { rows, nextCursor } = await requestPage<ClientSummary>(`/api/clients?${params}`, signal);
  return { clients: rows, nextCursor };
}

/**
 * The Clients page's grid, paged through the API (a firm may have 10,000 clients). The key's
 * first segment is the list's path, so refreshing ["/api/clients"] refreshes it (docs/design/signed-in-app.md);
 * "pages" keeps it apart from the header search's keys, which hold a plain array.
 */
export function clientGridQueryOptions(q: string) {
  return infiniteQueryOptions({
    queryKey: ["/api/clients", "pages", { q, limit: clientPageSize }] as const,
    queryFn: ({ pageParam, signal }) => fetchClientPage(q, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/**
 * GET /api/clients/name-matches: the firm's clients, archived ones too, already named `name`
 * (ignoring case and surrounding spaces). Asked afresh at each create, never from a cache: a
 * colleague may have added the client a minute ago.
 */
export function findClientsNamed(name: string): Promise<ClientNameMatch[]> {
  return requestJson<ClientNameMatch[]>("GET", `/api/clients/name-matches?${new URLSearchParams({ name })}`);
}

/**
 * POST /api/clients with the primary contact and the templates in one request, so the server
 * creates them in one transaction (docs/design/client-work-api.md): a failure leaves no half-made client.
 */
export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, ...options }: Change<CreateClientInput>) =>
      requestJson<ClientDetail>("POST", "/api/clients", input, options),
    // Not awaited: the dialog closes at once while the lists refresh behind it.
    onSuccess: () => {
      // S-API-32: the clients and tasks data; the dashboard counts both. The overdue list cannot
      // change: a new client's tasks are undated or due at the end of a period still to come.
      void queryClient.invalidateQueries({ queryKey: ["/api/clients"] });
      void queryClient.invalidateQueries({ queryKey: ["/api/tasks"] });
      void queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] });
    },
  });
}

/** How many clients the header search lists. */
export const clientSearchLimit = 8;

/**
 * The header search: GET /api/clients?q=…&limit=8. The key starts with "/api/clients", so
 * whatever refreshes the client list after a change refreshes open searches too.
 */
export function clientSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: ["/api/clients", { q, limit: clientSearchLimit }] as const,
    queryFn: ({ signal }) =>
      requestJson<ClientSummary[]>(
        "GET",
        `/api/clients?${new URLSearchParams({ q, limit: String(clientSearchLimit) })}`,
        undefined,
        { signal },
      ),
  });
}

/** How many clients the reports' client picker lists per search (a firm may have 10,000). */
export const clientPickerLimit = 20;

/**
 * The reports' client picker: GET /api/clients?q=…&limit=20, name order. The API scopes the list to the
 * signed-in user's clients (S-ROLE-15: a `user` sees assigned clients only). The key starts with
 * "/api/clients", so whatever refreshes the client list refreshes it too.
 */
export function clientPickerQueryOptions(q: string) {
  return queryOptions({
    queryKey: ["/api/clients", "report-picker", { q, limit: clientPickerLimit }] as const,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(clientPickerLimit) });
      if (q) params.set("q", q);
      return requestJson<ClientSummary[]>("GET", `/api/clients?${params}`, undefined, { signal });
    },
  });
}
