import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "../../../../tests/log-capture";
import { createTestDatabase } from "../../../../tests/test-database";
import { isDatabaseUnreachable, unreachableCause, watchDatabaseAvailability } from "./availability";

/*
 * The errors here are real ones, made by node-postgres, its pool, Drizzle and PostgreSQL against
 * real sockets: a closed port, a missing Unix socket, a server that accepts and never answers, one
 * that hangs up at once, and the test database itself.
 */

const failureOf = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
};

/** A TCP server on 127.0.0.1 that does `onSocket` with every connection. */
async function tcpServer(onSocket: (socket: net.Socket) => void) {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return { port, close };
}

const errorWithCode = (code: string, message = `PostgreSQL says ${code}`) =>
  Object.assign(new Error(message), { code });

const clientOptions = { user: "postgres", database: "postgres", password: "unused" };
const missingSocketDir = path.join(os.tmpdir(), "tendwell-no-such-socket-dir");

describe("which errors mean the database is unreachable", () => {
  let url = "";
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase());
  });
  afterAll(() => drop());

  it("S-OUTAGE-03 a refused connection (ECONNREFUSED) is unreachable", async () => {
    const closed = await tcpServer(() => {});
    await closed.close();
    const error = await failureOf(() =>
      new pg.Client({ host: "127.0.0.1", port: closed.port, ...clientOptions }).connect(),
    );
    expect((error as { code?: string }).code).toBe("ECONNREFUSED");
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("S-OUTAGE-03 a Unix socket that is not there (ENOENT on connect) is unreachable; another ENOENT is not", async () => {
    const error = await failureOf(() => new pg.Client({ host: missingSocketDir, ...clientOptions }).connect());
    expect(error).toMatchObject({ code: "ENOENT", syscall: "connect" });
    expect(isDatabaseUnreachable(error)).toBe(true);
    const missingFile = await failureOf(async () => fs.readFileSync(path.join(missingSocketDir, "file")));
    expect(missingFile).toMatchObject({ code: "ENOENT" });
    expect(isDatabaseUnreachable(missingFile)).toBe(false);
  });

  it("S-OUTAGE-03 a server that accepts and never answers: the pool's connect times out", async () => {
    const silent = await tcpServer(() => {});
    const pool = new pg.Pool({ host: "127.0.0.1", port: silent.port, ...clientOptions, connectionTimeoutMillis: 200 });
    try {
      const error = await failureOf(() => pool.query("select 1"));
      expect((error as Error).message).toBe("Connection terminated due to connection timeout");
      expect(isDatabaseUnreachable(error)).toBe(true);
    } finally {
      await pool.end();
      await silent.close();
    }
  });

  it("S-OUTAGE-03 every connection of the pool busy past its connect timeout: 'timeout exceeded when trying to connect'", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 200 });
    const held = await pool.connect();
    try {
      const error = await failureOf(() => pool.query("select 1"));
      expect((error as Error).message).toBe("timeout exceeded when trying to connect");
      expect(isDatabaseUnreachable(error)).toBe(true);
    } finally {
      held.release();
      await pool.end();
    }
  });

  it("S-OUTAGE-03 a server that hangs up at once: 'Connection terminated unexpectedly'", async () => {
    const hangUp = await tcpServer((socket) => socket.destroy());
    try {
      const error = await failureOf(() =>
        new pg.Client({ host: "127.0.0.1", port: hangUp.port, ...clientOptions }).connect(),
      );
      expect((error as Error).message).toBe("Connection terminated unexpectedly");
      expect(isDatabaseUnreachable(error)).toBe(true);
    } finally {
      await hangUp.close();
    }
  });

  it("S-OUTAGE-03 a session PostgreSQL terminates (57P01 admin_shutdown), and the next query on it", async () => {
    const victim = new pg.Client({ connectionString: url });
    const admin = new pg.Client({ connectionString: url });
    await victim.connect();
    await admin.connect();
    try {
      // The client emits 'error' twice, for the termination and then for its closed socket: the
      // listener stays so that the second is heard too; the first is the one looked at.
      const lost = new Promise<Error>((resolve) => victim.on("error", resolve));
      const [{ pid }] = (await victim.query<{ pid: number }>("select pg_backend_pid() as pid")).rows as [
        { pid: number },
      ];
      await admin.query("select pg_terminate_backend($1)", [pid]);
      const error = await lost;
      expect(error).toMatchObject({ code: "57P01" });
      expect(isDatabaseUnreachable(error)).toBe(true);
      const next = await failureOf(() => victim.query("select 1"));
      expect(isDatabaseUnreachable(next)).toBe(true);
    } finally {
      await victim.end().catch(() => {});
      await admin.end();
    }
  });

  it("S-OUTAGE-03 Drizzle's wrapped error is followed to its cause", async () => {
    const pool = new pg.Pool({ host: missingSocketDir, ...clientOptions });
    try {
      const error = await failureOf(() => drizzle(pool).execute(sql`select 1`));
      expect(error).not.toMatchObject({ code: "ENOENT" });
      expect(unreachableCause(error)).toMatchObject({ code: "ENOENT", syscall: "connect" });
    } finally {
      await pool.end();
    }
  });

  it("S-OUTAGE-03 PostgreSQL's 57P02, 57P03 and class 08, ECONNRESET, and causes and aggregates at any depth", () => {
    for (const code of ["57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "08P01", "ECONNRESET"]) {
      expect(isDatabaseUnreachable(errorWithCode(code)), code).toBe(true);
    }
    const deep = new Error("outer", { cause: new Error("middle", { cause: errorWithCode("57P03") }) });
    expect(unreachableCause(deep)).toMatchObject({ code: "57P03" });
    const aggregate = new AggregateError([errorWithCode("ECONNREFUSED"), errorWithCode("ECONNREFUSED")], "");
    expect(isDatabaseUnreachable(new Error("wrapped", { cause: aggregate }))).toBe(true);
  });

  it("S-OUTAGE-03 a query bug, a constraint, a missing database and anything else are not", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const syntax = await failureOf(() => drizzle(pool).execute(sql`selec 1`));
      expect(unreachableCause(syntax)).toBeUndefined();
      const divisionByZero = await failureOf(() => pool.query("select 1 / (random() * 0)::int"));
      expect(divisionByZero).toMatchObject({ code: "22012" });
      expect(isDatabaseUnreachable(divisionByZero)).toBe(false);
    } finally {
      await pool.end();
    }
    const missing = new URL(url);
    missing.pathname = "/tendwell_no_such_database";
    const noDatabase = await failureOf(() => new pg.Client({ connectionString: missing.toString() }).connect());
    expect(noDatabase).toMatchObject({ code: "3D000" });
    expect(isDatabaseUnreachable(noDatabase)).toBe(false);
    const cyclic = new Error("cyclic");
    cyclic.cause = cyclic;
    for (const other of [
      new Error("boom"),
      cyclic,
      errorWithCode("23505", "duplicate key value violates unique constraint"),
      "a string",
      null,
      undefined,
      42,
    ]) {
      expect(isDatabaseUnreachable(other)).toBe(false);
    }
  });
});

