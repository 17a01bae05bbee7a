import { describe, expect, it } from "vitest";
import { everyText, templateDescriptionLimit, templateNameLimit, truncate } from "./format";

describe("truncate (S-CONST-29, S-CONST-30)", () => {
  it("keeps text at or under the limit as it is", () => {
    expect(truncate("a".repeat(templateNameLimit), templateNameLimit)).toBe("a".repeat(50));
    expect(truncate("Payroll", templateNameLimit)).toBe("Payroll");
  });

  it("cuts longer text at the limit and adds an ellipsis", () => {
    const name = "n".repeat(60);
    expect(truncate(name, templateNameLimit)).toBe(`${"n".repeat(50)}…`);
    const description = "d".repeat(150);
    expect(truncate(description, templateDescriptionLimit)).toBe(`${"d".repeat(100)}…`);
  });
});

describe("everyText (S-TTPL-09)", () => {
  it('reads "Every {frequency}" with the stored word', () => {
    expect(everyText("monthly")).toBe("Every monthly");
    expect(everyText("annually")).toBe("Every annually");
  });
});
