import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Globe, ListChecks, Monitor, RefreshCw, ScrollText, ShieldAlert, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { type AuditEntity, type AuditEvent, auditEntities } from "../../../shared/reports";
import { PermissionGate } from "../../components/permission-gate";
import { type Back, BackLink } from "../../components/ui/back-link";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { PageHeader } from "../../components/ui/page-header";
import { Progress } from "../../components/ui/progress";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { firmQueryOptions } from "../../lib/firm";
import { currentUserQueryOptions } from "../auth/api";
import { usersQueryOptions } from "../users/api";
import {
  type AuditFilter,
  auditEventsQueryOptions,
  auditVerificationQueryOptions,
  emptyAuditFilter,
  useFullAuditVerification,
} from "./api";
import {
  actionLabel,
  entityLabels,
  entityName,
  fullProgressLabel,
  quickCheckScope,
  shortUserAgent,
  verificationSummary,
} from "./audit-labels";

const back: Back = { to: "/settings", label: "Back to Settings" };

/** "Nov 23, 2026, 1:54:09 AM UTC": to the second, in the firm's zone (the browser's until it loads). */
function eventTimeFormat(timeZone: string | undefined) {
  return new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
    timeZone,
  });
}

/** The firm's audit trail (decision 0005), for super admins and admins; docs/design/audit-trail-and-settings.md. */
export function AuditTrailPage() {
  const { data: user } = useQuery(currentUserQueryOptions());
  return (
    <PermissionGate
      role={user?.role}
      action="audit.read"
      refusal="Only super admins and admins can view the firm's audit trail. Ask one of them if you need a record of a change."
      back={back}
    >
      <AuditTrail />
    </PermissionGate>
  );
}

