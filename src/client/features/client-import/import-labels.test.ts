import { describe, expect, it } from "vitest";
import type { ClientImport } from "../../../shared/client-import";
import { canUndo, clientsToImport, counted, newRows, resultSummary, undoConsequence } from "./import-labels";

const record = (counts: Partial<ClientImport["counts"]>, status: ClientImport["status"] = "previewed") =>
  ({
    status,
    counts: { rows: 0, errors: 0, duplicates: 0, created: 0, updated: 0, skipped: 0, ...counts },
  }) as ClientImport;

describe("import labels", () => {
  it("counts in words, with thousands separated", () => {
    expect(counted(1, "row")).toBe("1 row");
    expect(counted(12_345, "row")).toBe("12,345 rows");
    expect(counted(2, "row has errors", "rows have errors")).toBe("2 rows have errors");
  });

  it("imports the new rows, and the duplicates unless they are skipped", () => {
    const preview = record({ rows: 10, errors: 1, duplicates: 3 });
    expect(newRows(preview)).toBe(6);
    expect(clientsToImport(preview, "skip")).toBe(6);
    expect(clientsToImport(preview, "update")).toBe(9);
    expect(clientsToImport(preview, "create")).toBe(9);
  });

  it("offers an undo once the commit has finished or failed, never twice", () => {
    expect(canUndo(record({}, "done"))).toBe(true);
    expect(canUndo(record({}, "failed"))).toBe(true);
    for (const status of ["previewed", "queued", "running", "undone"] as const) {
      expect(canUndo(record({}, status))).toBe(false);
    }
  });

  it("says what an import did and what its undo will do", () => {
    const done = record({ created: 2, updated: 1 }, "done");
    expect(resultSummary(done)).toBe("2 created · 1 updated");
    expect(resultSummary(record({}, "done"))).toBe("No clients changed");
    expect(undoConsequence(done)).toBe(
      "The 2 clients it created are removed with their contacts (archived instead, if they have since gained tasks, schedules, assignments or changes). " +
        "The 1 client it updated gets its earlier details back, unless changed again since.",
    );
  });
});
