/** A time zone as the firm's time-zone picker lists it. */
export type TimeZoneOption = {
  /** The IANA name the server stores, e.g. "America/New_York". */
  zone: string;
  /** The name as a person reads it: "America/New York". */
  label: string;
  /** Its everyday English name, e.g. "Eastern Time"; empty when the browser knows none. */
  name: string;
  /** Its offset from UTC today, e.g. "GMT-5". */
  offset: string;
  /** What a search is matched against (see `normalized`). */
  keywords: string;
};

/** Lower case, accents dropped, and "_" and "/" read as spaces: "São_Paulo" and "sao paulo" meet. */
function normalized(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/[_/]/g, " ");
}

function zoneNamePart(zone: string, style: "longGeneric" | "long" | "shortOffset"): string {
  try {
    return (
      new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: style })
        .formatToParts(new Date())
        .find((part) => part.type === "timeZoneName")?.value ?? ""
    );
  } catch {
    // A stored zone this browser cannot resolve is still listed, by its IANA name alone.
    return "";
  }
}

/** A name such as "GMT+00:00" is only an offset again, not a name. */
const realName = (name: string) => (name.startsWith("GMT") ? "" : name);

// Describing all of a browser's 400-odd zones takes a noticeable moment, so each is described once.
const described = new Map<string, TimeZoneOption>();

export function describeTimeZone(zone: string): TimeZoneOption {
  const known = described.get(zone);
  if (known) return known;
  // "Eastern Time" rather than "Eastern Standard Time": true all year, and what people search for.
  const name = realName(zoneNamePart(zone, "longGeneric")) || realName(zoneNamePart(zone, "long"));
  const offset = zoneNamePart(zone, "shortOffset");
  const option: TimeZoneOption = {
    zone,
    label: zone.replaceAll("_", " "),
    name,
    offset,
    // "UTC+9" finds what the browser calls "GMT+9".
    keywords: normalized([zone, name, offset, offset.replace(/^GMT/, "UTC")].join(" ")),
  };
  described.set(zone, option);
  return option;
}

/**
 * The zones this browser knows (the server accepts the same IANA names), UTC first and the rest
 * in alphabetical order, with the firm's current zone among them even if the browser lacks it.
 */
export function timeZoneOptions(current: string): TimeZoneOption[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["UTC", current, ...known])]
    .sort((a, b) => (a === "UTC" ? -1 : b === "UTC" ? 1 : a.localeCompare(b)))
    .map(describeTimeZone);
}

/**
 * The options a search finds: each of its words must appear in the zone's IANA name (with spaces
 * for underscores), its region, its everyday name ("Japan", "Pacific") or its offset ("GMT+9",
 * "UTC+9"). An empty search finds them all.
 */
export function searchTimeZones(options: TimeZoneOption[], query: string): TimeZoneOption[] {
  const words = normalized(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return options;
  return options.filter((option) => words.every((word) => option.keywords.includes(word)));
}
