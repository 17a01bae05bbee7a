import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * The bundle budgets: the JavaScript a browser needs to show /dashboard (the entry, the shell and
 * the dashboard page, with everything they import statically) must stay within 250 KB gzipped
 * (issue 8), and the landing page's (the public site's entry and its static imports, decision
 * 0022) within 100 KB (issue 10). Reads Vite's manifest of a build; `npm run build` prints the
 * sizes and fails over either budget.
 */
export const dashboardBudgetBytes = 250 * 1024;
export const landingBudgetBytes = 100 * 1024;

/** The modules a visit to /dashboard loads, as keyed in the manifest (relative to src/client). */
export const dashboardModules = [
  "index.html",
  "features/shell/app-shell.tsx",
  "features/dashboard/dashboard-page.tsx",
] as const;

/** The public site's entry (src/site/entry-client.tsx), as keyed in the manifest. */
export const landingModules = ["../site/entry-client.tsx"] as const;

type ManifestChunk = { file: string; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;

export type ChunkSize = { file: string; bytes: number; gzipBytes: number };
export type BundleReport = {
  chunks: ChunkSize[];
  dashboardFiles: string[];
  dashboardGzipBytes: number;
  landingFiles: string[];
  landingGzipBytes: number;
};

function readManifest(clientDir: string): Manifest {
  const file = path.join(clientDir, ".vite", "manifest.json");
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the client first (npm run build)`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
}

/** The JavaScript files the given modules need: their chunks and every static import, once each. */
export function filesNeeded(manifest: Manifest, modules: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk)
      throw new Error(`The build's manifest has no module "${key}": update dashboardModules or landingModules`);
    if (chunk.file.endsWith(".js")) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of modules) visit(key);
  return [...files].sort();
}

export function measureBundle(clientDir: string): BundleReport {
  const manifest = readManifest(clientDir);
  const assets = path.join(clientDir, "assets");
  const sizeOf = (file: string): ChunkSize => {
    const content = fs.readFileSync(path.join(clientDir, file));
    return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  };
  const chunks = fs
    .readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => sizeOf(`assets/${name}`))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  const bySize = new Map(chunks.map((chunk) => [chunk.file, chunk.gzipBytes]));
  const gzipTotal = (files: string[]) =>
    files.reduce((sum, file) => sum + (bySize.get(file) ?? sizeOf(file).gzipBytes), 0);
  const dashboardFiles = filesNeeded(manifest, dashboardModules);
  const landingFiles = filesNeeded(manifest, landingModules);
  return {
    chunks,
    dashboardFiles,
    dashboardGzipBytes: gzipTotal(dashboardFiles),
    landingFiles,
    landingGzipBytes: gzipTotal(landingFiles),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatReport(report: BundleReport): string {
  const width = Math.max(...report.chunks.map((chunk) => chunk.file.length));
  const lines = report.chunks.map(
    (chunk) => `  ${chunk.file.padEnd(width)}  ${kb(chunk.bytes).padStart(9)}  ${kb(chunk.gzipBytes).padStart(9)} gzip`,
  );
  return [
    "Bundle sizes:",
    ...lines,
    `JavaScript for /dashboard: ${kb(report.dashboardGzipBytes)} gzip of ${kb(dashboardBudgetBytes)} allowed (${report.dashboardFiles.length} files)`,
    `JavaScript for the landing page: ${kb(report.landingGzipBytes)} gzip of ${kb(landingBudgetBytes)} allowed (${report.landingFiles.length} files)`,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "client");
  const report = measureBundle(clientDir);
  process.stdout.write(`${formatReport(report)}\n`);
  let over = false;
  if (report.dashboardGzipBytes > dashboardBudgetBytes) {
    process.stderr.write("Over budget: the JavaScript for /dashboard exceeds 250 KB gzipped\n");
    over = true;
  }
  if (report.landingGzipBytes > landingBudgetBytes) {
    process.stderr.write("Over budget: the JavaScript for the landing page exceeds 100 KB gzipped\n");
    over = true;
  }
  if (over) process.exit(1);
}
