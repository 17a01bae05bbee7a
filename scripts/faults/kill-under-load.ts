import { fileURLToPath } from "node:url";
import { createRandom } from "../../src/server/seed/random";
import { drawSignature } from "../../src/server/seed/signature-image";
import { appInstance, demoSignIn, type Instance, sleep } from "./app-instance";
import { type Answer, httpSession, NoAnswerError, type Session } from "./http-client";
import { keptCountMismatchesSql } from "./kept-counts";
import { type FaultCheck, type FaultReport, runFaultScript } from "./report";

/*
 * kill -9 under write load. The app process runs on its embedded PostgreSQL; several writers send
 * writes as fast as it answers them: clients created with a primary contact and a task per
 * template (one transaction), tasks created, and tasks signed off with a drawn signature. Every
 * acknowledged (2xx) write is logged with the ids its answer gave. Mid-stream the app is killed
 * with SIGKILL and started again on the same data directory; then the same with the PostgreSQL
 * server killed along with it, so the restart goes through PostgreSQL's crash recovery. After
 * each restart:
 *
 *   - every acknowledged write is there and whole (below), with its audit event;
 *   - no client of the load is half-created, acknowledged or not;
 *   - the firm's audit chain verifies (the app's own GET /api/audit-events/verify);
 *   - each client's task counts, kept by triggers, equal a fresh count of its tasks.
 *
 * A create sent with `primaryContact` and `templateIds` promises, in one transaction: the client,
 * one contact (the one sent, marked primary), and for every template one task made from it (a
 * recurring template also gets its schedule, whose current period's task that is). A client of
 * the load is whole when it has exactly that: its one primary contact, exactly one task from each
 * template sent and a schedule for each recurring one. Anything less is half-created.
 */

type Kind = "client" | "task" | "complete";
const kinds: Kind[] = ["client", "task", "complete"];

type ClientAck = { id: string; name: string; contactId: string; contactName: string; taskIds: string[] };
type TaskAck = { id: string; clientId: string; name: string };
type CompleteAck = { taskId: string; sha256: string; printedName: string };

type Template = { id: string; frequency: string | null };

export type KillOptions = {
  /** Concurrent writers (each one request at a time). */
  writers?: number;
  /** Acknowledged writes in each phase before the kill: at least the first, at most the second. */
  ackedBeforeKill?: [number, number];
  seed?: number;
};

