import { FileSpreadsheet, Undo2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { ClientImport } from "../../../shared/client-import";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDateFormat } from "../../lib/firm";
import { useRecentImports } from "./api";
import { canUndo, counted, importStatusLook, resultSummary } from "./import-labels";
import { UndoImportDialog } from "./undo-import-dialog";

/** The firm's latest imports (the API's 20), each openable, with Undo where an undo is still possible. */
export function RecentImports({ currentId }: { currentId: string | null }) {
  const imports = useRecentImports();
  const [undoing, setUndoing] = useState<ClientImport>();
  const format = useDateFormat();

  return (
    <Card data-testid="recent-imports">
      <CardHeader>
        <CardTitle>Recent imports</CardTitle>
        <CardDescription>
          Your firm's latest imports. An import can be undone as a whole once it has run.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {imports.isPending ? (
          <div className="flex flex-col gap-2" role="status" aria-label="Loading recent imports">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : imports.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(imports.error, "The recent imports could not be loaded. Please try again.")}
          </p>
        ) : imports.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No imports yet. Files you import appear here.</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Recent imports">
            {imports.data.map((record) => {
              const look = importStatusLook[record.status];
              return (
                <li
                  key={record.id}
                  data-testid="recent-import"
                  className={cn(
                    "flex flex-col gap-3 rounded-lg border px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between",
                    record.id === currentId && "border-primary/40 bg-primary-subtle/40",
                  )}
                >
                  <div className="flex min-w-0 items-start gap-3">
                    <FileSpreadsheet className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <div className="flex min-w-0 flex-col gap-1">
                      <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                        <span className="min-w-0 break-words font-medium">{record.fileName}</span>
                        <Badge variant={look.variant}>{look.label}</Badge>
                      </p>
                      <p className="text-xs text-muted-foreground">
                        <time dateTime={record.createdAt}>{format(record.createdAt, true)}</time> by{" "}
                        {record.createdBy.fullName} · {counted(record.counts.rows, "row")}
                        {record.status !== "previewed" && ` · ${resultSummary(record)}`}
                      </p>
                    </div>
                  </div>
                  <div className="flex shrink-0 gap-2 pl-7 sm:pl-0">
                    {record.id !== currentId && (
                      <Button asChild variant="ghost" size="sm">
                        <Link to={`?import=${record.id}`}>
                          Open<span className="sr-only"> {record.fileName}</span>
                        </Link>
                      </Button>
                    )}
                    {canUndo(record) && (
                      <Button
                        variant="outline"
                        size="sm"
                        className="text-destructive hover:text-destructive"
                        onClick={() => setUndoing(record)}
                      >
                        <Undo2 aria-hidden="true" />
                        Undo<span className="sr-only"> {record.fileName}</span>
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      {undoing && <UndoImportDialog record={undoing} open onClose={() => setUndoing(undefined)} />}
    </Card>
  );
}
