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

  it("S-SAFE-04 compares a list of rows by what its rows hold, not by which array holds them", () => {
    const opened = { target: "", closedDays: [{ date: "2026-12-24", name: "Office party" }] };
    const untouched = { target: "5", closedDays: [{ date: "2026-12-24", name: "Office party" }] };
    expect(changedValues(untouched, opened, untouched)).toEqual({ target: "5" });
    const renamed = { target: "", closedDays: [{ date: "2026-12-24", name: "Firm retreat" }] };
    expect(changedValues(renamed, opened, renamed)).toEqual({ closedDays: renamed.closedDays });
    const added = { target: "", closedDays: [...opened.closedDays, { date: "2026-12-31", name: "" }] };
    expect(changedValues(added, opened, added)).toEqual({ closedDays: added.closedDays });
    const emptied = { target: "", closedDays: [] };
    expect(changedValues(emptied, opened, emptied)).toEqual({ closedDays: [] });
  });
});
