import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowLeft, SearchX } from "lucide-react";
import { Link, useParams } from "react-router";
import type { ClientDetail as ClientDetailData } from "../../../shared/clients";
import { can } from "../../../shared/permissions";
import type { Role } from "../../../shared/roles";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
import { ApiError, errorMessage } from "../../lib/api";
import { firmQueryOptions } from "../../lib/firm";
import { currentUserQueryOptions } from "../auth/api";
import { clientDetailQueryOptions } from "./api";
import { ClientHeader } from "./client-header";
import { ClientInfoCard } from "./client-info-card";
import { ContactsCard } from "./contacts-card";
import { TasksCard } from "./tasks-card";
import { TeamCard } from "./team-card";

/** The CDET requirements, "Client detail": the client, its contacts, its team and its tasks. */
export function ClientDetailPage() {
  const { id = "" } = useParams();
  const client = useQuery(clientDetailQueryOptions(id));
  const firm = useQuery(firmQueryOptions());
  const { data: user } = useQuery(currentUserQueryOptions());

  return (
    <div className="flex flex-col gap-6">
      <Link
        to="/clients"
        className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Clients
      </Link>
      {client.isPending || firm.isPending || !user ? (
        <p role="status" className="py-16 text-center text-sm text-muted-foreground">
          Loading...
        </p>
      ) : client.isError ? (
        client.error instanceof ApiError && client.error.status === 404 ? (
          <EmptyState
            icon={SearchX}
            title="Client not found"
            description="It may have been removed, or it is not one of the clients you can see."
            action={
              <Button asChild variant="outline">
                <Link to="/clients">View all clients</Link>
              </Button>
            }
          />
        ) : (
          <Card role="alert" className="flex flex-col items-start gap-3 p-6">
            <div className="flex items-center gap-2 font-medium">
              <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
              The client could not be loaded
            </div>
            <p className="text-sm text-muted-foreground">{errorMessage(client.error, "Please try again.")}</p>
            <Button variant="outline" size="sm" onClick={() => client.refetch()}>
              Try again
            </Button>
          </Card>
        )
      ) : (
        // The firm's zone when it loads; UTC, the server's default, if it could not be read.
        <ClientDetail client={client.data} role={user.role} timeZone={firm.data?.timeZone ?? "UTC"} />
      )}
    </div>
  );
}

function ClientDetail({ client, role, timeZone }: { client: ClientDetailData; role: Role; timeZone: string }) {
  const canEditClient = can(role, "clients.write");
  return (
    <>
      <ClientHeader client={client} canEdit={canEditClient} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6">
          <ClientInfoCard client={client} />
          <ContactsCard client={client} canEdit={canEditClient} />
          <TeamCard team={client.team} />
        </div>
        <TasksCard
          className="min-w-0 lg:col-span-2"
          client={client}
          timeZone={timeZone}
          canManage={can(role, "tasks.create")}
          canComplete={can(role, "tasks.complete")}
          canRestore={canEditClient}
        />
      </div>
    </>
  );
}
