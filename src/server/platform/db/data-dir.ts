import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { canReach, POSTGRES_OS_USER, postgresOsUser } from "./embedded-postgres";

/** Where a checkout run by root keeps its data when its own folder is closed to PostgreSQL's account. */
export const ROOT_DATA_HOME = "/var/lib/tendwell";

/**
 * The folder of the embedded PostgreSQL (and of the MFA key kept beside it): DATA_DIR when set,
 * else `data` in the folder the app starts in. Started by root, the server runs as the OS user
 * "tendwell", which must pass through every folder above its data; a checkout in a private home
 * (/root, mode 700) closes them. Then, with DATA_DIR unset, the data goes to a folder of this
 * checkout's own under /var/lib/tendwell, named after the default's path, so every later start
 * (and `npm run seed`, `db:backup`, `db:restore`) finds the same one. A default folder that already
 * holds a cluster is never left for a new one: the server's start then says what to set.
 */
export function embeddedDataDir(
  config: Pick<Config, "dataDir" | "dataDirFromEnv">,
  log: (message: string) => void = () => {},
): string {
  const { dataDir } = config;
  if (config.dataDirFromEnv || process.getuid?.() !== 0) return dataDir;
  if (fs.existsSync(path.join(dataDir, "postgres", "PG_VERSION"))) return dataDir;
  if (canReach(nearestExisting(dataDir), postgresOsUser())) return dataDir;
  const own = path.join(ROOT_DATA_HOME, checkoutFolderName(dataDir));
  fs.mkdirSync(own, { recursive: true, mode: 0o755 });
  log(
    `DATA_DIR is not set and ${dataDir} is closed to the OS user "${POSTGRES_OS_USER}" that runs the embedded ` +
      `PostgreSQL (a folder above it is private): the data is kept in ${own}`,
  );
  return own;
}

/** The folder itself, or the nearest folder above it that exists: what it will be made in. */
function nearestExisting(dir: string): string {
  let existing = dir;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  return existing;
}

/** One folder per checkout: its folder's name, for people, and a hash of the full path, to tell two apart. */
function checkoutFolderName(dataDir: string): string {
  const checkout = path.basename(path.dirname(dataDir)) || "tendwell";
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 8);
  return `${checkout.replace(/[^A-Za-z0-9._-]/g, "_")}-${hash}`;
}
