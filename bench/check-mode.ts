/**
 * BENCH_CHECK=1 runs a bench once at a tiny size to show it still works, as CI does for every bench
 * (bench/check.sh): its answers are still compared and it must finish, but its figures and what
 * depends on the data's size (a score, a budget, a query plan) are printed, not judged.
 */
export const checkOnly = process.env.BENCH_CHECK === "1";

/** A figure out of its bounds fails the run, except when only checking that the bench works. */
export function failOnFigure(message: string): void {
  console.error(checkOnly ? `${message} (not judged: BENCH_CHECK=1)` : message);
  if (!checkOnly) process.exitCode = 1;
}
