import { Archive, ArchiveRestore, Pencil } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import type { ClientDetail } from "../../../shared/clients";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useArchiveClient, useRestoreClient } from "./api";
import { ClientDialog } from "./client-dialog";
import { clientStateBadge } from "./client-status";

/** The client's name and status, with editing and archiving for those allowed (admin and up). */
export function ClientHeader({ client, canEdit }: { client: ClientDetail; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const [confirmingArchive, setConfirmingArchive] = useState(false);
  const archive = useArchiveClient(client.id);
  const restore = useRestoreClient(client.id);
  const navigate = useNavigate();
  const state = clientStateBadge(client);
  const archived = client.archivedAt !== null;

  const onArchive = () =>
    archive.mutate(undefined, {
      onSuccess: () => {
        toast.success("Client archived", { description: `${client.name} has left the client list.` });
        navigate("/clients");
      },
      onError: (error) => {
        setConfirmingArchive(false);
        toast.error("Failed to archive client", { description: errorMessage(error, "Please try again.") });
      },
    });

  const onRestore = () =>
    restore.mutate(undefined, {
      onSuccess: () => toast.success("Client restored", { description: `${client.name} is back in the client list.` }),
      onError: (error) =>
        toast.error("Failed to restore client", { description: errorMessage(error, "Please try again.") }),
    });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="min-w-0 text-2xl font-semibold tracking-tight break-words">{client.name}</h2>
            <Badge variant={state.variant}>{state.label}</Badge>
          </div>
          {client.industry && <p className="text-sm text-muted-foreground">{client.industry}</p>}
        </div>
        {canEdit && !archived && (
          <div className="flex shrink-0 flex-wrap gap-2">
            <Button variant="outline" onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" />
              Edit Client
            </Button>
            <Button variant="outline" onClick={() => setConfirmingArchive(true)}>
              <Archive aria-hidden="true" />
              Archive
            </Button>
          </div>
        )}
      </div>

      {archived && (
        <div
          role="note"
          className="flex flex-col gap-3 rounded-lg border bg-muted px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="text-muted-foreground">
            This client is archived. It is left out of lists, search and the dashboard; its contacts, tasks and signed
            work are kept.
          </p>
          {canEdit && (
            <Button variant="outline" size="sm" onClick={onRestore} disabled={restore.isPending}>
              <ArchiveRestore aria-hidden="true" />
              {restore.isPending ? "Restoring..." : "Restore Client"}
            </Button>
          )}
        </div>
      )}

      {canEdit && <ClientDialog client={client} open={editing} onOpenChange={setEditing} />}

      <AlertDialog open={confirmingArchive} onOpenChange={setConfirmingArchive}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Archive {client.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              The client leaves the client list, search and the dashboard, and takes no new tasks. Nothing is deleted:
              its contacts, tasks and signed-off work are kept as evidence and stay readable, and an admin can restore
              it at any time.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={archive.isPending}>Cancel</AlertDialogCancel>
            {/* A plain button, not AlertDialogAction: the dialog stays open until the archive is done. */}
            <Button variant="destructive" onClick={onArchive} disabled={archive.isPending}>
              {archive.isPending ? "Archiving..." : "Archive Client"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
