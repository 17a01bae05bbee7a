/*
 * What every fault script (scripts/faults/*.ts) reports: the checks it made, each passed or
 * failed with what it saw, and the figures of the run (counts, times). The same run is a
 * Vitest test where it is fast enough for CI (the test asserts `passed`) and an `npm run`
 * script that prints the report and exits 0 on PASS, 1 on FAIL.
 */

export type FaultCheck = { name: string; passed: boolean; detail?: string };
export type FaultReport = {
  scenario: string;
  checks: FaultCheck[];
  /** The run's figures, in the order they are printed: "acknowledged writes" -> 751, … */
  figures: Record<string, number | string>;
};

export const passed = (report: FaultReport) => report.checks.length > 0 && report.checks.every((check) => check.passed);

/** The report as the terminal shows it: PASS or FAIL, each check, then the figures. */
export function formatReport(report: FaultReport): string {
  const lines = [`${passed(report) ? "PASS" : "FAIL"} ${report.scenario}`];
  for (const check of report.checks) {
    lines.push(`  ${check.passed ? "ok  " : "FAIL"} ${check.name}${check.detail ? `: ${check.detail}` : ""}`);
  }
  const width = Math.max(0, ...Object.keys(report.figures).map((label) => label.length));
  for (const [label, value] of Object.entries(report.figures)) lines.push(`  ${label.padEnd(width)}  ${value}`);
  return lines.join("\n");
}

/** Runs a scenario as a command: prints its report and exits 0 on PASS, 1 on FAIL or error. */
export function runFaultScript(run: () => Promise<FaultReport>): void {
  run().then(
    (report) => {
      process.stdout.write(`${formatReport(report)}\n`);
      process.exit(passed(report) ? 0 : 1);
    },
    (error: unknown) => {
      process.stderr.write(`FAIL: the scenario could not run: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
