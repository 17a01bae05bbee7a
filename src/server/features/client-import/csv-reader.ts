import { type Delimiter, delimiters, MAX_IMPORT_ROWS } from "../../../shared/client-import";
import { AppError } from "../../platform/errors";

/*
 * Reading CSV text (RFC 4180, read leniently as spreadsheets write it): fields quoted with ",
 * quotes doubled inside them, line breaks inside quoted fields, CRLF, LF or CR line ends. The
 * delimiter is whichever of comma, semicolon or tab splits the first lines into the same number
 * of fields (Excel writes semicolons where the decimal mark is a comma, and "Unicode text" with tabs).
 */

/** One record of the file and its row number as a spreadsheet counts it (the first is row 1). */
export type CsvRecord = { row: number; cells: string[] };

/**
 * Splits `text` into records. A record of blank cells only is left out (spreadsheets end files with
 * them) but still counts in the row numbers. Stops with a 400 past `maxRecords`.
 */
export function parseCsv(text: string, delimiter: Delimiter, maxRecords = MAX_IMPORT_ROWS + 1): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let field = "";
  let row = 1;
  let recordStart = 1;
  let quoted = false;
  let quoteOpenedAt = 0;
  const endRecord = () => {
    cells.push(field);
    field = "";
    if (cells.some((cell) => cell.trim() !== "")) {
      if (records.length >= maxRecords) {
        throw new AppError(
          "PAYLOAD_TOO_LARGE",
          `This file has more than ${(maxRecords - 1).toLocaleString("en-US")} rows. Split it into smaller files and import each.`,
        );
      }
      records.push({ row: recordStart, cells });
    }
    cells = [];
    row += 1;
    recordStart = row;
  };
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += char;
      }
      continue;
    }
    if (char === '"' && field === "") {
      quoted = true;
      quoteOpenedAt = recordStart;
    } else if (char === delimiter) {
      cells.push(field);
      field = "";
    } else if (char === "\r" || char === "\n") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endRecord();
    } else {
      field += char;
    }
  }
  if (quoted) {
    throw new AppError(
      "BAD_REQUEST",
      `Row ${quoteOpenedAt} opens a quoted field that is never closed, so the rest of the file cannot be read. Check the quotes on that row.`,
    );
  }
  if (field !== "" || cells.length > 0) endRecord();
  return records;
}

/** Lines looked at to choose the delimiter. */
const SAMPLE_RECORDS = 20;

/**
 * The delimiter that splits the file's first records most consistently: the most records with the
 * header's number of fields, then the most fields; comma when nothing splits anything.
 */
export function detectDelimiter(text: string): Delimiter {
  // A sample that ends mid-record only costs that record's vote.
  const sample = text.slice(0, 64 * 1024);
  let best: { delimiter: Delimiter; score: number; width: number } = { delimiter: ",", score: 0, width: 1 };
  for (const delimiter of delimiters) {
    let records: CsvRecord[];
    try {
      records = parseCsv(sample, delimiter, SAMPLE_RECORDS).slice(0, SAMPLE_RECORDS);
    } catch {
      records = [];
    }
    const width = records[0]?.cells.length ?? 0;
    if (width < 2) continue;
    const score = records.filter((record) => record.cells.length === width).length;
    if (score > best.score || (score === best.score && width > best.width)) best = { delimiter, score, width };
  }
  return best.delimiter;
}
