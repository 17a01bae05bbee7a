import type { ClientImport, ImportUndo } from "../../../shared/client-import";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useUndoImport } from "./api";
import { counted, undoConsequence } from "./import-labels";

/** "2 removed · 1 restored": what an undo did, leaving out what it did not. */
export function undoSummary(undo: ImportUndo): string {
  const parts = [
    undo.removed > 0 && `${counted(undo.removed, "client")} removed`,
    undo.archived > 0 && `${counted(undo.archived, "client")} archived (they had gained work since)`,
    undo.restored > 0 && `${counted(undo.restored, "client")} given their earlier details back`,
    undo.kept > 0 && `${counted(undo.kept, "client")} kept as they are (changed again since)`,
  ].filter((part): part is string => part !== false);
  return parts.length > 0 ? `${parts.join(", ")}.` : "No client needed changing.";
}

/**
 * The confirmation before an import is undone, saying what will happen to the clients it touched.
 * The undo then runs in the background: the import's card shows its progress, and Recent imports
 * its status.
 */
export function UndoImportDialog({
  record,
  open,
  onClose,
}: {
  record: ClientImport;
  open: boolean;
  onClose: () => void;
}) {
  const undo = useUndoImport();
  // A promise, not mutate's callbacks: the import's card changes to "undoing" underneath, which may unmount this.
  const onUndo = () =>
    undo.mutateAsync(record.id).then(
      () => {
        toast.success("Undoing the import", { description: "Recent imports shows when it is done." });
        onClose();
      },
      (error: unknown) => {
        toast.error("Failed to undo the import", { description: errorMessage(error, "Please try again.") });
        onClose();
      },
    );
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !undo.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Undo this import?</AlertDialogTitle>
          <AlertDialogDescription>
            {undoConsequence(record)} This cannot be reversed; to bring them back, import the file again.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={undo.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={undo.isPending} onClick={onUndo}>
            {undo.isPending ? "Undoing..." : "Undo import"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
