import { createHash } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { floorStatements } from "./floor-statements";

/*
 * The floor of the API benchmark: the fastest honest server for the routes `npm run bench`
 * drives. A bare node:http server, no framework, no hooks, no validation: it looks the session up
 * by the cookie token's SHA-256, applies the same timeouts, then runs the route's query, all as
 * prepared statements through `pg`, and answers the same JSON as Tendwell. Tendwell's throughput
 * is reported as a ratio to this one's, measured in the same run against the same database, so
 * the number says what the framework, security headers, guards and schemas cost on top of SQL.
 *
 * Every read route the benchmark covers is answered here too, with the SQL Tendwell sends.
 * Run by bench/api.bench.ts: DATABASE_URL=... PORT=0 tsx bench/floor.ts
 */

const IDLE_MS = 120 * 60_000; // SESSION_IDLE_MINUTES' default, as the benchmarked app runs
const TOUCH_INTERVAL_MS = 60_000;

/** A floor statement, named floor_* so that PostgreSQL's views tell it from Tendwell's. */
const statement = (name: keyof typeof floorStatements) => ({ name: `floor_${name}`, text: floorStatements[name] });
const statements = {
  health: statement("health_check"),
  session: statement("session_by_token_hash"),
  touch: statement("session_touch"),
  users: statement("users_of_firm"),
  me: statement("current_user_by_id"),
};

type Session = { userId: string; firmId: string };
type Route = (session: Session) => Promise<unknown>;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

async function findSession(cookieHeader: string | undefined): Promise<Session | undefined> {
  const token = /(?:^|;\s*)tendwell_session=([^;]+)/.exec(cookieHeader ?? "")?.[1];
  if (!token) return undefined;
  const tokenHash = createHash("sha256").update(token).digest("hex");
  const { rows } = await pool.query({ ...statements.session, values: [tokenHash], rowMode: "array" });
  const row = rows[0];
  if (!row) return undefined;
  const [id, userId, firmId, lastSeenAt, expiresAt, , , disabledAt] = row as [
    string,
    string,
    string,
    Date,
    Date,
    string,
    string,
    Date | null,
  ];
  const now = new Date();
  const idleFor = now.getTime() - lastSeenAt.getTime();
  if (disabledAt !== null || now >= expiresAt || idleFor >= IDLE_MS) return undefined;
  if (idleFor >= TOUCH_INTERVAL_MS) await pool.query({ ...statements.touch, values: [now, id] });
  return { userId, firmId };
}

const routes: Record<string, Route | (() => Promise<unknown>)> = {
  "/api/health": async () => {
    await pool.query(statements.health);
    return { status: "ok", database: "ok" };
  },
  "/api/users": async (session: Session) => {
    const { rows } = await pool.query({ ...statements.users, values: [session.firmId] });
    return rows.map((user) => ({
      id: user.id,
      username: user.username,
      fullName: user.full_name,
      email: user.email,
      role: user.role,
      disabled: user.disabled_at !== null,
      createdAt: user.created_at.toISOString(),
    }));
  },
  "/api/auth/me": async (session: Session) => {
    const { rows } = await pool.query({ ...statements.me, values: [session.userId, session.firmId], rowMode: "array" });
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
};
const publicRoutes = new Set(["/api/health"]);

function send(response: http.ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
  });
  response.end(json);
}

const server = http.createServer(async (request, response) => {
  const route = request.method === "GET" ? routes[request.url ?? ""] : undefined;
  if (!route) return send(response, 404, { message: "Not found", code: "NOT_FOUND" });
  try {
    const session = publicRoutes.has(request.url ?? "") ? undefined : await findSession(request.headers.cookie);
    if (!session && !publicRoutes.has(request.url ?? "")) {
      return send(response, 401, { message: "Please sign in to continue", code: "UNAUTHENTICATED" });
    }
    const body = await route(session as Session);
    if (body === undefined)
      return send(response, 401, { message: "Please sign in to continue", code: "UNAUTHENTICATED" });
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
