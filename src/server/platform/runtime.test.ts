import { describe, expect, it } from "vitest";
import { runtimeProblem } from "./runtime";

describe("the runtime check", () => {
  it("S-RUN-02 refuses a Node older than 22.12 in one sentence that says how to start it", () => {
    expect(runtimeProblem("20.20.2")).toBe(
      "Tendwell needs Node 22.12 or newer, and this is Node 20.20.2: start it with npm start, which runs the " +
        "project's own Node 24 on Linux x64 (elsewhere, install Node 24 LTS)",
    );
    expect(runtimeProblem("22.11.0")).toMatch(/^Tendwell needs Node 22\.12 or newer/);
  });

  it("accepts 22.12 and every later Node", () => {
    for (const version of ["22.12.0", "22.23.5", "24.22.3", "25.0.0", "30.1.2"]) {
      expect(runtimeProblem(version)).toBeUndefined();
    }
  });
});
