import { describe, expect, it } from "vitest";
import { civilDateSchema, instantSchema } from "./date-range";

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe("the years a request's dates may fall in", () => {
  it("S-FUZZ-06 a civil date is a day of the years 1900 to 2200, written YYYY-MM-DD", () => {
    const day = civilDateSchema("windowStart");
    for (const date of ["1900-01-01", "2026-12-01", "2200-12-31"]) expect(day.safeParse(date).success).toBe(true);
    for (const date of ["0000-01-01", "1899-12-31", "2201-01-01", "9999-12-31"]) {
      expect(messageOf(day.safeParse(date))).toBe("windowStart must be a day of the years 1900 to 2200");
    }
    expect(messageOf(day.safeParse("1/12/2026"))).toBe("windowStart must be a date written YYYY-MM-DD");
    expect(messageOf(day.safeParse("+010000-01-01"))).toBe("windowStart must be a date written YYYY-MM-DD");
    expect(messageOf(day.safeParse(undefined))).toBe("windowStart is required: a date written YYYY-MM-DD");
  });

  it("S-FUZZ-06 an instant falls in the years 1900 to 2200, whatever its offset", () => {
    const instant = instantSchema("Due date", "Due date must be an ISO 8601 date and time with an offset");
    for (const value of ["1900-01-01T00:00:00Z", "2026-12-01T09:30:00-05:00", "2200-12-31T23:59:59Z"]) {
      expect(instant.safeParse(value).success).toBe(true);
    }
    for (const value of [
      "0000-01-01T00:00:00Z",
      "1899-12-31T23:59:59Z",
      "2201-01-02T00:00:00+14:00",
      "9999-12-31T23:59:59Z",
    ]) {
      expect(messageOf(instant.safeParse(value))).toBe("Due date must be between the years 1900 and 2200");
    }
    expect(messageOf(instant.safeParse("2026-12-01"))).toBe(
      "Due date must be an ISO 8601 date and time with an offset",
    );
  });
});
