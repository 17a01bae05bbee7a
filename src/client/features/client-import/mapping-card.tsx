import { Loader2 } from "lucide-react";
import {
  type ClientImport,
  type ImportField,
  type ImportMapping,
  importFieldLabels,
  importFields,
} from "../../../shared/client-import";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Label } from "../../components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select";
import { errorMessage } from "../../lib/api";
import { useUpdateMapping } from "./api";

const notImported = "none";
const clientFields = importFields.filter((field) => !field.startsWith("contact"));
const contactFields = importFields.filter((field) => field.startsWith("contact"));

/**
 * Step 2: which column of the file each field reads, as guessed from the headers (or remembered
 * from the firm's last file with the same headers). A change is saved at once and every row is
 * checked again, so the preview below follows it.
 */
export function MappingCard({ record }: { record: ClientImport }) {
  const update = useUpdateMapping(record.id);
  const mapping: ImportMapping = record.mapping;

  const onChange = (field: ImportField, value: string) => {
    const column = value === notImported ? null : Number(value);
    const next = Object.fromEntries(importFields.map((each) => [each, mapping[each] ?? null])) as ImportMapping;
    update.mutate({ ...next, [field]: column });
  };

  const select = (field: ImportField) => (
    <FieldSelect
      key={field}
      importId={record.id}
      field={field}
      headers={record.headers}
      column={mapping[field] ?? null}
      disabled={update.isPending}
      onChange={(value) => onChange(field, value)}
    />
  );

  return (
    <Card data-testid="import-mapping">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Match the columns
          {update.isPending && (
            <Loader2 className="size-4 animate-spin text-muted-foreground" aria-label="Checking the rows again" />
          )}
        </CardTitle>
        <CardDescription>
          Which column of your file holds each detail. Changing one checks every row again; your next file with the same
          headers starts from these choices.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <fieldset className="grid min-w-0 grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
          <legend className="mb-3 text-sm font-semibold">Client</legend>
          {clientFields.map(select)}
        </fieldset>
        <fieldset className="grid min-w-0 grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
          <legend className="mb-3 text-sm font-semibold">Primary contact</legend>
          {contactFields.map(select)}
        </fieldset>
        {update.isError && (
          <p
            role="alert"
            className="rounded-md border border-destructive/30 bg-destructive-subtle px-3 py-2 text-sm text-destructive-subtle-foreground"
          >
            {errorMessage(update.error, "The mapping could not be saved. Please try again.")}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function FieldSelect({
  importId,
  field,
  headers,
  column,
  disabled,
  onChange,
}: {
  importId: string;
  field: ImportField;
  headers: string[];
  column: number | null;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const id = `import-${importId}-${field}`;
  const required = field === "name";
  return (
    // Below sm the label sits beside its select, so ten fields stay a short list at 375 px.
    <div className="grid min-w-0 grid-cols-[7.5rem_minmax(0,1fr)] items-center gap-2 sm:grid-cols-1 sm:gap-1.5">
      <Label htmlFor={id} className="leading-snug">
        {importFieldLabels[field]}
        {required && <span className="font-normal text-muted-foreground"> (required)</span>}
      </Label>
      <Select value={column === null ? (required ? "" : notImported) : String(column)} onValueChange={onChange}>
        <SelectTrigger id={id} disabled={disabled} aria-invalid={required && column === null ? true : undefined}>
          <SelectValue placeholder="Choose a column" />
        </SelectTrigger>
        <SelectContent className="max-h-72">
          {!required && <SelectItem value={notImported}>Not imported</SelectItem>}
          {headers.map((header, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position; two may share a header
            <SelectItem key={index} value={String(index)}>
              {header.trim() || `Column ${index + 1}`}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
