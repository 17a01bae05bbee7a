import fs from "node:fs";

/**
 * The npm registry reachable from our machines lacks other platforms' builds of a few native
 * packages (Biome's CLI, Tailwind's oxide). npm then leaves them out of package-lock.json, and
 * `npm ci` refuses the lockfile as out of sync. This adds their entries with only the platform
 * fields, which is all `npm ci` needs to skip them on a machine they do not fit.
 * Run `npm run lockfile:complete` after changing either package. See docs/decisions/0004.
 */
type LockEntry = {
  version: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
};
type Lockfile = { packages: Record<string, LockEntry> };

const parents = ["node_modules/@biomejs/biome", "node_modules/@tailwindcss/oxide"];
const platforms = ["android", "darwin", "win32", "freebsd", "linux"];
const cpus: Record<string, string> = { arm64: "arm64", x64: "x64", "arm-gnueabihf": "arm", wasm32: "wasm32" };

function platformOf(name: string): Pick<LockEntry, "os" | "cpu" | "libc"> {
  const os = platforms.find((platform) => name.includes(`-${platform}-`));
  const cpu = Object.entries(cpus).find(([marker]) => name.includes(marker))?.[1];
  return {
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(name.endsWith("-musl") ? { libc: ["musl"] } : {}),
    ...(os && cpu !== "wasm32" ? { os: [os] } : {}),
  };
}

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8")) as Lockfile;
let added = 0;
for (const parent of parents) {
  const entry = lock.packages[parent];
  for (const [name, version] of Object.entries(entry?.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    lock.packages[key] = { version, dev: entry?.dev ?? false, optional: true, ...platformOf(name) };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`package-lock.json: added ${added} entries for other platforms\n`);
