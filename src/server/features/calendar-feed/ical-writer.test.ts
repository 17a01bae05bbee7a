import fc from "fast-check";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  escapeText,
  foldLine,
  MAX_LINE_OCTETS,
  nextDay,
  textProperty,
  utcDateTimeValue,
  writeLines,
} from "./ical-writer";

/*
 * The iCalendar writer on its own: folding at 75 octets without splitting a character, the TEXT
 * escapes, and what an independent parser (ical.js) reads back from what it writes.
 */

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The physical lines of a written text, each as its bytes (without the CRLF that ends it). */
function physicalLines(text: string): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const lines: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf("\r\n", 0); at >= 0; at = bytes.indexOf("\r\n", start)) {
    lines.push(bytes.subarray(start, at));
    start = at + 2;
  }
  expect(start, "the text ends with CRLF").toBe(bytes.length);
  return lines;
}

/** Checks the folding of one written content line, and gives back the line unfolded. */
function checkedUnfold(written: string): string {
  const lines = physicalLines(written);
  lines.forEach((line, index) => {
    expect(line.length).toBeLessThanOrEqual(MAX_LINE_OCTETS);
    // Each line is whole UTF-8 on its own: no fold fell inside a character.
    const text = utf8.decode(line);
    expect(text).not.toMatch(/[\r\n]/);
    if (index > 0) expect(text.startsWith(" ")).toBe(true);
  });
  return lines.map((line, index) => utf8.decode(index === 0 ? line : line.subarray(1))).join("");
}

/** A calendar of one event whose SUMMARY is `summary`, read back by ical.js. */
function summaryReadBack(summary: string): string {
  const text = writeLines([
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Tendwell//Test//EN",
    "BEGIN:VEVENT",
    "UID:one@tendwell",
    "DTSTAMP:20260102T030405Z",
    textProperty("SUMMARY", summary),
    "END:VEVENT",
    "END:VCALENDAR",
  ]);
  const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent");
  return String(event?.getFirstPropertyValue("summary"));
}

// Text a name may hold: anything but CR (a line break is kept as LF) and the controls TEXT cannot hold.
const nameText = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom(",", ";", "\\", "\n", "é", "✓", "😀", "👩‍💻", "\t"),
      fc.string({ unit: "binary", maxLength: 1 }),
    ),
    maxLength: 300,
  })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls a name never keeps are taken out
  .map((text) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\r]/g, ""));

describe("the iCalendar writer", () => {
  it("S-CAL-07 escapes backslash, semicolon, comma and line breaks in TEXT, and drops what TEXT cannot hold", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf\rg")).toBe("a\\\\b\\;c\\,d\\ne\\nf\\ng");
    expect(escapeText("tab\there\u0007bell\u007f")).toBe("tab\therebell");
  });

  it("S-CAL-07 leaves a line of 75 octets whole and folds one of 76, a continuation starting with one space", () => {
    const exact = `SUMMARY:${"a".repeat(MAX_LINE_OCTETS - 8)}`;
    expect(foldLine(exact)).toBe(exact);
    const over = `${exact}b`;
    expect(foldLine(over)).toBe(`${exact}\r\n b`);
  });

  it("S-CAL-07 never splits a character or an escape across a fold", () => {
    // 73 octets, then a 4-octet emoji that does not fit: it moves whole to the next line.
    const emoji = `SUMMARY:${"a".repeat(65)}😀`;
    expect(foldLine(emoji)).toBe(`SUMMARY:${"a".repeat(65)}\r\n 😀`);
    const escaped = `SUMMARY:${"a".repeat(66)}\\,`;
    expect(foldLine(escaped)).toBe(`SUMMARY:${"a".repeat(66)}\r\n \\,`);
  });

  it("S-CAL-07 folds any text into lines of at most 75 octets of whole UTF-8 that unfold to the line", () => {
    fc.assert(
      fc.property(nameText, (text) => {
        const line = textProperty("SUMMARY", text);
        expect(checkedUnfold(writeLines([line]))).toBe(line);
      }),
      { numRuns: 300 },
    );
  });

  it("S-CAL-07 writes text that ical.js reads back exactly", () => {
    const nasty = [
      "Smith, Jones; Partners \\ Co.",
      "Line one\nLine two",
      "🦄 Unicorn Ventures 👩‍💻 — Zürich",
      "😀".repeat(60),
      Array.from("Review Q3, Q4; fees \\ é ✓ 😀 ".repeat(10)).slice(0, 200).join(""),
    ];
    for (const text of nasty) expect(summaryReadBack(text)).toBe(text);
    fc.assert(
      fc.property(nameText, (text) => {
        expect(summaryReadBack(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("writes dates as iCalendar reads them: UTC instants to the second, the day after a date", () => {
    expect(utcDateTimeValue(new Date("2026-01-02T03:04:05.678Z"))).toBe("20260102T030405Z");
    expect(nextDay("2026-02-28")).toBe("2026-03-01");
    expect(nextDay("2028-02-28")).toBe("2028-02-29");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
  });
});
