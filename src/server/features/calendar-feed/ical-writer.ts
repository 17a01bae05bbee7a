/*
 * Writing iCalendar text (RFC 5545) byte-correctly: content lines end CRLF, a line longer than
 * 75 octets of UTF-8 is folded onto continuation lines that start with one space, a fold never
 * splits a character (nor an escape), and TEXT values escape backslash, semicolon, comma and line
 * breaks (3.3.11). Ours rather than ical-generator's (decision 0047): that library folds by octets
 * correctly, but writes the calendar's name unescaped, so a line break in a firm's or a user's
 * name would start a property of its own, and leaves the last line without its CRLF.
 */

/** The longest a physical line may be, in octets, without its CRLF (3.1). */
export const MAX_LINE_OCTETS = 75;
const CRLF = "\r\n";
/** The control characters TEXT may not hold (all but the tab); a line break is escaped before. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the controls TEXT cannot hold is the point
const notText = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * A TEXT value as written (3.3.11): `\` `;` `,` escaped, any line break as `\n`. Other control
 * characters may not appear in TEXT at all (only the tab may) and are left out.
 */
export function escapeText(value: string): string {
  return value
    .replace(/[\\;,]/g, (char) => `\\${char}`)
    .replace(/\r\n|\r|\n/g, "\\n")
    .replace(notText, "");
}

/** The octets a code point takes in UTF-8. */
function utf8Length(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/**
 * One content line folded at 75 octets (3.1): each piece but the first starts with a space,
 * which counts toward its 75. It breaks between code points, and never inside an escape (`\,`),
 * so even a parser that unescapes before it unfolds reads the value right.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line, "utf8") <= MAX_LINE_OCTETS) return line;
  const pieces: string[] = [];
  let piece = "";
  let octets = 0;
  for (const unit of line.match(/\\.|./gsu) ?? []) {
    let size = 0;
    for (const char of unit) size += utf8Length(char);
    if (octets + size > MAX_LINE_OCTETS) {
      pieces.push(piece);
      piece = " ";
      octets = 1;
    }
    piece += unit;
    octets += size;
  }
  pieces.push(piece);
  return pieces.join(CRLF);
}

/** A property whose value is TEXT: `NAME:escaped value`. */
export const textProperty = (name: string, value: string): string => `${name}:${escapeText(value)}`;

/** A DATE value (3.3.4) from a calendar date written YYYY-MM-DD. */
export const dateValue = (isoDate: string): string => isoDate.replaceAll("-", "");

/** A DATE-TIME value in UTC (3.3.5, form 2): `20260102T030405Z`. */
export const utcDateTimeValue = (instant: Date): string =>
  instant
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");

/** The calendar date after a YYYY-MM-DD date: an all-day event's DTEND, which is exclusive. */
export function nextDay(isoDate: string): string {
  const [year = 0, month = 1, day = 1] = isoDate.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** The whole text of an iCalendar object from its unfolded content lines: folded, each ending CRLF. */
export function writeLines(lines: readonly string[]): string {
  return lines.map((line) => foldLine(line) + CRLF).join("");
}
