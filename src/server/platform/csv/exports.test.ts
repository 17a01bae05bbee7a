import { beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../../tests/csv-parse";
import { signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { insertClient, insertFirm, insertRuleTask, insertTask, insertUser } from "../../seed/factories";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** "Mar 11, 2026": how the screens write a date, here of a UTC calendar day. */
const utcDay = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/**
 * The file name a Content-Disposition gives: its `filename*` (RFC 8187, UTF-8) and the plain
 * `filename` fallback, unescaped as a quoted string.
 */
function suggestedNames(header: string | undefined) {
  const match = /^attachment; filename="((?:[^"\\]|\\.)*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(
    header ?? "",
  );
  if (!match?.[1] || !match[2]) throw new Error(`not an RFC 6266 attachment with both names: ${header}`);
  return { ascii: match[1].replace(/\\(.)/g, "$1"), utf8: decodeURIComponent(match[2]) };
}

/**
 * Every CSV download the product offers: the client list, the task list, the client report and the
 * user report. A firm in Auckland (UTC+13 in its summer, +12 in winter) whose work happened at
 * 23:30 UTC, which is already the next day there.
 */
describe("every CSV download", () => {
  const ctx = useTestApp();
  type World = Awaited<ReturnType<typeof seed>>;
  let world: World;

  // Two days ago at 23:30 UTC: inside every report range, and the next calendar day in Auckland.
  const lateEvening = new Date(Math.floor((Date.now() - 2 * DAY) / DAY) * DAY + 23.5 * HOUR);
  const utcDate = utcDay.format(lateEvening);
  const aucklandDate = utcDay.format(new Date(lateEvening.getTime() + DAY));

  async function seed() {
    const db = ctx.database.db;
    const firm = await insertFirm(db, { timeZone: "Pacific/Auckland" });
    const owner = await insertUser(db, {
      firmId: firm.id,
      role: "super_admin",
      fullName: "Ōtautahi Owner",
      username: "otautahi",
    });
    const client = await insertClient(db, {
      firmId: firm.id,
      name: "Ωmega Ünternehmen",
      industry: "Consulting",
      createdAt: lateEvening,
    });
    const task = await insertTask(db, {
      firmId: firm.id,
      clientId: client.id,
      name: "Year-end close",
      createdAt: lateEvening,
      dueDate: lateEvening,
      completed: { by: owner, at: lateEvening },
    });
    return { firm, owner, client, task };
  }

  beforeAll(async () => {
    world = await seed();
  });

  /** The firm's calendar date now, as the file names carry it. */
  const firmToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(new Date());

  it("S-EDGE-08 a report on a client named in Greek and German downloads under that name, with an ASCII fallback", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const response = await owner.get(`/api/reports/clients/${world.client.id}?days=7&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="client-report-_mega-Unternehmen-7d-${firmToday()}.csv"; ` +
        `filename*=UTF-8''client-report-%CE%A9mega-%C3%9Cnternehmen-7d-${firmToday()}.csv`,
    );
    expect(suggestedNames(response.headers["content-disposition"] as string)).toEqual({
      ascii: `client-report-_mega-Unternehmen-7d-${firmToday()}.csv`,
      utf8: `client-report-Ωmega-Ünternehmen-7d-${firmToday()}.csv`,
    });
  });

  it("S-EDGE-08 every CSV route sends both names, dated by the firm's calendar", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const expected: [string, string][] = [
      ["/api/clients?format=csv", `clients-all-${firmToday()}.csv`],
      ["/api/clients?archived=true&format=csv", `clients-archived-${firmToday()}.csv`],
      ["/api/tasks?format=csv", `tasks-all-${firmToday()}.csv`],
      ["/api/tasks?status=completed&format=csv", `tasks-completed-${firmToday()}.csv`],
      [`/api/reports/clients/${world.client.id}?format=csv`, `client-report-Ωmega-Ünternehmen-30d-${firmToday()}.csv`],
      [`/api/reports/users/${world.owner.id}?days=90&format=csv`, `user-report-otautahi-90d-${firmToday()}.csv`],
    ];
    for (const [url, name] of expected) {
      const response = await owner.get(url);
      expect(response.status, url).toBe(200);
      expect(suggestedNames(response.headers["content-disposition"] as string).utf8, url).toBe(name);
    }
  });

  it("S-EDGE-09 the client list's Created date is the firm's local date", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const rows = parseCsv((await owner.get("/api/clients?format=csv")).text);
    const created = rows[0]?.indexOf("Created") ?? -1;
    expect(aucklandDate).not.toBe(utcDate);
    expect(rows.slice(1).map((row) => [row[0], row[created]])).toEqual([["Ωmega Ünternehmen", aucklandDate]]);
  });

  it("S-EDGE-09 the task list writes its dates in the firm's zone and the sign-off's instant in UTC", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const rows = parseCsv((await owner.get("/api/tasks?format=csv")).text);
    expect(rows).toEqual([
      [
        "Task",
        "Client",
        "Status",
        "Priority",
        "Due date",
        "Created",
        "Completed",
        "Completed at (UTC)",
        "Printed name",
        "Signed by",
      ],
      [
        "Year-end close",
        "Ωmega Ünternehmen",
        "completed",
        "medium",
        aucklandDate,
        aucklandDate,
        aucklandDate,
        lateEvening.toISOString(),
        "Ōtautahi Owner",
        "Ōtautahi Owner",
      ],
    ]);
  });

  it("S-EDGE-09 the client report writes its dates in the firm's zone and the sign-off's instant in UTC", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const rows = parseCsv((await owner.get(`/api/reports/clients/${world.client.id}?days=7&format=csv`)).text);
    expect(rows[0]).toEqual([
      "Task",
      "Status",
      "Priority",
      "Due date",
      "Created",
      "Completed",
      "Completed at (UTC)",
      "Printed name",
      "Signed by",
      "Due date changes",
    ]);
    expect(rows.slice(1)).toEqual([
      [
        "Year-end close",
        "completed",
        "medium",
        aucklandDate,
        aucklandDate,
        aucklandDate,
        lateEvening.toISOString(),
        "Ōtautahi Owner",
        "Ōtautahi Owner",
        "",
      ],
    ]);
  });

  it("S-EDGE-09 the user report writes its dates in the firm's zone and the sign-off's instant in UTC", async () => {
    const owner = await signIn(ctx.app, world.owner);
    const rows = parseCsv((await owner.get(`/api/reports/users/${world.owner.id}?days=7&format=csv`)).text);
    expect(rows).toEqual([
      ["Task", "Client", "Priority", "Due date", "Created", "Completed", "Completed at (UTC)", "On time"],
      [
        "Year-end close",
        "Ωmega Ünternehmen",
        "medium",
        aucklandDate,
        aucklandDate,
        aucklandDate,
        lateEvening.toISOString(),
        "yes",
      ],
    ]);
  });

  it("S-EDGE-09 a firm in Los Angeles gets the day before for work done at 03:00 UTC", async () => {
    const db = ctx.database.db;
    const firm = await insertFirm(db, { timeZone: "America/Los_Angeles" });
    const owner = await insertUser(db, { firmId: firm.id, role: "super_admin" });
    const earlyMorning = new Date(Math.floor((Date.now() - DAY) / DAY) * DAY + 3 * HOUR);
    const client = await insertClient(db, { firmId: firm.id, name: "Pasadena Partners", createdAt: earlyMorning });
    await insertTask(db, {
      firmId: firm.id,
      clientId: client.id,
      name: "Payroll",
      createdAt: earlyMorning,
      completed: { by: owner, at: earlyMorning },
    });
    const dayBefore = utcDay.format(new Date(earlyMorning.getTime() - DAY));
    const session = await signIn(ctx.app, owner);
    const tasks = parseCsv((await session.get("/api/tasks?format=csv")).text);
    expect(tasks[1]?.slice(5, 8)).toEqual([dayBefore, dayBefore, earlyMorning.toISOString()]);
    const clients = parseCsv((await session.get("/api/clients?format=csv")).text);
    expect(clients[1]?.[6]).toBe(dayBefore);
  });

  it("S-EDGE-16 with hostile names, no cell of any CSV download runs as a formula, whatever separator the spreadsheet reads it with", async () => {
    const db = ctx.database.db;
    const nasty = "Acme;=cmd|' /C calc'!A0;";
    const firm = await insertFirm(db, { timeZone: "UTC" });
    const owner = await insertUser(db, { firmId: firm.id, role: "super_admin", fullName: "-2+3;@SUM(1)\t=1+1" });
    const client = await insertClient(db, { firmId: firm.id, name: nasty });
    await insertClient(db, {
      firmId: firm.id,
      name: `${nasty} archived`,
      archivedAt: new Date("2026-06-01T00:00:00Z"),
    });
    await insertTask(db, {
      firmId: firm.id,
      clientId: client.id,
      name: 'Close;=HYPERLINK("http://evil.example";"x")',
      dueDate: new Date("2026-06-30T12:00:00Z"),
      // The reports read the wall clock: a sign-off an hour ago is inside every report range on any date.
      completed: { by: owner, at: new Date(Date.now() - HOUR) },
    });
    const ruleTask = await insertRuleTask(db, { firmId: firm.id, clientId: client.id });
    const session = await signIn(ctx.app, owner);
    const moved = await session.post(`/api/tasks/${ruleTask.id}/due-date`, {
      dueOn: "2027-05-03",
      reason: "Asked by the client;=cmd|' /C calc'!A0\n+1",
    });
    expect(moved.status, moved.text).toBe(200);

    const downloads = [
      "/api/clients?format=csv",
      "/api/clients?archived=true&format=csv",
      "/api/tasks?format=csv",
      `/api/reports/clients/${client.id}?format=csv`,
      `/api/reports/users/${owner.id}?format=csv`,
    ];
    for (const url of downloads) {
      const response = await session.get(url);
      expect(response.status, url).toBe(200);
      // Read as RFC 4180 says, every hostile value comes back whole, a quote before each formula.
      const text = parseCsv(response.text).flat().join("\n");
      expect(text, url).toMatch(/Acme;'=cmd\|' \/C calc'!A0;|Close;'=HYPERLINK\("http:\/\/evil.example";"x"\)/);
      // Read as a spreadsheet with a comma, a semicolon or a tab as its list separator would.
      for (const separator of [",", ";", "\t"]) {
        const formulas = spreadsheetCells(response.text, separator).filter((cell) => /^[=+\-@\t\r]/.test(cell));
        expect(formulas, `${url} read with ${JSON.stringify(separator)}`).toEqual([]);
      }
    }
    const report = parseCsv((await session.get(`/api/reports/clients/${client.id}?format=csv`)).text);
    expect(report.flat().join("\n")).toContain("changed by hand: Asked by the client;'=cmd|' /C calc'!A0\n'+1");
  });
});

/**
 * The cells a spreadsheet reads from CSV text with `separator` as its list separator: a quote
 * protects a cell only where the cell begins (so a quoted field of ours, in the middle of a line
 * read with another separator, does not), and a line break outside a quoted cell ends the row.
 */
function spreadsheetCells(text: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (char === separator || char === "\r" || char === "\n") {
      if (!(char === "\n" && text[i - 1] === "\r")) cells.push(cell);
      cell = "";
      atStart = true;
    } else {
      cell += char;
      atStart = false;
    }
  }
  return cells;
}
