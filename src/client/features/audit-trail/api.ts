import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AuditEntity, AuditEvent, AuditVerification } from "../../../shared/reports";
import { requestJson, requestPage } from "../../lib/api";

/* The firm's audit trail (decision 0005): its events page by page, and the check of its chain. */

export type AuditFilter = { entity: AuditEntity | "all"; userId: string | "all"; from: string; to: string };
export const emptyAuditFilter: AuditFilter = { entity: "all", userId: "all", from: "", to: "" };
/** Events per request: a few screens' worth (the API allows 100). */
export const auditPageSize = 50;

type AuditPage = { events: AuditEvent[]; nextCursor: string | null };

async function fetchAuditPage(filter: AuditFilter, cursor: string | null, signal: AbortSignal): Promise<AuditPage> {
  const params = new URLSearchParams({ limit: String(auditPageSize) });
  if (filter.entity !== "all") params.set("entity", filter.entity);
  if (filter.userId !== "all") params.set("userId", filter.userId);
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (cursor) params.set("cursor", cursor);
  const { rows, nextCursor } = await requestPage<AuditEvent>(`/api/audit-events?${params}`, signal);
  return { events: rows, nextCursor };
}

/** GET /api/audit-events page by page, newest first. */
export function auditEventsQueryOptions(filter: AuditFilter, enabled: boolean) {
  return infiniteQueryOptions({
    queryKey: ["/api/audit-events", "list", filter] as const,
    queryFn: ({ pageParam, signal }) => fetchAuditPage(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

export function auditVerificationQueryOptions(enabled: boolean) {
  return queryOptions<AuditVerification>({ queryKey: ["/api/audit-events/verify"], enabled });
}

/** Where a full re-verification is: how many events it verified of how many, or its verdict. */
export type FullVerification =
  | { status: "idle" }
  | { status: "running" | "stopped"; events: number; total: number | null }
  | { status: "failed"; error: unknown; events: number; total: number | null }
  | { status: "done"; result: AuditVerification };

/**
 * The full re-verification, driven from the browser: GET /api/audit-events/verify?full=true one
 * slice at a time (the server's most per request, each well under a second), going on from each
 * answer's `next` until the newest event or a break. Every request is short, so any app instance
 * may answer any slice and a deploy or a closed tab ends it cleanly. Leaving the page, or Stop,
 * aborts the request in flight.
 */
export function useFullAuditVerification() {
  const [state, setState] = useState<FullVerification>({ status: "idle" });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    let progress: { events: number; total: number | null } = { events: 0, total: null };
    setState({ status: "running", ...progress });
    try {
      for (let after = 0; ; ) {
        const slice = await requestJson<AuditVerification>(
          "GET",
          `/api/audit-events/verify?full=true&after=${after}`,
          undefined,
          { signal: controller.signal },
        );
        if (!slice.intact || slice.next === null) {
          setState({ status: "done", result: slice });
          return;
        }
        progress = { events: slice.events, total: slice.total };
        setState({ status: "running", ...progress });
        after = slice.next;
      }
    } catch (error) {
      if (!controller.signal.aborted) setState({ status: "failed", error, ...progress });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const stop = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setState((current) => (current.status === "running" ? { ...current, status: "stopped" } : current));
  }, []);

  return { state, start, stop };
}
