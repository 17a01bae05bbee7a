import type { Logger } from "pino";
import { materializeSchedules } from "../features/schedules/schedules.service";
import type { Database } from "../platform/db/database";

/**
 * Runs the recurring-work scheduler (materializeSchedules) now and then every `intervalMs`
 * (default 5 minutes); the returned function stops it and waits for a run in progress. Safe on
 * every app instance: the scheduler's advisory lock lets one run at a time do the work.
 */
export function startScheduler(options: { db: Database; log: Logger; intervalMs?: number }): () => Promise<void> {
  const { db, log } = options;
  let running: Promise<void> | undefined;
  const run = () => {
    // A run slower than the interval is still working through the same schedules; a second one
    // would only find the advisory lock taken.
    if (running !== undefined) return;
    running = materializeSchedules(db)
      .then((result) => {
        if (result.tasksCreated > 0) log.info(result, "scheduler: created recurring tasks");
        else if (!result.ran) log.debug("scheduler: another instance is running it; skipped");
      })
      .catch((error: unknown) => log.warn({ err: error }, "scheduler failed; retrying next round"))
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? 5 * 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
