import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ChevronLeft, ChevronRight, Loader2 } from "lucide-react";
import { useState } from "react";
import {
  type ClientImport,
  type DuplicateChoice,
  IMPORT_PAGE_ROWS,
  type ImportField,
  type ImportRow,
  importFieldLabels,
} from "../../../shared/client-import";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../../components/ui/card";
import { Label } from "../../components/ui/label";
import { RadioGroup, RadioGroupItem } from "../../components/ui/radio-group";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { importRowsQueryOptions, type RowFilter, useCommitImport } from "./api";
import { clientsToImport, counted, newRows } from "./import-labels";

const number = new Intl.NumberFormat("en-US");

const filters: { value: RowFilter; label: string; count: (record: ClientImport) => number }[] = [
  { value: "all", label: "All", count: (record) => record.counts.rows },
  { value: "errors", label: "Errors", count: (record) => record.counts.errors },
  { value: "duplicates", label: "Duplicates", count: (record) => record.counts.duplicates },
];

const duplicateOptions: { value: DuplicateChoice; label: string; detail: string }[] = [
  { value: "skip", label: "Skip", detail: "Leave the clients you already have as they are." },
  {
    value: "update",
    label: "Update existing clients",
    detail: "Fill in their details from the file; a blank cell keeps what the client has.",
  },
  { value: "create", label: "Create new clients", detail: "Add them as new clients beside the existing ones." },
];

/**
 * Step 3: what the import would do: its totals, its rows page by page (with their errors and
 * the clients they match), the choice for duplicates, and the button that imports — which waits
 * until no row has an error, since a file with errors writes nothing (S-IMPORT-04).
 */
export function PreviewCard({ record }: { record: ClientImport }) {
  const [duplicates, setDuplicates] = useState<DuplicateChoice>("skip");
  const commit = useCommitImport(record.id);
  const { counts } = record;
  const importing = clientsToImport(record, duplicates);
  const blocker =
    counts.errors > 0
      ? `Import is not available while ${counted(counts.errors, "row has errors", "rows have errors")}: correct the file and choose it again, or change the mapping above.`
      : record.planProblem
        ? "Import is not available while the plan has no room for these clients."
        : importing === 0
          ? "Nothing to import: every row matches a client you already have, and duplicates are set to be skipped."
          : undefined;

  return (
    <Card data-testid="import-preview">
      <CardHeader>
        <CardTitle>Check the rows</CardTitle>
        <CardDescription>Nothing is imported until you choose Import.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
          <Total label="Rows" value={counts.rows} />
          <Total label="New clients" value={newRows(record)} />
          <Total label="Duplicates" value={counts.duplicates} tone={counts.duplicates > 0 ? "warning" : undefined} />
          <Total label="With errors" value={counts.errors} tone={counts.errors > 0 ? "destructive" : undefined} />
        </dl>
        {record.planProblem && (
          <p
            role="alert"
            data-testid="import-plan-problem"
            className="flex gap-2 rounded-md border border-warning/30 bg-warning-subtle px-3 py-2 text-sm text-warning-subtle-foreground"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {record.planProblem}
          </p>
        )}
        <RowsTable record={record} />
        {counts.duplicates > 0 && (
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-3 text-sm font-semibold">
              {counted(counts.duplicates, "row matches a client", "rows match clients")} you already have
            </legend>
            <RadioGroup
              value={duplicates}
              onValueChange={(value) => setDuplicates(value as DuplicateChoice)}
              aria-label="Duplicates"
              disabled={commit.isPending}
            >
              {duplicateOptions.map((option) => (
                <div key={option.value} className="flex items-start gap-3">
                  <RadioGroupItem
                    id={`duplicates-${option.value}`}
                    value={option.value}
                    className="mt-0.5"
                    aria-describedby={`duplicates-${option.value}-detail`}
                  />
                  <div className="flex flex-col gap-1">
                    <Label htmlFor={`duplicates-${option.value}`}>{option.label}</Label>
                    <p id={`duplicates-${option.value}-detail`} className="text-xs text-muted-foreground">
                      {option.detail}
                    </p>
                  </div>
                </div>
              ))}
            </RadioGroup>
          </fieldset>
        )}
      </CardContent>
      <CardFooter className="flex-col items-stretch gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-1 text-sm" aria-live="polite">
          {commit.isError ? (
            <p role="alert" className="text-destructive">
              {errorMessage(commit.error, "The import could not be started. Please try again.")}
            </p>
          ) : (
            blocker && (
              <p id="import-blocker" className="text-muted-foreground">
                {blocker}
              </p>
            )
          )}
        </div>
        <Button
          className="sm:ml-auto"
          disabled={blocker !== undefined || commit.isPending}
          aria-describedby={blocker && !commit.isError ? "import-blocker" : undefined}
          onClick={() => commit.mutate({ duplicates })}
        >
          {commit.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Import {counted(importing, "client")}
        </Button>
      </CardFooter>
    </Card>
  );
}

function Total({ label, value, tone }: { label: string; value: number; tone?: "warning" | "destructive" }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-md border px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd
        className={cn(
          "text-xl font-semibold tabular-nums",
          tone === "warning" && "text-warning-subtle-foreground",
          tone === "destructive" && "text-destructive",
        )}
      >
        {number.format(value)}
      </dd>
    </div>
  );
}

