import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/**
 * Writes a brotli (.br, best quality) and a gzip (.gz, level 9) copy next to each text file of
 * the client build, once at build time; @fastify/static sends them to browsers that accept them
 * (`preCompressed`), smaller than compressing on every request could afford (decision 0022).
 */
const compressible = /\.(js|css|html|svg|json|txt|xml)$/;

export function precompress(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !compressible.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(`${path.sep}.vite${path.sep}`)) continue;
    const content = fs.readFileSync(file);
    if (content.length < 1024) continue;
    fs.writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
    fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    count++;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "client");
  process.stdout.write(`Precompressed ${precompress(clientDir)} files (brotli and gzip)\n`);
}
