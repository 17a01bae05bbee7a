import type { ClientDetail, ClientStatus } from "../../../shared/clients";
import type { BadgeVariant } from "../../components/ui/badge";

/** How a client's status reads: green for active work, neutral for the rest. */
export const clientStatusBadge: Record<ClientStatus, { label: string; variant: BadgeVariant }> = {
  active: { label: "Active", variant: "success" },
  prospect: { label: "Prospect", variant: "secondary" },
  inactive: { label: "Inactive", variant: "outline" },
};

/**
 * The one badge that says where a client stands: an archived client is "Archived", whatever its
 * status, since that is what decides what can be done with it; the status returns with a restore.
 */
export function clientStateBadge(client: Pick<ClientDetail, "status" | "archivedAt">): {
  label: string;
  variant: BadgeVariant;
} {
  return client.archivedAt === null ? clientStatusBadge[client.status] : { label: "Archived", variant: "outline" };
}
