import type { ClientImport, DuplicateChoice, ImportStatus } from "../../../shared/client-import";
import type { BadgeVariant } from "../../components/ui/badge";

const number = new Intl.NumberFormat("en-US");

/** "1 row", "2,345 rows". */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${number.format(count)} ${count === 1 ? one : many}`;
}

export const importStatusLook: Record<ImportStatus, { label: string; variant: BadgeVariant }> = {
  previewed: { label: "Not imported", variant: "outline" },
  queued: { label: "Waiting to start", variant: "secondary" },
  running: { label: "Importing", variant: "secondary" },
  done: { label: "Imported", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  undoing: { label: "Undoing", variant: "secondary" },
  undone: { label: "Undone", variant: "secondary" },
};

/** Rows that are neither in error nor a match for a client the firm has. */
export const newRows = (record: ClientImport) => record.counts.rows - record.counts.errors - record.counts.duplicates;

/** The clients a commit with this choice creates or updates: the button's N. */
export function clientsToImport(record: ClientImport, duplicates: DuplicateChoice): number {
  return newRows(record) + (duplicates === "skip" ? 0 : record.counts.duplicates);
}

/** Whether the commit's changes can be undone: it has finished (a failed one wrote some rows), and not been undone. */
export const canUndo = (record: ClientImport) => record.status === "done" || record.status === "failed";

/** "3 created · 1 updated · 2 skipped", leaving out what did not happen. */
export function resultSummary(record: ClientImport): string {
  const { created, updated, skipped } = record.counts;
  const parts = [
    created > 0 && `${number.format(created)} created`,
    updated > 0 && `${number.format(updated)} updated`,
    skipped > 0 && `${number.format(skipped)} skipped`,
  ].filter((part): part is string => part !== false);
  return parts.length > 0 ? parts.join(" · ") : "No clients changed";
}

/** What an undo of this import will do, for its confirmation. */
export function undoConsequence(record: ClientImport): string {
  const { created, updated } = record.counts;
  const parts: string[] = [];
  if (created > 0) {
    parts.push(
      `The ${counted(created, "client")} it created ${created === 1 ? "is" : "are"} removed with ${created === 1 ? "its contact" : "their contacts"} (archived instead, if ${created === 1 ? "it has" : "they have"} since gained tasks, schedules, assignments or changes).`,
    );
  }
  if (updated > 0) {
    parts.push(
      `The ${counted(updated, "client")} it updated ${updated === 1 ? "gets its" : "get their"} earlier details back, unless changed again since.`,
    );
  }
  if (parts.length === 0) parts.push("It changed no clients, so nothing changes but its status.");
  return parts.join(" ");
}
