import { Briefcase, Building2, CircleDot, Landmark, type LucideIcon, Mail, MapPin, Phone } from "lucide-react";
import type { ReactNode } from "react";
import type { ClientDetail } from "../../../shared/clients";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { clientStateBadge, clientStatusBadge } from "./client-status";
import { taxDetailLines } from "./tax-details";

/** S-CDET-06: company name, industry, address, phone, email (and the status); S-DUE-16: the tax details. */
export function ClientInfoCard({ client }: { client: ClientDetail }) {
  const state = clientStateBadge(client);
  return (
    <Card data-testid="client-info">
      <CardHeader>
        <CardTitle>Client Information</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-3.5">
          <Field icon={Building2} label="Company Name">
            {client.name}
          </Field>
          <Field icon={Briefcase} label="Industry">
            {client.industry}
          </Field>
          <Field icon={MapPin} label="Address">
            {client.address}
          </Field>
          <Field icon={Phone} label="Phone">
            {client.phone && <ContactLink href={`tel:${client.phone}`}>{client.phone}</ContactLink>}
          </Field>
          <Field icon={Mail} label="Email">
            {client.email && <ContactLink href={`mailto:${client.email}`}>{client.email}</ContactLink>}
          </Field>
          <Field icon={CircleDot} label="Status">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Badge variant={state.variant}>{state.label}</Badge>
              {client.archivedAt !== null && (
                <span className="text-xs text-muted-foreground">
                  {clientStatusBadge[client.status].label} once restored
                </span>
              )}
            </span>
          </Field>
          <Field icon={Landmark} label="Tax details">
            <TaxDetails client={client} />
          </Field>
        </dl>
      </CardContent>
    </Card>
  );
}

/** One line per detail that is set ("Fiscal year end: 30 June"), or one muted line when none is. */
function TaxDetails({ client }: { client: ClientDetail }) {
  const lines = taxDetailLines(client);
  if (lines.length === 0) return <span className="text-muted-foreground">Not set</span>;
  return (
    <dl className="flex flex-col gap-0.5" data-testid="tax-details">
      {lines.map((line) => (
        <div key={line.label}>
          <dt className="inline text-muted-foreground">{line.label}: </dt>
          <dd className="inline">{line.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Field({ icon: Icon, label, children }: { icon: LucideIcon; label: string; children: ReactNode }) {
  // The icon sits inside the <dt>, so the list stays the <dt>/<dd> pairs a <dl> may hold.
  return (
    <div className="relative flex min-w-0 flex-col gap-0.5 pl-7">
      <dt className="text-xs text-muted-foreground">
        <Icon className="absolute top-0.5 left-0 size-4" aria-hidden="true" />
        {label}
      </dt>
      <dd className="text-sm break-words">{children || <span className="text-muted-foreground">Not provided</span>}</dd>
    </div>
  );
}

/** A phone number or e-mail address that opens the phone or mail app. */
export function ContactLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      className="rounded-sm text-foreground underline-offset-4 outline-none hover:text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </a>
  );
}
