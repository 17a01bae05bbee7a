import { describe, expect, it } from "vitest";
import { clientNamesPreview, completionRateTone, formatDays, formatRate, matchesUserSearch } from "./people";

describe("people screen rules", () => {
  it("S-USERS-05 S-CONST-31 shows 3 client names and counts the rest as +N more", () => {
    expect(clientNamesPreview(["A", "B", "C", "D", "E"])).toEqual({ shown: ["A", "B", "C"], more: 2 });
    expect(clientNamesPreview(["A", "B", "C"])).toEqual({ shown: ["A", "B", "C"], more: 0 });
    expect(clientNamesPreview(["A"])).toEqual({ shown: ["A"], more: 0 });
    expect(clientNamesPreview([])).toEqual({ shown: [], more: 0 });
  });

  const jane = { username: "jdoe", fullName: "Jane Doe", role: "super_admin" as const };
  const sam = { username: "sam.p", fullName: "Sam Patel", role: "user" as const };

  it("S-USERS-01 S-USERS-02 S-USERS-03 searches by username, full name or role, ignoring case and spaces around", () => {
    expect(matchesUserSearch(jane, "JDO")).toBe(true);
    expect(matchesUserSearch(jane, " doe ")).toBe(true);
    expect(matchesUserSearch(jane, "super admin")).toBe(true);
    expect(matchesUserSearch(jane, "super_admin")).toBe(true);
    expect(matchesUserSearch(jane, "admin")).toBe(true);
    expect(matchesUserSearch(sam, "admin")).toBe(false);
    expect(matchesUserSearch(sam, "user")).toBe(true);
    expect(matchesUserSearch(sam, "")).toBe(true);
    expect(matchesUserSearch(sam, "nobody")).toBe(false);
  });

  it("S-UPROF-05 S-CONST-27 colours the completion rate green at 80 or above, yellow at 60 or above, red below", () => {
    expect(completionRateTone(100)).toBe("good");
    expect(completionRateTone(80)).toBe("good");
    expect(completionRateTone(79)).toBe("fair");
    expect(completionRateTone(60)).toBe("fair");
    expect(completionRateTone(59)).toBe("poor");
    expect(completionRateTone(0)).toBe("poor");
    expect(completionRateTone(null)).toBe("none");
  });

  it("S-UPROF-04 S-UPROF-06 shows rates and days, and a dash when there is nothing to divide", () => {
    expect(formatRate(57)).toBe("57%");
    expect(formatRate(null)).toBe("—");
    expect(formatDays(3)).toBe("3 days");
    expect(formatDays(1)).toBe("1 day");
    expect(formatDays(0)).toBe("0 days");
    expect(formatDays(null)).toBe("—");
  });
});
