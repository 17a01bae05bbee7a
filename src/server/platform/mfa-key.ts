import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Config, ConfigError } from "./config";
import { newSealingKey, type SealingKey, sealingKeyFrom } from "./sealed-secrets";

/*
 * The key that seals authenticator apps' secrets (decision 0044), when MFA_ENCRYPTION_KEY does not
 * give one: made once, at the first start, into the data directory, readable by its owner only,
 * and read from there at every start after. Only an app on its own data directory (the embedded
 * database) may rely on it: instances sharing a database must share the key, so production on an
 * external database must configure it (resolveMfaKey refuses to start otherwise).
 *
 * The key is not in the database: a copy of the database, or of its backups, holds sealed secrets
 * without the key that opens them. Losing the file loses every authenticator enrolment.
 */

export const MFA_KEY_FILE = "mfa-encryption.key";
const OWNER_ONLY = 0o600;

type StartLog = { info: (message: string) => void; warn: (message: string) => void };

/**
 * The server's key: configured, or on the embedded database kept in its data directory. On an
 * external database it must be configured: the data directory is the embedded database's, and
 * instances sharing a database must open the same secrets.
 */
export async function resolveMfaKey(config: Config, log: StartLog): Promise<SealingKey> {
  if (config.mfaKey) return config.mfaKey;
  if (config.databaseUrl !== undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  MFA_ENCRYPTION_KEY is required with DATABASE_URL: every instance on that database must open the same sealed secrets. Make one with `openssl rand -base64 32`.",
    );
  }
  return mfaKeyInDataDir(config.dataDir, log);
}

export async function mfaKeyInDataDir(dataDir: string, log: StartLog): Promise<SealingKey> {
  const file = path.join(dataDir, MFA_KEY_FILE);
  await mkdir(dataDir, { recursive: true });
  const made = newSealingKey();
  try {
    // "wx": made only if absent, so two starts racing keep one key.
    await writeFile(file, `${made.text}\n`, { flag: "wx", mode: OWNER_ONLY });
    log.info(`Made the key that seals authenticator secrets: ${file} (back it up apart from the database)`);
    return made.key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (((await stat(file)).mode & 0o077) !== 0) {
    await chmod(file, OWNER_ONLY);
    log.warn(`${file} was readable by others; it is now readable by its owner only`);
  }
  try {
    return sealingKeyFrom(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} holds no key: ${(error as Error).message}`);
  }
}