export async function killUnderLoad(options: KillOptions = {}): Promise<FaultReport> {
  const writers = options.writers ?? 6;
  const [minAcked, maxAcked] = options.ackedBeforeKill ?? [300, 450];
  const random = createRandom(options.seed ?? Date.now());
  const runTag = `Crash ${Date.now().toString(36)}`;
  const instance = appInstance();
  const checks: FaultCheck[] = [];
  const figures: FaultReport["figures"] = {};
  const log = {
    clients: [] as ClientAck[],
    tasks: [] as TaskAck[],
    completes: [] as CompleteAck[],
  };
  const signatures = Array.from({ length: 6 }, (_, i) => drawSignature(`Olivia Hart ${i}`, random));
  let counter = 0;

  try {
    let app = await instance.start();
    let session = httpSession(app.baseUrl, { connections: writers });
    await session.signIn(demoSignIn.username, demoSignIn.password);
    // The demo firm is on a plan of 250 clients; the load creates more than that over two phases.
    expectStatus(await session.put("/api/billing/plan", { plan: "enterprise" }), 200, "moving to the enterprise plan");
    const templates = await pickTemplates(session);
    const firmClients = ((await session.get("/api/clients?limit=50")).body as { id: string }[]).map((c) => c.id);
    const pending: string[] = [];

    // First the app alone is killed, then the app and its PostgreSQL server together.
    for (const phase of [
      { label: "app", alsoPostgres: false },
      { label: "app+postgres", alsoPostgres: true },
    ]) {
      const { label } = phase;
      const acked: Record<Kind, number> = { client: 0, task: 0, complete: 0 };
      const unanswered: Record<Kind, number> = { client: 0, task: 0, complete: 0 };
      const refusedBeforeKill: string[] = [];
      const killAt = random.int(minAcked, maxAcked);
      let killed = false;
      let inFlight = 0;
      let inFlightAtKill = 0;
      let killDone: Promise<void> = Promise.resolve();
      const current = app;

      const kill = () => {
        killed = true;
        inFlightAtKill = inFlight;
        const postmaster = instance.postmasterPid();
        const exited = current.stop("SIGKILL");
        if (phase.alsoPostgres) {
          if (postmaster === undefined) throw new Error("no postmaster.pid to kill");
          process.kill(postmaster, "SIGKILL");
        }
        killDone = exited.then(async () => {
          // The server's backends notice their postmaster is gone and exit by themselves.
          if (phase.alsoPostgres && postmaster !== undefined) await waitUntilGone(postmaster);
        });
      };
      // The kill comes 0 to 20 ms after the mark, so it lands anywhere in the writes then running.
      let killScheduled = false;
      const acknowledge = (kind: Kind) => {
        acked[kind] += 1;
        if (!killScheduled && acked.client + acked.task + acked.complete >= killAt) {
          killScheduled = true;
          setTimeout(kill, random.int(0, 20));
        }
      };

      const writeOnce = async (kind: Kind, n: number) => {
        if (kind === "complete" && pending.length === 0) kind = "task";
        if (kind === "client") {
          const name = `${runTag} client ${n}`;
          const contactName = contactNameOf(name);
          const answer = await session.post("/api/clients", {
            name,
            industry: "Fault testing",
            status: "active",
            primaryContact: { name: contactName, email: `contact${n}@crash.example.com` },
            templateIds: templates.map((template) => template.id),
          });
          if (answer.status !== 201) return answer;
          const body = answer.body as { id: string; contacts: { id: string }[]; tasks: { id: string }[] };
          const contact = body.contacts[0];
          log.clients.push({
            id: body.id,
            name,
            contactId: contact?.id ?? "(none in the answer)",
            contactName,
            taskIds: body.tasks.map((task) => task.id),
          });
          pending.push(...body.tasks.map((task) => task.id));
          firmClients.push(body.id);
          acknowledge(kind);
          return answer;
        }
        if (kind === "task") {
          const clientId = random.pick(firmClients);
          const name = `${runTag} task ${n}`;
          const answer = await session.post("/api/tasks", { name, clientId, priority: "medium" });
          if (answer.status !== 201) return answer;
          const id = (answer.body as { id: string }).id;
          log.tasks.push({ id, clientId, name });
          pending.push(id);
          acknowledge(kind);
          return answer;
        }
        const index = random.int(0, pending.length - 1);
        // Taken out before it is sent: a task whose sign-off gets no answer is never offered again.
        const [taskId] = pending.splice(index, 1);
        if (taskId === undefined) throw new Error("unreachable: no pending task");
        const signature = random.pick(signatures);
        const printedName = `${runTag} signer ${n}`;
        const answer = await session.patch(`/api/tasks/${taskId}/complete`, {
          signature: signature.dataUrl,
          printedName,
        });
        if (answer.status !== 200) return answer;
        log.completes.push({ taskId, sha256: signature.sha256, printedName });
        acknowledge(kind);
        return answer;
      };

      const writer = async () => {
        while (!killed) {
          const n = ++counter;
          const kind = kinds[n % kinds.length] as Kind;
          inFlight += 1;
          try {
            const answer = await writeOnce(kind, n);
            if (answer.status >= 300 && !killed)
              refusedBeforeKill.push(`${kind}: ${answer.status} ${JSON.stringify(answer.body)}`);
          } catch (error) {
            if (!(error instanceof NoAnswerError)) throw error;
            unanswered[kind] += 1;
            if (!killed) refusedBeforeKill.push(`${kind}: no answer (${error.code ?? error.message})`);
          } finally {
            inFlight -= 1;
          }
        }
      };
      const loadStarted = performance.now();
      await Promise.all(Array.from({ length: writers }, writer));
      await killDone;
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      session.close();

      checks.push({
        name: `${label}: every write before the kill was acknowledged`,
        passed: refusedBeforeKill.length === 0,
        detail: refusedBeforeKill.length === 0 ? undefined : refusedBeforeKill.slice(0, 5).join("; "),
      });
      app = await instance.start();
      figures[`${label}: acknowledged writes (client/task/complete)`] =
        `${acked.client}/${acked.task}/${acked.complete}`;
      figures[`${label}: acknowledged writes per second`] = Math.round(
        (acked.client + acked.task + acked.complete) / loadSeconds,
      );
      figures[`${label}: requests in flight at the kill`] = inFlightAtKill;
      figures[`${label}: seconds to restart`] = app.seconds.toFixed(1);
      if (phase.alsoPostgres) {
        const recovered = /automatic recovery in progress|database system was interrupted/.test(
          await postgresLog(instance),
        );
        checks.push({ name: `${label}: PostgreSQL went through crash recovery`, passed: recovered });
      }

      session = httpSession(app.baseUrl, { connections: writers });
      await session.signIn(demoSignIn.username, demoSignIn.password);
      const found = await verify(instance, { log, runTag, templates });
      const audit = (await session.get("/api/audit-events/verify")).body as { intact: boolean; events: number };
      checks.push(
        {
          name: `${label}: every acknowledged write is there and whole`,
          passed: found.lost.length === 0,
          detail: found.lost.length === 0 ? undefined : found.lost.slice(0, 5).join("; "),
        },
        {
          name: `${label}: no half-created client`,
          passed: found.halfCreated.length === 0,
          detail: found.halfCreated.length === 0 ? undefined : found.halfCreated.slice(0, 5).join("; "),
        },
        { name: `${label}: the audit chain verifies`, passed: audit.intact === true, detail: JSON.stringify(audit) },
        {
          name: `${label}: task counts kept by triggers equal a fresh count`,
          passed: found.countMismatches.length === 0,
          detail: found.countMismatches.length === 0 ? undefined : found.countMismatches.slice(0, 5).join("; "),
        },
      );
      figures[`${label}: writes lost`] = found.lost.length;
      figures[`${label}: half-created clients`] = found.halfCreated.length;
      figures[`${label}: unacknowledged writes found committed (client/task/complete)`] =
        `${found.committedUnacked.client}/${found.committedUnacked.task}/${found.committedUnacked.complete} of ${unanswered.client}/${unanswered.task}/${unanswered.complete} unanswered`;
      figures[`${label}: load clients checked`] = found.loadClients;
      figures[`${label}: clients' task counts checked`] = found.countedClients;
      figures[`${label}: audit events checked`] = audit.events;
    }
    session.close();
    const stopped = await app.stop("SIGTERM");
    checks.push({ name: "the restarted app stops cleanly", passed: stopped === 0, detail: `exit code ${stopped}` });
  } finally {
    await instance.dispose();
  }
  return { scenario: "kill -9 under write load", checks, figures };
}

