import { type ClientSummary, clientHealth } from "../../../shared/clients";
import { clients, type firmClients } from "../../platform/db/schema";

/* What the clients' operations share: the columns a client's answer is made from, and its summary. */

export type ClientRow = Pick<
  typeof clients.$inferSelect,
  "id" | "name" | "industry" | "address" | "phone" | "email" | "status" | "createdAt" | "archivedAt"
>;
export type TaxRow = Pick<typeof clients.$inferSelect, "fiscalYearEnd" | "entityType" | "jurisdiction" | "state">;

/** Where a page of clients is read from: the table, or (for a search) the firm's view of it. */
export type ClientSource = typeof clients | typeof firmClients;

export const clientColumnsOf = (c: ClientSource) => ({
  id: c.id,
  name: c.name,
  industry: c.industry,
  address: c.address,
  phone: c.phone,
  email: c.email,
  status: c.status,
  createdAt: c.createdAt,
  archivedAt: c.archivedAt,
});
export const clientColumns = clientColumnsOf(clients);
/** What due dates need of a client (decision 0053): its detail carries them, the lists do not. */
export const taxColumns = {
  fiscalYearEnd: clients.fiscalYearEnd,
  entityType: clients.entityType,
  jurisdiction: clients.jurisdiction,
  state: clients.state,
};

const noTasks = { total: 0, pending: 0, overdue: 0, completed: 0 };

export function toSummary(row: ClientRow, counts = noTasks): ClientSummary {
  return {
    id: row.id,
    name: row.name,
    industry: row.industry,
    address: row.address,
    phone: row.phone,
    email: row.email,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
    taskCounts: counts,
    health: clientHealth(counts),
  };
}
