import { type Algorithm, hash, verify } from "@node-rs/argon2";

// The password-hashing floor: argon2id, m >= 19 MiB, t >= 2, p = 1.
// Algorithm is an ambient const enum, so its value is spelled out: 2 is Argon2id.
const options = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}
