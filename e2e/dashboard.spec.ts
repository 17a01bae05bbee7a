import { expect, type Page } from "@playwright/test";
import type { UserClientLink } from "../src/shared/assignments";
import type { ClientSummary } from "../src/shared/clients";
import type { Dashboard } from "../src/shared/dashboard";
import { type Action, can } from "../src/shared/permissions";
import type { Role } from "../src/shared/roles";
import type { TaskListItem } from "../src/shared/tasks";
import type { UserSummary } from "../src/shared/users";
import { apiGet, checkAtBothWidths, demoUsers, holdRequests, letTimePass, signInAs, test } from "./fixtures";

const stat = (page: Page, label: string) => page.getByRole("group", { name: label });
const quickActions = (page: Page) => page.getByRole("link").filter({ has: page.locator("span.flex-1") });

/** The figures the DASH requirements name, computed from the list endpoints themselves. */
async function figuresFromLists(page: Page) {
  const clients = await apiGet<ClientSummary[]>(page, "/api/clients");
  const tasks = await apiGet<TaskListItem[]>(page, "/api/tasks");
  const overdue = await apiGet<TaskListItem[]>(page, "/api/tasks/overdue");
  return {
    clients: clients.length,
    active: clients.filter((client) => client.status === "active").length,
    inactive: clients.filter((client) => client.status === "inactive").length,
    tasks: tasks.length,
    pending: tasks.filter((task) => task.status === "pending").length,
    completed: tasks.filter((task) => task.status === "completed").length,
    overdue: overdue.length,
    affected: new Set(overdue.map((task) => task.clientId)).size,
  };
}

