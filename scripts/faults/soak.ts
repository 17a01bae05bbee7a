import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { createRandom } from "../../src/server/seed/random";
import { drawSignature } from "../../src/server/seed/signature-image";
import { appInstance, demoSignIn } from "./app-instance";
import { type Failure, httpSession, NoAnswerError, percentile } from "./http-client";
import { type FaultCheck, type FaultReport, runFaultScript } from "./report";

/*
 * Soak: mixed reads and writes at a steady 50 concurrent connections against the app process for
 * SOAK_MINUTES (default 10). It passes with no error at all (every request answered 2xx), the app
 * process's memory flat (its VmRSS in the last minute within 10 % of minute 2's) and its p99
 * latency stable (the last minute's p99 at most 1.5 times minute 2's). RSS swings by tens of MB
 * within a minute as the garbage collector grows and shrinks the heap, so it is read every
 * RSS_SAMPLE_MS and a minute's RSS is the median of its readings. Per minute it prints the
 * requests, p50, p99 and RSS (median, and the lowest and highest reading). Not a CI test: it takes
 * the whole run.
 *
 * Each connection is one loop. Four requests in five are reads (the client list, a client's
 * page, the task list, the dashboard, the templates); the fifth is the next step of that loop's
 * writes: create a task, change it, then sign it off with a drawn signature or delete it, in
 * turn; one loop in ten of those steps creates a client with a contact and two templates instead.
 */

export type SoakOptions = { minutes?: number; connections?: number };

type Minute = { requests: number; errors: number; latencies: number[]; rssKb: number[] };

/** How often the app's RSS is read. */
const RSS_SAMPLE_MS = 5_000;

