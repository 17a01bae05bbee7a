import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * `npm start` builds only when what goes into the build changed since the last build, and says
 * so in one line; `npm run build` always builds and prints the build's own report. Both come
 * through here, so the stamp in dist/ always tells the truth: it is removed before a build starts
 * and written only after the build succeeded, with the hash of the inputs as they were when it
 * started (an edit made during the build is seen by the next start).
 *
 *   tsx scripts/build-if-changed.ts            build if the inputs changed (npm start)
 *   tsx scripts/build-if-changed.ts --always   build (npm run build)
 */

/** The hash of the inputs of the build that made dist/, written after it succeeded. */
export const stampFile = path.join("dist", ".build-inputs");

/** What a build makes that the app cannot start without: missing, the build runs again. */
export const buildOutputs = [
  path.join("dist", "server", "main.js"),
  path.join("dist", "client", "index.html"),
  path.join("dist", "client", ".vite", "manifest.json"),
] as const;

/**
 * What `npm run build` reads, besides node_modules (which the lockfiles stand for):
 * - src/: Vite's entries (src/client/index.html, src/site/entry-client.tsx) and everything they
 *   import (src/client, src/site, src/shared), src/client/public copied as it is, and every file
 *   Tailwind scans for class names (src/client from styles.css, src/site from site.css, test
 *   files included); esbuild's entries (src/server/main.ts, src/server/migrate.cli.ts,
 *   src/server/seed/seed.cli.ts) and what they import (src/server, src/shared, src/site). Test
 *   files elsewhere in src/ are read by neither, so editing one does not rebuild.
 * - the configuration and scripts of the build: vite.config.ts, tsconfig.json, package.json
 *   (the build commands), package-lock.json and node_modules/.package-lock.json (which versions
 *   of Vite, esbuild, Tailwind and the libraries are installed), .gitignore (Tailwind skips what
 *   it ignores), the two scripts build:client runs after Vite, and this script.
 * Not content/ nor the migrations' use: the server reads the blog and the migrations at start.
 */
export const inputFiles = [
  ".gitignore",
  "package.json",
  "package-lock.json",
  path.join("node_modules", ".package-lock.json"),
  "tsconfig.json",
  "vite.config.ts",
  path.join("scripts", "build-if-changed.ts"),
  path.join("scripts", "bundle-size.ts"),
  path.join("scripts", "precompress.ts"),
] as const;
const tailwindScanned = [path.join("src", "client"), path.join("src", "site")];
const testFile = /\.test\.tsx?$/;

/** The build's input files, relative to `root`, sorted. */
export function buildInputs(root: string): string[] {
  const files: string[] = inputFiles.filter((file) => fs.existsSync(path.join(root, file)));
  const src = path.join(root, "src");
  if (fs.existsSync(src)) {
    for (const entry of fs.readdirSync(src, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name));
      if (testFile.test(entry.name) && !tailwindScanned.some((dir) => file.startsWith(dir + path.sep))) continue;
      files.push(file);
    }
  }
  return files.sort();
}

/** One hash of the input files' names and contents. */
export function hashBuildInputs(root: string): string {
  const hash = createHash("sha256");
  for (const file of buildInputs(root)) {
    const content = fs.readFileSync(path.join(root, file));
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest("hex");
}

function readStamp(root: string): string | undefined {
  try {
    return fs.readFileSync(path.join(root, stampFile), "utf8").trim();
  } catch {
    return undefined;
  }
}

/** Why dist/ is not a complete build of exactly these inputs, or undefined when it is. */
export function whyBuild(root: string, inputsHash: string): string | undefined {
  const stamp = readStamp(root);
  if (stamp === undefined) return "No complete build yet";
  if (stamp !== inputsHash) return "Sources changed since the last build";
  if (!buildOutputs.every((file) => fs.existsSync(path.join(root, file)))) return "The last build's files are missing";
  return undefined;
}

export type BuildStep = (root: string, quiet: boolean) => { ok: boolean; output: string };

/** `npm run build:client`, then `npm run build:server`; quiet, their output is kept, not shown. */
export const npmBuild: BuildStep = (root, quiet) => {
  let output = "";
  for (const script of ["build:client", "build:server"]) {
    const result = spawnSync("npm", ["run", "--silent", script], {
      cwd: root,
      stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    output += `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? `${result.error.message}\n` : ""}`;
    if (result.status !== 0) return { ok: false, output };
  }
  return { ok: true, output };
};

/** Builds (always, or when the inputs changed) and returns what it did in one line. */
export function buildIfChanged(options: {
  root: string;
  always?: boolean;
  build?: BuildStep;
  /** Where the line goes, in two parts so a person sees that a build is under way. */
  write?: (text: string) => void;
}): { built: boolean; ok: boolean; output: string } {
  const { root, always = false, build = npmBuild, write = (text) => process.stdout.write(text) } = options;
  const inputsHash = hashBuildInputs(root);
  const reason = whyBuild(root, inputsHash);
  if (!always && reason === undefined) {
    write("Build is up to date (no source changed since the last build)\n");
    return { built: false, ok: true, output: "" };
  }
  const started = Date.now();
  fs.rmSync(path.join(root, stampFile), { force: true });
  if (!always) write(`${reason}: building… `);
  const result = build(root, !always);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (!result.ok) {
    if (!always) write(`failed after ${seconds} s:\n${result.output}`);
    return { built: true, ok: false, output: result.output };
  }
  fs.mkdirSync(path.join(root, path.dirname(stampFile)), { recursive: true });
  fs.writeFileSync(path.join(root, stampFile), `${inputsHash}\n`);
  if (!always) write(`done in ${seconds} s\n`);
  return { built: true, ok: true, output: result.output };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const { ok } = buildIfChanged({ root, always: process.argv.includes("--always") });
  process.exitCode = ok ? 0 : 1;
}
