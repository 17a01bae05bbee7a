// Totals the JSON reports of every suite CI ran into one last line, "N passed, N failed", and
// exits non-zero on any failure. Arguments: the reports' folder, then the names of failed steps;
// a step that failed without a failed test (e.g. the type check) counts as one failure.
import fs from "node:fs";
import path from "node:path";

const [dir, ...failedSteps] = process.argv.slice(2);
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
if (skipped > 0) console.log(`skipped: ${skipped}`);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join(", ")}`);
if (failed === 0) failed = failedSteps.length;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
