import { describe, expect, it } from "vitest";
import { describeTimeZone, searchTimeZones, timeZoneOptions } from "./time-zones";

const options = timeZoneOptions("UTC");
const found = (query: string) => searchTimeZones(options, query).map((option) => option.zone);

describe("time-zone options", () => {
  it("lists every zone the runtime knows, UTC first, then in alphabetical order", () => {
    const zones = options.map((option) => option.zone);
    expect(zones.length).toBeGreaterThan(300);
    expect(zones[0]).toBe("UTC");
    expect(zones.slice(1)).toEqual([...zones.slice(1)].sort((a, b) => a.localeCompare(b)));
    expect(new Set(zones).size).toBe(zones.length);
  });

  it("keeps the firm's current zone even when the runtime does not know it", () => {
    const zones = timeZoneOptions("Etc/Unknown_Place").map((option) => option.zone);
    expect(zones).toContain("Etc/Unknown_Place");
    expect(describeTimeZone("Etc/Unknown_Place")).toMatchObject({ label: "Etc/Unknown Place", name: "", offset: "" });
  });

  it("reads a zone with spaces for underscores, its everyday name and its offset", () => {
    expect(describeTimeZone("America/New_York")).toMatchObject({ label: "America/New York", name: "Eastern Time" });
    expect(describeTimeZone("Asia/Tokyo")).toMatchObject({ label: "Asia/Tokyo", offset: "GMT+9" });
    expect(describeTimeZone("UTC")).toMatchObject({ name: "Coordinated Universal Time", offset: "GMT+0" });
  });
});

describe("S-EDGE-06 searching the time zones", () => {
  it("finds a zone by its city, with spaces or underscores, in any letter case", () => {
    expect(found("Tokyo")).toEqual(["Asia/Tokyo"]);
    expect(found("new york")).toEqual(["America/New_York"]);
    expect(found("New_York")).toEqual(["America/New_York"]);
    expect(found("america/new_york")).toEqual(["America/New_York"]);
    // The runtime's own spelling: Node's ICU says "America/Buenos_Aires", others "America/Argentina/…".
    const buenosAires = found("buenos aires");
    expect(buenosAires).toHaveLength(1);
    expect(buenosAires[0]).toMatch(/^America\/.*Buenos_Aires$/);
  });

  it("finds the zones of a region, and zones by their everyday name", () => {
    const europe = found("europe");
    expect(europe).toEqual(expect.arrayContaining(["Europe/London", "Europe/Berlin", "Europe/Lisbon"]));
    // "Europe" also finds a zone outside the Europe/ names that keeps European time (Ceuta, in Africa).
    expect(europe).toContain("Africa/Ceuta");
    expect(europe.every((zone) => zone.startsWith("Europe/") || /europe/i.test(describeTimeZone(zone).name))).toBe(
      true,
    );
    expect(found("japan")).toEqual(["Asia/Tokyo"]);
    expect(found("pacific time")).toContain("America/Los_Angeles");
  });

  it("finds zones by their offset, written GMT or UTC", () => {
    expect(found("GMT+9")).toContain("Asia/Tokyo");
    expect(found("utc+9")).toContain("Asia/Tokyo");
    expect(found("+5:30")).toContain("Asia/Colombo");
  });

  it("ignores accents and extra spaces, needs every word, and finds all for an empty search", () => {
    expect(found("  são   paulo ")).toEqual(["America/Sao_Paulo"]);
    expect(found("asia york")).toEqual([]);
    expect(found("no such place")).toEqual([]);
    expect(found("   ")).toHaveLength(options.length);
  });
});