export async function soak(options: SoakOptions = {}): Promise<FaultReport> {
  const minutes = options.minutes ?? 10;
  const connections = options.connections ?? 50;
  const random = createRandom(20_251_125);
  const signatures = Array.from({ length: 4 }, (_, i) => drawSignature(`Olivia Hart ${i}`, random));
  const instance = appInstance();
  const checks: FaultCheck[] = [];
  const failures = new Map<string, number>();
  try {
    const app = await instance.start();
    const pid = app.child.pid;
    if (pid === undefined) throw new Error("the app process has no pid");
    const session = httpSession(app.baseUrl, { connections });
    await session.signIn(demoSignIn.username, demoSignIn.password);
    if ((await session.put("/api/billing/plan", { plan: "enterprise" })).status !== 200) {
      throw new Error("could not move the demo firm to the enterprise plan");
    }
    const clientIds = ((await session.get("/api/clients?limit=50")).body as { id: string }[]).map((c) => c.id);
    const templateIds = ((await session.get("/api/task-templates")).body as { id: string }[])
      .slice(0, 2)
      .map((t) => t.id);
    const readPaths = () => {
      const clientId = random.pick(clientIds);
      return random.pick([
        "/api/clients?limit=50",
        `/api/clients/${clientId}`,
        "/api/tasks?limit=100",
        `/api/tasks?clientId=${clientId}`,
        "/api/dashboard",
        "/api/task-templates",
      ]);
    };

    const startedAt = performance.now();
    const endsAt = startedAt + minutes * 60_000;
    const perMinute: Minute[] = Array.from({ length: minutes }, () => ({
      requests: 0,
      errors: 0,
      latencies: [],
      rssKb: [],
    }));
    const minuteOf = (at: number) => Math.min(minutes - 1, Math.floor((at - startedAt) / 60_000));
    const rssAtStart = vmRssKb(pid);
    const sampler = setInterval(() => {
      perMinute[minuteOf(performance.now())]?.rssKb.push(vmRssKb(pid));
    }, RSS_SAMPLE_MS);

    const record = (sentAt: number, outcome: { status: number } | Failure, what: string) => {
      const minute = perMinute[minuteOf(sentAt)] as Minute;
      minute.requests += 1;
      if (typeof outcome === "object" && outcome.status < 300) {
        minute.latencies.push(performance.now() - sentAt);
        return;
      }
      minute.errors += 1;
      const key = `${what}: ${typeof outcome === "object" ? outcome.status : outcome}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    };
    const timed = async (what: string, send: () => Promise<{ status: number; body: unknown }>) => {
      const sentAt = performance.now();
      try {
        const answer = await send();
        record(sentAt, answer, what);
        return answer.status < 300 ? answer : undefined;
      } catch (error) {
        if (!(error instanceof NoAnswerError)) throw error;
        record(sentAt, error.failure, what);
        return undefined;
      }
    };

    const loop = async (index: number) => {
      let step = 0;
      let taskId: string | undefined;
      let n = 0;
      while (performance.now() < endsAt) {
        n += 1;
        if (n % 5 !== 0) {
          const path = readPaths();
          await timed(path.replace(/[0-9a-f-]{36}/, ":id").replace(/\?.*/, ""), () => session.get(path));
          continue;
        }
        if (taskId === undefined) {
          if (step % 10 === 9) {
            const name = `Soak client ${index}-${n}`;
            await timed("create client", () =>
              session.post("/api/clients", { name, primaryContact: { name: `Contact of ${name}` }, templateIds }),
            );
          } else {
            const created = await timed("create task", () =>
              session.post("/api/tasks", { name: `Soak task ${index}-${n}`, clientId: random.pick(clientIds) }),
            );
            taskId = (created?.body as { id: string } | undefined)?.id;
          }
          step += 1;
          continue;
        }
        const id = taskId;
        if (step % 3 === 1) {
          await timed("change task", () =>
            session.patch(`/api/tasks/${id}`, { priority: random.pick(["low", "high"]) }),
          );
        } else if (step % 2 === 0) {
          await timed("complete task", () =>
            session.patch(`/api/tasks/${id}/complete`, {
              signature: random.pick(signatures).dataUrl,
              printedName: "Olivia Hart",
            }),
          );
          taskId = undefined;
        } else {
          await timed("delete task", () => session.request("DELETE", `/api/tasks/${id}`));
          taskId = undefined;
        }
        step += 1;
      }
    };
    await Promise.all(Array.from({ length: connections }, (_, index) => loop(index)));
    clearInterval(sampler);
    const last = perMinute[minutes - 1] as Minute;
    session.close();
    const stopped = await app.stop("SIGTERM");

    const errors = perMinute.reduce((sum, minute) => sum + minute.errors, 0);
    const requests = perMinute.reduce((sum, minute) => sum + minute.requests, 0);
    const baseline = perMinute[Math.min(2, minutes) - 1] as Minute;
    const rss = (minute: Minute) => percentile(minute.rssKb, 50);
    const rssGrowth = rss(baseline) > 0 ? (rss(last) - rss(baseline)) / rss(baseline) : Number.NaN;
    const p99 = (minute: Minute) => percentile(minute.latencies, 99);
    checks.push(
      {
        name: "no errors",
        passed: errors === 0,
        detail: errors === 0 ? undefined : [...failures].map(([key, count]) => `${key} x${count}`).join(", "),
      },
      {
        name: "memory flat: the last minute's median RSS within 10 % of minute 2's",
        passed: Math.abs(rssGrowth) <= 0.1,
        detail: `${mb(rss(baseline))} -> ${mb(rss(last))} (${(rssGrowth * 100).toFixed(1)} %)`,
      },
      {
        name: "p99 stable: the last minute's p99 at most 1.5 times minute 2's",
        passed: p99(last) <= 1.5 * p99(baseline),
        detail: `${p99(baseline).toFixed(1)} ms -> ${p99(last).toFixed(1)} ms`,
      },
      { name: "the app stops cleanly after it", passed: stopped === 0, detail: `exit code ${stopped}` },
    );
    const figures: FaultReport["figures"] = {
      minutes,
      connections,
      requests,
      "requests per second": Math.round(requests / (minutes * 60)),
      errors,
      "RSS at start": mb(rssAtStart),
    };
    perMinute.forEach((minute, i) => {
      figures[`minute ${String(i + 1).padStart(2)}`] =
        `${String(minute.requests).padStart(6)} requests  p50 ${percentile(minute.latencies, 50).toFixed(1).padStart(6)} ms  ` +
        `p99 ${p99(minute).toFixed(1).padStart(6)} ms  RSS ${mb(rss(minute))} ` +
        `(${mb(Math.min(...minute.rssKb))} to ${mb(Math.max(...minute.rssKb))})`;
    });
    return {
      scenario: `soak: ${minutes} min of mixed reads and writes at ${connections} connections`,
      checks,
      figures,
    };
  } finally {
    await instance.dispose();
  }
}

/** The process's resident set size in KB, from /proc/<pid>/status. */
function vmRssKb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match?.[1] ? Number(match[1]) : 0;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  if (!Number.isInteger(minutes) || minutes < 1) {
    process.stderr.write("SOAK_MINUTES must be a whole number of minutes, at least 1\n");
    process.exit(1);
  }
  runFaultScript(() => soak({ minutes }));
}
