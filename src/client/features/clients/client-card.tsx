import { ArrowRight, Mail, MapPin, Phone } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import type { ClientSummary } from "../../../shared/clients";
import { ClientStatusBadge } from "../../components/client-status-badge";
import { Skeleton } from "../../components/ui/skeleton";
import { HealthIndicator } from "./health-indicator";

/**
 * One client of the grid (S-CLIST-06..11): brand top bar, name and health, industry, the ways to
 * reach the client, status and the link to the detail page. Every row is always drawn, so all
 * cards of a row are the same height and the grid reads as a grid.
 */
export function ClientCard({ client }: { client: ClientSummary }) {
  const nameId = useId();
  return (
    <article
      aria-labelledby={nameId}
      data-testid="client-card"
      className="flex h-full flex-col overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs"
    >
      <div className="h-1 bg-primary" data-testid="client-card-bar" />
      <div className="flex items-start gap-3 px-5 pt-4">
        <div className="min-w-0 flex-1">
          <h2 id={nameId} className="truncate text-base font-semibold leading-snug tracking-tight" title={client.name}>
            {client.name}
          </h2>
          <p className="truncate text-sm text-muted-foreground">{client.industry ?? "No industry"}</p>
        </div>
        <HealthIndicator health={client.health} />
      </div>
      <ul className="flex flex-1 flex-col gap-2 px-5 py-4 text-sm">
        <Detail icon={<Phone />} label="Phone">
          {client.phone}
        </Detail>
        <Detail icon={<Mail />} label="Email">
          {client.email}
        </Detail>
        <Detail icon={<MapPin />} label="Address">
          {client.address}
        </Detail>
      </ul>
      <div className="flex items-center justify-between gap-3 border-t px-5 py-3">
        <ClientStatusBadge status={client.status} data-testid="client-status" />
        <Link
          to={`/client/${client.id}`}
          aria-label={`View Details of ${client.name}`}
          className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          View Details
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
      </div>
    </article>
  );
}

function Detail({ icon, label, children }: { icon: ReactNode; label: string; children: string | null }) {
  return (
    <li className="flex min-w-0 items-center gap-2.5" data-field={label.toLowerCase()}>
      <span className="shrink-0 text-muted-foreground [&_svg]:size-4" aria-hidden="true">
        {icon}
      </span>
      <span className="sr-only">{label}: </span>
      {children ? (
        <span className="truncate" title={children}>
          {children}
        </span>
      ) : (
        <span className="text-muted-foreground">Not provided</span>
      )}
    </li>
  );
}

/** The placeholder of one card while the grid loads (S-CONST-44: the skeleton is six of these). */
export function ClientCardSkeleton() {
  return (
    <div data-testid="client-card-skeleton" className="overflow-hidden rounded-lg border bg-card shadow-xs">
      <Skeleton className="h-1 rounded-none" />
      <div className="flex items-start gap-3 px-5 pt-4">
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
        </div>
        <Skeleton className="size-7 rounded-full" />
      </div>
      <div className="flex flex-col gap-2.5 px-5 py-4">
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-2/3" />
      </div>
      <div className="flex items-center justify-between border-t px-5 py-3">
        <Skeleton className="h-5 w-16 rounded-full" />
        <Skeleton className="h-4 w-24" />
      </div>
    </div>
  );
}
