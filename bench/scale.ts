import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import { clientReportStatements } from "../src/server/features/reports/client-report.service";
import { userReportStatements } from "../src/server/features/reports/user-report.service";
import { userWorkStatements } from "../src/server/features/reports/user-work";
import { connectDatabase, type DatabaseHandle } from "../src/server/platform/db/database";
import { startEmbeddedPostgres } from "../src/server/platform/db/embedded-postgres";
import { migrateDatabase } from "../src/server/platform/db/migrate";
import { embeddedRoleUrls } from "../src/server/platform/db/roles";
import { newSealingKey } from "../src/server/platform/sealed-secrets";
import { demoLogins, demoPassword, seedDemoData } from "../src/server/seed/demo-seed";
import { seedLargeFirm } from "../src/server/seed/large-firm";
import { startApp } from "../tests/app-process";
import { indexesOf, searchPlans, sequentialScanNodes } from "../tests/query-plans";
import { makeTempDir } from "../tests/temp-dir";
import { checkOnly, failOnFigure } from "./check-mode";

/*
 * Does a firm with 10,000 clients and 1,000,000 tasks cost what a small firm costs? (Issue 7.)
 * One embedded PostgreSQL holds the demo firm (36 clients) and a large firm; the app answers the
 * same reads for both, in alternating turns, and each read is reported as the large firm's median
 * latency over the small firm's: a ratio near 1 means the request does not grow with the firm.
 * Then every read runs once more for the small firm alone, and the sequential scans of the two big
 * tables are counted: every query must be led by an index on firm_id, so for a firm that is a
 * sliver of the table there must be none (the run fails otherwise). For the large firm itself a
 * sequential scan can be the right plan (it is 99 % of the table), so only the small one is judged.
 * Run: npm run bench:scale (about fifteen minutes, most of it writing the million tasks and
 * their signatures).
 */
const CLIENTS = Number(process.env.SCALE_CLIENTS ?? 10_000);
const TASKS = Number(process.env.SCALE_TASKS ?? 1_000_000);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 30);
const watchedTables = ["clients", "tasks"];
/** What the first page of the task list may weigh as sent to a browser (decision 0035). */
const FIRST_TASK_PAGE_BUDGET = 30 * 1024;

type Firm = { label: string; cookie: string; userCookie: string; clientId: string; adminId: string; userId: string };
type Read = { path: (firm: Firm) => string; what: string; asUser?: boolean };

