import { AlertTriangle, Download } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { errorMessage } from "../../lib/api";

/**
 * The report as a CSV file: a plain link to the API's `?format=csv` answer. The session cookie
 * goes with it and the server names the file, so no script handles the download.
 */
export function DownloadCsvButton({ href }: { href: string }) {
  return (
    <Button variant="outline" asChild>
      <a href={href} download>
        <Download aria-hidden="true" />
        Download CSV
      </a>
    </Button>
  );
}

/** A report the API refused or could not answer, with the server's words (never a raw body). */
export function ReportError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Card role="alert" className="flex flex-col items-start gap-3 p-6">
      <div className="flex items-center gap-2 font-medium">
        <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
        The report could not be loaded
      </div>
      <p className="text-sm text-muted-foreground">{errorMessage(error, "Please try again.")}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}

/** The toolbar above a report: the picker, the range and, once something is chosen, the download. */
export function ReportToolbar({ children }: { children: ReactNode }) {
  return (
    <Card className="grid grid-cols-1 items-end gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_12rem] lg:grid-cols-[minmax(0,24rem)_12rem_1fr]">
      {children}
    </Card>
  );
}