function AuditTrail() {
  const [filter, setFilter] = useState<AuditFilter>(emptyAuditFilter);
  const firm = useQuery(firmQueryOptions());
  const users = useQuery(usersQueryOptions());
  const events = useInfiniteQuery(auditEventsQueryOptions(filter, true));
  const timeZone = firm.data?.timeZone;
  const format = eventTimeFormat(timeZone);
  const filtered = filter.entity !== "all" || filter.userId !== "all" || filter.from !== "" || filter.to !== "";
  const rangeReversed = filter.from !== "" && filter.to !== "" && filter.from > filter.to;
  const shown = events.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <div className="flex flex-col gap-5">
      <BackLink {...back} />
      <PageHeader
        description={`Every change in your firm: who made it, when and from where.${timeZone ? ` Times are in ${timeZone.replaceAll("_", " ")}.` : ""}`}
      />
      <VerificationBanner />
      <FullVerificationPanel />

      <Card className="p-4">
        <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end">
          <legend className="sr-only">Filter events</legend>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-entity">Entity type</Label>
            <Select
              value={filter.entity}
              onValueChange={(entity) => setFilter({ ...filter, entity: entity as AuditEntity | "all" })}
            >
              <SelectTrigger id="audit-entity">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All types</SelectItem>
                {auditEntities.map((entity) => (
                  <SelectItem key={entity} value={entity}>
                    {entityLabels[entity]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-user">User</Label>
            <Select value={filter.userId} onValueChange={(userId) => setFilter({ ...filter, userId })}>
              <SelectTrigger id="audit-user">
                <SelectValue />
              </SelectTrigger>
              <SelectContent className="max-h-72">
                <SelectItem value="all">All users</SelectItem>
                {(users.data ?? []).map((person) => (
                  <SelectItem key={person.id} value={person.id}>
                    {person.fullName}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-from">From</Label>
            <Input
              id="audit-from"
              type="date"
              value={filter.from}
              max={filter.to || undefined}
              onChange={(event) => setFilter({ ...filter, from: event.target.value })}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-to">To</Label>
            <Input
              id="audit-to"
              type="date"
              value={filter.to}
              min={filter.from || undefined}
              onChange={(event) => setFilter({ ...filter, to: event.target.value })}
            />
          </div>
          <Button variant="outline" disabled={!filtered} onClick={() => setFilter(emptyAuditFilter)}>
            Clear filters
          </Button>
        </fieldset>
      </Card>

      {rangeReversed ? (
        <p role="alert" className="text-sm text-destructive">
          The "From" date must be on or before the "To" date.
        </p>
      ) : events.isPending ? (
        <div className="flex flex-col gap-2" role="status" aria-label="Loading events">
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={index} className="h-16 w-full" />
          ))}
        </div>
      ) : events.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(events.error, "The audit trail could not be loaded. Please try again.")}
        </p>
      ) : shown.length === 0 ? (
        <EmptyState
          icon={ScrollText}
          title={filtered ? "No events match these filters" : "No events yet"}
          description={filtered ? "Try another type, user or date range." : "Changes your team makes will appear here."}
          action={
            filtered ? (
              <Button variant="outline" onClick={() => setFilter(emptyAuditFilter)}>
                Clear filters
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <ol className="flex flex-col gap-2" aria-label="Audit events">
            {shown.map((event) => (
              <EventRow key={event.id} event={event} when={format.format(new Date(event.createdAt))} />
            ))}
          </ol>
          <div className="flex flex-col items-center gap-2">
            {events.hasNextPage ? (
              <Button variant="outline" onClick={() => events.fetchNextPage()} disabled={events.isFetchingNextPage}>
                {events.isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            ) : (
              <p className="text-xs text-muted-foreground">
                {shown.length === 1 ? "1 event" : `${shown.length} events`} — the start of{" "}
                {filtered ? "the matches" : "the trail"}
              </p>
            )}
          </div>
        </>
      )}
    </div>
  );
}

function EventRow({ event, when }: { event: AuditEvent; when: string }) {
  const name = entityName(event);
  return (
    <li className="rounded-lg border bg-card px-4 py-3 text-sm" data-testid="audit-event">
      <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-medium">
            <span>{event.actor?.fullName ?? "System"}</span>{" "}
            {event.actor && (
              <span className="break-all font-normal text-muted-foreground">@{event.actor.username}</span>
            )}{" "}
            <span className="font-normal text-muted-foreground">·</span> <span>{actionLabel(event.action)}</span>
          </p>
          <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <Badge variant="outline">{entityLabels[event.entityType]}</Badge>
            {name && <span className="min-w-0 break-words">{name}</span>}
          </p>
        </div>
        <div className="flex shrink-0 flex-col gap-1 text-muted-foreground sm:items-end sm:text-right">
          <time dateTime={event.createdAt} className="text-foreground">
            {when}
          </time>
          <span className="text-xs">Event #{event.seq}</span>
        </div>
      </div>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1">
          <Globe className="size-3.5" aria-hidden="true" />
          <span className="sr-only">IP address </span>
          {event.ip ?? "No IP address"}
        </span>
        <span className="inline-flex min-w-0 items-center gap-1" title={event.userAgent ?? undefined}>
          <Monitor className="size-3.5" aria-hidden="true" />
          <span className="sr-only">Device </span>
          {shortUserAgent(event.userAgent)}
        </span>
      </p>
    </li>
  );
}

/** The chain check as one clear sentence: intact with its count, or where it breaks. */
function VerificationBanner() {
  const verification = useQuery(auditVerificationQueryOptions(true));
  const firm = useQuery(firmQueryOptions());
  const recheck = (
    <Button
      variant="outline"
      size="sm"
      onClick={() => verification.refetch()}
      disabled={verification.isFetching}
      className="shrink-0"
    >
      <RefreshCw className={cn("size-4", verification.isFetching && "animate-spin")} aria-hidden="true" />
      {verification.isFetching ? "Checking..." : "Check again"}
    </Button>
  );
  if (verification.isPending) {
    return (
      <div role="status" className="rounded-lg border bg-card px-4 py-3 text-sm text-muted-foreground">
        Checking the audit trail's hash chain...
      </div>
    );
  }
  if (verification.isError) {
    return (
      <div role="alert" className="flex items-center justify-between gap-3 rounded-lg border px-4 py-3 text-sm">
        <span>{errorMessage(verification.error, "The chain could not be checked. Please try again.")}</span>
        {recheck}
      </div>
    );
  }
  const result = verification.data;
  const summary = verificationSummary(result, (iso) => eventTimeFormat(firm.data?.timeZone).format(new Date(iso)));
  const Icon = result.intact ? ShieldCheck : ShieldAlert;
  const scope = quickCheckScope(result.from);
  return (
    <div
      role={result.intact ? "status" : "alert"}
      data-testid="audit-verification"
      className={cn(
        "flex flex-col gap-3 rounded-lg border px-4 py-3 sm:flex-row sm:items-center sm:justify-between",
        result.intact
          ? "border-success/30 bg-success-subtle text-success-subtle-foreground"
          : "border-destructive/30 bg-destructive-subtle text-destructive-subtle-foreground",
      )}
    >
      <div className="flex items-start gap-3">
        <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{summary.title}</p>
          <p className="text-sm">{summary.detail}</p>
          {scope && <p className="mt-1 text-xs">{scope}</p>}
        </div>
      </div>
      {recheck}
    </div>
  );
}

/**
 * The full re-verification: every event again from the first, whatever the checkpoint says, so a
 * change to an event the quick check no longer reads is found too. It runs in slices (one request
 * each) with a progress bar; one button starts and stops it, so focus stays where it was.
 */
function FullVerificationPanel() {
  const { state, start, stop } = useFullAuditVerification();
  const firm = useQuery(firmQueryOptions());
  const running = state.status === "running";
  const progress = state.status === "running" || state.status === "stopped" || state.status === "failed" ? state : null;
  const summary =
    state.status === "done"
      ? verificationSummary(state.result, (iso) => eventTimeFormat(firm.data?.timeZone).format(new Date(iso)))
      : null;
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="audit-full-verification">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <ListChecks className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div>
            <h2 className="font-semibold">Verify the whole trail</h2>
            <p className="text-sm text-muted-foreground">
              Reads every event again from the first, not only those added since the last check. On a long trail this
              takes a while.
            </p>
          </div>
        </div>
        <Button
          variant={running ? "outline" : "default"}
          size="sm"
          onClick={running ? stop : start}
          className="shrink-0 sm:self-center"
        >
          {running ? "Stop" : state.status === "idle" ? "Verify the whole trail" : "Verify again"}
        </Button>
      </div>
      {progress && (
        <div className="flex flex-col gap-1.5">
          <Progress
            aria-label="Full re-verification"
            value={progress.events}
            max={Math.max(progress.total ?? 1, 1)}
            getValueLabel={() => fullProgressLabel(progress.events, progress.total)}
          />
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {fullProgressLabel(progress.events, progress.total)}
            {state.status === "stopped" && " — stopped."}
          </p>
        </div>
      )}
      {state.status === "failed" && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(state.error, "The trail could not be verified. Please try again.")}
        </p>
      )}
      {state.status === "done" && summary && (
        <div
          role={state.result.intact ? "status" : "alert"}
          data-testid="audit-full-verification-result"
          className={cn(
            "flex items-start gap-3 rounded-md border px-3 py-2",
            state.result.intact
              ? "border-success/30 bg-success-subtle text-success-subtle-foreground"
              : "border-destructive/30 bg-destructive-subtle text-destructive-subtle-foreground",
          )}
        >
          {state.result.intact ? (
            <ShieldCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          ) : (
            <ShieldAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          )}
          <div>
            <p className="font-semibold">Whole trail: {summary.title}</p>
            <p className="text-sm">{summary.detail}</p>
          </div>
        </div>
      )}
    </Card>
  );
}
