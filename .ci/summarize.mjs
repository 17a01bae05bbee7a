// Totals the JSON reports of every suite CI ran into one last line, "N passed, N failed", and
// exits non-zero on any failure. Arguments: the reports' folder, then the names of failed steps.
// A failed step whose report shows no failed test (a type error, a crash, a missing server)
// counts as one failure, so a broken run can never total "0 failed".
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

/** The report each test step writes (the step names are .ci/run's). */
const reportOfStep = {
  "tests (embedded)": "vitest-embedded",
  "tests (PostgreSQL server)": "vitest-server",
  "tests (Node 24)": "vitest-node24",
  "browser tests": "playwright",
};
const failedTestsIn = {};
for (const name of ["vitest-embedded", "vitest-server", "vitest-node24"]) {
  const report = read(`${name}.json`);
  if (!report) continue;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  failedTestsIn[name] = report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  console.log(`${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
const e2e = read("playwright.json");
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  failedTestsIn.playwright = e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
  console.log(`playwright: ${e2e.stats.expected + e2e.stats.flaky} passed, ${e2e.stats.unexpected} failed`);
  // A test that failed and then passed on its retry (decision 0027): named, to be mended.
  for (const title of flakyTests(e2e.suites)) console.log(`flaky (passed on its retry): ${title}`);
}
if (skipped > 0) console.log(`skipped: ${skipped}`);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join(", ")}`);
failed += failedSteps.filter((step) => !(failedTestsIn[reportOfStep[step]] > 0)).length;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/** The titles of Playwright's tests whose outcome was "flaky", from its JSON report's suites. */
function flakyTests(suites = [], parents = []) {
  return suites.flatMap((suite) => {
    const path = suite.title && !suite.title.endsWith(".ts") ? [...parents, suite.title] : parents;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === "flaky")
        .map((test) => `[${test.projectName}] ${spec.file}:${spec.line} › ${[...path, spec.title].join(" › ")}`),
    );
    return [...own, ...flakyTests(suite.suites, path)];
  });
}
