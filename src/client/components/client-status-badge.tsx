import type { ComponentProps } from "react";
import type { ClientStatus } from "../../shared/clients";
import { Badge, type BadgeVariant } from "./ui/badge";

export const clientStatusLabels: Record<ClientStatus, string> = {
  active: "Active",
  prospect: "Prospect",
  inactive: "Inactive",
};

// Only "active" is green: a prospect or an inactive client is not a warning (status colours
// are kept for meaning).
const statusVariant: Record<ClientStatus, BadgeVariant> = {
  active: "success",
  prospect: "outline",
  inactive: "secondary",
};

/** A client's status as a badge, the same on the client cards and a user's profile. */
export function ClientStatusBadge({ status, ...props }: { status: ClientStatus } & ComponentProps<typeof Badge>) {
  return (
    <Badge variant={statusVariant[status]} {...props}>
      {clientStatusLabels[status]}
    </Badge>
  );
}
