import { describe, expect, it } from "vitest";
import { dayInZone, endOfDayInZone, formatDay } from "./due-dates";

describe("due dates in the firm's time zone", () => {
  it("makes a picked day due at the last millisecond of that day there", () => {
    expect(endOfDayInZone("2026-12-05", "UTC")).toBe("2026-12-05T23:59:59.999Z");
    expect(endOfDayInZone("2026-12-05", "America/New_York")).toBe("2026-12-06T04:59:59.999Z");
    // Far east of UTC, noon UTC is already the next day there.
    expect(endOfDayInZone("2026-12-05", "Pacific/Kiritimati")).toBe("2026-12-05T09:59:59.999Z");
    expect(endOfDayInZone("2026-12-05", "Pacific/Pago_Pago")).toBe("2026-12-06T10:59:59.999Z");
  });

  it("keeps a day whose clocks change (the day is 23 hours long)", () => {
    expect(endOfDayInZone("2026-03-08", "America/New_York")).toBe("2026-03-09T03:59:59.999Z");
  });

  it("refuses what is not a day", () => {
    expect(endOfDayInZone("", "UTC")).toBeUndefined();
    expect(endOfDayInZone("5 Dec", "UTC")).toBeUndefined();
    expect(endOfDayInZone("2026-13-40", "UTC")).toBeUndefined();
  });

  it("reads an instant back as the day it falls on there, for the date input and for display", () => {
    const due = "2026-12-06T04:59:59.999Z";
    expect(dayInZone(due, "America/New_York")).toBe("2026-12-05");
    expect(dayInZone(due, "UTC")).toBe("2026-12-06");
    expect(formatDay(due, "America/New_York")).toBe("Dec 5, 2026");
  });
});
