import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { decodeCsvBytes } from "./csv-decode";

describe("decodeCsvBytes", () => {
  it("S-IMPORT-02 reads UTF-8 with and without a BOM, dropping the BOM", () => {
    const text = "Name,City\nCafé Ümit,Zürich €\n";
    expect(decodeCsvBytes(Buffer.from(text, "utf8"))).toEqual({ text, encoding: "utf-8" });
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
    expect(decodeCsvBytes(withBom)).toEqual({ text, encoding: "utf-8-bom" });
  });

  it("S-IMPORT-02 reads bytes that are not UTF-8 as Windows-1252 (Excel's plain CSV): é £ €", () => {
    const bytes = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2c, 0xa3, 0x35, 0x2c, 0x80, 0x39, 0x0a]);
    expect(decodeCsvBytes(bytes)).toEqual({ text: "Café,£5,€9\n", encoding: "windows-1252" });
    expect(decodeCsvBytes(iconv.encode("Société Générale;Zoë\n", "windows-1252")).text).toBe("Société Générale;Zoë\n");
  });

  it("S-IMPORT-02 refuses UTF-16 and a BOM over broken UTF-8 with a sentence saying what to do", () => {
    expect(() => decodeCsvBytes(Buffer.from([0xff, 0xfe, 0x41, 0x00]))).toThrow(/UTF-16/);
    expect(() => decodeCsvBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0xe9, 0x0a]))).toThrow(/CSV UTF-8/);
  });

  it("reads an empty file as empty text", () => {
    expect(decodeCsvBytes(new Uint8Array())).toEqual({ text: "", encoding: "utf-8" });
  });
});
