import { expect, type Page } from "@playwright/test";
import type { ClientDetail, ClientSummary } from "../src/shared/clients";
import type { Task } from "../src/shared/tasks";
import type { Template } from "../src/shared/templates";
import {
  assignClients,
  completeTaskByApi,
  createClient,
  createContact,
  createTask,
  createUser,
  daysFromNow,
  openClient,
  saveShot,
  signaturePng,
  signInWith,
  taskRow,
  uniqueName,
} from "./client-detail-helpers";
import {
  apiGet,
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  holdRequests,
  OwnFirm,
  signInAs,
  test,
  viewports,
} from "./fixtures";

const card = (page: Page, id: "client-info" | "contacts" | "team" | "tasks") => page.getByTestId(id);
const dialog = (page: Page) => page.getByRole("dialog");
const missingId = "00000000-0000-0000-0000-000000000000";

/**
 * A client with every field, two contacts (one primary) and three tasks, one signed off by the
 * signed-in user with `signer` as the printed name, in the page's (own) firm.
 */
async function richClient(page: Page, signer: string) {
  const created = await page.request.post("/api/task-templates", {
    data: {
      name: uniqueName("Monthly close"),
      description: "Close the month.",
      priority: "medium",
      frequency: "monthly",
    },
  });
  expect(created.status(), "create a template").toBe(201);
  const template = (await created.json()) as Template;
  const client = await createClient(page, {
    name: uniqueName("Harbor Dental"),
    industry: "Healthcare",
    address: "12 Quay Street, Portsmouth",
    phone: "+1 555 0134",
    email: "office@harbor-dental.example",
    status: "prospect",
    primaryContact: {
      name: "Dana Whitfield",
      title: "Practice Manager",
      phone: "+1 555 0135",
      email: "dana@harbor-dental.example",
    },
  });
  await createContact(page, client.id, {
    name: "Ravi Patel",
    title: "Bookkeeper",
    email: "ravi@harbor-dental.example",
  });
  const recurring = await createTask(page, client.id, {
    name: uniqueName("Monthly close"),
    description: "Reconcile the bank accounts.",
    templateId: template.id,
    dueDate: daysFromNow(10),
  });
  const overdue = await createTask(page, client.id, {
    name: uniqueName("Payroll filing"),
    description: "File the quarterly payroll return.",
    dueDate: daysFromNow(-3),
  });
  const done = await createTask(page, client.id, { name: uniqueName("Engagement letter"), dueDate: null });
  await completeTaskByApi(page, done.id, signer);
  return { client, recurring, overdue, done };
}

