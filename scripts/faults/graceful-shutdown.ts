import { fileURLToPath } from "node:url";
import { appInstance, demoSignIn, sleep } from "./app-instance";
import { type Failure, httpSession, NoAnswerError } from "./http-client";
import { type FaultCheck, type FaultReport, runFaultScript } from "./report";

/*
 * SIGTERM under load. Readers and writers keep the app process busy over keep-alive connections;
 * the process gets SIGTERM mid-stream and the loads go on sending until the app is gone. Every
 * request is accounted for: the ones in flight at the signal must all be answered; no request,
 * then or later, may see its connection reset (ECONNRESET, "socket hang up"); one sent after the
 * listener closed may be refused (ECONNREFUSED) or answered 503, counted apart; and the process
 * must exit 0 within SHUTDOWN_GRACE_SECONDS.
 */

export type ShutdownOptions = {
  readers?: number;
  writers?: number;
  /** Seconds of load before the signal. */
  loadSeconds?: number;
  graceSeconds?: number;
};

/** One request: when it was written to its connection (if it was), and its answer or failure. */
type Outcome = { writtenAt?: number; inFlightAtSignal: boolean; status?: number; failure?: Failure; code?: string };
type Send = (onWritten: () => void) => Promise<{ status: number }>;

export async function gracefulShutdown(options: ShutdownOptions = {}): Promise<FaultReport> {
  const readers = options.readers ?? 12;
  const writers = options.writers ?? 4;
  const graceSeconds = options.graceSeconds ?? 10;
  const instance = appInstance();
  const checks: FaultCheck[] = [];
  const outcomes: Outcome[] = [];
  const inFlight = new Set<Outcome>();
  let signalledAt: number | undefined;
  let exited = false;

  try {
    const app = await instance.start({ SHUTDOWN_GRACE_SECONDS: String(graceSeconds) });
    const reading = httpSession(app.baseUrl, { connections: readers });
    const writing = httpSession(app.baseUrl, { connections: writers });
    await reading.signIn(demoSignIn.username, demoSignIn.password);
    await writing.signIn(demoSignIn.username, demoSignIn.password);
    const clientIds = ((await reading.get("/api/clients?limit=50")).body as { id: string }[]).map((c) => c.id);
    const readPaths = ["/api/clients?limit=50", "/api/tasks?limit=100", "/api/dashboard", "/api/task-templates"];
    let n = 0;

    /** Sends one request and records how it ended; true when the loop should go on. */
    const send = async (make: Send) => {
      const outcome: Outcome = { inFlightAtSignal: false };
      outcomes.push(outcome);
      try {
        outcome.status = (
          await make(() => {
            outcome.writtenAt = performance.now();
            inFlight.add(outcome);
          })
        ).status;
        return true;
      } catch (error) {
        if (!(error instanceof NoAnswerError)) throw error;
        outcome.failure = error.failure;
        outcome.code = error.code ?? error.message;
        return false;
      } finally {
        inFlight.delete(outcome);
      }
    };
    // Each loop sends until its request gets no answer (the listener is gone) or the app has exited.
    const loop = async (next: () => Send) => {
      while (!exited && (await send(next()))) {
        if (signalledAt !== undefined) await sleep(5);
      }
    };
    // A writer creates a task, then changes the task it created: one request at a time.
    const writer = () => {
      let created: string | undefined;
      return loop(() => {
        const taskId = created;
        created = undefined;
        if (taskId !== undefined) {
          return (onWritten) => writing.request("PATCH", `/api/tasks/${taskId}`, { priority: "high" }, {}, onWritten);
        }
        const clientId = clientIds[n++ % clientIds.length];
        return async (onWritten) => {
          const answer = await writing.request(
            "POST",
            "/api/tasks",
            { name: `Shutdown load task ${n}`, clientId },
            {},
            onWritten,
          );
          if (answer.status === 201) created = (answer.body as { id: string }).id;
          return answer;
        };
      });
    };
    const loads = [
      ...Array.from({ length: readers }, (_, r) =>
        loop(() => {
          const path = readPaths[(n++ + r) % readPaths.length] as string;
          return (onWritten) => reading.request("GET", path, undefined, {}, onWritten);
        }),
      ),
      ...Array.from({ length: writers }, writer),
    ];

    await sleep((options.loadSeconds ?? 3) * 1000);
    for (const outcome of inFlight) outcome.inFlightAtSignal = true;
    signalledAt = performance.now();
    const exitCode = await app.stop("SIGTERM");
    const secondsToExit = (performance.now() - signalledAt) / 1000;
    exited = true;
    await Promise.all(loads);
    reading.close();
    writing.close();

    // Before: written and answered before the signal. At the signal: written, not yet answered.
    // After: written after the signal, or never written (no connection would take it).
    const signal = signalledAt;
    const before = outcomes.filter((o) => o.writtenAt !== undefined && o.writtenAt < signal && !o.inFlightAtSignal);
    const atSignal = outcomes.filter((o) => o.inFlightAtSignal);
    const after = outcomes.filter((o) => o.writtenAt === undefined || o.writtenAt >= signal);
    const resets = outcomes.filter((o) => o.failure === "reset");
    const otherFailures = outcomes.filter(
      (o) => o.failure !== undefined && o.failure !== "reset" && o.failure !== "refused",
    );
    const unansweredAtSignal = atSignal.filter((o) => o.status === undefined);
    const serverErrorsAtSignal = atSignal.filter((o) => o.status !== undefined && o.status >= 500 && o.status !== 503);
    const notOk = (o: Outcome) => o.status === undefined || o.status >= 400;
    const list = (items: Outcome[]) =>
      items
        .slice(0, 5)
        .map((o) => o.code ?? String(o.status))
        .join(", ");
    checks.push(
      {
        name: "every request before the signal was answered 2xx",
        passed: before.every((o) => !notOk(o)),
        detail: list(before.filter(notOk)) || undefined,
      },
      {
        name: "every request in flight at the signal was answered",
        passed: atSignal.length > 0 && unansweredAtSignal.length === 0 && serverErrorsAtSignal.length === 0,
        detail: `${atSignal.length} in flight${unansweredAtSignal.length + serverErrorsAtSignal.length > 0 ? `; ${list([...unansweredAtSignal, ...serverErrorsAtSignal])}` : ""}`,
      },
      { name: "no connection was reset", passed: resets.length === 0, detail: list(resets) || undefined },
      {
        name: "a request after the signal was answered, answered 503 or refused",
        passed:
          otherFailures.length === 0 &&
          after.every((o) => o.failure !== undefined || o.status === 503 || (o.status ?? 0) < 400),
        detail: list(otherFailures) || undefined,
      },
      { name: "the process exited 0", passed: exitCode === 0, detail: `exit code ${exitCode}` },
      {
        name: `it exited within SHUTDOWN_GRACE_SECONDS (${graceSeconds} s)`,
        passed: secondsToExit <= graceSeconds,
        detail: `${secondsToExit.toFixed(2)} s`,
      },
    );
    const answered = (items: Outcome[], test: (status: number) => boolean) =>
      items.filter((o) => o.status !== undefined && test(o.status)).length;
    return {
      scenario: "graceful shutdown under load",
      checks,
      figures: {
        "connections (readers + writers)": `${readers} + ${writers}`,
        "requests before the signal": before.length + atSignal.length,
        "requests in flight at the signal": atSignal.length,
        "in flight at the signal: completed 2xx": answered(atSignal, (s) => s < 300),
        "in flight at the signal: answered 503": answered(atSignal, (s) => s === 503),
        "requests sent after the signal": after.length,
        "after the signal: completed 2xx": answered(after, (s) => s < 300),
        "after the signal: answered 503": answered(after, (s) => s === 503),
        "after the signal: refused (ECONNREFUSED)": after.filter((o) => o.failure === "refused").length,
        "connections reset (ECONNRESET, socket hang up)": resets.length,
        "exit code": String(exitCode),
        "seconds to exit": secondsToExit.toFixed(2),
      },
    };
  } finally {
    exited = true;
    await instance.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runFaultScript(() => gracefulShutdown());
