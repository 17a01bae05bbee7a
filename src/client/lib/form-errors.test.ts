import { describe, expect, it, vi } from "vitest";
import type { ApiIssue } from "../../shared/api-error";
import { ApiError } from "./api";
import { showFieldIssues } from "./form-errors";

const refusal = (issues: ApiIssue[]) =>
  new ApiError(400, "400: invalid", { message: "invalid", code: "VALIDATION_FAILED", issues });

describe("showFieldIssues", () => {
  it("puts each issue under the field the server names, the first of each", () => {
    const setError = vi.fn();
    const error = refusal([
      { path: ["name"], message: "Name is required" },
      { path: ["name"], message: "Name is too long" },
      { path: ["other"], message: "Not a field of this form" },
    ]);
    expect(showFieldIssues(setError, error, ["name", "timeZone"])).toBe(true);
    expect(setError.mock.calls).toEqual([["name", { message: "Name is required" }]]);
  });

  it("lands a list's issue on its row's field, and on the list itself for the whole list", () => {
    const setError = vi.fn();
    const error = refusal([
      { path: ["closedDays", 2, "name"], message: "Name the closed day" },
      { path: ["closedDays"], message: "A firm keeps at most 100 closed days" },
      { path: ["states", 3], message: "Not a state" },
    ]);
    showFieldIssues(setError, error, ["closedDays", "closedDays.*.name", "states"]);
    expect(setError.mock.calls).toEqual([
      ["closedDays.2.name", { message: "Name the closed day" }],
      ["closedDays", { message: "A firm keeps at most 100 closed days" }],
      ["states", { message: "Not a state" }],
    ]);
  });

  it("uses the form's own name for a field the server calls otherwise", () => {
    const setError = vi.fn();
    showFieldIssues(setError, refusal([{ path: ["password"], message: "Wrong password" }]), { password: "value" });
    expect(setError).toHaveBeenCalledWith("value", { message: "Wrong password" });
  });

  it("answers false when no issue names a field, or the failure was no refusal", () => {
    const setError = vi.fn();
    expect(showFieldIssues(setError, refusal([{ path: [], message: "Nothing to change" }]), ["name"])).toBe(false);
    expect(showFieldIssues(setError, new Error("offline"), ["name"])).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