test.describe("dashboard", () => {
  test('S-DASH-01 S-DASH-02 title "Dashboard" and its subtitle', async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByText("Overview of your client relationships and task management")).toBeVisible();
  });

  test("S-DASH-03 a loading skeleton shows while the figures load", async ({ page }) => {
    await signInAs(page, "admin");
    const release = await holdRequests(page, "**/api/dashboard");
    await page.goto("/dashboard");
    await expect(page.getByTestId("dashboard-skeleton")).toBeVisible();
    await expect(stat(page, "Total Clients")).toHaveCount(0);
    release();
    await expect(stat(page, "Total Clients")).toBeVisible();
    await expect(page.getByTestId("dashboard-skeleton")).toHaveCount(0);
  });

  for (const role of ["super_admin", "user"] satisfies Role[]) {
    test(`S-DASH-04 S-DASH-05 S-DASH-06 S-DASH-07 S-DASH-14 S-DASH-15 S-DASH-16 S-STATE-11 S-ROLE-07 the figures are the API's, as ${role}`, async ({
      page,
    }) => {
      // S-ROLE-07: a user's figures are those of the clients assigned to them, as the super admin
      // sees the assignments; the super admin's are the whole firm's.
      await signInAs(page, "super_admin");
      const firmClients = await apiGet<ClientSummary[]>(page, "/api/clients");
      const people = await apiGet<UserSummary[]>(page, "/api/users");
      const links = await apiGet<UserClientLink[]>(page, "/api/user-clients");
      const self = people.find((person) => person.username === demoUsers[role].username);
      const assigned = links.filter((link) => link.userId === self?.id && !link.clientArchived);
      await page.context().clearCookies();

      await signInAs(page, role);
      const dashboard = await apiGet<Dashboard>(page, "/api/dashboard");
      const lists = await figuresFromLists(page);
      const seen = (await apiGet<ClientSummary[]>(page, "/api/clients")).map((client) => client.id).sort();
      if (role === "user") {
        expect(assigned.length).toBeGreaterThan(0);
        expect(assigned.length).toBeLessThan(firmClients.length);
        expect(seen).toEqual(assigned.map((link) => link.clientId).sort());
      } else {
        expect(seen).toEqual(firmClients.map((client) => client.id).sort());
      }
      // The dashboard endpoint agrees with the lists the requirements compare against.
      expect(dashboard.clients).toMatchObject({
        total: lists.clients,
        active: lists.active,
        inactive: lists.inactive,
        withOverdueTasks: lists.affected,
      });
      expect(dashboard.tasks).toMatchObject({
        total: lists.tasks,
        pending: lists.pending,
        completed: lists.completed,
        overdue: lists.overdue,
      });

      await page.goto("/dashboard");
      const n = (value: number) => value.toLocaleString("en-US");
      await expect(stat(page, "Total Clients").getByTestId("stat-value")).toHaveText(n(lists.clients));
      await expect(stat(page, "Total Clients").getByTestId("stat-detail")).toHaveText(`${n(lists.active)} active`);
      await expect(stat(page, "Pending Tasks").getByTestId("stat-value")).toHaveText(n(lists.pending));
      await expect(stat(page, "Overdue Tasks").getByTestId("stat-value")).toHaveText(n(lists.overdue));
      await expect(stat(page, "Overdue Tasks").getByTestId("stat-detail")).toHaveText(
        `${n(lists.affected)} ${lists.affected === 1 ? "client" : "clients"} affected`,
      );
      await expect(stat(page, "Completed Tasks").getByTestId("stat-value")).toHaveText(n(lists.completed));

      await expect(page.getByRole("heading", { name: "Client Status Overview" })).toBeVisible();
      await expect(page.getByRole("listitem", { name: `Active Clients: ${lists.active}` })).toBeVisible();
      await expect(page.getByRole("listitem", { name: `Inactive Clients: ${lists.inactive}` })).toBeVisible();
      await expect(page.getByRole("listitem", { name: `Clients with Overdue Tasks: ${lists.affected}` })).toBeVisible();
      // Overdue counts the same in the bell as on the dashboard.
      await expect(page.getByRole("button", { name: `Overdue tasks: ${lists.overdue}` })).toBeVisible();
    });
  }

  test("S-DASH-08 S-DASH-09 S-DASH-10 S-DASH-11 S-DASH-12 S-DASH-13 quick actions show their counts and go to their pages", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const dashboard = await apiGet<Dashboard>(page, "/api/dashboard");
    const expected = [
      { name: "View Clients", href: "/clients", count: dashboard.clients.total, title: "Clients" },
      { name: "Manage Tasks", href: "/tasks", count: dashboard.tasks.total, title: "Task Audit" },
      { name: "View Reports", href: "/reports", title: "Reports" },
      { name: "Settings", href: "/settings", title: "Settings" },
      { name: "Manage Users", href: "/users", title: "User Management" },
      { name: "Templates", href: "/tasks", title: "Task Audit" },
    ];
    await page.goto("/dashboard");
    const main = page.getByRole("main");
    for (const action of expected) {
      const link = main.getByRole("link", { name: action.name });
      await expect(link).toHaveAttribute("href", action.href);
      if (action.count !== undefined) await expect(link).toContainText(action.count.toLocaleString("en-US"));
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${action.href}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(action.title);
      await page.goBack();
      await expect(page.getByRole("heading", { name: "Quick Actions" })).toBeVisible();
    }
  });

  for (const role of ["super_admin", "admin", "user"] satisfies Role[]) {
    test(`S-ROLE-06 quick actions follow the permission table as ${role}`, async ({ page }) => {
      const needs: Record<string, Action | undefined> = {
        "View Clients": "clients.read",
        "Manage Tasks": "clients.read",
        "View Reports": "reports.clientAudit",
        Settings: undefined,
        "Manage Users": "users.read",
        Templates: "templates.read",
      };
      await signInAs(page, role);
      await page.goto("/dashboard");
      await expect(page.getByRole("heading", { name: "Quick Actions" })).toBeVisible();
      const allowed = Object.entries(needs)
        .filter(([, action]) => !action || can(role, action))
        .map(([name]) => name);
      await expect(quickActions(page)).toHaveText(allowed.map((name) => new RegExp(`^${name}`)));
    });
  }

  test("S-API-29 S-API-30 S-API-31 one GET from the query key, no refetch on focus, no retry on failure", async ({
    page,
    browserConsole,
  }) => {
    // The dashboard's figures are made to fail once: the browser logs the 500.
    browserConsole.expectFailedRequest(500, "/api/dashboard");
    await page.clock.install();
    await signInAs(page, "admin");
    const calls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/dashboard") calls.push(request.method());
    });
    await page.goto("/dashboard");
    await expect(stat(page, "Total Clients")).toBeVisible();
    await page.evaluate(() => {
      window.dispatchEvent(new Event("focus"));
      document.dispatchEvent(new Event("visibilitychange"));
      window.dispatchEvent(new Event("online"));
    });
    await letTimePass(page, 60_000);
    expect(calls).toEqual(["GET"]);

    calls.length = 0;
    await page.route("**/api/dashboard", (route) =>
      route.fulfill({ status: 500, json: { message: "The figures are being recounted", code: "INTERNAL" } }),
    );
    await page.reload();
    await expect(page.getByRole("alert")).toContainText("The figures are being recounted");
    await letTimePass(page, 60_000);
    expect(calls).toEqual(["GET"]);
    await expect(page.getByText("[object Object]")).toHaveCount(0);
  });

  test("S-API-30 no refetch interval, no refetch on focus, data never stale: ten minutes, focus and a trip to another page bring no new GET", async ({
    page,
  }) => {
    // The page's timers run on a clock the test moves: ten minutes pass in a moment, and any
    // interval or delayed refetch would fire in them.
    await page.clock.install();
    await signInAs(page, "admin");
    const gets: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === "GET" && ["/api/dashboard", "/api/tasks/overdue"].includes(path)) gets.push(path);
    });
    await page.goto("/dashboard");
    await expect(stat(page, "Total Clients")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Overdue tasks: \d+$/ })).toBeVisible();
    expect(gets.sort()).toEqual(["/api/dashboard", "/api/tasks/overdue"]);

    await page.clock.runFor(10 * 60_000);
    await page.evaluate(() => {
      window.dispatchEvent(new Event("focus"));
      document.dispatchEvent(new Event("visibilitychange"));
      window.dispatchEvent(new Event("online"));
    });
    await page.clock.runFor(60_000);
    // Away to another page and back within the app: the cached figures are shown, not asked again.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Clients" }).click();
    await expect(page.getByRole("heading", { name: "Clients", level: 1 })).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await expect(stat(page, "Total Clients")).toBeVisible();
    await letTimePass(page, 60_000);
    expect(gets.sort()).toEqual(["/api/dashboard", "/api/tasks/overdue"]);
  });

  test("S-API-31 a failed query and a failed mutation are each sent once: no retry, however long one waits", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // A query and a mutation are made to fail: the browser logs each 500.
    browserConsole.expectFailedRequest(500, "/api/dashboard");
    browserConsole.expectFailedRequest(500, "/api/clients");
    // A retry is sent from a timer: a minute passes on the page's clock whenever the test waits.
    await page.clock.install();
    await ownFirm.signIn(page, "admin");
    const sent: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path === "/api/dashboard" || path === "/api/clients") sent.push(`${request.method()} ${path}`);
    });

    // A query: the dashboard's figures fail with a 500.
    await page.route("**/api/dashboard", (route) =>
      route.fulfill({ status: 500, json: { message: "The figures are being recounted", code: "INTERNAL" } }),
    );
    await page.goto("/dashboard");
    await expect(page.getByRole("alert")).toContainText("The figures are being recounted");
    // React Query's default would try three more times, 1, 2 and 4 s apart.
    await letTimePass(page, 60_000);
    expect(sent).toEqual(["GET /api/dashboard"]);

    // A mutation: creating a client fails with a 500 (nothing reaches the server).
    sent.length = 0;
    await page.route("**/api/clients", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 500, json: { message: "The client list is locked", code: "INTERNAL" } })
        : route.continue(),
    );
    await page.goto("/clients");
    await page.getByRole("button", { name: "New Client" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Client" });
    await dialog.getByLabel("Company Name *", { exact: true }).fill("Retry Probe LLC");
    await dialog.getByRole("button", { name: "Create Client" }).click();
    await expect(page.locator("[data-app-toast][data-state=open]")).toContainText("Failed to create client");
    await letTimePass(page, 60_000);
    expect(sent.filter((call) => call.startsWith("POST"))).toEqual(["POST /api/clients"]);
    expect((await apiGet<ClientSummary[]>(page, "/api/clients")).length).toBe(0);
  });

  test("the dashboard has no accessibility violations and fits at 1280 and 375 px", async ({ page }, testInfo) => {
    await signInAs(page, "super_admin");
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Client Status Overview" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "dashboard");
  });
});
