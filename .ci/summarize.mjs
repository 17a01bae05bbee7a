// Totals the JSON reports of every suite CI ran into one "N passed, N failed" line.
// A step that failed without a report (e.g. the type check) counts as one failure.
import fs from "node:fs";
import path from "node:path";

const [dir, failedStepsArg] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const read = (name) => {
  const file = path.join(dir, name);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
};

for (const name of ["vitest-embedded.json", "vitest-server.json", "vitest-node24.json"]) {
  const report = read(name);
  if (!report) continue;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  console.log(`${name.replace(/\.json$/, "")}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
const e2e = read("playwright.json");
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
  console.log(`playwright: ${e2e.stats.expected + e2e.stats.flaky} passed, ${e2e.stats.unexpected} failed`);
}
const stepFailures = Number(failedStepsArg ?? 0);
if (failed === 0 && stepFailures > 0) failed = stepFailures;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
