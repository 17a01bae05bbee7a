import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type {
  ClientImport,
  ClientImportPreview,
  CommitImportInput,
  ImportMapping,
  ImportRow,
  ImportStatus,
} from "../../../shared/client-import";
import { requestJson, requestPage } from "../../lib/api";

/*
 * The client import (decision 0051). Keys start with the list's path, so refreshing
 * ["/api/client-imports"] exactly refreshes "Recent imports", and [path, id] one import.
 */

export type RowFilter = "all" | "errors" | "duplicates";

const listKey = ["/api/client-imports"] as const;
const importKey = (id: string) => ["/api/client-imports", id] as const;
const rowsKey = (id: string) => ["/api/client-imports", id, "rows"] as const;

/** While a commit's or an undo's job works, the import is asked for again every second. */
const pollMs = 1_000;
export const running = (status: ImportStatus | undefined) =>
  status === "queued" || status === "running" || status === "undoing";

/** GET /api/client-imports: the firm's 20 latest imports, newest first, polled while one of them runs. */
export function recentImportsQueryOptions() {
  return queryOptions<ClientImport[]>({
    queryKey: listKey,
    refetchInterval: (query) => (query.state.data?.some((record) => running(record.status)) ? pollMs : false),
  });
}

/** GET /api/client-imports/{id}, polled while its commit or undo runs. */
export function importQueryOptions(id: string) {
  return queryOptions<ClientImport>({
    queryKey: importKey(id),
    refetchInterval: (query) => (running(query.state.data?.status) ? pollMs : false),
  });
}

export type RowsPage = { rows: ImportRow[]; nextCursor: string | null };

/** GET /api/client-imports/{id}/rows: one page (100 rows) after `cursor`, of all rows or those in error or duplicated. */
export function importRowsQueryOptions(id: string, filter: RowFilter, cursor: string | null) {
  return queryOptions<RowsPage>({
    queryKey: [...rowsKey(id), { filter, cursor }],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ filter });
      if (cursor) params.set("cursor", cursor);
      return requestPage<ImportRow>(`/api/client-imports/${id}/rows?${params}`, signal);
    },
    // A new mapping or another filter keeps the old page on screen until the new one is there.
    placeholderData: keepPreviousData,
  });
}

/**
 * The import, polled while its commit or undo runs. When the job finishes, the lists it changed
 * are refreshed: the clients (S-API-32, as a create does), the dashboard's counts and "Recent imports".
 */
export function useImport(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery(importQueryOptions(id));
  const status = query.data?.status;
  const before = useRef(status);
  useEffect(() => {
    if (running(before.current) && !running(status)) refreshAfterChange(queryClient);
    before.current = status;
  }, [status, queryClient]);
  return query;
}

/**
 * The firm's latest imports, polled while one runs; when one finishes (a commit or an undo,
 * perhaps started from this list), the lists it changed are refreshed as useImport does.
 */
export function useRecentImports() {
  const queryClient = useQueryClient();
  const query = useQuery(recentImportsQueryOptions());
  const runningCount = query.data?.filter((record) => running(record.status)).length ?? 0;
  const before = useRef(runningCount);
  useEffect(() => {
    if (runningCount < before.current) refreshAfterChange(queryClient);
    before.current = runningCount;
  }, [runningCount, queryClient]);
  return query;
}

function refreshAfterChange(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: ["/api/clients"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] });
  void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
}

/**
 * POST /api/client-imports: the file's own bytes as text/csv (whatever type the browser gives a
 * .csv: Windows calls it application/vnd.ms-excel), its name in the query, and the Idempotency-Key
 * of this choice of file, so a repeated request starts one import.
 */
export function useUploadImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, idempotencyKey }: { file: File; idempotencyKey: string }) =>
      requestJson<ClientImportPreview>(
        "POST",
        `/api/client-imports?${new URLSearchParams({ fileName: file.name })}`,
        new Blob([file], { type: "text/csv" }),
        { idempotencyKey },
      ),
    onSuccess: (preview) => {
      queryClient.setQueryData(importKey(preview.import.id), preview.import);
      void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    },
  });
}

/** PUT /api/client-imports/{id}/mapping: every row is checked again, so the preview's pages are asked for anew. */
export function useUpdateMapping(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mapping: ImportMapping) =>
      requestJson<ClientImportPreview>("PUT", `/api/client-imports/${id}/mapping`, { mapping }),
    onSuccess: async (preview) => {
      queryClient.setQueryData(importKey(id), preview.import);
      await queryClient.invalidateQueries({ queryKey: rowsKey(id) });
    },
  });
}

/** POST /api/client-imports/{id}/commit: the job is queued; the import is then polled until it is done. */
export function useCommitImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CommitImportInput) =>
      requestJson<ClientImport>("POST", `/api/client-imports/${id}/commit`, input),
    onSuccess: (committed) => {
      queryClient.setQueryData(importKey(id), committed);
      void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    },
  });
}

/**
 * POST /api/client-imports/{id}/undo: the job is queued (the clients it made go, those it changed
 * get their details back); the import is then polled until it is undone.
 */
export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => requestJson<ClientImport>("POST", `/api/client-imports/${id}/undo`),
    onSuccess: (undoing) => {
      queryClient.setQueryData(importKey(undoing.id), undoing);
      void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    },
  });
}
