import { describe, expect, it } from "vitest";
import { changedClientIds } from "./api";

describe("assigning clients", () => {
  it("S-USERS-17 refreshes the team of exactly the clients that gained or lost the user", () => {
    expect(changedClientIds(["a", "b", "c"], ["b", "c", "d"]).sort()).toEqual(["a", "d"]);
    expect(changedClientIds(["a"], [])).toEqual(["a"]);
    expect(changedClientIds([], [])).toEqual([]);
  });
});
