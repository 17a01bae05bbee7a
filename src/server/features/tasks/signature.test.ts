import { createHash } from "node:crypto";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { createRandom } from "../../seed/random";
import { drawSignature } from "../../seed/signature-image";
import {
  checkSignature,
  MAX_SIGNATURE_BYTES,
  MAX_SIGNATURE_SIDE,
  MIN_INK_PIXELS,
  signatureMessages,
} from "./signature";

const PREFIX = "data:image/png;base64,";

/** A width x height PNG, every pixel `background`, then `ink` pixels drawn as `color` along the rows. */
function png(
  options: { width?: number; height?: number; background?: number[]; ink?: number; color?: number[] } = {},
): Buffer {
  const { width = 400, height = 128, background = [0, 0, 0, 0], ink = 0, color = [0, 0, 0, 255] } = options;
  const image = new PNG({ width, height });
  for (let pixel = 0; pixel < width * height; pixel++) image.data.set(pixel < ink ? color : background, pixel * 4);
  return PNG.sync.write(image);
}
const dataUrl = (bytes: Buffer) => `${PREFIX}${bytes.toString("base64")}`;
const message = (url: string) => {
  const result = checkSignature(url);
  return result.ok ? "ok" : result.message;
};

describe("checkSignature", () => {
  it("accepts a drawn signature and hashes the decoded PNG bytes, as the seed does", () => {
    const drawn = drawSignature("Dana Birch", createRandom(7));
    expect(checkSignature(drawn.dataUrl)).toEqual({ ok: true, dataUrl: drawn.dataUrl, sha256: drawn.sha256 });
    const bytes = Buffer.from(drawn.dataUrl.slice(PREFIX.length), "base64");
    expect(drawn.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("refuses an empty value or an empty image as a missing signature", () => {
    expect(message("")).toBe(signatureMessages.missing);
    expect(message("   ")).toBe(signatureMessages.missing);
    expect(message(PREFIX)).toBe(signatureMessages.missing);
  });

  it(`refuses blank pads: transparent, white, near-white ink, faint ink, or fewer than ${MIN_INK_PIXELS} ink pixels`, () => {
    expect(message(dataUrl(png()))).toBe(signatureMessages.missing);
    expect(message(dataUrl(png({ background: [255, 255, 255, 255] })))).toBe(signatureMessages.missing);
    expect(message(dataUrl(png({ ink: 500, color: [240, 240, 240, 255] })))).toBe(signatureMessages.missing);
    expect(message(dataUrl(png({ ink: 500, color: [0, 0, 0, 40] })))).toBe(signatureMessages.missing);
    // Black "ink" that is fully transparent is not visible.
    expect(message(dataUrl(png({ ink: 500, color: [0, 0, 0, 0] })))).toBe(signatureMessages.missing);
    expect(message(dataUrl(png({ ink: MIN_INK_PIXELS - 1 })))).toBe(signatureMessages.missing);
    expect(message(dataUrl(png({ ink: MIN_INK_PIXELS })))).toBe("ok");
    // Blue ink on a white pad counts.
    expect(message(dataUrl(png({ background: [255, 255, 255, 255], ink: 200, color: [20, 40, 200, 255] })))).toBe("ok");
  });

  it("refuses what is not a PNG data URL", () => {
    const real = png({ ink: 100 });
    const jpegLike = `data:image/jpeg;base64,${real.toString("base64")}`;
    for (const url of [
      "hello",
      jpegLike,
      `data:image/png,${real.toString("base64")}`,
      `${PREFIX}not base64!`,
      `${PREFIX}${real.toString("base64").slice(1)}`,
      `${PREFIX}${Buffer.from("GIF89a definitely not a png").toString("base64")}`,
      // A PNG signature with a broken body.
      `${PREFIX}${Buffer.concat([real.subarray(0, 40), Buffer.alloc(40)]).toString("base64")}`,
    ]) {
      expect(message(url), url.slice(0, 40)).toBe(signatureMessages.notPng);
    }
    // A flipped byte in the image data fails its CRC.
    const corrupt = Buffer.from(real);
    corrupt[corrupt.length - 20] = (corrupt[corrupt.length - 20] ?? 0) ^ 0xff;
    expect(message(dataUrl(corrupt))).toBe(signatureMessages.notPng);
  });

  it("accepts the prefix in any case, as data URLs allow, and gives it back in lower case", () => {
    const base64 = png({ ink: 100 }).toString("base64");
    expect(checkSignature(`DATA:IMAGE/PNG;BASE64,${base64}`)).toMatchObject({
      ok: true,
      dataUrl: `${PREFIX}${base64}`,
    });
  });

  it("refuses more than 256 KB decoded, before decoding it", () => {
    // Random pixels do not compress: a 300 x 300 RGBA image is about 360 KB as PNG.
    const random = createRandom(3);
    const noisy = new PNG({ width: 300, height: 300 });
    for (let index = 0; index < noisy.data.length; index++) noisy.data[index] = random.int(0, 255);
    const bytes = PNG.sync.write(noisy);
    expect(bytes.length).toBeGreaterThan(MAX_SIGNATURE_BYTES);
    expect(message(dataUrl(bytes))).toBe(signatureMessages.tooLarge);
    // The boundary is the decoded size: exactly 256 KB passes the size check (and then is no PNG).
    expect(message(dataUrl(Buffer.alloc(MAX_SIGNATURE_BYTES)))).toBe(signatureMessages.notPng);
    expect(message(dataUrl(Buffer.alloc(MAX_SIGNATURE_BYTES + 1)))).toBe(signatureMessages.tooLarge);
  });

  it("refuses a canvas larger than the pad could ever be, from its header alone", () => {
    expect(message(dataUrl(png({ width: MAX_SIGNATURE_SIDE + 1, height: 1 })))).toBe(signatureMessages.tooBig);
    // A tiny file that claims to be 60000 x 60000 is refused without inflating anything.
    const header = png({ width: 1, height: 1 });
    header.writeUInt32BE(60_000, 16);
    header.writeUInt32BE(60_000, 20);
    expect(message(dataUrl(header))).toBe(signatureMessages.tooBig);
    expect(message(dataUrl(png({ width: MAX_SIGNATURE_SIDE, height: 16, ink: 100 })))).toBe("ok");
  });

  it("refuses interlaced PNGs, whose inflation pngjs does not bound", () => {
    const bytes = png({ ink: 100 });
    bytes[28] = 1;
    expect(message(dataUrl(bytes))).toBe(signatureMessages.interlaced);
  });
});