test.describe("client detail", () => {
  // Each test makes its own client, tasks and users over the API and runs axe: on two shared
  // cores, next to the other worker, the server and PostgreSQL, that can take longer than 30 s.
  test.describe.configure({ timeout: 120_000 });

  test("S-CDET-01 S-CDET-02 S-API-10 S-API-29 the page shows GET /api/clients/{id}, and the back link goes to /clients", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { industry: "Legal" });
    const api = await apiGet<ClientDetail>(page, `/api/clients/${client.id}`);
    expect(Object.keys(api)).toEqual(
      expect.arrayContaining(["id", "name", "industry", "address", "phone", "email", "status", "contacts", "tasks"]),
    );
    const read = page.waitForRequest((request) => new URL(request.url()).pathname === `/api/clients/${client.id}`);
    await page.goto(`/client/${client.id}`);
    expect((await read).method()).toBe("GET");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Client Details");
    await expect(page.getByRole("heading", { level: 2, name: client.name })).toBeVisible();
    const back = page.getByRole("link", { name: "Back to Clients" });
    await expect(back).toHaveAttribute("href", "/clients");
    await back.click();
    await expect(page).toHaveURL(/\/clients$/);
  });

  test('S-CDET-03 "Loading..." shows while the client loads', async ({ page, ownFirm }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    const release = await holdRequests(page, `**/api/clients/${client.id}`);
    await page.goto(`/client/${client.id}`);
    await expect(page.getByText("Loading...", { exact: true })).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 2, name: client.name })).toBeVisible();
    await expect(page.getByText("Loading...", { exact: true })).toHaveCount(0);
  });

  test('S-CDET-04 S-ERR-26 S-API-11 an unknown id shows "Client not found"', async ({ page, browserConsole }) => {
    // The page asks for a client that does not exist: the browser logs the 404.
    browserConsole.expectFailedRequest(404, "/api/clients/");
    await signInAs(page, "super_admin");
    expect((await page.request.get(`/api/clients/${missingId}`)).status()).toBe(404);
    await page.goto(`/client/${missingId}`);
    await expect(page.getByRole("heading", { name: "Client not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Clients" })).toBeVisible();
  });

  test('S-CDET-05 S-ROLE-19 S-API-11 another firm\'s client shows "Client not found", exactly like a missing one', async ({
    page,
    ownFirm,
    browser,
    browserConsole,
  }) => {
    // Firm B's page asks for firm A's client: the browser logs the 404.
    browserConsole.expectFailedRequest(404, "/api/clients/");
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    // Firm B: a new firm registered in its own browser context.
    const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const otherPage = await other.newPage();
    await OwnFirm.register(otherPage.request, "starter");
    const foreign = await otherPage.request.get(`/api/clients/${client.id}`);
    const missing = await otherPage.request.get(`/api/clients/${missingId}`);
    expect(foreign.status()).toBe(404);
    expect(missing.status()).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
    await otherPage.goto(`/client/${client.id}`);
    await expect(otherPage.getByRole("heading", { name: "Client not found" })).toBeVisible();
    await expect(otherPage.getByText(client.name)).toHaveCount(0);
    await other.close();
  });

  test("S-CDET-06 S-CDET-07 S-CDET-14 S-CDET-16 Client Information, Key Contacts and each task's fields", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const owner = await ownFirm.signIn(page, "super_admin");
    const { client, recurring, overdue, done } = await richClient(page, owner.fullName);
    await page.setViewportSize(viewports.desktop);
    await openClient(page, client);

    const info = card(page, "client-info");
    await expect(info.getByRole("heading", { name: "Client Information" })).toBeVisible();
    for (const text of [
      client.name,
      "Healthcare",
      "12 Quay Street, Portsmouth",
      "+1 555 0134",
      "office@harbor-dental.example",
      "Prospect",
    ]) {
      await expect(info.getByText(text, { exact: true })).toBeVisible();
    }

    const contacts = card(page, "contacts").getByTestId("contact");
    await expect(card(page, "contacts").getByRole("heading", { name: "Key Contacts" })).toBeVisible();
    await expect(contacts).toHaveCount(2);
    const dana = contacts.filter({ hasText: "Dana Whitfield" });
    await expect(dana.getByText("Primary", { exact: true })).toBeVisible();
    for (const text of ["Practice Manager", "+1 555 0135", "dana@harbor-dental.example"]) {
      await expect(dana.getByText(text)).toBeVisible();
    }
    const ravi = contacts.filter({ hasText: "Ravi Patel" });
    await expect(ravi.getByText("Bookkeeper")).toBeVisible();
    await expect(ravi.getByText("ravi@harbor-dental.example")).toBeVisible();
    await expect(ravi.getByText("Primary", { exact: true })).toHaveCount(0);

    // Each task: name, status badge, description and due date; Recurring only with a templateId.
    const recurringRow = taskRow(page, recurring.name);
    await expect(recurringRow.getByTestId("task-status")).toHaveText("Pending");
    await expect(recurringRow.getByText("Reconcile the bank accounts.")).toBeVisible();
    await expect(recurringRow.getByText(/^Due [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
    await expect(recurringRow.getByText("Recurring", { exact: true })).toBeVisible();
    const overdueRow = taskRow(page, overdue.name);
    await expect(overdueRow.getByTestId("task-status")).toHaveText("Overdue");
    await expect(overdueRow.getByText("File the quarterly payroll return.")).toBeVisible();
    await expect(overdueRow.getByText("Recurring", { exact: true })).toHaveCount(0);
    await expect(taskRow(page, done.name).getByText("No due date")).toBeVisible();
    await expect(taskRow(page, done.name).getByTestId("task-status")).toHaveText("Completed");

    await expectNoAxeViolations(page);
    await saveShot(page, testInfo, "detail-1280");
    await page.setViewportSize(viewports.mobile);
    await expect(card(page, "tasks")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
    await saveShot(page, testInfo, "detail-375");
  });

  test('S-CDET-08 S-CDET-11 with no contacts "No contacts added", with no team the text says super admins assign users', async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    await openClient(page, client);
    await expect(card(page, "contacts").getByText("No contacts added", { exact: true })).toBeVisible();
    await expect(card(page, "team").getByTestId("team-count")).toHaveText("0");
    await expect(card(page, "team").getByText(/Super admins can assign users/)).toBeVisible();
    await expect(card(page, "tasks").getByText("0 of 0 tasks completed")).toBeVisible();
    await expect(card(page, "tasks").getByText("No tasks yet")).toBeVisible();
    await expectNoAxeViolations(page);
    await saveShot(page, testInfo, "empty-1280");
    await page.setViewportSize(viewports.mobile);
    await expectNoHorizontalScroll(page);
    await saveShot(page, testInfo, "empty-375");
  });

  test("S-CDET-09 S-CDET-10 Assigned Team counts the assigned users and lists name, @username and role", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "super_admin");
    const client = await createClient(page);
    const first = await createUser(page, "user");
    const second = await createUser(page, "admin");
    await assignClients(page, first.id, [client.id]);
    await assignClients(page, second.id, [client.id]);
    await openClient(page, client);
    const team = card(page, "team");
    await expect(team.getByTestId("team-count")).toHaveText("2");
    await expect(team.getByTestId("team-member")).toHaveCount(2);
    for (const [member, role] of [
      [first, "user"],
      [second, "admin"],
    ] as const) {
      const row = team.getByTestId("team-member").filter({ hasText: member.fullName });
      await expect(row.getByText(`@${member.username}`)).toBeVisible();
      await expect(row.getByText(role, { exact: true })).toBeVisible();
    }
  });

  test('S-CDET-12 S-CDET-15 S-CDET-17 S-CDET-18 "N of M tasks completed", who completed what, and Complete only on open work, red when overdue', async ({
    page,
    ownFirm,
  }) => {
    const owner = await ownFirm.signIn(page, "super_admin");
    const { client, recurring, overdue, done } = await richClient(page, owner.fullName);
    await openClient(page, client);
    await expect(card(page, "tasks").getByText("1 of 3 tasks completed", { exact: true })).toBeVisible();

    const doneRow = taskRow(page, done.name);
    await expect(doneRow.getByTestId("task-completed")).toHaveText(
      new RegExp(`^Completed [A-Z][a-z]{2} \\d{1,2}, \\d{4} by ${owner.fullName}$`),
    );
    await expect(doneRow.getByRole("button")).toHaveCount(0);

    const pendingComplete = taskRow(page, recurring.name).getByRole("button", { name: "Complete" });
    const overdueComplete = taskRow(page, overdue.name).getByRole("button", { name: "Complete" });
    await expect(pendingComplete).toBeVisible();
    await expect(overdueComplete).toBeVisible();
    // Red is the destructive token, the same one the bell's count and overdue badges use.
    await expect(overdueComplete).toHaveClass(/bg-destructive/);
    await expect(pendingComplete).not.toHaveClass(/bg-destructive/);
    const red = await overdueComplete.evaluate((element) => getComputedStyle(element).backgroundColor);
    const badgeRed = await taskRow(page, overdue.name)
      .getByTestId("task-status")
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(red).toBe(badgeRed);
  });

  test("S-CDET-13 S-API-16 Add Task creates a pending task through POST /api/tasks and lists it", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    await openClient(page, client);
    await card(page, "tasks").getByRole("button", { name: "Add Task" }).click();
    await expect(dialog(page).getByRole("heading", { name: "Add Task" })).toBeVisible();
    await saveShot(page, testInfo, "add-task-1280", { fullPage: false });

    // The name is required, with its required message, before anything is sent.
    let posted = 0;
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/tasks") posted += 1;
    });
    await dialog(page).getByRole("button", { name: "Add Task" }).click();
    await expect(dialog(page).getByText("Name is required")).toBeVisible();
    expect(posted).toBe(0);

    const name = uniqueName("Prepare year-end accounts");
    await dialog(page).getByLabel("Task Name *").fill(name);
    await dialog(page).getByLabel("Description").fill("Draft the statements for review.");
    await dialog(page).getByRole("combobox", { name: "Priority" }).click();
    await page.getByRole("option", { name: "High" }).click();
    await dialog(page).getByLabel("Due Date").fill("2031-03-15");
    const request = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/tasks");
    await dialog(page).getByRole("button", { name: "Add Task" }).click();
    const body = (await request).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      name,
      description: "Draft the statements for review.",
      priority: "high",
      clientId: client.id,
      status: "pending",
    });
    expect(typeof body.dueDate).toBe("string");
    await expect(page.getByText("Task created successfully!")).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    const row = taskRow(page, name);
    await expect(row.getByTestId("task-status")).toHaveText("Pending");
    await expect(row.getByText("Due Mar 15, 2031")).toBeVisible();
    await expect(row.getByText("High priority")).toBeVisible();
    await expect(card(page, "tasks").getByText("0 of 1 tasks completed")).toBeVisible();

    // Without a due date the task is stored with none (S-API-16: dueDate null).
    await card(page, "tasks").getByRole("button", { name: "Add Task" }).click();
    const plain = uniqueName("Call the client");
    await dialog(page).getByLabel("Task Name *").fill(plain);
    const second = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/tasks");
    await dialog(page).getByRole("button", { name: "Add Task" }).click();
    expect((await second).postDataJSON()).toMatchObject({ name: plain, dueDate: null, status: "pending" });
    await expect(taskRow(page, plain).getByText("No due date")).toBeVisible();
  });

  test("open tasks can be edited and deleted (with a confirmation); a completed task cannot", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    const task = await createTask(page, client.id, { name: uniqueName("Draft"), dueDate: null });
    const gone = await createTask(page, client.id, { name: uniqueName("Obsolete") });
    const done = await createTask(page, client.id, { name: uniqueName("Signed") });
    await completeTaskByApi(page, done.id);
    await openClient(page, client);

    await taskRow(page, task.name)
      .getByRole("button", { name: `Edit ${task.name}` })
      .click();
    await expect(dialog(page).getByRole("heading", { name: "Edit Task" })).toBeVisible();
    await expect(dialog(page).getByLabel("Task Name *")).toHaveValue(task.name);
    const renamed = uniqueName("Final draft");
    await dialog(page).getByLabel("Task Name *").fill(renamed);
    await dialog(page).getByLabel("Due Date").fill("2031-06-30");
    const patch = page.waitForRequest((r) => r.method() === "PATCH" && r.url().endsWith(`/api/tasks/${task.id}`));
    await dialog(page).getByRole("button", { name: "Save Changes" }).click();
    expect((await patch).postDataJSON()).toMatchObject({ name: renamed });
    await expect(page.getByText("Task updated successfully!")).toBeVisible();
    await expect(taskRow(page, renamed).getByText("Due Jun 30, 2031")).toBeVisible();

    await taskRow(page, gone.name)
      .getByRole("button", { name: `Delete ${gone.name}` })
      .click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText(/This action cannot be undone/)).toBeVisible();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(taskRow(page, gone.name)).toBeVisible();
    await taskRow(page, gone.name)
      .getByRole("button", { name: `Delete ${gone.name}` })
      .click();
    const removal = page.waitForRequest((r) => r.method() === "DELETE" && r.url().endsWith(`/api/tasks/${gone.id}`));
    await confirm.getByRole("button", { name: "Delete Task" }).click();
    await removal;
    await expect(taskRow(page, gone.name)).toHaveCount(0);
    const tasks = (await apiGet<ClientDetail>(page, `/api/clients/${client.id}`)).tasks;
    expect(tasks.map((t: Task) => t.id)).not.toContain(gone.id);

    const doneRow = taskRow(page, done.name);
    await expect(doneRow.getByRole("button", { name: `Edit ${done.name}` })).toHaveCount(0);
    await expect(doneRow.getByRole("button", { name: `Delete ${done.name}` })).toHaveCount(0);
  });

  test("S-VAL-13 S-VAL-14 contacts: add, edit, delete with a confirmation; a new primary replaces the old one", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { primaryContact: { name: "First Primary" } });
    await openClient(page, client);
    const contacts = card(page, "contacts");

    await contacts.getByRole("button", { name: "Add Contact" }).click();
    await dialog(page).getByLabel("Email").fill("x@");
    await dialog(page).getByRole("button", { name: "Add Contact" }).click();
    await expect(dialog(page).getByText("Contact name is required")).toBeVisible();
    await expect(dialog(page).getByText("Invalid email address")).toBeVisible();
    await saveShot(page, testInfo, "contact-dialog-errors-1280", { fullPage: false });

    await dialog(page).getByLabel("Contact Name *").fill("Second Primary");
    await dialog(page).getByLabel("Title").fill("Controller");
    await dialog(page).getByLabel("Email").fill("second@example.com");
    await dialog(page).getByLabel("Primary contact").check();
    await dialog(page).getByRole("button", { name: "Add Contact" }).click();
    await expect(page.getByText("Contact added successfully!")).toBeVisible();
    const second = contacts.getByTestId("contact").filter({ hasText: "Second Primary" });
    const first = contacts.getByTestId("contact").filter({ hasText: "First Primary" });
    await expect(second.getByText("Primary", { exact: true })).toBeVisible();
    await expect(first.getByText("Primary", { exact: true })).toHaveCount(0);
    await expect(contacts.getByText("Primary", { exact: true })).toHaveCount(1);

    await first.getByRole("button", { name: "Edit First Primary" }).click();
    await dialog(page).getByLabel("Contact Name *").fill("First Renamed");
    await dialog(page).getByLabel("Phone").fill("+1 555 0199");
    await dialog(page).getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Contact updated successfully!")).toBeVisible();
    const renamed = contacts.getByTestId("contact").filter({ hasText: "First Renamed" });
    await expect(renamed.getByText("+1 555 0199")).toBeVisible();

    await renamed.getByRole("button", { name: "Delete First Renamed" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText(/First Renamed will be removed/)).toBeVisible();
    await confirm.getByRole("button", { name: "Delete Contact" }).click();
    await expect(contacts.getByTestId("contact")).toHaveCount(1);
    const stored = await apiGet<ClientDetail>(page, `/api/clients/${client.id}`);
    expect(stored.contacts.map((c) => [c.name, c.isPrimary])).toEqual([["Second Primary", true]]);
  });

  test("S-VAL-09 S-VAL-10 S-ROLE-08 an admin edits the client and archives it after a confirmation", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { industry: "Retail" });
    const task = await createTask(page, client.id);
    await completeTaskByApi(page, task.id);
    await openClient(page, client);

    await page.getByRole("button", { name: "Edit Client" }).click();
    await dialog(page).getByLabel("Company Name *").fill("");
    await dialog(page).getByLabel("Email").fill("foo@");
    await dialog(page).getByRole("button", { name: "Save Changes" }).click();
    await expect(dialog(page).getByText("Company name is required")).toBeVisible();
    await expect(dialog(page).getByText("Invalid email address")).toBeVisible();
    await saveShot(page, testInfo, "edit-client-errors-1280", { fullPage: false });
    const renamed = uniqueName("Renamed Retail");
    await dialog(page).getByLabel("Company Name *").fill(renamed);
    await dialog(page).getByLabel("Email").fill("");
    await dialog(page).getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Inactive" }).click();
    await dialog(page).getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Client updated successfully!")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: renamed })).toBeVisible();
    await expect(card(page, "client-info").getByText("Inactive", { exact: true })).toBeVisible();

    await page.getByRole("button", { name: "Archive" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText(/leaves the client list/)).toBeVisible();
    await expect(confirm.getByText(/signed-off work are kept/)).toBeVisible();
    await expectNoAxeViolations(page);
    await saveShot(page, testInfo, "archive-confirm-1280", { fullPage: false });
    await confirm.getByRole("button", { name: "Archive Client" }).click();
    await expect(page).toHaveURL(/\/clients$/);
    const listed = await apiGet<ClientSummary[]>(page, "/api/clients");
    expect(listed.map((c) => c.id)).not.toContain(client.id);
    // Archived, not deleted: the client and its signed work are still there.
    const archived = await apiGet<ClientDetail>(page, `/api/clients/${client.id}`);
    expect(archived.archivedAt).not.toBeNull();
    const signed = archived.tasks[0]?.signature ?? "";
    expect((await page.request.get(signed)).headers()["content-type"]).toBe("image/png");
    await openClient(page, { id: client.id, name: renamed });
    await expect(page.getByText(/This client is archived/)).toBeVisible();
  });

  test("S-EDGE-10 an archived client says Archived once and offers no Complete or Edit on its open tasks, saying why, until it is restored", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { industry: "Retail", status: "active" });
    const open = await createTask(page, client.id, { name: uniqueName("Year-end review"), dueDate: daysFromNow(-2) });
    const signed = await createTask(page, client.id, { name: uniqueName("Engagement letter") });
    await completeTaskByApi(page, signed.id, "Kept Evidence");
    expect((await page.request.delete(`/api/clients/${client.id}`)).status()).toBe(204);

    await openClient(page, client);
    const heading = page.getByRole("heading", { level: 2, name: client.name });
    const headerBadges = heading.locator("..");
    await expect(headerBadges.getByText("Archived", { exact: true })).toBeVisible();
    await expect(headerBadges.getByText("Active", { exact: true })).toHaveCount(0);
    await expect(card(page, "client-info").getByText("Active once restored")).toBeVisible();
    await expect(page.getByText("Active", { exact: true })).toHaveCount(0);

    const openRow = taskRow(page, open.name);
    await expect(openRow.getByTestId("task-status")).toHaveText("Overdue");
    await expect(openRow.getByRole("button")).toHaveCount(0);
    await expect(card(page, "tasks").getByTestId("archived-tasks-note")).toHaveText(
      "This client is archived, so its open tasks cannot be completed or changed. Restore the client to work on them.",
    );
    // The signed work stays readable.
    await expect(taskRow(page, signed.name).getByTestId("task-completed")).toContainText("(signed as “Kept Evidence”)");
    await expect(card(page, "tasks").getByRole("button", { name: "Add Task" })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await saveShot(page, testInfo, "archived-client-1280");
    await page.setViewportSize(viewports.mobile);
    await expectNoHorizontalScroll(page);
    await saveShot(page, testInfo, "archived-client-375");
    await page.setViewportSize(viewports.desktop);

    // The server refuses a sign-off just as clearly, whatever the screen offers.
    const refused = await page.request.patch(`/api/tasks/${open.id}/complete`, {
      data: { signature: signaturePng(), printedName: "Too Early" },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toEqual({
      message: "This client is archived. Restore it before signing off its tasks.",
      code: "CONFLICT",
    });

    await page.getByRole("button", { name: "Restore Client" }).click();
    await expect(page.getByText("Client restored")).toBeVisible();
    await expect(headerBadges.getByText("Active", { exact: true })).toBeVisible();
    await expect(headerBadges.getByText("Archived", { exact: true })).toHaveCount(0);
    await expect(card(page, "tasks").getByTestId("archived-tasks-note")).toHaveCount(0);
    await expect(openRow.getByRole("button", { name: "Complete" })).toBeVisible();
    await expect(openRow.getByRole("button", { name: `Edit ${open.name}` })).toBeVisible();
  });

  test("S-ROLE-06 S-ROLE-07 S-ROLE-08 S-ROLE-09 a user sees task actions on an assigned client and no client or contact actions", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The user opens a client not assigned to them: the browser logs the 404.
    browserConsole.expectFailedRequest(404, "/api/clients/");
    await ownFirm.signIn(page, "super_admin");
    const client = await createClient(page, { primaryContact: { name: "Pat Contact" } });
    const unassigned = await createClient(page);
    const task = await createTask(page, client.id, { name: uniqueName("User task") });
    const staff = await createUser(page, "user");
    await assignClients(page, staff.id, [client.id]);
    await signInWith(page, staff);

    await openClient(page, client);
    await expect(card(page, "tasks").getByRole("button", { name: "Add Task" })).toBeVisible();
    await expect(taskRow(page, task.name).getByRole("button", { name: "Complete" })).toBeVisible();
    await expect(taskRow(page, task.name).getByRole("button", { name: `Edit ${task.name}` })).toBeVisible();
    for (const name of ["Edit Client", "Archive", "Add Contact", "Edit Pat Contact", "Delete Pat Contact"]) {
      await expect(page.getByRole("button", { name })).toHaveCount(0);
    }
    // What the page hides, the server refuses.
    expect((await page.request.post("/api/contacts", { data: { name: "X", clientId: client.id } })).status()).toBe(403);
    expect((await page.request.delete(`/api/clients/${client.id}`)).status()).toBe(403);
    expect((await page.request.patch(`/api/clients/${client.id}`, { data: { name: "Y" } })).status()).toBe(403);

    await page.goto(`/client/${unassigned.id}`);
    await expect(page.getByRole("heading", { name: "Client not found" })).toBeVisible();
  });

  test("the open dialogs pass axe and fit a 375 px screen", async ({ page, ownFirm }, testInfo) => {
    const owner = await ownFirm.signIn(page, "super_admin");
    const { client, recurring } = await richClient(page, owner.fullName);
    await page.setViewportSize(viewports.mobile);
    await openClient(page, client);
    const dialogs = [
      { open: () => card(page, "tasks").getByRole("button", { name: "Add Task" }).click(), shot: "add-task-375" },
      {
        open: () =>
          taskRow(page, recurring.name)
            .getByRole("button", { name: `Edit ${recurring.name}` })
            .click(),
        shot: "edit-task-375",
      },
      { open: () => card(page, "contacts").getByRole("button", { name: "Add Contact" }).click(), shot: "contact-375" },
      { open: () => page.getByRole("button", { name: "Edit Client" }).click(), shot: "edit-client-375" },
    ];
    for (const { open, shot } of dialogs) {
      await open();
      await expect(dialog(page)).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectNoAxeViolations(page, { popupOpen: true });
      await saveShot(page, testInfo, shot, { fullPage: false });
      await page.keyboard.press("Escape");
      await expect(dialog(page)).toHaveCount(0);
    }
  });
});
