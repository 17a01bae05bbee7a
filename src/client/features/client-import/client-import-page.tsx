import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, FileSpreadsheet } from "lucide-react";
import { useSearchParams } from "react-router";
import { type ClientImport, delimiterLabels, encodingLabels } from "../../../shared/client-import";
import { PermissionGate } from "../../components/permission-gate";
import { type Back, BackLink } from "../../components/ui/back-link";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { PageHeader } from "../../components/ui/page-header";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { currentUserQueryOptions } from "../auth/api";
import { running, useImport } from "./api";
import { FileStep } from "./file-step";
import { counted } from "./import-labels";
import { MappingCard } from "./mapping-card";
import { OutcomeCard, ProgressCard } from "./outcome-card";
import { PreviewCard } from "./preview-card";
import { RecentImports } from "./recent-imports";

const back: Back = { to: "/clients", label: "Back to Clients" };

/**
 * /clients/import (issue 21, decision 0051), for those who may write clients. The steps share
 * one page: choose a file; then, for the import in the address (`?import=`), its mapping and
 * preview, its progress, and what it did with its undo. Recent imports sit below.
 */
export function ClientImportPage() {
  const { data: user } = useQuery(currentUserQueryOptions());
  return (
    <PermissionGate
      role={user?.role}
      action="clients.write"
      refusal="Only super admins and admins can import clients. Ask one of them to import your file."
      back={back}
    >
      <ClientImportSteps />
    </PermissionGate>
  );
}

function ClientImportSteps() {
  const [params, setParams] = useSearchParams();
  const importId = params.get("import");
  return (
    <div className="flex flex-col gap-5">
      <BackLink {...back} />
      <PageHeader description="Bring in clients and their primary contacts from a spreadsheet. You see every row before anything is imported, and an import can be undone as a whole." />
      {importId ? (
        <CurrentImport key={importId} id={importId} onRestart={() => setParams({})} />
      ) : (
        <FileStep onUploaded={(id) => setParams({ import: id })} />
      )}
      <RecentImports currentId={importId} />
    </div>
  );
}

function CurrentImport({ id, onRestart }: { id: string; onRestart: () => void }) {
  const query = useImport(id);
  if (query.isPending) {
    return (
      <div className="flex flex-col gap-4" role="status" aria-label="Loading the import">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Card role="alert" className="flex flex-col items-start gap-3 p-6">
        <div className="flex items-center gap-2 font-medium">
          <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
          The import could not be loaded
        </div>
        <p className="text-sm text-muted-foreground">{errorMessage(query.error, "Please try again.")}</p>
        <Button variant="outline" size="sm" onClick={onRestart}>
          Choose a file
        </Button>
      </Card>
    );
  }
  const record = query.data;
  return (
    <>
      <FileSummary record={record} onRestart={onRestart} />
      {record.status === "previewed" ? (
        <>
          <MappingCard record={record} />
          <PreviewCard record={record} />
        </>
      ) : running(record.status) ? (
        <ProgressCard record={record} />
      ) : (
        <OutcomeCard record={record} />
      )}
    </>
  );
}

/** The file as the server read it: its name, the encoding and delimiter it found, its rows. */
function FileSummary({ record, onRestart }: { record: ClientImport; onRestart: () => void }) {
  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="import-file">
      <div className="flex min-w-0 items-start gap-3">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary-subtle">
          <FileSpreadsheet className="size-4 text-primary-subtle-foreground" aria-hidden="true" />
        </div>
        <div className="flex min-w-0 flex-col gap-0.5">
          <p className="break-words font-medium">{record.fileName}</p>
          <p className="text-sm text-muted-foreground">
            {encodingLabels[record.encoding]} · {delimiterLabels[record.delimiter]}-separated ·{" "}
            {counted(record.counts.rows, "row")}
          </p>
        </div>
      </div>
      <Button variant="outline" size="sm" className="self-start sm:self-auto" onClick={onRestart}>
        {record.status === "previewed" ? "Choose another file" : "Import another file"}
      </Button>
    </Card>
  );
}