const dataDir = makeTempDir();
const embedded = await startEmbeddedPostgres({ dataDir });
let app: Awaited<ReturnType<typeof startApp>> | undefined;
try {
  await migrateDatabase(embedded.url);
  const database = connectDatabase({ url: embedded.url, poolSize: 2 });
  await seedDemoData(database.db);
  const started = Date.now();
  const large = await seedLargeFirm(database, { clients: CLIENTS, tasks: TASKS });
  console.error(`large firm written in ${Math.round((Date.now() - started) / 1000)} s`);
  await database.pool.query("vacuum analyze");
  const roles = await embeddedRoleUrls(embedded.url);

  app = await startApp({
    // As production runs: the app's own role, row-level security and all (decision 0033).
    DATABASE_URL: roles.app,
    DATABASE_OWNER_URL: roles.owner,
    NODE_ENV: "production",
    MFA_ENCRYPTION_KEY: newSealingKey().text,
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "1000000",
  });
  const baseUrl = app.baseUrl;
  const origin = new URL(baseUrl).origin;
  const signIn = async (username: string, password: string) => {
    const response = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ username, password }),
    });
    if (!response.ok) throw new Error(`sign-in of ${username} failed: ${response.status} ${await response.text()}`);
    return response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  };
  const get = async (path: string, cookie: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
    const body = await response.text();
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body}`);
    return { body, next: response.headers.get("x-next-cursor") };
  };
  // What an answer weighs on the wire to a browser: Chromium asks for these encodings, and the
  // app compresses a JSON answer over 1 KB (decision 0022).
  const sentBytes = (path: string, cookie: string) =>
    new Promise<number>((resolve, reject) => {
      const request = http.get(
        `${baseUrl}${path}`,
        { headers: { cookie, "accept-encoding": "gzip, deflate, br, zstd" } },
        (response) => {
          let bytes = 0;
          response.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on("end", () => resolve(bytes));
          response.on("error", reject);
        },
      );
      request.on("error", reject);
    });
  const busiestClient = async (cookie: string) => {
    const list = JSON.parse((await get("/api/clients?limit=500", cookie)).body) as {
      id: string;
      taskCounts: { total: number };
    }[];
    return [...list].sort((a, b) => b.taskCounts.total - a.taskCounts.total)[0]?.id ?? "";
  };
  const idOf = async (cookie: string) => (JSON.parse((await get("/api/auth/me", cookie)).body) as { id: string }).id;
  const small: Firm = {
    label: "demo",
    cookie: await signIn(demoLogins[0].username, demoPassword),
    userCookie: await signIn(demoLogins[2].username, demoPassword),
    clientId: "",
    adminId: "",
    userId: "",
  };
  small.clientId = await busiestClient(small.cookie);
  small.adminId = await idOf(small.cookie);
  small.userId = await idOf(small.userCookie);
  const big: Firm = {
    label: "large",
    cookie: await signIn(large.superAdmin.username, large.superAdmin.password),
    userCookie: await signIn(large.user.username, large.user.password),
    clientId: await busiestClient(await signIn(large.superAdmin.username, large.superAdmin.password)),
    adminId: large.superAdmin.id,
    userId: large.user.id,
  };

  // The cursor of a page deep in each list, as a user paging far would hold it.
  const deepCursor = async (path: string, cookie: string, pages: number) => {
    let cursor: string | null = null;
    for (let page = 0; page < pages; page++) {
      const next: string | null = (await get(`${path}${cursor ? `&cursor=${cursor}` : ""}`, cookie)).next;
      if (!next) break;
      cursor = next;
    }
    return cursor ?? "";
  };
  const cursors = new Map<string, string>();
  for (const firm of [small, big]) {
    cursors.set(`${firm.label}:clients`, await deepCursor("/api/clients?limit=50", firm.cookie, 100));
    cursors.set(`${firm.label}:tasks`, await deepCursor("/api/tasks?limit=50", firm.cookie, 100));
  }
  const deep = (firm: Firm, list: string) => {
    const cursor = cursors.get(`${firm.label}:${list}`);
    return cursor ? `&cursor=${cursor}` : "";
  };

  const firstTaskPage: Read = { path: () => "/api/tasks?limit=50", what: "task audit list, first page" };
  const reads: Read[] = [
    { path: () => "/api/clients?limit=50", what: "client list, first page" },
    {
      path: (firm) => `/api/clients?limit=50${deep(firm, "clients")}`,
      what: "client list, the deepest page up to 100",
    },
    { path: () => "/api/clients?limit=50&q=health", what: "client search" },
    // The large firm's client names end in their number: 4217 names one client, and nothing is
    // called xylophone. Without an index, a rare search reads every client (decision 0040).
    { path: () => "/api/clients?limit=50&q=4217", what: "client search, one match" },
    { path: () => "/api/clients?limit=50&q=xylophone", what: "client search, no match" },
    { path: (firm) => `/api/clients/${firm.clientId}`, what: "client detail (the busiest client)" },
    { path: () => "/api/dashboard", what: "dashboard" },
    firstTaskPage,
    {
      path: (firm) => `/api/tasks?limit=50${deep(firm, "tasks")}`,
      what: "task audit list, the deepest page up to 100",
    },
    { path: () => "/api/tasks?limit=50&status=pending", what: "pending tasks" },
    { path: () => "/api/tasks?limit=50&status=overdue", what: "overdue tasks, audit list" },
    { path: () => "/api/tasks?limit=50&q=review", what: "task search" },
    { path: () => "/api/tasks?limit=50&q=4217", what: "task search by one client's name" },
    { path: () => "/api/tasks?limit=50&q=xylophone", what: "task search, no match" },
    { path: (firm) => `/api/tasks?limit=50&clientId=${firm.clientId}`, what: "one client's tasks" },
    { path: () => "/api/tasks/overdue?limit=20", what: "the bell: the 20 oldest overdue tasks and their total" },
    { path: () => "/api/clients?limit=50", what: "client list as a `user` (assigned clients)", asUser: true },
    { path: () => "/api/tasks?limit=50", what: "task audit list as a `user`", asUser: true },
    { path: () => "/api/dashboard", what: "dashboard as a `user`", asUser: true },
    // The reports (issue 9). In the large firm the super admin signed off all 600,000 completed
    // tasks, about 200,000 of them in the last 365 days: the user audit's worst case.
    {
      path: (firm) => `/api/reports/clients/${firm.clientId}?days=30`,
      what: "client report, 30 days (the busiest client)",
    },
    {
      path: (firm) => `/api/reports/clients/${firm.clientId}?days=365`,
      what: "client report, 365 days (the busiest client)",
    },
    { path: (firm) => `/api/reports/users/${firm.adminId}?days=7`, what: "user report, 7 days (the super admin)" },
    { path: (firm) => `/api/reports/users/${firm.adminId}?days=30`, what: "user report, 30 days (the super admin)" },
    { path: (firm) => `/api/reports/users/${firm.adminId}?days=90`, what: "user report, 90 days (the super admin)" },
    { path: (firm) => `/api/reports/users/${firm.adminId}?days=365`, what: "user report, 365 days (the super admin)" },
    // The profile counts a user's work as the user report does (S-EDGE-03).
    {
      path: (firm) => `/api/users/${firm.adminId}/activity?days=365`,
      what: "user profile, 365 days (the super admin)",
    },
    {
      path: (firm) => `/api/users/${firm.userId}/activity?days=30`,
      what: "user profile of oneself as a `user`, 30 days",
      asUser: true,
    },
    {
      path: (firm) => `/api/reports/users/${firm.userId}?days=90`,
      what: "user report of oneself as a `user`",
      asUser: true,
    },
  ];

  // The user report's windows (decision 0041): what the first report on a user costs (made from a
  // year of sign-offs) and what the first one of a new day costs (moved a day), timed apart from the
  // reads below, which find them made. Made as of yesterday, then moved to today.
  const windows = async (today: string) => {
    const start = performance.now();
    await database.pool.query("select user_report_windows_to($1, $2, $3::date)", [
      large.firm.id,
      large.superAdmin.id,
      today,
    ]);
    return performance.now() - start;
  };
  const [days] = (
    await database.pool.query<{ today: string; yesterday: string }>(
      `select (now() at time zone time_zone)::date::text as today, ((now() at time zone time_zone)::date - 1)::text as yesterday
       from firms where id = $1`,
      [large.firm.id],
    )
  ).rows;
  if (!days) throw new Error("no firm row for the large firm");
  const made = await windows(days.yesterday);
  const moved = await windows(days.today);
  const windowTimes = `The super admin's report windows: made from a year of sign-offs in ${made.toFixed(0)} ms, moved a day in ${moved.toFixed(1)} ms.`;
  console.error(windowTimes);

  const table: string[] = [];
  /** The large firm's first page of the task audit list as sent to a browser, in bytes. */
  let firstTaskPageSent = 0;
  for (const read of reads) {
    const timings: Record<string, number[]> = { demo: [], large: [] };
    const json = Buffer.byteLength((await get(read.path(big), cookieOf(big, read))).body);
    const sent = await sentBytes(read.path(big), cookieOf(big, read));
    if (read === firstTaskPage) firstTaskPageSent = sent;
    for (let round = 0; round < ROUNDS; round++) {
      for (const firm of round % 2 === 0 ? [small, big] : [big, small]) {
        const start = performance.now();
        await get(read.path(firm), cookieOf(firm, read));
        timings[firm.label]?.push(performance.now() - start);
      }
    }
    const s = median(timings.demo ?? []);
    const l = median(timings.large ?? []);
    const shown = read
      .path({ label: "", cookie: "", userCookie: "", clientId: "{id}", adminId: "{id}", userId: "{id}" })
      .replace(/&cursor=.*$/, "&cursor=…");
    table.push(
      `| GET ${shown} (${read.what}) | ${s.toFixed(1)} / ${p95(timings.demo ?? []).toFixed(1)} | ${l.toFixed(1)} / ${p95(timings.large ?? []).toFixed(1)} | **${(l / s).toFixed(1)}** | ${kb(json)} / ${kb(sent)} |`,
    );
    console.error(`${read.what}: done`);
  }
  // The reports' plans on the large firm (365 days, the widest range): each must be led by a
  // firm_id index, never a sequential scan of tasks.
  const plans: string[] = [];
  {
    const now = new Date();
    const [head] = (
      await database.pool.query<{
        time_zone: string;
        range_from: Date;
        first_day: string;
        today: string;
        today_from: Date;
      }>(
        `select time_zone, range_from, first_day, today, today_from from (${userReportStatements.report_user_head}) h`,
        [large.firm.id, large.superAdmin.id, now, 365],
      )
    ).rows;
    if (!head) throw new Error("no head row for the large firm's super admin");
    const range = [head.range_from, now];
    // The kept sign-offs' bounds (decision 0041): the days before today, then today.
    const kept = [large.firm.id, large.superAdmin.id, head.first_day, head.today, head.today_from, now];
    const cases: [string, unknown[]][] = [
      ["report_client_head", [large.firm.id, big.clientId, now, 365, null]],
      ["report_client_figures", [large.firm.id, big.clientId, ...range, head.time_zone, "week"]],
      ["report_client_history", [large.firm.id, big.clientId, ...range]],
      ["report_user_head", [large.firm.id, large.superAdmin.id, now, 365]],
      ["report_user_figures", [...kept, head.range_from, head.time_zone, "week"]],
      ["report_user_clients", [large.firm.id, large.superAdmin.id, 365, head.today, head.today_from, now]],
      ["report_user_clients_counted", [large.firm.id, large.superAdmin.id, ...range]],
      [
        "report_user_completions",
        [large.firm.id, large.superAdmin.id, ...range, "infinity", "ffffffff-ffff-ffff-ffff-ffffffffffff", 10],
      ],
    ];
    const workCases: [string, unknown[]][] = [
      ["user_work_signed_off", kept],
      ["user_work_tasks", [large.firm.id, large.superAdmin.id, ...range]],
      ["user_work_open", [large.firm.id, large.user.id, now]],
      ["user_work_tasks", [large.firm.id, large.user.id, ...range]],
    ];
    for (const [name, values] of [...cases, ...workCases]) {
      const { rows } = await database.pool.query<{ "QUERY PLAN": string }>(
        `explain (analyze, buffers) ${clientReportStatements[name] ?? userReportStatements[name] ?? userWorkStatements[name]}`,
        values,
      );
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      plans.push(`-- ${name}\n${plan}`);
      if (/Seq Scan on tasks/.test(plan)) {
        failOnFigure(`${name} scans tasks sequentially on the large firm`);
      }
    }
  }
  // The searches' plans on the large firm, as the app role: never a sequential scan of the tasks,
  // and a search that matches a client or none read from its trigram index, never by reading the
  // searched table whole. (A join may still hash the firm's clients: that is 10,000 rows, not a
  // million.)
  const appDatabase = connectDatabase({ url: roles.app, poolSize: 1 });
  const searches = searchPlans(appDatabase.pool, appDatabase.db, large.firm.id);
  const [named4217] = (
    await database.pool.query<{ id: string }>("select id from clients where firm_id = $1 and name like '% 4217'", [
      large.firm.id,
    ])
  ).rows;
  for (const [term, matching, rare] of [
    ["health", [], false],
    ["review", [], false],
    ["4217", [named4217?.id ?? ""], true],
    ["xylophone", [], true],
  ] as const) {
    for (const [name, table, index, nodes] of [
      ["client search", "clients", "clients_search_idx", await searches.clientPage(term)],
      ["task search", "tasks", "tasks_search_idx", await searches.taskPage(term, [...matching])],
    ] as const) {
      const shown = nodes.map((node) => `${node["Node Type"]} ${node["Index Name"] ?? node["Relation Name"] ?? ""}`);
      plans.push(`-- ${name}, q=${term}: ${shown.map((text) => text.trim()).join(", ")}`);
      const scanned = sequentialScanNodes(nodes).map((node) => node["Relation Name"]);
      if (scanned.includes("tasks") || (rare && (scanned.includes(table) || !indexesOf(nodes).includes(index)))) {
        failOnFigure(`The ${name} for ${term} is not read from an index on the large firm`);
      }
    }
  }
  await appDatabase.close();
  // Backends publish their statistics when idle, at most every 10 s: the large firm's reads above
  // (where a sequential scan can be right) must be counted before the demo firm's run starts. A
  // check of the bench (BENCH_CHECK=1) does not judge the count, so it does not wait for it.
  const published = () => new Promise((resolve) => setTimeout(resolve, checkOnly ? 0 : 11_000));
  await published();
  const before = await sequentialScans(database);
  for (const read of reads) await get(read.path(small), cookieOf(small, read));
  await published();
  const scans = diff(before, await sequentialScans(database));
  await database.close();

  const cpu = os.cpus();
  console.log(
    `\n${cpu.length} × ${cpu[0]?.model ?? "CPU"}, Node ${process.version}, embedded PostgreSQL 17; ` +
      `demo firm (36 clients) vs a firm of ${CLIENTS.toLocaleString("en")} clients and ${TASKS.toLocaleString("en")} tasks; ` +
      `median of ${ROUNDS} sequential requests each, alternating firms\n`,
  );
  console.log(
    "| request | demo firm ms p50 / p95 | large firm ms p50 / p95 | ratio of p50 | large answer: JSON / sent |",
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const row of table) console.log(row);
  console.log(`\n${windowTimes}`);
  console.log(
    `\nSequential scans of ${watchedTables.join(" and ")} by the demo firm's reads: ${JSON.stringify(scans)}`,
  );
  console.log(`\nThe reports' (365 days) and the searches' plans on the large firm:\n\n${plans.join("\n\n")}`);
  console.log(
    `\nThe large firm's first page of the task audit list: ${kb(firstTaskPageSent)} sent to a browser (at most ${kb(FIRST_TASK_PAGE_BUDGET)}).`,
  );
  if (firstTaskPageSent > FIRST_TASK_PAGE_BUDGET) {
    failOnFigure("The first page of the task list weighs more than its budget.");
  }
  if (Object.values(scans).some((count) => count > 0)) {
    failOnFigure("A read scanned a business table sequentially: a query is not led by a firm_id index.");
  }
} finally {
  await app?.stop();
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function cookieOf(firm: Firm, read: Read): string {
  return read.asUser ? firm.userCookie : firm.cookie;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.95) - 1] ?? 0;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function sequentialScans(database: DatabaseHandle): Promise<Record<string, number>> {
  // The statistics collector publishes on its own schedule; asking for a fresh snapshot is exact.
  await database.pool.query("select pg_stat_clear_snapshot()");
  const { rows } = await database.pool.query<{ relname: string; seq_scan: string }>(
    "select relname, seq_scan from pg_stat_user_tables where relname = any($1)",
    [watchedTables],
  );
  return Object.fromEntries(rows.map((row) => [row.relname, Number(row.seq_scan)]));
}

function diff(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([table, count]) => [table, count - (before[table] ?? 0)]));
}
