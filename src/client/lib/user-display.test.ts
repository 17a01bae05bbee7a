import { describe, expect, it } from "vitest";
import { initials, roleDisplay } from "./user-display";

describe("roleDisplay", () => {
  it("shows underscores as spaces", () => {
    expect(roleDisplay("super_admin")).toBe("super admin");
    expect(roleDisplay("admin")).toBe("admin");
  });

  it('defaults to "Administrator" when the role is missing', () => {
    expect(roleDisplay(undefined)).toBe("Administrator");
    expect(roleDisplay(null)).toBe("Administrator");
    expect(roleDisplay("")).toBe("Administrator");
  });
});

describe("initials", () => {
  it("takes the first letters of the first and last names", () => {
    expect(initials("Jane Doe")).toBe("JD");
    expect(initials("  olivia   grace hart ")).toBe("OH");
  });

  it("copes with one name and with none", () => {
    expect(initials("Cher")).toBe("C");
    expect(initials("   ")).toBe("?");
  });

  it("S-EDGE-02 takes whole graphemes: an emoji, a flag, a joined emoji or an accented letter is never cut in half", () => {
    expect(initials("😀 Dana")).toBe("😀D");
    expect(initials("Dana 😀")).toBe("D😀");
    expect(initials("🇯🇵 Kenji Sato")).toBe("🇯🇵S");
    expect(initials("👩‍👩‍👧 Family")).toBe("👩‍👩‍👧F");
    // "e" followed by a combining acute accent, and "n" followed by a combining tilde.
    expect(initials("e\u0301mile n\u0303un\u0303ez")).toBe("E\u0301N\u0303");
    expect(initials("Zoë Ôzil")).toBe("ZÔ");
    // Half an emoji is a lone surrogate (a code point of category Cs), which a screen shows as "\uFFFD".
    for (const name of ["😀 Dana", "🇯🇵 Kenji Sato", "👩‍👩‍👧 Family", "Dana 😀"]) {
      expect(initials(name)).not.toMatch(/\p{Cs}/u);
    }
  });
});
