import { describe, expect, it } from "vitest";
import { z } from "zod";
import "./validation";

/*
 * The generic messages are zod's configuration, set when src/shared/validation.ts loads (every
 * schema module imports it). Every field of the product's own schemas has words of its own for
 * "missing" and "bad e-mail" today, so these cases use a field that has none, as a new schema's
 * field would.
 */
describe("generic validation messages", () => {
  const issuesOf = (schema: z.ZodType, value: unknown) =>
    schema.safeParse(value).error?.issues.map((issue) => ({ path: issue.path, message: issue.message }));

  it('S-VAL-27 a missing field without a message of its own is "Required"', () => {
    expect(issuesOf(z.object({ name: z.string() }), {})).toEqual([{ path: ["name"], message: "Required" }]);
    // A present field of the wrong type is not "missing": zod's own words stay.
    expect(issuesOf(z.object({ name: z.string() }), { name: 4 })?.[0]?.message).not.toBe("Required");
  });

  it('S-VAL-27 a bad e-mail without a message of its own is "Invalid email"', () => {
    expect(issuesOf(z.object({ email: z.email() }), { email: "not-an-address" })).toEqual([
      { path: ["email"], message: "Invalid email" },
    ]);
  });

  it('S-VAL-27 a value outside its list without a message of its own is "Invalid enum value"', () => {
    expect(issuesOf(z.object({ status: z.enum(["active", "inactive"]) }), { status: "gone" })).toEqual([
      { path: ["status"], message: "Invalid enum value" },
    ]);
  });

  it("S-VAL-27 a field's own message wins over the generic one", () => {
    expect(issuesOf(z.object({ name: z.string({ error: "Name is required" }) }), {})).toEqual([
      { path: ["name"], message: "Name is required" },
    ]);
  });
});
