import { describe, expect, it } from "vitest";
import { changedValues } from "./changed-values";

describe("changedValues", () => {
  it("S-SAFE-04 keeps the validated values of the fields whose typed value differs from what the form opened on", () => {
    const opened = { name: "Acme", phone: "", industry: "Retail", email: "" };
    const typed = { name: "Acme", phone: "+1 555 0100", industry: "", email: "" };
    // The validated output: blanks have become null.
    const output = { name: "Acme", phone: "+1 555 0100", industry: null, email: null };
    expect(changedValues(output, opened, typed)).toEqual({ phone: "+1 555 0100", industry: null });
    expect(changedValues(output, opened, opened)).toEqual({});
  });
});