const contactNameOf = (clientName: string) => `Contact of ${clientName}`;

function expectStatus(answer: Answer, status: number, what: string) {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

/** Templates every client of the load starts from: recurring ones and one-time ones, if the firm has both. */
async function pickTemplates(session: Session): Promise<Template[]> {
  const answer = await session.get("/api/task-templates");
  expectStatus(answer, 200, "listing the templates");
  const all = answer.body as Template[];
  const recurring = all.filter((template) => template.frequency !== null).slice(0, 2);
  const oneTime = all.filter((template) => template.frequency === null).slice(0, 1);
  const picked = [...recurring, ...oneTime];
  if (picked.length === 0) throw new Error("the demo firm has no task templates");
  return picked;
}

async function waitUntilGone(pid: number) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(50);
  }
}

async function postgresLog(instance: Instance) {
  const { readFile } = await import("node:fs/promises");
  return readFile(`${instance.dataDir}/postgres.log`, "utf8");
}

type Verification = {
  lost: string[];
  halfCreated: string[];
  countMismatches: string[];
  loadClients: number;
  countedClients: number;
  committedUnacked: Record<Kind, number>;
};

/** Reads what the database holds after the restart and holds it against the log of acknowledged writes. */
async function verify(
  instance: Instance,
  input: {
    log: { clients: ClientAck[]; tasks: TaskAck[]; completes: CompleteAck[] };
    runTag: string;
    templates: Template[];
  },
): Promise<Verification> {
  const { log, runTag, templates } = input;
  const like = `${runTag} %`;
  const loadClients = await instance.query<{ id: string; name: string }>(
    "select id, name from clients where name like $1",
    [like],
  );
  const loadClientIds = loadClients.map((client) => client.id);
  const contacts = await instance.query<{ id: string; client_id: string; name: string; is_primary: boolean }>(
    "select id, client_id, name, is_primary from contacts where client_id = any($1::uuid[])",
    [loadClientIds],
  );
  const taskRows = await instance.query<{
    id: string;
    client_id: string;
    template_id: string | null;
    name: string;
    status: string;
    signature_sha256: string | null;
    printed_name: string | null;
    completed_at: Date | null;
  }>(
    `select id, client_id, template_id, name, status, signature_sha256, printed_name, completed_at from tasks
     where client_id = any($1::uuid[]) or name like $2 or id = any($3::uuid[])`,
    [loadClientIds, like, log.completes.map((complete) => complete.taskId)],
  );
  const schedules = await instance.query<{ client_id: string; template_id: string }>(
    "select client_id, template_id from recurring_schedules where client_id = any($1::uuid[])",
    [loadClientIds],
  );
  const ackedIds = [
    ...log.clients.map((c) => c.id),
    ...log.tasks.map((t) => t.id),
    ...log.completes.map((c) => c.taskId),
  ];
  const events = await instance.query<{ entity_id: string; action: string }>(
    "select entity_id, action from audit_events where entity_id = any($1::uuid[])",
    [ackedIds],
  );
  const hasEvent = new Set(events.map((event) => `${event.action} ${event.entity_id}`));
  const tasksById = new Map(taskRows.map((task) => [task.id, task]));
  const contactsOf = groupBy(contacts, (contact) => contact.client_id);
  const tasksOf = groupBy(taskRows, (task) => task.client_id);
  const schedulesOf = groupBy(schedules, (schedule) => schedule.client_id);

  /** What a client of the load lacks (or has too much of) against the create's promise; empty when whole. */
  const faultsOf = (client: { id: string; name: string }): string[] => {
    const faults: string[] = [];
    const own = contactsOf.get(client.id) ?? [];
    const primary = own.filter((contact) => contact.is_primary && contact.name === contactNameOf(client.name));
    if (own.length !== 1 || primary.length !== 1)
      faults.push(`${own.length} contacts, ${primary.length} the primary one sent`);
    const clientTasks = tasksOf.get(client.id) ?? [];
    for (const template of templates) {
      const made = clientTasks.filter((task) => task.template_id === template.id).length;
      if (made !== 1) faults.push(`${made} tasks from template ${template.id}`);
      if (
        template.frequency !== null &&
        !(schedulesOf.get(client.id) ?? []).some((s) => s.template_id === template.id)
      ) {
        faults.push(`no schedule for recurring template ${template.id}`);
      }
    }
    return faults;
  };

  const lost: string[] = [];
  const existing = new Map(loadClients.map((client) => [client.id, client]));
  for (const ack of log.clients) {
    const client = existing.get(ack.id);
    if (!client) {
      lost.push(`client ${ack.id} is gone`);
      continue;
    }
    const faults = faultsOf(client);
    if (!(contactsOf.get(ack.id) ?? []).some((contact) => contact.id === ack.contactId))
      faults.push("its contact is gone");
    for (const taskId of ack.taskIds)
      if (tasksById.get(taskId)?.client_id !== ack.id) faults.push(`its task ${taskId} is gone`);
    if (ack.taskIds.length !== templates.length) faults.push(`the answer listed ${ack.taskIds.length} tasks`);
    if (!hasEvent.has(`client.created ${ack.id}`)) faults.push("no client.created event");
    if (faults.length > 0) lost.push(`client ${ack.id}: ${faults.join(", ")}`);
  }
  for (const ack of log.tasks) {
    const task = tasksById.get(ack.id);
    if (!task || task.client_id !== ack.clientId || task.name !== ack.name)
      lost.push(`task ${ack.id} is gone or changed`);
    else if (!hasEvent.has(`task.created ${ack.id}`)) lost.push(`task ${ack.id}: no task.created event`);
  }
  const completedAcked = new Set(log.completes.map((complete) => complete.taskId));
  for (const ack of log.completes) {
    const task = tasksById.get(ack.taskId);
    const signed =
      task?.status === "completed" &&
      task.completed_at !== null &&
      task.signature_sha256 === ack.sha256 &&
      task.printed_name === ack.printedName;
    if (!signed) {
      lost.push(`sign-off of task ${ack.taskId} is gone or changed (status ${task?.status})`);
    } else if (!hasEvent.has(`task.completed ${ack.taskId}`)) lost.push(`task ${ack.taskId}: no task.completed event`);
  }

  const halfCreated = loadClients.flatMap((client) => {
    const faults = faultsOf(client);
    return faults.length === 0 ? [] : [`${client.name} (${client.id}): ${faults.join(", ")}`];
  });

  const ackedClients = new Set(log.clients.map((client) => client.id));
  const ackedTasks = new Set(log.tasks.map((task) => task.id));
  const completedUnacked = taskRows
    .filter(
      (task) =>
        task.status === "completed" &&
        task.printed_name?.startsWith(`${runTag} signer `) &&
        !completedAcked.has(task.id),
    )
    .map((task) => task.id);
  const committedUnacked: Record<Kind, number> = {
    client: loadClients.filter((client) => !ackedClients.has(client.id)).length,
    task: taskRows.filter((task) => task.name.startsWith(`${runTag} task `) && !ackedTasks.has(task.id)).length,
    complete: completedUnacked.length,
  };

  const mismatches = await instance.query<{ mismatch: string }>(keptCountMismatchesSql);
  const [counted] = await instance.query<{ n: number }>("select count(*)::int as n from clients");
  return {
    lost,
    halfCreated,
    countMismatches: mismatches.map((row) => row.mismatch),
    loadClients: loadClients.length,
    countedClients: counted?.n ?? 0,
    committedUnacked,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runFaultScript(() => killUnderLoad());
