import fs from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import { demoLogins, demoPassword } from "../src/server/seed/demo-seed";
import { startApp } from "../tests/app-process";
import { makeTempDir } from "../tests/temp-dir";

/*
 * Throughput and latency of the API as `npm start` runs it: the whole app process on its
 * embedded PostgreSQL with the demo firm, driven over real HTTP by autocannon on the same machine.
 * Run: npm run bench (about a minute). The numbers in the README come from here.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

type Case = {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  connections: number;
  signedIn: boolean;
};

const cases: Case[] = [
  {
    name: "GET /api/health (one database round trip)",
    method: "GET",
    path: "/api/health",
    connections: 10,
    signedIn: false,
  },
  {
    name: "GET /api/auth/me (session lookup + user and firm)",
    method: "GET",
    path: "/api/auth/me",
    connections: 10,
    signedIn: true,
  },
  {
    name: "GET /api/users (session lookup + the firm's users)",
    method: "GET",
    path: "/api/users",
    connections: 10,
    signedIn: true,
  },
  {
    name: "POST /api/auth/login (argon2id verification, new session)",
    method: "POST",
    path: "/api/auth/login",
    body: { username: demoLogins[1].username, password: demoPassword },
    connections: 4,
    signedIn: false,
  },
];

const dataDir = makeTempDir();
// The general rate limit would answer most of these requests 429 within the first second.
const app = await startApp({
  DATA_DIR: dataDir,
  NODE_ENV: "production",
  SEED_DEMO_DATA: "true",
  RATE_LIMIT_PER_MINUTE: "1000000",
});
try {
  const origin = new URL(app.baseUrl).origin;
  const signIn = await fetch(`${app.baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ username: demoLogins[0].username, password: demoPassword }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";

  const rows: string[] = [];
  const load = (bench: Case, duration: number) =>
    autocannon({
      url: `${app.baseUrl}${bench.path}`,
      method: bench.method,
      connections: bench.connections,
      duration,
      headers: {
        origin,
        ...(bench.signedIn ? { cookie } : {}),
        ...(bench.body ? { "content-type": "application/json" } : {}),
      },
      ...(bench.body ? { body: JSON.stringify(bench.body) } : {}),
    });
  for (const bench of cases) {
    await load(bench, 2); // warm-up: compiled code paths and a full connection pool
    const result = await load(bench, seconds);
    const failures = result.non2xx + result.errors + result.timeouts;
    if (failures > 0)
      throw new Error(
        `${bench.name}: ${failures} of ${result.requests.total} requests failed: ${JSON.stringify(result.statusCodeStats)} errors ${result.errors} timeouts ${result.timeouts}`,
      );
    rows.push(
      `| ${bench.name} | ${bench.connections} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} |`,
    );
  }
  console.log(
    `\n${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, ${seconds} s a case\n`,
  );
  console.log("| request | connections | requests/s | p50 ms | p99 ms |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
} finally {
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
