import type { ClientStatus } from "../../../shared/clients";
import type { BadgeVariant } from "../../components/ui/badge";

/** How a client's status reads: green for active work, neutral for the rest. */
export const clientStatusBadge: Record<ClientStatus, { label: string; variant: BadgeVariant }> = {
  active: { label: "Active", variant: "success" },
  prospect: { label: "Prospect", variant: "secondary" },
  inactive: { label: "Inactive", variant: "outline" },
};