/**
 * A TCP stand-in for the test database's server that can be taken away and brought back: while
 * down it refuses connections and has cut the open ones, as a stopped server does.
 */
async function switchableProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const socketDir = target.searchParams.get("host");
  const connectTarget = () =>
    socketDir
      ? net.connect({ path: path.join(socketDir, `.s.PGSQL.${target.port || 5432}`) })
      : net.connect({ host: target.hostname, port: Number(target.port || 5432) });
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = connectTarget();
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => open.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) =>
      server.listen(port, "127.0.0.1", () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      }),
    );
  await listen();
  const proxied = new URL(databaseUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(port);
  proxied.searchParams.delete("host");
  return {
    url: proxied.toString(),
    down: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of open) socket.destroy();
      await closed;
    },
    up: listen,
  };
}

const waitFor = async (condition: () => boolean) => {
  for (let waited = 0; !condition() && waited < 5_000; waited += 20) await sleep(20);
};

describe("the availability tracker", () => {
  let url = "";
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase());
  });
  afterAll(() => drop());

  it("S-OUTAGE-03 warns once when the database goes, however many failures, and once when it returns", async () => {
    const { lines, logger } = captureLogs("warn");
    const proxy = await switchableProxy(url);
    const pool = new pg.Pool({ connectionString: proxy.url, max: 3 });
    pool.on("error", () => {}); // what connectDatabase does: an idle connection lost must not crash
    const availability = watchDatabaseAvailability({ pool, log: logger, probeIntervalMs: 50 });
    try {
      await Promise.all([pool.query("select 1"), pool.query("select 1"), pool.query("select 1")]);
      await proxy.down();
      for (let i = 0; i < 5; i++) {
        const error = await failureOf(() => pool.query("select 1"));
        expect(availability.reportFailure(error)).toBe(true);
      }
      expect(availability.reportFailure(new Error("a bug"))).toBe(false);
      await waitFor(() => !availability.reachable);
      expect(availability.reachable).toBe(false);
      await proxy.up();
      await waitFor(() => availability.reachable);
      expect(availability.reachable).toBe(true);
      expect(lines.map((line) => [line.level, line.msg])).toEqual([
        [40, expect.stringMatching(/^database unreachable: /)],
        [40, expect.stringMatching(/^database reachable again after \d+\.\d s$/)],
      ]);
      await pool.query("select 1");
    } finally {
      availability.stop();
      await pool.end();
      await proxy.down();
    }
  });

  it("S-OUTAGE-03 one session PostgreSQL ends, or a failure from elsewhere, is no outage: its check succeeds", async () => {
    const { lines, logger } = captureLogs("warn");
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on("error", () => {});
    const availability = watchDatabaseAvailability({ pool, log: logger, probeIntervalMs: 50 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const [{ pid }] = (await pool.query<{ pid: number }>("select pg_backend_pid() as pid")).rows as [{ pid: number }];
      const lost = new Promise((resolve) => pool.once("error", resolve));
      await admin.query("select pg_terminate_backend($1)", [pid]);
      // The pool's 'error' event reaches the tracker, which checks the database: it answers.
      expect(isDatabaseUnreachable(await lost)).toBe(true);
      const gone = await failureOf(() => new pg.Client({ host: missingSocketDir, ...clientOptions }).connect());
      expect(availability.reportFailure(gone)).toBe(true);
      await sleep(300);
      expect(availability.reachable).toBe(true);
      expect(lines).toEqual([]);
    } finally {
      availability.stop();
      await admin.end();
      await pool.end();
    }
  });
});
