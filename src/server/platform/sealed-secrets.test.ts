import { describe, expect, it } from "vitest";
import { newSealingKey, seal, sealingKeyFrom, unseal } from "./sealed-secrets";

describe("sealed secrets (AES-256-GCM)", () => {
  const { key, text } = newSealingKey();
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

  it("S-MFA-04 a sealed secret opens with its key and owner only, and never shows the secret", () => {
    const sealed = seal(key, secret, "totp:user-1");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret);
    expect(unseal(key, sealed, "totp:user-1")).toBe(secret);
    // A fresh nonce each time: the same secret never seals to the same text.
    expect(seal(key, secret, "totp:user-1")).not.toBe(sealed);
    // Copied to another owner's row, opened with another key, or changed by a byte: refused.
    expect(() => unseal(key, sealed, "totp:user-2")).toThrow();
    expect(() => unseal(newSealingKey().key, sealed, "totp:user-1")).toThrow();
    const body = sealed.split(".")[2] ?? "";
    const flipped = `${body.slice(0, 5)}${body[5] === "A" ? "B" : "A"}${body.slice(6)}`;
    expect(() => unseal(key, sealed.replace(body, flipped), "totp:user-1")).toThrow();
  });

  it("a value that is not a sealed secret of this version is refused", () => {
    const sealed = seal(key, secret, "owner");
    for (const value of ["", "v1", "v1..", `v2${sealed.slice(2)}`, `${sealed}.extra`, "v1.AAAA.AAAA"]) {
      expect(() => unseal(key, value, "owner")).toThrow("not a sealed secret of this version");
    }
  });

  it("a key is 32 bytes in base64: its own text gives it back, anything else is refused", () => {
    expect(sealingKeyFrom(text).equals(key)).toBe(true);
    expect(sealingKeyFrom(` ${key.toString("base64url")}\n`).equals(key)).toBe(true);
    for (const bad of [
      "",
      "short",
      Buffer.alloc(16).toString("base64"),
      Buffer.alloc(33).toString("base64"),
      "!".repeat(44),
    ]) {
      expect(() => sealingKeyFrom(bad)).toThrow("a sealing key is 32 bytes in base64");
    }
  });
});
