import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import type { ClientReport, ClientReportTask } from "../src/shared/reports";
import { parseCsv } from "../tests/csv-parse";
import { drawnSignature, signInToNewFirm, uniqueName } from "./clients-support";
import { apiGet, checkAtBothWidths, demoUsers, holdRequests, signInAs, test } from "./fixtures";
import {
  chooseClient,
  chooseRange,
  chooseUser,
  clientPicker,
  clientReport,
  completeTask,
  createTask,
  dayMs,
  daysText,
  listClients,
  me,
  rangeSelect,
  rateText,
  statValue,
  userPicker,
  userReport,
} from "./reports-support";

/*
 * Reports (the REP requirements, with the CONST items on ranges and colours). Figures are checked against
 * data each test writes in a firm of its own; the history with past dates (creation 20-150 days
 * ago, completions spread over months) is the demo firm's, read and never changed, and there the
 * screen is checked against hand-computed figures and the API's answer.
 */

async function createClient(page: Page, name: string): Promise<string> {
  const response = await page.request.post("/api/clients", { data: { name } });
  expect(response.status(), "create client").toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A client of the page's firm with `total` tasks of which `completed` are signed off and `overdue` past due. */
async function clientWithTasks(page: Page, counts: { total: number; completed: number; overdue: number }) {
  const name = uniqueName("Report Client");
  const clientId = await createClient(page, name);
  const signature = await drawnSignature(page);
  const names: string[] = [];
  for (let index = 0; index < counts.total; index++) {
    const taskName = `Task ${index + 1} of ${name}`;
    const isOverdue = index >= counts.completed && index < counts.completed + counts.overdue;
    const id = await createTask(page, { clientId, name: taskName, dueInDays: isOverdue ? -3 : 10 });
    if (index < counts.completed) await completeTask(page, id, signature);
    names.push(taskName);
  }
  return { clientId, name, names };
}

/** Demo-firm clients' 365-day reports, the ones with activity first. */
async function demoReports(page: Page, days: 90 | 365): Promise<ClientReport[]> {
  const clients = await listClients(page);
  const reports = [];
  for (const client of clients) reports.push(await clientReport(page, client.id, days));
  return reports.filter((report) => report.totalTasks > 0);
}

const daysBetween = (from: string, to: string) => (new Date(to).getTime() - new Date(from).getTime()) / dayMs;

test.describe("reports", () => {
  test("S-REP-01 S-REP-02 S-REP-03 S-REP-05 S-REP-06 tabs Client Audit and User Audit, each with its selector and prompt", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/reports");
    await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
    await expect(page.getByRole("tablist").getByRole("tab")).toHaveText(["Client Audit", "User Audit"]);
    await expect(page.getByRole("tab", { name: "Client Audit" })).toHaveAttribute("aria-selected", "true");
    await expect(clientPicker(page)).toBeVisible();
    await expect(clientPicker(page)).toHaveText(/Choose a client/);
    await expect(page.getByRole("heading", { name: "Select a Client" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);

    await page.getByRole("tab", { name: "User Audit" }).click();
    await expect(page).toHaveURL(/\/reports\?tab=user$/);
    await expect(userPicker(page)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Select a User" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Select a Client" })).toHaveCount(0);

    // The user selector lists the firm's users.
    await userPicker(page).click();
    const options = page.getByRole("listbox", { name: "User" }).getByRole("option");
    await expect(options.filter({ hasText: demoUsers.super_admin.fullName })).toHaveCount(1);
    await expect(options.filter({ hasText: demoUsers.user.fullName })).toHaveCount(1);
  });

  test("S-REP-02 the client picker searches through the API, 20 at a time, and works by keyboard", async ({ page }) => {
    await signInAs(page, "admin");
    const searches: URL[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/clients") searches.push(url);
    });
    const [, second] = await listClients(page, "");
    if (!second) throw new Error("the demo firm has clients");
    const term = second.name.split(" ")[0] as string;
    const matching = await listClients(page, term);

    await page.goto("/reports");
    await clientPicker(page).focus();
    await page.keyboard.press("Enter");
    const search = page.getByRole("combobox", { name: "Find a client", exact: true });
    await expect(search).toBeFocused();
    await page.keyboard.type(term);
    await expect.poll(() => searches.some((url) => url.searchParams.get("q") === term)).toBe(true);
    // Every list the picker asks for is a page of 20, never the firm's whole client list.
    for (const url of searches) expect(url.searchParams.get("limit")).toBe("20");
    const options = page.getByRole("listbox", { name: "Client" }).getByRole("option");
    await expect(options).toHaveCount(Math.min(matching.length, 20));

    const target = matching[1] ?? matching[0];
    await page.keyboard.press(matching[1] ? "ArrowDown" : "Home");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`client=${target?.id}`));
    await expect(clientPicker(page)).toHaveText(new RegExp(target?.name ?? ""));
    await expect(clientPicker(page)).toBeFocused();
  });

  test("S-REP-04 S-CONST-24 the date range offers 7, 30, 90 and 365 days, 30 by default, kept in the URL", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/reports");
    await expect(rangeSelect(page)).toHaveText(/Last 30 days/);
    await rangeSelect(page).click();
    await expect(page.getByRole("option")).toHaveText(["Last 7 days", "Last 30 days", "Last 90 days", "Last 365 days"]);
    await expect(page.getByRole("option", { name: "Last 30 days" })).toHaveAttribute("aria-selected", "true");
    await page.getByRole("option", { name: "Last 90 days" }).click();
    await expect(page).toHaveURL(/\/reports\?days=90$/);
    await page.reload();
    await expect(rangeSelect(page)).toHaveText(/Last 90 days/);
  });

  test("S-REP-07 S-REP-08 S-REP-09 S-REP-10 S-REP-12 S-CONST-26 client figures: 3 of 4 is 75% in red, 4 of 5 is 80% in green", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    // 4 tasks, 3 completed, the fourth past due: 75%, one overdue.
    const below = await clientWithTasks(page, { total: 4, completed: 3, overdue: 1 });
    // 5 tasks, 4 completed, none overdue: 80%.
    const at = await clientWithTasks(page, { total: 5, completed: 4, overdue: 0 });

    await page.goto("/reports");
    await chooseClient(page, below.name);
    await expect(page).toHaveURL(new RegExp(`client=${below.clientId}`));
    const report = await clientReport(page, below.clientId);
    expect([report.totalTasks, report.completedTasks, report.completionRate, report.overdueTasks]).toEqual([
      4, 3, 75, 1,
    ]);
    await expect(clientPicker(page)).toHaveText(new RegExp(below.name));
    await expect(statValue(page, "Total Tasks")).toHaveText("4");
    await expect(statValue(page, "Completion Rate")).toHaveText("75%");
    await expect(statValue(page, "Completion Rate")).toHaveAttribute("data-tone", "bad");
    await expect(statValue(page, "Completion Rate")).toHaveCSS("color", await colorOf(page, "--color-destructive"));
    await expect(page.getByRole("group", { name: "Completion Rate" })).toContainText("3 of 4 completed");
    await expect(statValue(page, "Overdue Tasks")).toHaveText("1");
    // Created and completed just now: 0 days from creation to completion.
    await expect(statValue(page, "Avg. Completion")).toHaveText("0 days");

    // S-REP-12: the task history holds the client's tasks of the range, with their states.
    const rows = page.getByTestId("history-row");
    await expect(rows).toHaveCount(4);
    expect((await rows.getByTestId("history-task").allTextContents()).sort()).toEqual([...below.names].sort());
    await expect(rows.getByTestId("history-status").filter({ hasText: "Completed" })).toHaveCount(3);
    await expect(rows.getByTestId("history-status").filter({ hasText: "Overdue" })).toHaveCount(1);
    // Newest activity first, as the API orders it.
    await expect(rows.getByTestId("history-task")).toHaveText(report.history.map((task) => task.name));

    await chooseClient(page, at.name);
    await expect(statValue(page, "Total Tasks")).toHaveText("5");
    await expect(statValue(page, "Completion Rate")).toHaveText("80%");
    await expect(statValue(page, "Completion Rate")).toHaveAttribute("data-tone", "good");
    await expect(statValue(page, "Completion Rate")).toHaveCSS(
      "color",
      await colorOf(page, "--color-success-subtle-foreground"),
    );
    await expect(statValue(page, "Overdue Tasks")).toHaveText("0");
  });

  test("S-REP-11 S-CONST-28 average completion days is the rounded mean from creation to completion (demo history)", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const reports = await demoReports(page, 365);
    const report = reports.find((candidate) => candidate.completedTasks >= 2) as ClientReport;
    expect(report, "a demo client with two or more completions in a year").toBeTruthy();
    const completed = report.history.filter(
      (task): task is ClientReportTask & { completedAt: string } => !!task.completedAt,
    );
    const mean =
      completed.reduce((total, task) => total + daysBetween(task.createdAt, task.completedAt), 0) / completed.length;
    expect(report.averageCompletionDays).toBe(Math.round(mean));
    expect(report.averageCompletionDays).toBeGreaterThan(0);

    await page.goto(`/reports?client=${report.client.id}&days=365`);
    await expect(clientPicker(page)).toHaveText(new RegExp(report.client.name));
    await expect(rangeSelect(page)).toHaveText(/Last 365 days/);
    await expect(statValue(page, "Avg. Completion")).toHaveText(daysText(Math.round(mean)));
    await expect(statValue(page, "Total Tasks")).toHaveText(String(report.totalTasks));
    await expect(statValue(page, "Completion Rate")).toHaveText(rateText(report.completionRate));
    await expect(statValue(page, "Overdue Tasks")).toHaveText(String(report.overdueTasks));
  });

  test("S-REP-13 a client without tasks in the range shows No tasks found for the selected date range", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const name = uniqueName("Quiet Client");
    const clientId = await createClient(page, name);
    await page.goto(`/reports?client=${clientId}`);
    await expect(page.getByRole("heading", { name: "No tasks found for the selected date range" })).toBeVisible();
    await expect(page.getByTestId("history-row")).toHaveCount(0);
    // The one next step: a longer range.
    await page.getByRole("button", { name: "Show the last 365 days" }).click();
    await expect(page).toHaveURL(/days=365/);
    await expect(page.getByRole("heading", { name: "No tasks found for the selected date range" })).toBeVisible();
  });

  test("S-REP-14 S-REP-15 S-REP-16 S-REP-17 S-REP-18 S-REP-19 S-REP-20 S-CONST-25 user audit: figures, breakdown, information and the 10 newest of 12 completions", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signInToNewFirm(page);
    const user = await me(page);
    const signature = await drawnSignature(page);
    const clientA = uniqueName("Alpha Client");
    const clientB = uniqueName("Beta Client");
    const ids = { [clientA]: await createClient(page, clientA), [clientB]: await createClient(page, clientB) };
    // 12 completions: 6 due later (on time), 3 past due (late), 3 without a due date; high, medium, low in turn.
    const priorities = ["high", "medium", "low"] as const;
    const completedNames: string[] = [];
    for (let index = 0; index < 12; index++) {
      const name = `Completion ${String(index + 1).padStart(2, "0")}`;
      const dueInDays = index < 6 ? 5 : index < 9 ? -2 : null;
      const clientId = (index % 4 === 3 ? ids[clientB] : ids[clientA]) as string;
      const id = await createTask(page, { clientId, name, dueInDays, priority: priorities[index % 3] });
      await completeTask(page, id, signature);
      completedNames.push(name);
    }
    const report = await userReport(page, user.id);
    // On time: 6 of the 9 with a due date.
    expect([report.tasksCompleted, report.onTimeRate, report.clientsServed, report.averageCompletionDays]).toEqual([
      12,
      Math.round((6 / 9) * 100),
      2,
      0,
    ]);

    await page.goto("/reports?tab=user");
    await chooseUser(page, user.fullName);
    await expect(page).toHaveURL(new RegExp(`user=${user.id}`));
    await expect(statValue(page, "Tasks Completed")).toHaveText("12");
    await expect(statValue(page, "On-time Rate")).toHaveText("67%");
    await expect(statValue(page, "On-time Rate")).toHaveAttribute("data-tone", "bad");
    await expect(statValue(page, "Clients Served")).toHaveText("2");
    await expect(statValue(page, "Avg. Completion")).toHaveText("0 days");

    // S-REP-18: by priority (4 each; on time per priority from the API) and by client (9 and 3).
    const breakdown = page.getByTestId("performance-breakdown");
    const priorityRows = breakdown.getByTestId("priority-row");
    await expect(priorityRows).toHaveCount(3);
    for (const [index, priority] of (["high", "medium", "low"] as const).entries()) {
      const row = report.byPriority.find((entry) => entry.priority === priority);
      await expect(priorityRows.nth(index)).toHaveText(
        new RegExp(`^${priority}\\s*4\\s*${rateText(row?.onTimeRate ?? null)}$`, "i"),
      );
    }
    const clientRows = breakdown.getByTestId("client-row");
    await expect(clientRows).toHaveCount(2);
    await expect(clientRows.nth(0)).toContainText(clientA);
    await expect(clientRows.nth(0)).toContainText("9");
    await expect(clientRows.nth(1)).toContainText(clientB);
    await expect(clientRows.nth(1)).toContainText("3");

    // S-REP-19: who the user is.
    const info = page.getByTestId("user-information");
    await expect(info).toContainText(user.fullName);
    await expect(info).toContainText(`@${user.username}`);
    await expect(info).toContainText(user.email ?? "Not provided");
    await expect(info).toContainText(/super admin/i);
    await expect(info).toContainText("Active");

    // S-REP-20: 10 of the 12, newest first.
    const recent = page.getByTestId("completion-row");
    await expect(recent).toHaveCount(10);
    await expect(recent.getByTestId("completion-task")).toHaveText(completedNames.slice(2).reverse());
    await expect(recent.getByTestId("completion-task")).toHaveText(report.recentCompletions.map((row) => row.name));
    await expect(recent.first().getByTestId("completion-on-time")).toHaveText("No due date");
    await expect(recent.nth(3).getByTestId("completion-on-time")).toHaveText("Late");
    await expect(recent.nth(6).getByTestId("completion-on-time")).toHaveText("On time");
  });

  test("S-REP-21 a user without completions in the range shows No completed tasks found for the selected date range", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const user = await me(page);
    await page.goto(`/reports?tab=user&user=${user.id}`);
    await expect(
      page.getByRole("heading", { name: "No completed tasks found for the selected date range" }),
    ).toBeVisible();
    // The user's information still shows; there are no figures to chart.
    await expect(page.getByTestId("user-information")).toContainText(user.fullName);
    await expect(page.getByTestId("completion-row")).toHaveCount(0);
    await expect(page.getByTestId("chart-completion")).toHaveCount(0);
  });

  test("S-REP-22 changing the range changes the included tasks: a task completed 31-89 days ago counts in 90, not in 30", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const now = Date.now();
    let found: { report: ClientReport; task: ClientReportTask } | undefined;
    for (const report of await demoReports(page, 90)) {
      const task = report.history.find(
        (candidate) =>
          candidate.completedAt !== null &&
          now - new Date(candidate.completedAt).getTime() > 31 * dayMs &&
          now - new Date(candidate.completedAt).getTime() < 89 * dayMs,
      );
      if (task) {
        found = { report, task };
        break;
      }
    }
    expect(found, "a demo task completed between 31 and 89 days ago").toBeTruthy();
    const { report: in90, task } = found as { report: ClientReport; task: ClientReportTask };
    const in30 = await clientReport(page, in90.client.id, 30);
    expect(in30.history.some((candidate) => candidate.id === task.id)).toBe(false);

    await page.goto(`/reports?client=${in90.client.id}&days=90`);
    await expect(statValue(page, "Total Tasks")).toHaveText(String(in90.totalTasks));
    await expect(page.locator(`[data-task-id="${task.id}"]`)).toHaveCount(1);

    await chooseRange(page, 30);
    await expect(page).toHaveURL(/days=30|\?client=[^&]+$/);
    await expect(page.locator(`[data-task-id="${task.id}"]`)).toHaveCount(0);
    if (in30.totalTasks === 0) {
      await expect(page.getByRole("heading", { name: "No tasks found for the selected date range" })).toBeVisible();
    } else {
      await expect(statValue(page, "Total Tasks")).toHaveText(String(in30.totalTasks));
      await expect(page.getByTestId("history-row")).toHaveCount(Math.min(in30.history.length, 25));
    }
    expect(in30.totalTasks).toBeLessThan(in90.totalTasks);
  });

  test("S-REP-12 S-REP-18 the charts load lazily, draw data marks and carry their numbers as text", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const chartScripts: string[] = [];
    page.on("request", (request) => {
      if (/report-charts-[^/]*\.js$/.test(request.url())) chartScripts.push(request.url());
    });
    await page.goto("/dashboard");
    await expect(page.getByRole("group", { name: "Total Clients" })).toBeVisible();
    await page.goto("/reports");
    await expect(page.getByRole("heading", { name: "Select a Client" })).toBeVisible();
    expect(chartScripts, "Recharts is not loaded by /dashboard nor by /reports before a report").toEqual([]);

    const [report] = (await demoReports(page, 365)).sort((a, b) => b.totalTasks - a.totalTasks);
    if (!report) throw new Error("no demo client with tasks");
    await chooseRange(page, 365);
    await chooseClient(page, report.client.name);
    const completion = page.getByTestId("chart-completion");
    await expect(completion.getByRole("heading", { name: "Completion over time" })).toBeVisible();
    await expect(completion.locator("svg .recharts-bar-rectangle").first()).toBeVisible();
    // One mark per non-empty bucket of each series: created and completed.
    const marks =
      report.series.filter((point) => point.created > 0).length +
      report.series.filter((point) => point.completed > 0).length;
    await expect(completion.locator("svg .recharts-bar-rectangle")).toHaveCount(marks);
    expect(chartScripts.length).toBe(1);
    // The text alternative: a summary and a table with one row per bucket.
    const created = report.series.reduce((total, point) => total + point.created, 0);
    const completed = report.series.reduce((total, point) => total + point.completed, 0);
    await expect(completion.getByTestId("chart-summary")).toHaveText(
      `${created} created and ${completed} completed in the last 365 days, by week.`,
    );
    await expect(completion.getByRole("table", { name: "Completion over time" }).locator("tbody tr")).toHaveCount(
      report.series.length,
    );
    const priority = page.getByTestId("chart-priority");
    await expect(priority.getByRole("heading", { name: "Tasks by priority" })).toBeVisible();
    await expect(priority.locator("svg .recharts-bar-rectangle").first()).toBeVisible();

    // The user audit's three charts, on-time rate included.
    const admin = await me(page);
    await page.goto(`/reports?tab=user&user=${admin.id}&days=365`);
    await expect(page.getByTestId("chart-on-time").getByRole("heading", { name: "On-time rate" })).toBeVisible();
    await expect(page.getByTestId("chart-on-time").locator("svg .recharts-bar-rectangle").first()).toBeVisible();
    await expect(
      page.getByTestId("chart-priority").getByRole("heading", { name: "Completed by priority" }),
    ).toBeVisible();
  });

  test("S-REP-12 a charts chunk that fails to load costs only the charts", async ({ page, browserConsole }) => {
    // The charts chunk is made to fail: the browser logs the aborted load, and React the error its
    // boundary caught.
    browserConsole.expectFailedRequest("net::ERR_FAILED", "/assets/report-charts-");
    browserConsole.expect(
      /^error: TypeError: Failed to fetch dynamically imported module: \S*\/assets\/report-charts-/,
    );
    await signInAs(page, "super_admin");
    const [report] = (await demoReports(page, 365)).sort((a, b) => b.totalTasks - a.totalTasks);
    if (!report) throw new Error("no demo client with tasks");
    await page.route(/report-charts-[^/]*\.js$/, (route) => route.abort());
    await page.goto(`/reports?client=${report.client.id}&days=365`);
    await expect(page.getByRole("alert")).toContainText("The charts could not be loaded");
    await expect(statValue(page, "Total Tasks")).toHaveText(String(report.totalTasks));
    await expect(page.getByTestId("history-row").first()).toBeVisible();
  });

  test("S-REP-12 S-REP-14 Download CSV saves each report as a file that parses", async ({ page }) => {
    await signInToNewFirm(page);
    const user = await me(page);
    const { clientId, names } = await clientWithTasks(page, { total: 3, completed: 2, overdue: 0 });

    await page.goto(`/reports?client=${clientId}`);
    await expect(statValue(page, "Total Tasks")).toHaveText("3");
    const [clientFile] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(clientFile.suggestedFilename()).toMatch(/^client-report-.*-30d-\d{4}-\d{2}-\d{2}\.csv$/);
    const clientRows = parseCsv(fs.readFileSync(await clientFile.path(), "utf8"));
    expect(clientRows[0]).toEqual([
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
    expect(
      clientRows
        .slice(1)
        .map((row) => row[0])
        .sort(),
    ).toEqual([...names].sort());
    expect(clientRows.slice(1).filter((row) => row[1] === "completed")).toHaveLength(2);

    await page.goto(`/reports?tab=user&user=${user.id}&days=7`);
    await expect(statValue(page, "Tasks Completed")).toHaveText("2");
    const [userFile] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(userFile.suggestedFilename()).toMatch(/^user-report-.*-7d-.*\.csv$/);
    const userRows = parseCsv(fs.readFileSync(await userFile.path(), "utf8"));
    expect(userRows[0]).toEqual([
      "Task",
      "Client",
      "Priority",
      "Due date",
      "Created",
      "Completed",
      "Completed at (UTC)",
      "On time",
    ]);
    expect(userRows).toHaveLength(3);
  });

  test('S-EDGE-08 S-EDGE-09 a report on a client named "Ωmega Ünternehmen" downloads under that name, with the firm\'s dates', async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const zone = await page.request.patch("/api/firm", { data: { timeZone: "Pacific/Auckland" } });
    expect(zone.status(), "move the firm to Auckland").toBe(200);
    const clientId = await createClient(page, "Ωmega Ünternehmen");
    await completeTask(
      page,
      await createTask(page, { clientId, name: "Year-end close", dueInDays: 10 }),
      await drawnSignature(page),
    );

    await page.goto(`/reports?client=${clientId}`);
    await expect(statValue(page, "Total Tasks")).toHaveText("1");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland" }).format(new Date());
    expect(download.suggestedFilename()).toBe(`client-report-Ωmega-Ünternehmen-30d-${today}.csv`);
    const [header, row] = parseCsv(fs.readFileSync(await download.path(), "utf8"));
    // The row's dates read as the screen shows them in Auckland; the sign-off keeps its instant.
    const completedAt = row?.[header?.indexOf("Completed at (UTC)") ?? -1] ?? "";
    const shown = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Pacific/Auckland" });
    expect(row?.[header?.indexOf("Completed") ?? -1]).toBe(shown.format(new Date(completedAt)));
    expect(completedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test("S-ROLE-15 S-ROLE-16 a user picks only assigned clients and only themselves; the API refuses the rest", async ({
    page,
    browserConsole,
  }) => {
    // A link to a client not assigned to the user is refused: the browser logs the 404.
    browserConsole.expectFailedRequest(404, "/api/reports/clients/");
    await signInAs(page, "user");
    const self = await me(page);
    const visible = await listClients(page);
    await signInAs(page, "admin");
    const all = await listClients(page);
    const hidden = all.find((client) => !visible.some((mine) => mine.id === client.id));
    expect(visible.length).toBeGreaterThan(0);
    expect(hidden, "a client not assigned to the user").toBeTruthy();
    await signInAs(page, "user");

    await page.goto("/reports");
    await clientPicker(page).click();
    const options = page.getByRole("listbox", { name: "Client" }).getByRole("option");
    await expect(options).toHaveCount(Math.min(visible.length, 20));
    for (const name of await options.allTextContents()) {
      expect(visible.some((client) => name.startsWith(client.name))).toBe(true);
    }
    await page.getByRole("combobox", { name: "Find a client", exact: true }).fill(hidden?.name ?? "");
    await expect(page.getByText(`No clients match “${hidden?.name}”.`)).toBeVisible();
    await page.keyboard.press("Escape");

    // A link to a client that is not theirs is refused with the API's words.
    await page.goto(`/reports?client=${hidden?.id}`);
    await expect(page.getByRole("alert")).toContainText("Client not found");

    await page.getByRole("tab", { name: "User Audit" }).click();
    await userPicker(page).click();
    await expect(page.getByRole("listbox", { name: "User" }).getByRole("option")).toHaveText([
      new RegExp(`^${self.fullName}`),
    ]);
    await page.getByRole("option").click();
    await expect(page.getByTestId("user-information")).toContainText(self.fullName);

    const users = await apiGet<{ id: string; username: string }[]>(page, "/api/users");
    const colleague = users.find((user) => user.id !== self.id);
    const refused = await page.request.get(`/api/reports/users/${colleague?.id}`);
    expect(refused.status()).toBe(403);
  });

  test("S-REP-05 a linked report loads from the URL, with a skeleton while it loads and the API's message on error", async ({
    page,
    browserConsole,
  }) => {
    // A link to a client that does not exist is refused: the browser logs the 404.
    browserConsole.expectFailedRequest(404, "/api/reports/clients/");
    await signInAs(page, "admin");
    const [first] = await listClients(page);
    if (!first) throw new Error("no demo client");
    const release = await holdRequests(page, "**/api/reports/clients/**");
    await page.goto(`/reports?client=${first.id}&days=90`);
    await expect(page.getByRole("status", { name: "Loading the report" })).toBeVisible();
    release();
    await expect(page.getByRole("status", { name: "Loading the report" })).toHaveCount(0);
    await expect(clientPicker(page)).toHaveText(new RegExp(first.name));
    await expect(rangeSelect(page)).toHaveText(/Last 90 days/);
    await page.reload();
    await expect(page.getByTestId("client-report")).toBeVisible();

    await page.unrouteAll();
    await page.goto("/reports?client=0194f3a2-7b1c-7def-8a12-3456789abcde");
    await expect(page.getByRole("alert")).toContainText("Client not found");
    await expect(page.getByRole("alert")).not.toContainText("[object Object]");
  });

  test("S-REP-07 S-REP-14 reports at 1280 and 375 px: no axe violations, no sideways scroll, screenshots", async ({
    page,
  }, testInfo) => {
    // Four axe runs over charts at each width, on two shared cores.
    test.setTimeout(90_000);
    await signInAs(page, "super_admin");
    const [report] = (await demoReports(page, 365)).sort((a, b) => b.totalTasks - a.totalTasks);
    if (!report) throw new Error("no demo client with tasks");

    await page.goto("/reports");
    await expect(page.getByRole("heading", { name: "Select a Client" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "reports-select-a-client");

    // The charts draw again at each width (Recharts follows its container's size).
    const bars = (chart: string) => page.getByTestId(chart).locator("svg .recharts-bar-rectangle").first();
    await page.goto(`/reports?client=${report.client.id}&days=365`);
    await checkAtBothWidths(page, testInfo, "reports-client", {
      atWidth: () => expect(bars("chart-completion")).toBeVisible(),
    });

    await clientPicker(page).click();
    await expect(page.getByRole("listbox", { name: "Client" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "reports-client-picker", {
      popupOpen: true,
      atWidth: () => expect(page.getByRole("listbox", { name: "Client" })).toBeVisible(),
    });
    await page.keyboard.press("Escape");

    const admin = await me(page);
    await page.goto(`/reports?tab=user&user=${admin.id}&days=365`);
    await checkAtBothWidths(page, testInfo, "reports-user", {
      atWidth: () => expect(bars("chart-on-time")).toBeVisible(),
    });
  });
});

/** The computed colour of a token, as the browser resolves it (so a class compares with it). */
async function colorOf(page: Page, token: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement("span");
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, token);
}
