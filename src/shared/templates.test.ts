import { describe, expect, it } from "vitest";
import { templateLibrary } from "./template-library";
import { libraryAsSeenBy } from "./templates";

describe("the library as a firm sees it", () => {
  const [first, second] = templateLibrary;
  if (!first || !second) throw new Error("the library has fewer than two entries");
  const entryOf = (seen: ReturnType<typeof libraryAsSeenBy>, key: string) => seen.find((entry) => entry.key === key);

  it("S-EDGE-05 marks what the firm added, and names in use by its other templates, ignoring case and surrounding spaces", () => {
    const seen = libraryAsSeenBy([
      { libraryKey: first.key, name: first.name },
      { libraryKey: null, name: `  ${second.name.toUpperCase()} ` },
    ]);
    expect(seen).toHaveLength(templateLibrary.length);
    expect(entryOf(seen, first.key)).toMatchObject({ added: true, nameInUse: false });
    expect(entryOf(seen, second.key)).toMatchObject({ added: false, nameInUse: true });
    expect(seen.filter((entry) => entry.added || entry.nameInUse)).toHaveLength(2);
  });

  it("a name carried by a template added from another entry is in use; by the entry's own, not", () => {
    const seen = libraryAsSeenBy([
      { libraryKey: second.key, name: first.name },
      { libraryKey: first.key, name: first.name },
    ]);
    expect(entryOf(seen, first.key)).toMatchObject({ added: true, nameInUse: true });
    expect(entryOf(seen, second.key)).toMatchObject({ added: true, nameInUse: false });
  });

  it("a firm without templates sees the whole library unmarked", () => {
    const seen = libraryAsSeenBy([]);
    expect(seen.map((entry) => entry.key)).toEqual(templateLibrary.map((entry) => entry.key));
    expect(seen.every((entry) => !entry.added && !entry.nameInUse)).toBe(true);
  });
});
