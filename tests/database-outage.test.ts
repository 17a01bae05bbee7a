import { expect, it } from "vitest";
import { databaseOutage } from "../scripts/faults/database-outage";
import { formatReport, passed } from "../scripts/faults/report";

/*
 * The fault scenario of scripts/faults/database-outage.ts (`npm run fault:database-outage`): the
 * app as a process under load while its PostgreSQL stops for 10 s and later dies and restarts.
 */
it("S-OUTAGE-01..05 a 10 s PostgreSQL outage and an immediate shutdown with a quick restart, under load: 503s with Retry-After, one warning each way, healthy again at once, no acknowledged write lost", async () => {
  const report = await databaseOutage();
  expect(passed(report), formatReport(report)).toBe(true);
}, 150_000);
