import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Enforces the layering of docs/architecture.md:
 *   src/shared  imports nothing from server or client, and no Node built-ins (it runs in browsers);
 *   src/client  never imports server code;
 *   src/server  never imports client code;
 *   src/site    (the public pages, rendered by the server and hydrated in the browser, decision
 *               0022) imports neither, nor Node built-ins; the server and the client may import it.
 */
type Layer = "shared" | "server" | "client" | "site";
export type SourceFile = { path: string; source: string };

const forbidden: Record<Layer, Layer[]> = {
  shared: ["server", "client", "site"],
  client: ["server"],
  server: ["client"],
  site: ["server", "client"],
};
const importPattern =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s*["']([^"']+)["']/g;

function layerOf(file: string, srcDir: string): Layer | undefined {
  const [top] = path.relative(srcDir, file).split(path.sep);
  return top === "shared" || top === "server" || top === "client" || top === "site" ? top : undefined;
}

export function findLayerViolations(files: SourceFile[], srcDir: string): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const layer = layerOf(file.path, srcDir);
    if (!layer) continue;
    for (const match of file.source.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      const where = path.relative(srcDir, file.path);
      if (layer !== "server" && specifier.startsWith("node:")) {
        violations.push(`${where}: src/${layer} must not import the Node built-in "${specifier}"`);
        continue;
      }
      if (!specifier.startsWith(".")) continue;
      const target = layerOf(path.resolve(path.dirname(file.path), specifier), srcDir);
      if (target && forbidden[layer].includes(target)) {
        violations.push(`${where}: src/${layer} must not import from src/${target} ("${specifier}")`);
      }
    }
  }
  return violations;
}

function listSources(dir: string): SourceFile[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile() || !/\.(ts|tsx)$/.test(entry.name)) return [];
    const file = path.join(entry.parentPath, entry.name);
    return [{ path: file, source: fs.readFileSync(file, "utf8") }];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "src");
  const violations = findLayerViolations(listSources(srcDir), srcDir);
  for (const violation of violations) process.stderr.write(`${violation}\n`);
  if (violations.length > 0) process.exit(1);
  process.stdout.write("Layering: ok\n");
}
