import iconv from "iconv-lite";
import type { FileEncoding } from "../../../shared/client-import";
import { AppError } from "../../platform/errors";

/*
 * A CSV file's bytes as text (decision 0051). Spreadsheets write one of three things: UTF-8 with
 * a byte order mark (Excel's "CSV UTF-8"), UTF-8 without one (Numbers, LibreOffice, Google
 * Sheets), or the Windows code page (Excel's plain "CSV" on a Western install: Windows-1252).
 * Valid UTF-8 is read as UTF-8; anything else is read as Windows-1252, which every byte decodes
 * in, so a file never fails to read but a wrong guess shows as odd letters in the preview.
 */

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: FileEncoding } {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      "This file is UTF-16 text. Save it as CSV UTF-8 (or plain CSV) and upload it again.",
    );
  }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(body), encoding: bom ? "utf-8-bom" : "utf-8" };
  } catch {
    // With a BOM the file says it is UTF-8; a broken one is still refused rather than misread.
    if (bom) {
      throw new AppError(
        "BAD_REQUEST",
        "This file says it is UTF-8 but holds bytes that are not. Save it again as CSV UTF-8.",
      );
    }
    return { text: iconv.decode(Buffer.from(body), "windows-1252"), encoding: "windows-1252" };
  }
}
