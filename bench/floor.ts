import { createHash } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { clientHealth, type TaskCounts } from "../src/shared/clients";
import { taskStatus } from "../src/shared/tasks";
import { libraryAsSeenBy } from "../src/shared/templates";
import { floorStatements } from "./floor-statements";

/*
 * The floor of the API benchmark: the fastest honest server for the routes `npm run bench`
 * drives. A bare node:http server, no framework, no hooks, no validation: it looks the session up
 * by the cookie token's SHA-256 in the cookie's firm, applies the same timeouts, then runs the route's query, all as
 * prepared statements through `pg`, and answers the same JSON as Tendwell. It connects as the
 * app's own role, as Tendwell does, each connection set to act for the request's firm, so the
 * database does the same work for both: the same statements under the same row-level security. Tendwell's throughput
 * is reported as a ratio to this one's, measured in the same run against the same database, so
 * the number says what the framework, security headers, guards and schemas cost on top of SQL.
 *
 * Every read route the benchmark covers is answered here too, with the SQL Tendwell sends; the
 * pure rules both must apply (client health, derived task status) come from src/shared.
 * Run by bench/api.bench.ts: DATABASE_URL=<the app role's URL> PORT=0 tsx bench/floor.ts
 */

const IDLE_MS = 120 * 60_000; // SESSION_IDLE_MINUTES' default, as the benchmarked app runs
const TOUCH_INTERVAL_MS = 60_000;

/** A floor statement, named floor_* so that PostgreSQL's views tell it from Tendwell's. */
const statement = (name: keyof typeof floorStatements) => ({ name: `floor_${name}`, text: floorStatements[name] });
const statements = {
  health: statement("health_check"),
  session: statement("session_by_token"),
  touch: statement("session_touch"),
  users: statement("users_of_firm"),
  me: statement("current_user_by_id"),
  clientsPage: statement("clients_page"),
  taskCounts: statement("task_counts_of_clients"),
  clientById: statement("client_by_id"),
  contactsOfClient: statement("contacts_of_client"),
  tasksOfClient: statement("tasks_of_client"),
  teamOfClient: statement("team_of_client"),
  dashboard: statement("dashboard_counts"),
  overdue: statement("overdue_tasks"),
  tasksPage: statement("tasks_page"),
  templates: statement("templates_of_firm"),
  libraryMarks: statement("library_marks_of_firm"),
  firm: statement("firm_by_id"),
};

type Session = { userId: string; firmId: string };
type Route = (session: Session, params: Record<string, string>) => Promise<unknown>;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

/** The firm each connection was last set to act for; a connection is set again only for another firm. */
const firmOfConnection = new WeakMap<pg.PoolClient, string>();
const setFirm = { name: "floor_set_firm", text: "select set_config('tendwell.firm_id', $1, false)" };

/** One statement on a connection acting for `firmId`, so row-level security shows it that firm's rows. */
function query(firmId: string, config: pg.QueryArrayConfig): Promise<pg.QueryArrayResult>;
function query<R extends pg.QueryResultRow = pg.QueryResultRow>(
  firmId: string,
  config: pg.QueryConfig,
): Promise<pg.QueryResult<R>>;
async function query(firmId: string, config: pg.QueryConfig | pg.QueryArrayConfig) {
  const client = await pool.connect();
  try {
    if (firmOfConnection.get(client) !== firmId) {
      await client.query({ ...setFirm, values: [firmId] });
      firmOfConnection.set(client, firmId);
    }
    const result = await client.query(config);
    client.release();
    return result;
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
}

async function findSession(cookieHeader: string | undefined): Promise<Session | undefined> {
  const cookie = /(?:^|;\s*)tendwell_session=([^;]+)/.exec(cookieHeader ?? "")?.[1] ?? "";
  const dot = cookie.indexOf(".");
  if (dot < 0) return undefined;
  const tokenHash = createHash("sha256")
    .update(cookie.slice(dot + 1))
    .digest("hex");
  const cookieFirmId = cookie.slice(0, dot);
  if (!uuid.test(cookieFirmId)) return undefined;
  const values = [tokenHash, cookieFirmId];
  const { rows } = await query(cookieFirmId, { ...statements.session, values, rowMode: "array" });
  const row = rows[0];
  if (!row) return undefined;
  const [id, userId, firmId, lastSeenAt, expiresAt, , , disabledAt, stage, secondFactorDueAt] = row as [
    string,
    string,
    string,
    Date,
    Date,
    string,
    string,
    Date | null,
    string,
    Date | null,
  ];
  const now = new Date();
  const idleFor = now.getTime() - lastSeenAt.getTime();
  if (disabledAt !== null || now >= expiresAt || idleFor >= IDLE_MS) return undefined;
  // A sign-in waiting for its second factor is no session (the benchmark's never are).
  if (stage !== "active" || (secondFactorDueAt !== null && secondFactorDueAt <= now)) return undefined;
  if (idleFor >= TOUCH_INTERVAL_MS) await query(firmId, { ...statements.touch, values: [now, id] });
  return { userId, firmId };
}

type Row = Record<string, unknown> & { created_at: Date };
/** Where a signed task's signature image is, as Tendwell's answers give it. */
const signaturePath = (id: string, sha256: string | null) =>
  sha256 === null ? null : `/api/tasks/${id}/signature?v=${sha256}`;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : null);

