import { describe, expect, it } from "vitest";
import { signupDataSchema, signupFormSchema } from "./signup";

const valid = {
  fullName: "Rowan Ellis",
  email: "rowan@ellis-partners.example",
  username: "rowan.ellis",
  password: "ledger-2026",
  confirmPassword: "ledger-2026",
};

/** The message the signup form shows: the first issue zod reports. */
function firstMessage(input: Record<string, unknown>): string | undefined {
  const result = signupFormSchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe("signup form schema (the signup checks)", () => {
  it("S-VAL-06 reports the checks in their required order, first failing first", () => {
    const empty = { fullName: "", email: "", username: "", password: "", confirmPassword: "x" };
    expect(firstMessage(empty)).toBe("Full name is required");
    expect(firstMessage({ ...empty, fullName: "Rowan" })).toBe("Valid email is required");
    expect(firstMessage({ ...empty, fullName: "Rowan", email: valid.email })).toBe(
      "Username must be at least 3 characters",
    );
    expect(firstMessage({ ...valid, password: "12345", confirmPassword: "" })).toBe(
      "Password must be at least 6 characters",
    );
    expect(firstMessage({ ...valid, confirmPassword: "ledger-2027" })).toBe("Passwords do not match");
    expect(firstMessage(valid)).toBeUndefined();
  });

  it("S-VAL-01 S-VAL-02 S-VAL-03 S-VAL-04 each rule and its boundary", () => {
    expect(firstMessage({ ...valid, fullName: "   " })).toBe("Full name is required");
    expect(firstMessage({ ...valid, email: "abc" })).toBe("Valid email is required");
    expect(firstMessage({ ...valid, username: "ab" })).toBe("Username must be at least 3 characters");
    expect(firstMessage({ ...valid, username: "abc" })).toBeUndefined();
    expect(firstMessage({ ...valid, password: "12345", confirmPassword: "12345" })).toBe(
      "Password must be at least 6 characters",
    );
    expect(firstMessage({ ...valid, password: "123456", confirmPassword: "123456" })).toBeUndefined();
  });

  it("what session storage keeps has no password field (memory only)", () => {
    const parsed = signupDataSchema.parse({ fullName: "Rowan", email: valid.email, username: "rowan" });
    expect(Object.keys(parsed).sort()).toEqual(["email", "fullName", "username"]);
    expect(signupDataSchema.safeParse({ ...valid }).success).toBe(false);
  });
});
