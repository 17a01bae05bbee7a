import { describe, expect, it } from "vitest";
import { rangeOptionLabel } from "../../components/range-select";
import {
  formatBucket,
  formatDays,
  formatRange,
  formatRate,
  parseReportParams,
  priorityStatusCounts,
  rateTone,
  reportSearchParams,
} from "./report-format";

const clientId = "0194f3a2-7b1c-7def-8a12-3456789abcde";
const userId = "0194f3a2-7b1c-7def-8a12-3456789abcdf";

describe("rateTone (S-REP-09, S-CONST-26)", () => {
  it("is good at 80% or more and bad below", () => {
    expect(rateTone(80)).toBe("good");
    expect(rateTone(100)).toBe("good");
    expect(rateTone(79)).toBe("bad");
    expect(rateTone(75)).toBe("bad");
    expect(rateTone(0)).toBe("bad");
  });

  it("has no colour when there is no rate", () => {
    expect(rateTone(null)).toBe("none");
  });
});

describe("formatRate and formatDays (S-REP-08, S-REP-11, S-CONST-28)", () => {
  it("shows a whole percentage, or a dash when there is nothing to divide by", () => {
    expect(formatRate(75)).toBe("75%");
    expect(formatRate(0)).toBe("0%");
    expect(formatRate(null)).toBe("—");
  });

  it("says day or days, or a dash when nothing was completed", () => {
    expect(formatDays(0)).toBe("0 days");
    expect(formatDays(1)).toBe("1 day");
    expect(formatDays(12)).toBe("12 days");
    expect(formatDays(1200)).toBe("1,200 days");
    expect(formatDays(null)).toBe("—");
  });
});

describe("range labels (S-REP-04, S-CONST-24)", () => {
  it("names each range in days", () => {
    expect([7, 30, 90, 365].map((days) => rangeOptionLabel(days as 7 | 30 | 90 | 365))).toEqual([
      "Last 7 days",
      "Last 30 days",
      "Last 90 days",
      "Last 365 days",
    ]);
  });

  it("reads a bucket's calendar date without moving it to another day", () => {
    expect(formatBucket("2026-03-01", "day")).toBe("Mar 1");
    expect(formatBucket("2026-03-02", "week")).toBe("Mar 2");
    expect(formatBucket("2026-03-02", "week", true)).toBe("Week of Mar 2");
  });

  it("shows the range's days in the firm's zone", () => {
    // Local midnight of Oct 25 in New York is 04:00 UTC; the report ran in the evening of Nov 23 there.
    const text = formatRange({
      from: "2026-10-25T04:00:00.000Z",
      to: "2026-11-24T03:30:00.000Z",
      timeZone: "America/New_York",
    });
    expect(text).toMatch(/^Oct 25\s?–\s?Nov 23, 2026$/);
  });
});

describe("report URL state (S-REP-01, S-REP-04)", () => {
  it("defaults to the Client Audit tab, nothing chosen and 30 days", () => {
    expect(parseReportParams(new URLSearchParams())).toEqual({
      tab: "client",
      clientId: null,
      userId: null,
      days: 30,
    });
  });

  it("reads the tab, both choices and the range", () => {
    const params = new URLSearchParams({ tab: "user", client: clientId, user: userId, days: "90" });
    expect(parseReportParams(params)).toEqual({ tab: "user", clientId, userId, days: 90 });
  });

  it("ignores a range that is not offered and ids that are not ids", () => {
    const params = new URLSearchParams({ tab: "nope", client: "1 or 1=1", user: "", days: "31" });
    expect(parseReportParams(params)).toEqual({ tab: "client", clientId: null, userId: null, days: 30 });
  });

  it("writes back only what differs from the defaults, and reads back the same", () => {
    expect(reportSearchParams({ tab: "client", clientId: null, userId: null, days: 30 }).toString()).toBe("");
    const state = { tab: "user", clientId, userId, days: 365 } as const;
    const written = reportSearchParams(state);
    expect(written.toString()).toBe(`tab=user&client=${clientId}&user=${userId}&days=365`);
    expect(parseReportParams(written)).toEqual(state);
  });
});

describe("priorityStatusCounts (S-REP-12, S-REP-18)", () => {
  it("counts the range's tasks by priority and status, highest priority first, zeros included", () => {
    const rows = priorityStatusCounts([
      { priority: "high", status: "completed" },
      { priority: "high", status: "overdue" },
      { priority: "low", status: "pending" },
      { priority: "high", status: "completed" },
    ]);
    expect(rows).toEqual([
      { priority: "high", label: "High", total: 3, completed: 2, pending: 0, overdue: 1 },
      { priority: "medium", label: "Medium", total: 0, completed: 0, pending: 0, overdue: 0 },
      { priority: "low", label: "Low", total: 1, completed: 0, pending: 1, overdue: 0 },
    ]);
  });
});
