import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowLeft, FileSpreadsheet, ShieldOff } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { type ClientImport, delimiterLabels, encodingLabels } from "../../../shared/client-import";
import { can } from "../../../shared/permissions";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { EmptyState } from "../../components/ui/empty-state";
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

const backLink = (
  <Link
    to="/clients"
    className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
  >
    <ArrowLeft className="size-4" aria-hidden="true" />
    Back to Clients
  </Link>
);

/**
 * /clients/import (issue 21, decision 0051), for those who may write clients. The steps share
 * one page: choose a file; then, for the import in the address (`?import=`), its mapping and
 * preview, its progress, and what it did with its undo. Recent imports sit below.
 */
export function ClientImportPage() {
  const { data: user } = useQuery(currentUserQueryOptions());
  if (!user) return null;
  if (!can(user.role, "clients.write")) {
    return (
      <div className="flex flex-col gap-4">
        {backLink}
        <EmptyState
          icon={ShieldOff}
          title="Not allowed"
          description="Only super admins and admins can import clients. Ask one of them to import your file."
          action={
            <Button asChild variant="outline">
              <Link to="/clients">Back to Clients</Link>
            </Button>
          }
        />
      </div>
    );
  }
  return <ClientImportSteps />;
}

function ClientImportSteps() {
  const [params, setParams] = useSearchParams();
  const importId = params.get("import");
  return (
    <div className="flex flex-col gap-5">
      {backLink}
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
