import { expect, it } from "vitest";
import { killUnderLoad } from "../scripts/faults/kill-under-load";
import { formatReport, passed } from "../scripts/faults/report";

/*
 * kill -9 under write load, the fault script run as a test (npm run fault:kill-under-load prints
 * the same report): the app killed mid-stream, then the app and its PostgreSQL together.
 */
it("S-CRASH-01..04 after kill -9 under write load every acknowledged write is there and whole, no client is half-created, the audit chain verifies and task counts match, also through PostgreSQL's crash recovery", async () => {
  const report = await killUnderLoad({ writers: 6, ackedBeforeKill: [200, 300] });
  expect(passed(report), formatReport(report)).toBe(true);
}, 120_000);
