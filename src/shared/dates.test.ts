import { describe, expect, it } from "vitest";
import { calendarDaysBetween } from "./dates";

describe("calendarDaysBetween", () => {
  it("S-DUE-37 counts the days of the zone's calendar: a task due at the end of yesterday was due 1 day ago", () => {
    // Due at the end of 7 December in New York; five hours later it is the 8th there.
    const endOfDec7 = "2026-12-08T04:59:59.999Z";
    expect(calendarDaysBetween("America/New_York", endOfDec7, new Date("2026-12-08T10:00:00Z"))).toBe(1);
    expect(calendarDaysBetween("America/New_York", endOfDec7, new Date("2026-12-08T04:00:00Z"))).toBe(0);
    expect(calendarDaysBetween("America/New_York", endOfDec7, new Date("2026-12-11T03:00:00Z"))).toBe(3);
    // Across the autumn change (1 November 2026 in New York, a day of 25 hours) and a month's end.
    expect(calendarDaysBetween("America/New_York", "2026-11-01T03:59:59.999Z", "2026-11-02T05:30:00Z")).toBe(2);
    expect(calendarDaysBetween("Asia/Tokyo", "2026-02-28T14:59:59.999Z", "2026-03-01T01:00:00Z")).toBe(1);
  });
});
