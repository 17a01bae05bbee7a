import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";

/*
 * CSV downloads (RFC 4180): comma-separated, CRLF line ends, a field quoted when it holds a comma,
 * a quote, CR or LF, with quotes doubled. A text cell that a spreadsheet would run as a formula
 * (it begins with = + - @, a tab or a CR) is prefixed with a single quote, so it shows as text.
 * Numbers, booleans and dates are written as values, never neutralised.
 */

export type CsvValue = string | number | boolean | Date | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "string") return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: Iterable<readonly CsvValue[]>): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Whether the caller asked for CSV: `?format=csv`, or `Accept: text/csv` without a format. */
export function wantsCsv(request: FastifyRequest, format?: string): boolean {
  if (format !== undefined) return format === "csv";
  return /\btext\/csv\b/.test(request.headers.accept ?? "");
}

/** Sends `csv` as a download named `filename` (letters, digits, dots, dashes and underscores). */
export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  const safeName = filename.replace(/[^A-Za-z0-9._-]+/g, "-");
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${safeName}"`)
    .send(csv);
}

/**
 * Sends a CSV download whose rows are read as they are sent (a list of a million tasks is never
 * one string or one array): `rows` is read one row at a time, pulled by the socket's back-pressure.
 * A failure after the first bytes can only cut the download short (the status is already sent).
 */
export function sendCsvStream(
  reply: FastifyReply,
  filename: string,
  header: readonly string[],
  rows: AsyncIterable<readonly CsvValue[]>,
) {
  async function* lines() {
    yield `${header.map(csvCell).join(",")}\r\n`;
    let chunk = "";
    for await (const row of rows) {
      chunk += `${row.map(csvCell).join(",")}\r\n`;
      if (chunk.length >= 64 * 1024) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk) yield chunk;
  }
  const safeName = filename.replace(/[^A-Za-z0-9._-]+/g, "-");
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${safeName}"`)
    .send(Readable.from(lines()));
}

/** A name as a file name part: lower case letters, digits and single dashes. */
export function fileSlug(text: string): string {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return slug || "export";
}
