import { describe, expect, it } from "vitest";
import { acceptTotp, newTotpSecret, totpCode, totpStep, totpUri } from "./totp";

// RFC 6238's test secret, the 20 ASCII bytes "12345678901234567890", in base32.
const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const at = (seconds: number) => new Date(seconds * 1000);

describe("authenticator codes (TOTP)", () => {
  // RFC 6238 Appendix B, SHA-1: the 8-digit values; a 6-digit code is the same number modulo 10^6.
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("S-MFA-01 at %i s the code is the last six digits of RFC 6238's %s", (seconds, rfcValue) => {
    const code = totpCode(rfcSecret, totpStep(at(seconds)));
    expect(code).toBe(rfcValue.slice(-6));
    expect(acceptTotp({ secret: rfcSecret, code, at: at(seconds), lastUsedStep: null })).toBe(totpStep(at(seconds)));
  });

  it("S-MFA-02 a code of the step before or after the server's is accepted, two steps away refused", () => {
    const now = at(1_800_000_015);
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) {
      const code = totpCode(rfcSecret, step + offset);
      expect(acceptTotp({ secret: rfcSecret, code, at: now, lastUsedStep: null })).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      const code = totpCode(rfcSecret, step + offset);
      expect(acceptTotp({ secret: rfcSecret, code, at: now, lastUsedStep: null })).toBeUndefined();
    }
  });

  it("S-MFA-03 each step's code works once: its replay, or an earlier step's code, is refused", () => {
    const now = at(1_800_000_015);
    const step = totpStep(now);
    const code = totpCode(rfcSecret, step);
    const used = acceptTotp({ secret: rfcSecret, code, at: now, lastUsedStep: null });
    expect(used).toBe(step);
    expect(acceptTotp({ secret: rfcSecret, code, at: now, lastUsedStep: step })).toBeUndefined();
    const earlier = totpCode(rfcSecret, step - 1);
    expect(acceptTotp({ secret: rfcSecret, code: earlier, at: now, lastUsedStep: step })).toBeUndefined();
    const next = totpCode(rfcSecret, step + 1);
    expect(acceptTotp({ secret: rfcSecret, code: next, at: now, lastUsedStep: step })).toBe(step + 1);
  });

  it("a wrong or malformed code is refused", () => {
    const now = at(1_800_000_015);
    const right = totpCode(rfcSecret, totpStep(now));
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    for (const code of [
      wrong,
      "",
      "12345",
      "1234567",
      "abcdef",
      ` ${right}`,
      `${right.slice(0, 3)} ${right.slice(3)}`,
    ]) {
      expect(acceptTotp({ secret: rfcSecret, code, at: now, lastUsedStep: null })).toBeUndefined();
    }
  });

  it("a new secret is 160 random bits in base32, and its address says SHA-1, 6 digits, 30 s", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "olivia.hart"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Tendwell:olivia.hart");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: "Tendwell",
      secret,
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});
