import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { sameName } from "../../../shared/names";
import type { CreateTemplateInput, LibraryTemplateEntry, Template } from "../../../shared/templates";
import { type Change, requestJson } from "../../lib/api";

/* The firm's task templates and the template library they may be added from. */

export const templatesQueryKey = ["/api/task-templates"] as const;
export const libraryQueryKey = ["/api/template-library"] as const;

export function templatesQueryOptions() {
  return queryOptions<Template[]>({ queryKey: templatesQueryKey });
}

export function libraryQueryOptions() {
  return queryOptions<LibraryTemplateEntry[]>({ queryKey: libraryQueryKey });
}

/** The body S-API-19..20 send for a template, create and edit alike. */
export type TemplateBody = Pick<
  CreateTemplateInput,
  "name" | "description" | "priority" | "frequency" | "isRecurring" | "dueDateRule"
>;

/**
 * The firm's templates already named `name` (ignoring case and surrounding spaces), read afresh
 * from GET /api/task-templates: a firm has tens of templates, so the whole list answers exactly.
 */
export function useFindTemplatesNamed() {
  const queryClient = useQueryClient();
  return async (name: string): Promise<Template[]> => {
    const templates = await queryClient.fetchQuery({ ...templatesQueryOptions(), staleTime: 0 });
    return templates.filter((template) => sameName(template.name, name));
  };
}

/** A template's name decides the library's "You have a template with this name", so both lists refresh. */
const refreshTemplateLists = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: templatesQueryKey }),
    queryClient.invalidateQueries({ queryKey: libraryQueryKey }),
  ]);

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, ...options }: Change<TemplateBody>) =>
      requestJson<Template>("POST", "/api/task-templates", input, options),
    onSuccess: () => refreshTemplateLists(queryClient),
  });
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input, ...options }: { id: string } & Change<TemplateBody>) =>
      requestJson<Template>("PUT", `/api/task-templates/${id}`, input, options),
    onSuccess: () => refreshTemplateLists(queryClient),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => requestJson<void>("DELETE", `/api/task-templates/${id}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: templatesQueryKey }),
        // A deleted library template can be added again.
        queryClient.invalidateQueries({ queryKey: libraryQueryKey }),
        // Its tasks lose their template link (docs/design/client-work-api.md), so their Recurring badges go.
        queryClient.invalidateQueries({ queryKey: ["/api/tasks"] }),
        queryClient.invalidateQueries({ queryKey: ["/api/clients"] }),
      ]),
  });
}

export function useAddLibraryTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, idempotencyKey }: { key: string; idempotencyKey: string }) =>
      requestJson<Template>("POST", `/api/template-library/${key}/add`, undefined, { idempotencyKey }),
    onSuccess: () => refreshTemplateLists(queryClient),
  });
}