function clientSummary(row: Row, counts: TaskCounts) {
  return {
    id: row.id,
    name: row.name,
    industry: row.industry,
    address: row.address,
    phone: row.phone,
    email: row.email,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    archivedAt: iso(row.archived_at),
    taskCounts: counts,
    health: clientHealth(counts),
  };
}

const routes: Record<string, Route> = {
  "/api/health": async () => {
    await pool.query(statements.health);
    return { status: "ok", database: "ok" };
  },
  "/api/users": async (session) => {
    const { rows } = await query(session.firmId, { ...statements.users, values: [session.firmId] });
    return rows.map((user) => ({
      id: user.id,
      username: user.username,
      fullName: user.full_name,
      email: user.email,
      role: user.role,
      disabled: user.disabled_at !== null,
      createdAt: user.created_at.toISOString(),
      version: user.version,
    }));
  },
  "/api/auth/me": async (session) => {
    const { rows } = await query(session.firmId, {
      ...statements.me,
      values: [session.userId, session.firmId],
      rowMode: "array",
    });
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row[0],
      username: row[1],
      fullName: row[2],
      email: row[3],
      role: row[4],
      firm: { id: row[5], name: row[6], plan: row[7], trialEndsAt: row[8].toISOString(), subscriptionStatus: row[9] },
    };
  },
  // A page of the client list, as the screens ask for it (?limit=N), with each client's task counts.
  "/api/clients": async (session, { limit }) => {
    const page = Number(limit);
    const { rows } = await query<Row>(session.firmId, {
      ...statements.clientsPage,
      values: [session.firmId, false, null, null, null, null, null, page + 1],
    });
    const shown = rows.slice(0, page);
    const now = new Date();
    const { rows: counted } = await query(session.firmId, {
      ...statements.taskCounts,
      values: [now, session.firmId, shown.map((row) => row.id)],
      rowMode: "array",
    });
    const counts = new Map(
      counted.map(([clientId, total, completed, overdue]) => [
        clientId,
        { total, pending: total - completed - overdue, overdue, completed },
      ]),
    );
    return shown.map((row) =>
      clientSummary(row, counts.get(row.id) ?? { total: 0, pending: 0, overdue: 0, completed: 0 }),
    );
  },
  "/api/clients/:id": async (session, { id }) => {
    const [client, contacts, tasks, team] = await Promise.all([
      query<Row>(session.firmId, { ...statements.clientById, values: [session.firmId, id, null, null] }),
      query<Row>(session.firmId, { ...statements.contactsOfClient, values: [session.firmId, id] }),
      query(session.firmId, { ...statements.tasksOfClient, values: [session.firmId, id], rowMode: "array" }),
      query<Row>(session.firmId, { ...statements.teamOfClient, values: [session.firmId, id] }),
    ]);
    const row = client.rows[0];
    if (!row) return undefined;
    const now = new Date();
    const counts = { total: tasks.rows.length, pending: 0, overdue: 0, completed: 0 };
    const clientTasks = tasks.rows.map((task) => {
      const status = taskStatus({ status: task[6], dueDate: task[7] }, now);
      counts[status] += 1;
      return {
        id: task[0],
        clientId: task[1],
        templateId: task[2],
        name: task[3],
        description: task[4],
        priority: task[5],
        status,
        dueDate: iso(task[7]),
        createdAt: task[8].toISOString(),
        completedAt: iso(task[9]),
        completedBy: task[10],
        completedByUser:
          task[10] && task[14] !== null ? { id: task[10], fullName: task[14], username: task[15] } : null,
        printedName: task[11],
        signature: signaturePath(task[0], task[12]),
        signatureSha256: task[12],
        version: task[13],
      };
    });
    return {
      ...clientSummary(row, counts),
      fiscalYearEnd: row.fiscal_year_end,
      entityType: row.entity_type,
      jurisdiction: row.jurisdiction,
      state: row.state,
      version: row.version,
      contacts: contacts.rows.map((contact) => ({
        id: contact.id,
        clientId: contact.client_id,
        name: contact.name,
        title: contact.title,
        phone: contact.phone,
        email: contact.email,
        isPrimary: contact.is_primary,
        createdAt: contact.created_at.toISOString(),
        version: contact.version,
      })),
      tasks: clientTasks,
      team: team.rows.map((user) => ({
        id: user.id,
        username: user.username,
        fullName: user.full_name,
        role: user.role,
      })),
    };
  },
  "/api/dashboard": async (session) => {
    const { rows } = await query(session.firmId, { ...statements.dashboard, values: [session.firmId, new Date()] });
    const row = rows[0];
    if (!row) return undefined;
    return {
      clients: {
        total: row.clients_total,
        active: row.clients_active,
        inactive: row.clients_inactive,
        prospect: row.clients_prospect,
        withOverdueTasks: row.clients_with_overdue,
      },
      tasks: {
        total: row.tasks_total,
        pending: row.tasks_pending,
        overdue: row.tasks_overdue,
        completed: row.tasks_completed,
      },
    };
  },
  "/api/tasks": async (session, { limit = "" }) => {
    // The first page of the audit list, as Tendwell asks for it without a cursor or filters.
    const now = new Date();
    const lowest = ["-infinity", "-infinity"];
    const before = ["infinity", "infinity", "infinity", "ffffffff-ffff-ffff-ffff-ffffffffffff"];
    const filters = [null, null, null, now, null, now];
    const { rows } = await query(session.firmId, {
      ...statements.tasksPage,
      values: [session.firmId, ...lowest, ...before, ...filters, Number(limit) + 1],
      rowMode: "array",
    });
    return rows.slice(0, Number(limit)).map((task) => ({
      id: task[0],
      clientId: task[1],
      templateId: task[2],
      name: task[3],
      description: task[4],
      priority: task[5],
      status: taskStatus({ status: task[6], dueDate: task[7] }, now),
      dueDate: iso(task[7]),
      createdAt: task[8].toISOString(),
      completedAt: iso(task[9]),
      completedBy: task[10],
      completedByUser: task[10] && task[15] !== null ? { id: task[10], fullName: task[15], username: task[16] } : null,
      printedName: task[11],
      signature: signaturePath(task[0], task[12]),
      signatureSha256: task[12],
      version: task[13],
      clientName: task[14],
    }));
  },
  "/api/tasks/overdue": async (session) => {
    const now = new Date();
    const { rows } = await query(session.firmId, {
      ...statements.overdue,
      values: [session.firmId, now, null, null, null],
      rowMode: "array",
    });
    return rows.map((task) => ({
      id: task[0],
      clientId: task[1],
      templateId: task[2],
      name: task[3],
      description: task[4],
      priority: task[5],
      status: taskStatus({ status: "pending", dueDate: task[6] }, now),
      dueDate: iso(task[6]),
      createdAt: task[7].toISOString(),
      completedAt: null,
      completedBy: null,
      completedByUser: null,
      printedName: null,
      signature: null,
      signatureSha256: null,
      version: task[8],
      clientName: task[9],
    }));
  },
  "/api/task-templates": async (session) => {
    const { rows } = await query<Row>(session.firmId, { ...statements.templates, values: [session.firmId] });
    return rows.map((template) => ({
      id: template.id,
      name: template.name,
      description: template.description,
      priority: template.priority,
      isRecurring: template.is_recurring,
      frequency: template.frequency,
      createdBy: template.created_by,
      createdAt: template.created_at.toISOString(),
      libraryKey: template.library_key,
      dueDateRule: template.due_date_rule,
      version: template.version,
    }));
  },
  "/api/template-library": async (session) => {
    const { rows } = await query(session.firmId, {
      ...statements.libraryMarks,
      values: [session.firmId],
      rowMode: "array",
    });
    return libraryAsSeenBy(rows.map(([libraryKey, name]) => ({ libraryKey, name })));
  },
  "/api/firm": async (session) => {
    const { rows } = await query<Row>(session.firmId, { ...statements.firm, values: [session.firmId] });
    const firm = rows[0];
    return (
      firm && {
        id: firm.id,
        name: firm.name,
        plan: firm.plan,
        trialEndsAt: (firm.trial_ends_at as Date).toISOString(),
        subscriptionStatus: firm.subscription_status,
        timeZone: firm.time_zone,
        internalTargetDays: firm.internal_target_days,
        closedDays: firm.closed_days,
        version: firm.version,
      }
    );
  },
};
const publicRoutes = new Set(["/api/health"]);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The route a URL names and its parameters: an id in the path, or the list's limit. */
function match(url: string): { route: Route; params: Record<string, string> } | undefined {
  const [path = "", query = ""] = url.split("?");
  const exact = routes[path];
  if (exact) return { route: exact, params: Object.fromEntries(new URLSearchParams(query)) };
  const id = path.startsWith("/api/clients/") ? path.slice("/api/clients/".length) : "";
  const byId = routes["/api/clients/:id"];
  return uuid.test(id) && byId ? { route: byId, params: { id } } : undefined;
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
  });
  response.end(json);
}

const server = http.createServer(async (request, response) => {
  const found = request.method === "GET" ? match(request.url ?? "") : undefined;
  if (!found) return send(response, 404, { message: "Not found", code: "NOT_FOUND" });
  try {
    const isPublic = publicRoutes.has(request.url ?? "");
    const session = isPublic ? undefined : await findSession(request.headers.cookie);
    if (!session && !isPublic) {
      return send(response, 401, { message: "Please sign in to continue", code: "UNAUTHENTICATED" });
    }
    const body = await found.route(session as Session, found.params);
    if (body === undefined) return send(response, 404, { message: "Not found", code: "NOT_FOUND" });
    send(response, 200, body);
  } catch (error) {
    console.error(error);
    send(response, 500, { message: "Something went wrong on our side", code: "INTERNAL" });
  }
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(`floor listening on http://localhost:${address.port}`);
});
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
