import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { firmDateFormat, isoDateIn } from "../../../shared/dates";
import { AppError } from "../errors";

/*
 * CSV downloads (RFC 4180): comma-separated, CRLF line ends, quotes doubled. A spreadsheet opens a
 * file with its own locale's list separator: a comma in English, a semicolon in German or French,
 * and some apps guess a tab. So a field is quoted when it holds any of those, a quote, CR or LF;
 * and since a quote protects a field only where it begins, text a spreadsheet would run as a
 * formula (= + - @, a tab or a CR first) is prefixed with a single quote, so it shows as text, at
 * the cell's start and again after each `;`, tab or line break inside it, where a reader with
 * another separator starts a new cell. Numbers, booleans and dates are written as values, never
 * neutralised.
 *
 * A date people read is written as the screens show it, in the firm's time zone (`csvDate`); where
 * the moment itself matters (a sign-off), its ISO 8601 instant in UTC gets a column of its own.
 */

export type CsvValue = string | number | boolean | Date | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;
/** Where a reader whose separator is not ours may start a new cell: after a `;`, a tab or a line break. */
const cellStarts = /(?<=[;\t\r\n])/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "string") return String(value);
  const text = value
    .split(cellStarts)
    .map((part) => (formulaStart.test(part) ? `'${part}` : part))
    .join("");
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: Iterable<readonly CsvValue[]>): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Writes instants as the screens show their dates in `timeZone` ("Jan 2, 2026"); none is an empty field. */
export function csvDate(timeZone: string): (instant: Date | string | null | undefined) => string | null {
  const format = firmDateFormat(timeZone);
  return (instant) => (instant === null || instant === undefined ? null : format(instant));
}

/** Whether the caller asked for CSV: `?format=csv`, or `Accept: text/csv` without a format. */
export function wantsCsv(request: FastifyRequest, format?: string): boolean {
  if (format !== undefined) return format === "csv";
  return /\btext\/csv\b/.test(request.headers.accept ?? "");
}

/** Sends `csv` as a download named `filename`. */
export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", contentDisposition(filename))
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
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", contentDisposition(filename))
    .send(Readable.from(lines()));
}

/**
 * Sends every item a paged list's filters match as a CSV download: the list is read a page at a
 * time through its own keyset cursor (the same query as its JSON), with one `now` for every page,
 * and written out as the socket takes it, so a firm of a million tasks never becomes one array.
 * Dates are the firm's, as the screens show them, and so is the day in the file's name. A
 * download holds every item, so a limit or cursor in its query is refused.
 */
export async function sendPagedCsv<Item>(
  reply: FastifyReply,
  options: {
    query: { limit?: number; cursor?: string };
    /** The firm's time zone, read once the query is accepted. */
    timeZone: () => Promise<string>;
    /** The file's name, from the firm's day of the download (`2026-11-23`). */
    filename: (day: string) => string;
    header: readonly string[];
    /** The page after `cursor` (the first when there is none) of the list as of `now`. */
    page: (cursor: string | undefined, now: Date) => Promise<{ items: readonly Item[]; nextCursor: string | null }>;
    /** An item's cells; `date` writes an instant as the firm's date. */
    row: (item: Item, date: ReturnType<typeof csvDate>) => readonly CsvValue[];
  },
) {
  if (options.query.limit !== undefined || options.query.cursor !== undefined) {
    throw new AppError("BAD_REQUEST", "limit and cursor do not apply to a CSV download");
  }
  const now = new Date();
  const timeZone = await options.timeZone();
  const date = csvDate(timeZone);
  async function* rows() {
    let cursor: string | undefined;
    do {
      const page = await options.page(cursor, now);
      for (const item of page.items) yield options.row(item, date);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  return sendCsvStream(reply, options.filename(isoDateIn(timeZone, now)), options.header, rows());
}

/**
 * A name as a file name part: its letters (of any script, accents kept) and digits, each other run
 * of characters one dash, at most 60 characters; "export" when nothing is left.
 */
export function fileSlug(text: string): string {
  const words = text.normalize("NFC").match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  // Cut by code points, so a letter outside the basic plane is never split in half.
  const slug = Array.from(words.join("-")).slice(0, 60).join("").replace(/-+$/, "");
  return slug || "export";
}

/**
 * The Content-Disposition of a download named `filename` (RFC 6266): `filename*` carries the name
 * in UTF-8, percent-encoded (RFC 8187), and the plain `filename` an ASCII stand-in for the few
 * clients that read only that one: accents dropped, any other non-ASCII run an underscore, and
 * quotes and backslashes escaped inside its quoted string. Control characters (and halves of
 * UTF-16 pairs, which have no UTF-8) are left out of both, so no name can break the header.
 */
export function contentDisposition(filename: string): string {
  const name = filename.normalize("NFC").replace(/[\p{Cc}\p{Cs}]+/gu, "");
  const ascii = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]+/g, "_")
    .replace(/["\\]/g, "\\$&");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** Percent-encodes every UTF-8 byte that is not an attr-char of RFC 8187. */
function encodeRfc8187(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
