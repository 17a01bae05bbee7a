import { createHash } from "node:crypto";
import { PNG } from "pngjs";

/*
 * The drawn signature of a sign-off (S-TCOMP-13): a PNG data URL, as the signature pad's
 * canvas exports it, that decodes as a real PNG, is at most 256 KB and shows an actual mark.
 * Everything here runs before the database is touched, so a refusal writes nothing.
 */

/** The decoded PNG may be at most this many bytes (256 KB). */
export const MAX_SIGNATURE_BYTES = 256 * 1024;

/**
 * Each side at most this many pixels: the pad is 400 by 128 (S-CONST-34), 1,200 by 384 on a
 * 3x screen. The bound is checked in the header before decoding, so a small file that declares a
 * huge canvas cannot make the server allocate gigabytes (at most 2048 x 2048 x 4 = 16 MiB).
 */
export const MAX_SIGNATURE_SIDE = 2048;

/**
 * A signature must have at least this many ink pixels (visible and not near-white). The pad's
 * pen is 2 px wide, so a stroke of just 10 px already makes 20; a tap or a slip of the mouse
 * makes a dot of 4 (at most 16 with anti-aliasing) and a blank canvas none. Any real signature,
 * even initials, makes hundreds.
 */
export const MIN_INK_PIXELS = 20;

/** Alpha at or above which a pixel is visible ink; fainter ones are anti-aliasing fringe. */
const MIN_INK_ALPHA = 64;
/** A pixel whose darkest channel is at least this is white paper, not ink (a pad filled white). */
const PAPER_LEVEL = 224;

const PREFIX = "data:image/png;base64,";
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const signatureMessages = {
  missing: "Please provide a signature",
  notPng: "The signature must be a PNG image",
  tooLarge: "The signature is too large (at most 256 KB)",
  tooBig: `The signature image is too big (at most ${MAX_SIGNATURE_SIDE} by ${MAX_SIGNATURE_SIDE} pixels)`,
  interlaced: "The signature must be a PNG image without interlacing",
} as const;

export type SignatureCheck = { ok: true; dataUrl: string; sha256: string } | { ok: false; message: string };

/**
 * Checks a signature data URL. On success gives it back with its prefix in lower case (data URLs
 * ignore case there; stored values should not vary) and the hex SHA-256 of the decoded PNG
 * bytes: a hash of the image itself, and the same one the seed's `drawSignature` records, so
 * every stored hash means one thing.
 */
export function checkSignature(dataUrl: string): SignatureCheck {
  if (dataUrl.trim() === "") return refuse("missing");
  if (dataUrl.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return refuse("notPng");
  const base64 = dataUrl.slice(PREFIX.length);
  if (base64 === "") return refuse("missing");
  // Buffer.from skips characters that are not base64; a strict check keeps what is stored and
  // what is hashed one and the same image.
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) return refuse("notPng");
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  // Judged on the length before decoding, so an oversized upload is not even allocated.
  if ((base64.length / 4) * 3 - padding > MAX_SIGNATURE_BYTES) return refuse("tooLarge");
  const bytes = Buffer.from(base64, "base64");

  const header = readHeader(bytes);
  if (header === undefined) return refuse("notPng");
  if (header.width > MAX_SIGNATURE_SIDE || header.height > MAX_SIGNATURE_SIDE) return refuse("tooBig");
  // pngjs inflates interlaced images without an output bound: a small file could expand to
  // hundreds of megabytes. Canvases never export interlaced PNGs.
  if (header.interlaced) return refuse("interlaced");

  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch {
    return refuse("notPng");
  }
  if (countInk(png, MIN_INK_PIXELS) < MIN_INK_PIXELS) return refuse("missing");
  return { ok: true, dataUrl: `${PREFIX}${base64}`, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** The PNG bytes of a stored signature (a data URL checkSignature accepted). */
export function signatureBytes(dataUrl: string): Buffer {
  return Buffer.from(dataUrl.slice(PREFIX.length), "base64");
}

/**
 * Where a task's signature image is served, with its hash as `v`: the image at that address
 * never changes, so a browser may keep it (GET /api/tasks/{id}/signature).
 */
export function signaturePath(taskId: string, sha256: string): string {
  return `/api/tasks/${taskId}/signature?v=${sha256}`;
}

function refuse(reason: keyof typeof signatureMessages): SignatureCheck {
  return { ok: false, message: signatureMessages[reason] };
}

/** The PNG signature and the IHDR chunk, which the format requires to come first. */
function readHeader(bytes: Buffer): { width: number; height: number; interlaced: boolean } | undefined {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_MAGIC)) return undefined;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), interlaced: bytes[28] !== 0 };
}

/** Counts ink pixels in the RGBA data pngjs decodes to, stopping once `enough` are found. */
function countInk(png: PNG, enough: number): number {
  const { data } = png;
  let ink = 0;
  for (let offset = 0; offset + 3 < data.length; offset += 4) {
    const alpha = data[offset + 3] ?? 0;
    if (alpha < MIN_INK_ALPHA) continue;
    const darkest = Math.min(data[offset] ?? 255, data[offset + 1] ?? 255, data[offset + 2] ?? 255);
    if (darkest >= PAPER_LEVEL) continue;
    ink += 1;
    if (ink >= enough) break;
  }
  return ink;
}
