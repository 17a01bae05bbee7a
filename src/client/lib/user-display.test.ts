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
});
