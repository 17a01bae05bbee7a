import { createHash } from "node:crypto";
import { PNG } from "pngjs";
import type { Random } from "./random";

// The signature pad's size and pen (S-CONST-34..35).
const WIDTH = 400;
const HEIGHT = 128;
const PEN_WIDTH = 2;

/**
 * Draws a handwriting-like stroke, one loop per letter of the name, on a transparent 400x128
 * canvas, and returns it as a PNG data URL: what the signature pad would send.
 */
export function drawSignature(name: string, random: Random): { dataUrl: string; sha256: string } {
  const png = new PNG({ width: WIDTH, height: HEIGHT });
  const letters = Math.max(3, Math.min(name.replace(/\s/g, "").length, 14));
  const left = 24;
  const step = (WIDTH - 2 * left) / letters;
  let previous: [number, number] = [left, HEIGHT * 0.6];
  for (let letter = 0; letter < letters; letter++) {
    const height = 18 + random.next() * 30;
    const lean = (random.next() - 0.5) * 10;
    for (let s = 1; s <= 24; s++) {
      const t = s / 24;
      const x = left + (letter + t) * step + Math.sin(t * 2 * Math.PI) * step * 0.35 + lean * t;
      const y = HEIGHT * 0.6 - Math.sin(t * Math.PI) * height;
      drawLine(png, previous, [x, y]);
      previous = [x, y];
    }
  }
  const buffer = PNG.sync.write(png);
  return {
    dataUrl: `data:image/png;base64,${buffer.toString("base64")}`,
    sha256: createHash("sha256").update(buffer).digest("hex"),
  };
}

function drawLine(png: PNG, [x0, y0]: [number, number], [x1, y1]: [number, number]) {
  const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2) || 1;
  for (let i = 0; i <= steps; i++) {
    const x = Math.round(x0 + ((x1 - x0) * i) / steps);
    const y = Math.round(y0 + ((y1 - y0) * i) / steps);
    for (let dx = 0; dx < PEN_WIDTH; dx++) {
      for (let dy = 0; dy < PEN_WIDTH; dy++) {
        const px = x + dx;
        const py = y + dy;
        if (px < 0 || py < 0 || px >= WIDTH || py >= HEIGHT) continue;
        const offset = (py * WIDTH + px) * 4;
        png.data[offset + 3] = 255; // black ink: RGB stays 0, alpha full
      }
    }
  }
}