/**
 * The rows, 100 a page as the API gives them (its cursor is the last row number of a page, so
 * the way back is the stack of cursors that led here). Below lg each row is a stacked card.
 */
function RowsTable({ record }: { record: ClientImport }) {
  const [filter, setFilter] = useState<RowFilter>("all");
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  // A new mapping changes which rows are in error or duplicated: back to the first page.
  const mapping = JSON.stringify(record.mapping);
  const [mappingSeen, setMappingSeen] = useState(mapping);
  if (mappingSeen !== mapping) {
    setMappingSeen(mapping);
    setCursors([null]);
  }
  const cursor = cursors.at(-1) ?? null;
  const page = useQuery(importRowsQueryOptions(record.id, filter, cursor));
  const total = filters.find((each) => each.value === filter)?.count(record) ?? 0;
  const first = (cursors.length - 1) * IMPORT_PAGE_ROWS;
  const rows = page.data?.rows ?? [];

  const choose = (next: RowFilter) => {
    setFilter(next);
    setCursors([null]);
  };

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <fieldset className="flex flex-wrap gap-1.5">
        <legend className="sr-only">Show rows</legend>
        {filters.map((each) => (
          <Button
            key={each.value}
            variant={filter === each.value ? "secondary" : "ghost"}
            size="sm"
            aria-pressed={filter === each.value}
            onClick={() => choose(each.value)}
          >
            {each.label}
            <span className="tabular-nums text-muted-foreground">{number.format(each.count(record))}</span>
          </Button>
        ))}
      </fieldset>
      <div className="overflow-hidden rounded-md border">
        <table className="w-full table-fixed text-sm max-lg:block" aria-busy={page.isFetching || undefined}>
          <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground max-lg:sr-only">
            <tr>
              <th scope="col" className="w-16 px-3 py-2 font-medium">
                Row
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Company name
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Email
              </th>
              <th scope="col" className="w-32 px-3 py-2 font-medium">
                Status
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Contact
              </th>
            </tr>
          </thead>
          <tbody className="divide-y max-lg:block">
            {page.isPending ? (
              <tr className="max-lg:block">
                <td colSpan={5} className="max-lg:block px-3 py-3">
                  <div className="flex flex-col gap-2" role="status" aria-label="Loading rows">
                    <Skeleton className="h-5 w-full" />
                    <Skeleton className="h-5 w-full" />
                    <Skeleton className="h-5 w-2/3" />
                  </div>
                </td>
              </tr>
            ) : page.isError ? (
              <tr className="max-lg:block">
                <td colSpan={5} role="alert" className="max-lg:block px-3 py-4 text-destructive">
                  {errorMessage(page.error, "The rows could not be loaded. Please try again.")}
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr className="max-lg:block">
                <td colSpan={5} className="max-lg:block px-3 py-6 text-center text-muted-foreground">
                  {filter === "errors" ? "No row has an error." : "No row matches a client you already have."}
                </td>
              </tr>
            ) : (
              rows.map((row) => <PreviewRow key={row.row} row={row} record={record} />)
            )}
          </tbody>
        </table>
      </div>
      {total > IMPORT_PAGE_ROWS && (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
          <span aria-live="polite">
            Rows {number.format(first + 1)}–{number.format(first + rows.length)} of {number.format(total)}
          </span>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={cursors.length === 1 || page.isFetching}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={!page.data?.nextCursor || page.isPlaceholderData}
              onClick={() => setCursors([...cursors, page.data?.nextCursor ?? null])}
            >
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

/** Which column each field's value and errors show in; the first field of each is its headline. */
const columns: { label: string; fields: [ImportField, ...ImportField[]] }[] = [
  { label: "Company name", fields: ["name", "industry", "address", "phone"] },
  { label: "Email", fields: ["email"] },
  { label: "Status", fields: ["status"] },
  { label: "Contact", fields: ["contactName", "contactTitle", "contactPhone", "contactEmail"] },
];

/**
 * One row of the file: a table row from lg, a stacked card below it (each value after its
 * column's name, which the visually hidden header row gives assistive technology).
 */
function PreviewRow({ row, record }: { row: ImportRow; record: ClientImport }) {
  const value = (field: ImportField) => {
    const column = record.mapping[field];
    return column === null || column === undefined ? "" : (row.cells[column] ?? "").trim();
  };
  const inError = row.errors.length > 0;
  return (
    <tr
      data-testid="import-row"
      className={cn(
        "align-top max-lg:flex max-lg:flex-col max-lg:gap-2 max-lg:px-3 max-lg:py-3",
        inError && "bg-destructive-subtle/40",
      )}
    >
      <td className="tabular-nums text-muted-foreground max-lg:block max-lg:text-xs lg:px-3 lg:py-2.5">
        <span className="lg:hidden">Row </span>
        {row.row}
      </td>
      {columns.map(({ label, fields: [headline, ...others] }) => {
        const shown = value(headline);
        const details = others.map(value).filter(Boolean);
        const errors = row.errors.filter((error) => error.field === headline || others.includes(error.field));
        const isName = headline === "name";
        return (
          <td
            key={headline}
            className={cn(
              "min-w-0 lg:px-3 lg:py-2.5",
              isName ? "max-lg:block" : "max-lg:grid max-lg:grid-cols-[4.5rem_minmax(0,1fr)] max-lg:gap-2",
            )}
          >
            {!isName && (
              <span className="text-xs leading-5 text-muted-foreground lg:hidden" aria-hidden="true">
                {label}
              </span>
            )}
            <div className="flex min-w-0 flex-col gap-1">
              <span className={cn("break-words", isName && "font-medium", !shown && "text-muted-foreground")}>
                {shown || "—"}
              </span>
              {details.length > 0 && (
                <span className="break-words text-xs text-muted-foreground">{details.join(" · ")}</span>
              )}
              {isName && row.match && (
                <span className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                  <Badge variant="warning">Duplicate</Badge>{" "}
                  <span className="min-w-0 break-words">
                    of <span className="font-medium text-foreground">{row.match.name}</span> (same{" "}
                    {row.match.by === "name" ? "name" : "email"})
                  </span>
                </span>
              )}
              {errors.map((error) => (
                <span
                  key={`${error.field}:${error.message}`}
                  className="text-xs font-medium text-destructive"
                  data-testid="import-row-error"
                >
                  {error.field === headline ? "" : `${importFieldLabels[error.field]}: `}
                  {error.message}
                </span>
              ))}
            </div>
          </td>
        );
      })}
    </tr>
  );
}
