import { describe, expect, it } from "vitest";
import { contentDisposition, csvCell, csvDate, fileSlug, toCsv } from "./csv";

describe("CSV", () => {
  it("quotes fields with commas, quotes and line breaks (RFC 4180)", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
  });

  it("neutralises text a spreadsheet would run as a formula", () => {
    for (const formula of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvCell(formula).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it("S-EDGE-16 quotes a field holding any locale's separator and neutralises a formula after each ; tab or line break", () => {
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell("a\tb")).toBe('"a\tb"');
    expect(csvCell("Acme;=cmd|' /C calc'!A0;")).toBe(`"Acme;'=cmd|' /C calc'!A0;"`);
    expect(csvCell("a;+1;-2;@x; =y")).toBe(`"a;'+1;'-2;'@x; =y"`);
    expect(csvCell("one\n=two\r\n@three")).toBe(`"one\n'=two\r\n'@three"`);
    expect(csvCell("=a;=b")).toBe(`"'=a;'=b"`);
    expect(csvCell("Smith & Sons, -LLP")).toBe('"Smith & Sons, -LLP"');
  });

  it("writes numbers, booleans, dates and empty values as values", () => {
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("ends every line with CRLF", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          [1, "x"],
          [2, null],
        ],
      ),
    ).toBe("a,b\r\n1,x\r\n2,\r\n");
  });

  it("S-EDGE-08 a file name part keeps the letters of any script and their case; every other run is one dash", () => {
    expect(fileSlug("Ωmega Ünternehmen")).toBe("Ωmega-Ünternehmen");
    expect(fileSlug('Cedar, "Quoted" Builders')).toBe("Cedar-Quoted-Builders");
    expect(fileSlug("  Zoë & Søn / 東京 №2 ")).toBe("Zoë-Søn-東京-2");
    // The decomposed spelling of Ü is the same name.
    expect(fileSlug("U\u0308nternehmen")).toBe("Ünternehmen");
    expect(fileSlug("??")).toBe("export");
    // 60 code points at most, never half of a pair, never a trailing dash.
    expect(Array.from(fileSlug("𝔸".repeat(70)))).toHaveLength(60);
    expect(fileSlug(`${"a".repeat(59)} b`)).toBe("a".repeat(59));
  });

  it("S-EDGE-08 Content-Disposition names the file in UTF-8 (filename*) with a quoted ASCII fallback (filename)", () => {
    expect(contentDisposition("client-report-Ωmega-Ünternehmen-30d-2026-11-23.csv")).toBe(
      `attachment; filename="client-report-_mega-Unternehmen-30d-2026-11-23.csv"; ` +
        "filename*=UTF-8''client-report-%CE%A9mega-%C3%9Cnternehmen-30d-2026-11-23.csv",
    );
    expect(contentDisposition("tasks-all-2026-11-23.csv")).toBe(
      `attachment; filename="tasks-all-2026-11-23.csv"; filename*=UTF-8''tasks-all-2026-11-23.csv`,
    );
  });

  it("S-EDGE-08 the fallback escapes quotes and backslashes; filename* percent-encodes what is not an attr-char", () => {
    expect(contentDisposition('say "hi" \\ back\\slash.csv')).toBe(
      `attachment; filename="say \\"hi\\" \\\\ back\\\\slash.csv"; ` +
        "filename*=UTF-8''say%20%22hi%22%20%5C%20back%5Cslash.csv",
    );
    expect(contentDisposition("it's (1)*!~.csv")).toBe(
      `attachment; filename="it's (1)*!~.csv"; filename*=UTF-8''it%27s%20%281%29%2A!~.csv`,
    );
  });

  it("S-EDGE-08 a line break, another control character or half a UTF-16 pair cannot reach the header", () => {
    const header = contentDisposition("a\r\nSet-Cookie: x=1\u0000\ud800.csv");
    expect(header).toBe(`attachment; filename="aSet-Cookie: x=1.csv"; filename*=UTF-8''aSet-Cookie%3A%20x%3D1.csv`);
  });

  it("S-EDGE-09 a CSV date is the date the screens show in the firm's zone; none is an empty field", () => {
    // 23:30 UTC is already the next morning in Auckland and still the afternoon in Los Angeles.
    const lateEvening = "2026-03-10T23:30:00.000Z";
    expect(csvDate("UTC")(lateEvening)).toBe("Mar 10, 2026");
    expect(csvDate("Pacific/Auckland")(lateEvening)).toBe("Mar 11, 2026");
    expect(csvDate("America/Los_Angeles")(new Date("2026-03-11T03:00:00.000Z"))).toBe("Mar 10, 2026");
    expect(csvDate("UTC")(null)).toBeNull();
    expect(csvCell(csvDate("Pacific/Auckland")(lateEvening))).toBe('"Mar 11, 2026"');
  });
});
