import { describe, expect, it } from "vitest";
import { isMonthDay } from "../../../shared/clients";
import {
  dayNumbers,
  daysOfMonth,
  formatFiscalYearEnd,
  monthDay,
  parseMonthDay,
  taxDetailLines,
  withMonth,
} from "./tax-details";

describe("tax details", () => {
  it("reads and writes a fiscal year end as the API keeps it", () => {
    expect(parseMonthDay("06-30")).toEqual({ month: 6, day: 30 });
    expect(parseMonthDay("02-29")).toEqual({ month: 2, day: 29 });
    for (const bad of ["", null, undefined, "6-30", "13-01", "04-31", "00-10", "02-30"]) {
      expect(parseMonthDay(bad)).toBeUndefined();
    }
    expect(monthDay(6, 30)).toBe("06-30");
    expect(formatFiscalYearEnd("06-30")).toBe("30 June");
    expect(formatFiscalYearEnd("12-31")).toBe("31 December");
    expect(formatFiscalYearEnd(null)).toBeNull();
  });

  it("offers every day the API takes, February up to 29", () => {
    for (let month = 1; month <= 12; month += 1) {
      const days = daysOfMonth(month);
      expect(isMonthDay(monthDay(month, days))).toBe(true);
      expect(isMonthDay(monthDay(month, days + 1))).toBe(false);
    }
    expect(daysOfMonth(2)).toBe(29);
    expect(dayNumbers(2)).toEqual(Array.from({ length: 29 }, (_, index) => index + 1));
    expect(dayNumbers(undefined)).toHaveLength(31);
  });

  it("picking a month keeps a month's end a month's end and other days within the month", () => {
    expect(withMonth(null, 6)).toBe("06-30");
    expect(withMonth("", 2)).toBe("02-29");
    expect(withMonth("01-31", 6)).toBe("06-30");
    expect(withMonth("06-30", 7)).toBe("07-31");
    expect(withMonth("05-30", 4)).toBe("04-30");
    expect(withMonth("03-15", 2)).toBe("02-15");
  });

  it("shows what is set, the state only for a US client", () => {
    const none = { fiscalYearEnd: null, entityType: null, jurisdiction: null, state: null };
    expect(taxDetailLines(none)).toEqual([]);
    expect(
      taxDetailLines({ fiscalYearEnd: "06-30", entityType: "c_corporation", jurisdiction: "US", state: "MA" }),
    ).toEqual([
      { label: "Fiscal year end", value: "30 June" },
      { label: "Entity type", value: "C corporation" },
      { label: "Jurisdiction", value: "United States (MA)" },
    ]);
    expect(taxDetailLines({ ...none, jurisdiction: "UK", state: "MA" })).toEqual([
      { label: "Jurisdiction", value: "United Kingdom" },
    ]);
    expect(taxDetailLines({ ...none, jurisdiction: "US" })).toEqual([
      { label: "Jurisdiction", value: "United States" },
    ]);
  });
});
