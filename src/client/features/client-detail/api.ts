import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  ClientDetail,
  Contact,
  CreateContactInput,
  UpdateClientInput,
  UpdateContactInput,
} from "../../../shared/clients";
import type { CompleteTaskInput, CreateTaskInput, Task, UpdateTaskInput } from "../../../shared/tasks";
import { type Change, requestJson } from "../../lib/api";

/**
 * GET /api/clients/{id}. The key is S-API-29's: its segments joined with "/" are the URL, and it
 * starts with "/api/clients", so whatever refreshes the client list refreshes this too.
 */
export function clientDetailQueryOptions(clientId: string) {
  return queryOptions<ClientDetail>({ queryKey: ["/api/clients", clientId] });
}

/** Everything that shows a task's status or a client's counts: lists, the bell, the dashboard. */
function refreshTaskViews(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ["/api/clients"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/tasks/overdue"] }),
    queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] }),
  ]);
}

/** A client leaving or coming back to the lists: the task views, and the Users page's client names. */
function refreshClientLists(queryClient: QueryClient) {
  return Promise.all([
    refreshTaskViews(queryClient),
    queryClient.invalidateQueries({ queryKey: ["/api/user-clients"] }),
  ]);
}

export function useUpdateClient(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, ...options }: Change<UpdateClientInput>) =>
      requestJson<ClientDetail>("PATCH", `/api/clients/${clientId}`, input, options),
    // The list, the header search, the dashboard's status counts and the Users page's client
    // names show these fields.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["/api/clients"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/user-clients"] }),
      ]),
  });
}

/** DELETE /api/clients/{id} archives (docs/design/client-work-api.md): the client leaves lists, its signed work stays. */
export function useArchiveClient(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestJson<void>("DELETE", `/api/clients/${clientId}`),
    onSuccess: () => refreshClientLists(queryClient),
  });
}

export function useRestoreClient(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestJson<ClientDetail>("POST", `/api/clients/${clientId}/restore`),
    onSuccess: () => refreshClientLists(queryClient),
  });
}

export type ContactChange =
  | ({ contactId: undefined } & Change<CreateContactInput>)
  | ({ contactId: string } & Change<UpdateContactInput>);

/** POST /api/contacts or PATCH /api/contacts/{id}; a new primary clears the old one on the server. */
export function useSaveContact(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, input, ...options }: ContactChange) =>
      contactId === undefined
        ? requestJson<Contact>("POST", "/api/contacts", input, options)
        : requestJson<Contact>("PATCH", `/api/contacts/${contactId}`, input, options),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientDetailQueryOptions(clientId).queryKey }),
  });
}

export function useDeleteContact(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) => requestJson<void>("DELETE", `/api/contacts/${contactId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientDetailQueryOptions(clientId).queryKey }),
  });
}

export type TaskChange =
  | ({ taskId: undefined } & Change<CreateTaskInput>)
  | ({ taskId: string } & Change<UpdateTaskInput>);

/** POST /api/tasks or PATCH /api/tasks/{id} (a pending task only). */
export function useSaveTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, input, ...options }: TaskChange) =>
      taskId === undefined
        ? requestJson<Task>("POST", "/api/tasks", input, options)
        : requestJson<Task>("PATCH", `/api/tasks/${taskId}`, input, options),
    onSuccess: () => refreshTaskViews(queryClient),
  });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) => requestJson<void>("DELETE", `/api/tasks/${taskId}`),
    onSuccess: () => refreshTaskViews(queryClient),
  });
}

/**
 * PATCH /api/tasks/{id}/complete (S-API-17). Afterwards the client, the overdue list (the bell),
 * the task lists and the dashboard are refreshed, so every count drops without a reload (S-TCOMP-10).
 */
export function useCompleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, input, ...options }: { taskId: string } & Change<CompleteTaskInput>) =>
      requestJson<Task>("PATCH", `/api/tasks/${taskId}/complete`, input, options),
    onSuccess: () => refreshTaskViews(queryClient),
  });
}
