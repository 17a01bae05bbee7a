import { AlertTriangle, CheckCircle2, Loader2, Undo2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { ClientImport } from "../../../shared/client-import";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { canUndo, counted } from "./import-labels";
import { UndoImportDialog, undoSummary } from "./undo-import-dialog";

const number = new Intl.NumberFormat("en-US");

/**
 * Step 4: the commit's job at work, "N of M rows" as the import is polled (api.ts); after an undo
 * is asked for, the undo's job the same way, "N of M clients".
 */
export function ProgressCard({ record }: { record: ClientImport }) {
  const undoing = record.status === "undoing";
  const [done, total] = undoing
    ? [record.undo?.progress ?? 0, record.undo?.total ?? 0]
    : [record.progress, record.counts.rows];
  const label = `${number.format(done)} of ${undoing ? counted(total, "client") : counted(total, "row")}`;
  return (
    <Card data-testid="import-progress">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Loader2 className="size-4 animate-spin text-muted-foreground" aria-hidden="true" />
          {undoing ? "Undoing the import" : record.status === "queued" ? "Starting the import" : "Importing"}
        </CardTitle>
        <CardDescription>
          {undoing
            ? "You can leave this page: the undo goes on, and Recent imports shows how it ends."
            : "You can leave this page: the import goes on, and Recent imports shows how it ends."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <Progress
          aria-label={undoing ? "Undo progress" : "Import progress"}
          value={done}
          max={Math.max(total, 1)}
          getValueLabel={() => label}
        />
        <p className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
          {label}
        </p>
      </CardContent>
    </Card>
  );
}

/** Step 5: what the import did, and its undo behind a confirmation; after an undo, what that did. */
export function OutcomeCard({ record }: { record: ClientImport }) {
  const [confirming, setConfirming] = useState(false);
  const { undo } = record;
  const failed = record.status === "failed";
  const undone = record.status === "undone";
  const Icon = failed ? AlertTriangle : undone ? Undo2 : CheckCircle2;

  return (
    <Card data-testid="import-outcome">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon
            className={
              failed ? "size-4 text-destructive" : undone ? "size-4 text-muted-foreground" : "size-4 text-success"
            }
            aria-hidden="true"
          />
          {failed ? (undo ? "The undo stopped" : "The import stopped") : undone ? "Import undone" : "Import complete"}
        </CardTitle>
        <CardDescription>
          {failed
            ? (record.error ?? "The import stopped before the end.")
            : undone
              ? undo
                ? undoSummary(undo)
                : "The clients this import created are gone, and those it updated have their earlier details back."
              : `Every row of ${record.fileName} has been dealt with.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <dl className="grid grid-cols-3 gap-3" aria-label={undone ? "What the import had done" : "What the import did"}>
          <Count label="Created" value={record.counts.created} />
          <Count label="Updated" value={record.counts.updated} />
          <Count label="Skipped" value={record.counts.skipped} />
        </dl>
        {!undone && (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button asChild>
              <Link to="/clients">View clients</Link>
            </Button>
            {canUndo(record) && (
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                onClick={() => setConfirming(true)}
              >
                <Undo2 aria-hidden="true" />
                Undo import
              </Button>
            )}
          </div>
        )}
      </CardContent>
      <UndoImportDialog record={record} open={confirming} onClose={() => setConfirming(false)} />
    </Card>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-md border px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{number.format(value)}</dd>
    </div>
  );
}
