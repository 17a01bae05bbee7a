import { FileSpreadsheet, Loader2, Upload } from "lucide-react";
import { type DragEvent, useId, useRef, useState } from "react";
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from "../../../shared/client-import";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useUploadImport } from "./api";

const megabytes = MAX_IMPORT_BYTES / (1024 * 1024);
const maxRows = MAX_IMPORT_ROWS.toLocaleString("en-US");

/** A workbook is not a CSV: read as text it would be rows of noise, so it is stopped here with what to do. */
const workbook = /\.(xlsx|xlsm|xls|numbers|ods)$/i;
const workbookMessage =
  'This is a spreadsheet file, not a CSV. In Excel choose File > Save As > "CSV UTF-8", in Numbers File > Export To > CSV, then choose that file.';

/**
 * Step 1: a CSV file, dropped or chosen. The file goes up as soon as it is chosen; the server
 * reads it (encoding, delimiter, rows) and answers the preview, or says what is wrong with it.
 */
export function FileStep({ onUploaded }: { onUploaded: (importId: string) => void }) {
  const upload = useUploadImport();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const hintId = useId();

  const send = (file: File | undefined) => {
    if (!file || upload.isPending) return;
    upload.reset();
    if (workbook.test(file.name)) {
      setRefusal(workbookMessage);
      return;
    }
    setRefusal(undefined);
    // A key per chosen file: a repeat of this request starts one import, a new choice another.
    upload.mutate(
      { file, idempotencyKey: crypto.randomUUID() },
      { onSuccess: (preview) => onUploaded(preview.import.id) },
    );
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    send(event.dataTransfer.files[0]);
  };

  const problem =
    refusal ??
    (upload.isError ? errorMessage(upload.error, "The file could not be sent. Please try again.") : undefined);

  return (
    <Card data-testid="import-file-step">
      <CardHeader>
        <CardTitle>Choose a CSV file</CardTitle>
        <CardDescription>
          One client per row, below a header row that names the columns. The company name is required; industry,
          address, phone, email, status and a primary contact (name, title, phone, email) are optional.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <section
          aria-label="Drop a CSV file here"
          aria-busy={upload.isPending || undefined}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            "flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed px-4 py-10 text-center transition-colors",
            dragging ? "border-primary bg-primary-subtle" : "border-border bg-muted/30",
          )}
        >
          <div className="flex size-11 items-center justify-center rounded-full bg-muted">
            {upload.isPending ? (
              <Loader2 className="size-5 animate-spin text-muted-foreground" aria-hidden="true" />
            ) : (
              <FileSpreadsheet className="size-5 text-muted-foreground" aria-hidden="true" />
            )}
          </div>
          {upload.isPending ? (
            <p role="status" className="text-sm font-medium">
              Reading {upload.variables?.file.name}...
            </p>
          ) : (
            <>
              <p className="text-sm font-medium">Drag a CSV file here, or</p>
              <Button variant="outline" onClick={() => input.current?.click()} aria-describedby={hintId}>
                <Upload aria-hidden="true" />
                Choose file
              </Button>
            </>
          )}
          <p id={hintId} className="text-xs text-muted-foreground">
            CSV up to {megabytes} MB and {maxRows} rows
          </p>
          <input
            ref={input}
            type="file"
            accept=".csv,.tsv,.txt,text/csv"
            className="sr-only"
            tabIndex={-1}
            aria-label="CSV file"
            data-testid="import-file-input"
            onChange={(event) => {
              send(event.target.files?.[0]);
              // The same file chosen again (after correcting it) is a new choice.
              event.target.value = "";
            }}
          />
        </section>
        {problem && (
          <p
            role="alert"
            className="rounded-md border border-destructive/30 bg-destructive-subtle px-3 py-2 text-sm text-destructive-subtle-foreground"
          >
            {problem}
          </p>
        )}
        <p className="text-xs text-muted-foreground">
          From Excel, save as “CSV UTF-8 (Comma delimited)” or plain “CSV (Comma delimited)”: both work, as do CSV files
          from Numbers and Google Sheets. Commas, semicolons or tabs between the columns are all recognised.
        </p>
      </CardContent>
    </Card>
  );
}
