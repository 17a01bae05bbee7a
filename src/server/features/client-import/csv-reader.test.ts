import { describe, expect, it } from "vitest";
import { detectDelimiter, parseCsv } from "./csv-reader";

describe("parseCsv", () => {
  it("S-IMPORT-03 reads quoted fields with delimiters, doubled quotes and line breaks inside them", () => {
    const text = 'Name,Address,Note\r\n"Acme, Ltd","1 High St\r\nLondon","He said ""hi"""\r\nBeta,,x\r\n';
    expect(parseCsv(text, ",")).toEqual([
      { row: 1, cells: ["Name", "Address", "Note"] },
      { row: 2, cells: ["Acme, Ltd", "1 High St\r\nLondon", 'He said "hi"'] },
      { row: 3, cells: ["Beta", "", "x"] },
    ]);
  });

  it("S-IMPORT-03 takes LF and CR line ends, a last line without one, and leaves blank rows out but counts them", () => {
    expect(parseCsv("a;b\n\n;\nc;d\re;f", ";")).toEqual([
      { row: 1, cells: ["a", "b"] },
      { row: 4, cells: ["c", "d"] },
      { row: 5, cells: ["e", "f"] },
    ]);
  });

  it("S-IMPORT-04 refuses an unclosed quote, naming the row it opens on", () => {
    expect(() => parseCsv('a,b\nc,"d\ne,f\n', ",")).toThrow(/Row 2 opens a quoted field that is never closed/);
  });

  it("S-IMPORT-01 refuses more records than the limit with a sentence naming it", () => {
    expect(() => parseCsv("a\nb\nc\nd\n", ",", 3)).toThrow(/more than 2 rows/);
  });
});

describe("detectDelimiter", () => {
  it("S-IMPORT-03 finds comma, semicolon and tab, whatever the other characters in the cells", () => {
    expect(detectDelimiter("Name,City\nAcme; Ltd,Paris\nBeta,Rome\n")).toBe(",");
    expect(detectDelimiter("Name;City;Amount\nAcme, Ltd;Paris;1,5\nBeta;Rome;2,0\n")).toBe(";");
    expect(detectDelimiter("Name\tCity\nAcme, Ltd\tParis\n")).toBe("\t");
    expect(detectDelimiter("Name\nAcme\n")).toBe(",");
  });
});
