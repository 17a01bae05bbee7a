// Totals the JSON reports of every suite CI ran into one last line, "N passed, N failed", and
// exits non-zero on any failure; before it, a table of each step's wall time (steps.tsv, written
// by .ci/run). Arguments: the reports' folder, then the names of failed steps.
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
  "tests (PostgreSQL server, Node 22)": "vitest-server",
  "browser tests (app)": "playwright-app",
  "browser tests (large-firm)": "playwright-large-firm",
  "browser tests (card-mode)": "playwright-card-mode",
};
const failedTestsIn = {};
for (const name of ["vitest-embedded", "vitest-server"]) {
  const report = read(`${name}.json`);
  if (!report) continue;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  failedTestsIn[name] = report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  console.log(`${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
for (const name of ["playwright-app", "playwright-large-firm", "playwright-card-mode"]) {
  const e2e = read(`${name}.json`);
  if (!e2e) continue;
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  failedTestsIn[name] = e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
  console.log(`${name}: ${e2e.stats.expected + e2e.stats.flaky} passed, ${e2e.stats.unexpected} failed`);
  // A test that failed and then passed on its retry (decision 0027): a race to fix, named.
  const flaky = flakyTests(e2e.suites);
  if (flaky.length > 0) {
    console.log(`${flaky.length} browser test(s) passed only on the retry: races to fix (decision 0027)`);
  }
  for (const title of flaky) console.log(`flaky (passed on its retry): ${title}`);
}
if (skipped > 0) console.log(`skipped: ${skipped}`);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join(", ")}`);
printStepTimes();
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

/** Each step's wall time, from the "name<TAB>seconds" lines .ci/run wrote, and their total. */
function printStepTimes() {
  const file = path.join(dir, "steps.tsv");
  if (!fs.existsSync(file)) return;
  const steps = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name = "", seconds = "0"] = line.split("\t");
      return { name, seconds: Number(seconds) };
    });
  const total = steps.reduce((sum, step) => sum + step.seconds, 0);
  const width = Math.max(...steps.map((step) => step.name.length), "total".length);
  const time = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`.padStart(6);
  console.log("\nstep times (min:s):");
  for (const step of steps) console.log(`  ${step.name.padEnd(width)} ${time(step.seconds)}`);
  console.log(`  ${"total".padEnd(width)} ${time(total)}\n`);
}
