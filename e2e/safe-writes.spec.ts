import { type APIRequestContext, expect, type Locator, type Page, type Request } from "@playwright/test";
import type { ClientDetail, ClientSummary, Contact } from "../src/shared/clients";
import type { Firm } from "../src/shared/firm";
import type { AuditEvent } from "../src/shared/reports";
import type { Task } from "../src/shared/tasks";
import type { Template } from "../src/shared/templates";
import type { UserSummary } from "../src/shared/users";
import { createClient, createTask, drawSignature, openClient, taskRow, uniqueName } from "./client-detail-helpers";
import { holdRequests, test } from "./fixtures";
import { peoplePassword, uniqueUsername } from "./users-support";

/*
 * Safe writes in the browser (docs/decisions/0030): an edit made against an older version is
 * refused and the form offers the other person's version; an edit sends only what changed; a
 * submit sends one request however fast it is repeated; and a dialog keeps one Idempotency-Key
 * for all its submits. Every test writes in a firm of its own, so the counts read back are exact.
 */

const dialog = (page: Page) => page.getByRole("dialog");
const openToast = (page: Page) => page.locator("[data-app-toast][data-state=open]");

/** The requests the page sends from now on with this method to this path, in the order sent. */
function recordRequests(page: Page, method: string, path: string): Request[] {
  const sent: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) sent.push(request);
  });
  return sent;
}

/** GET an API path through `api` (the firm owner's own request context, not a page's). */
async function read<T>(api: APIRequestContext, url: string): Promise<T> {
  const response = await api.get(url);
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

/** The Complete Task dialog of `taskName`, opened and settled so the pad can be drawn on. */
async function openCompletion(page: Page, taskName: string) {
  await taskRow(page, taskName).getByRole("button", { name: "Complete" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Complete Task" })).toBeVisible();
  // The dialog zooms in from 95%: drawn on before that ends, the stroke lands a pixel off.
  await dialog(page).evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
  );
  await drawSignature(page, dialog(page).locator("canvas"));
  await dialog(page).getByLabel("Print Name").fill("Theo Marsh");
}

/** The task's sign-offs as the audit trail records them. */
async function signOffs(api: APIRequestContext, taskId: string): Promise<AuditEvent[]> {
  const events = await read<AuditEvent[]>(api, `/api/audit-events?entity=task&entityId=${taskId}`);
  return events.filter((event) => event.action === "task.completed");
}

/** One edit form and what the S-SAFE-04/05 walk through it changes, as the person and as a colleague. */
type EditWalk = {
  /** Opens the form on the record as it is now: the dialog, or the form on its page. */
  open: () => Promise<Locator>;
  /** What is edited, as the form's notice names it. */
  entity: string;
  /** The record's API path, where the colleague changes it and the form sends its change. */
  path: string;
  /** The colleague's change to another field than the person's, over the API. */
  theirs: Record<string, unknown>;
  /** For a record replaced whole (PUT): the rest of it, which the colleague sends with their change. */
  replacedWhole?: Record<string, unknown>;
  /** The form shows the colleague's change, once their version is loaded. */
  theirsShown: (form: Locator) => Promise<void>;
  /**
   * The field the person changes (after `prepare`, which opens it), what they type, and what the
   * form sends for it.
   */
  mine: { prepare?: (form: Locator) => Promise<void>; label: string; typed: string; sent: Record<string, unknown> };
  save: string;
  /** The toast of a save that went through. */
  saved: string;
};

/**
 * The form is opened, a colleague changes another field over the API, then the person changes
 * theirs and saves: the save sends only that field with If-Match naming the version the form
 * opened on (S-SAFE-04), is refused, and the form says so; nothing of the person's is written.
 * "Load their version" shows the colleague's change and keeps what was typed (S-SAFE-05); saved
 * again against the colleague's version, both changes are kept.
 */
async function walkEditConflict(page: Page, api: APIRequestContext, walk: EditWalk) {
  const form = await walk.open();
  const field = form.getByLabel(walk.mine.label);
  await expect(form.getByRole("button", { name: walk.save })).toBeVisible();
  const opened = await read<{ version: number }>(api, walk.path);
  const method = walk.replacedWhole ? "PUT" : "PATCH";
  const change = await api.fetch(walk.path, { method, data: { ...walk.replacedWhole, ...walk.theirs } });
  expect(change.status(), `the colleague's change to ${walk.entity}: ${await change.text()}`).toBe(200);

  await walk.mine.prepare?.(form);
  await field.fill(walk.mine.typed);
  const save = async (version: number) => {
    const [sent] = await Promise.all([
      page.waitForRequest((request) => request.method() === method && new URL(request.url()).pathname === walk.path),
      form.getByRole("button", { name: walk.save }).click(),
    ]);
    const body = sent.postDataJSON() as Record<string, unknown>;
    // A PATCH sends the changed field alone; a PUT the whole record, the change in it.
    if (walk.replacedWhole) expect(body, walk.entity).toMatchObject(walk.mine.sent);
    else expect(body, walk.entity).toEqual(walk.mine.sent);
    expect(await sent.headerValue("if-match"), walk.entity).toBe(`"${version}"`);
  };
  await save(opened.version);
  await expect(
    form.getByText(
      `Someone else changed this ${walk.entity} while you were editing it. Your changes have not been saved.`,
    ),
  ).toBeVisible();
  const refused = await read<Record<string, unknown>>(api, walk.path);
  expect(refused, walk.entity).toMatchObject({ ...walk.theirs, version: opened.version + 1 });
  expect(refused, walk.entity).not.toMatchObject(walk.mine.sent);

  await form.getByRole("button", { name: "Load their version" }).click();
  await expect(form.getByText(`Their version of this ${walk.entity} is loaded.`, { exact: false })).toBeVisible();
  await walk.theirsShown(form);
  await expect(field).toHaveValue(walk.mine.typed);
  await save(opened.version + 1);
  await expect(page.locator("[data-app-toast][data-state=open]").filter({ hasText: walk.saved })).toBeVisible();
  expect(await read<Record<string, unknown>>(api, walk.path), walk.entity).toMatchObject({
    ...walk.theirs,
    ...walk.mine.sent,
    version: opened.version + 2,
  });
}

test.describe("safe writes", () => {
  // Two signed-in browsers, several saves and API reads each, on two cores the other worker shares.
  test.describe.configure({ timeout: 120_000 });

  test("S-SAFE-05 two colleagues edit one client: the later save is refused with a notice, loads the other's version keeping the typed address, and both changes are kept", async ({
    page,
    browser,
    baseURL,
    ownFirm,
    browserConsole,
  }) => {
    // The refused save (412) is a failed resource the browser logs; the test provokes it.
    browserConsole.expectFailedRequest(412, "/api/clients/");
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { industry: "Retail", phone: "+1 555 0100", address: "1 Old Road" });
    const colleagueContext = await browser.newContext({ baseURL });
    const colleague = await colleagueContext.newPage();
    await ownFirm.signIn(colleague, "super_admin");

    // A opens Edit Client first, on the client as it is now.
    await openClient(page, client);
    await page.getByRole("button", { name: "Edit Client" }).click();
    const mine = dialog(page);
    await expect(mine.getByLabel("Phone")).toHaveValue("+1 555 0100");

    // B changes the phone and the industry while A's dialog is open.
    await openClient(colleague, client);
    await colleague.getByRole("button", { name: "Edit Client" }).click();
    await dialog(colleague).getByLabel("Phone").fill("+1 555 0199");
    await dialog(colleague).getByLabel("Industry").fill("Hospitality");
    await dialog(colleague).getByRole("button", { name: "Save Changes" }).click();
    await expect(colleague.getByText("Client updated successfully!")).toBeVisible();

    // A changes only the address. The server refuses it (412: the browser logs that failed
    // PATCH /api/clients/{id} as a console error, which this test provokes on purpose).
    await mine.getByLabel("Address").fill("22 New Street");
    await mine.getByRole("button", { name: "Save Changes" }).click();
    await expect(
      mine.getByText("Someone else changed this client while you were editing it. Your changes have not been saved."),
    ).toBeVisible();
    // The notice says it all: no toast of success, nor one of failure beside it.
    await expect(openToast(page)).toHaveCount(0);
    expect(await read<ClientDetail>(ownFirm.api, `/api/clients/${client.id}`)).toMatchObject({
      phone: "+1 555 0199",
      industry: "Hospitality",
      address: "1 Old Road",
      version: client.version + 1,
    });

    await mine.getByRole("button", { name: "Load their version" }).click();
    await expect(mine.getByText(/^Their version of this client is loaded\./)).toBeVisible();
    await expect(mine.getByLabel("Phone")).toHaveValue("+1 555 0199");
    await expect(mine.getByLabel("Industry")).toHaveValue("Hospitality");
    await expect(mine.getByLabel("Address")).toHaveValue("22 New Street");
    await mine.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Client updated successfully!")).toBeVisible();
    await expect(mine).toBeHidden();

    await page.reload();
    const info = page.getByTestId("client-info");
    await expect(info.getByText("+1 555 0199")).toBeVisible();
    await expect(info.getByText("Hospitality")).toBeVisible();
    await expect(info.getByText("22 New Street")).toBeVisible();
    expect(await read<ClientDetail>(ownFirm.api, `/api/clients/${client.id}`)).toMatchObject({
      phone: "+1 555 0199",
      industry: "Hospitality",
      address: "22 New Street",
      version: client.version + 2,
    });
    await colleagueContext.close();
  });

  test("S-SAFE-05 one person in two tabs of Settings: the firm name saved after the other tab's time zone is refused, then saved on their version with both kept", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The refused save (412) is a failed resource the browser logs; the test provokes it.
    browserConsole.expectFailedRequest(412, "/api/firm");
    await ownFirm.signIn(page);
    const before = await read<Firm>(ownFirm.api, "/api/firm");
    expect(before.timeZone, "the zone the other tab picks is a change").not.toBe("Europe/London");
    const otherTab = await page.context().newPage();
    await page.goto("/settings");
    await otherTab.goto("/settings");
    const mine = page.getByRole("form", { name: "Firm settings" });
    const theirs = otherTab.getByRole("form", { name: "Firm settings" });
    await expect(mine.getByLabel("Firm name")).toHaveValue(before.name);
    await expect(theirs.getByLabel("Firm name")).toHaveValue(before.name);

    await theirs.getByRole("combobox", { name: "Time zone" }).click();
    await otherTab.getByRole("option", { name: "Europe/London" }).click();
    await theirs.getByRole("button", { name: "Save firm settings" }).click();
    await expect(otherTab.getByText("Firm settings saved")).toBeVisible();

    // Refused with 412, which the browser logs as a failed PATCH /api/firm: expected here.
    const name = uniqueName("Harbor Ledger LLP");
    await mine.getByLabel("Firm name").fill(name);
    await mine.getByRole("button", { name: "Save firm settings" }).click();
    await expect(
      mine.getByText(
        "Someone else changed this firm's settings while you were editing it. Your changes have not been saved.",
      ),
    ).toBeVisible();
    expect(await read<Firm>(ownFirm.api, "/api/firm")).toMatchObject({ name: before.name, timeZone: "Europe/London" });

    await mine.getByRole("button", { name: "Load their version" }).click();
    await expect(mine.getByText(/^Their version of this firm's settings is loaded\./)).toBeVisible();
    await expect(mine.getByRole("combobox", { name: "Time zone" })).toContainText("Europe/London");
    await expect(mine.getByLabel("Firm name")).toHaveValue(name);
    await mine.getByRole("button", { name: "Save firm settings" }).click();
    await expect(page.getByText("Firm settings saved")).toBeVisible();

    await page.reload();
    await expect(mine.getByLabel("Firm name")).toHaveValue(name);
    await expect(mine.getByRole("combobox", { name: "Time zone" })).toContainText("Europe/London");
    expect(await read<Firm>(ownFirm.api, "/api/firm")).toMatchObject({
      name,
      timeZone: "Europe/London",
      version: before.version + 2,
    });
  });

  test("S-SAFE-04 Edit Client sends only the changed field, with If-Match naming the version it opened on", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { industry: "Retail", phone: "+1 555 0100" });
    await openClient(page, client);
    const isPatch = (request: Request) =>
      request.method() === "PATCH" && new URL(request.url()).pathname === `/api/clients/${client.id}`;

    await page.getByRole("button", { name: "Edit Client" }).click();
    await dialog(page).getByLabel("Phone").fill("+1 555 0142");
    const [phoneEdit] = await Promise.all([
      page.waitForRequest(isPatch),
      dialog(page).getByRole("button", { name: "Save Changes" }).click(),
    ]);
    expect(phoneEdit.postDataJSON()).toEqual({ phone: "+1 555 0142" });
    expect(await phoneEdit.headerValue("if-match")).toBe(`"${client.version}"`);
    await expect(page.getByText("Client updated successfully!")).toBeVisible();
    await expect(dialog(page)).toBeHidden();

    // Opened again, the dialog edits the version the first save made.
    await page.getByRole("button", { name: "Edit Client" }).click();
    await expect(dialog(page).getByLabel("Phone")).toHaveValue("+1 555 0142");
    await dialog(page).getByLabel("Industry").fill("Wholesale");
    const [industryEdit] = await Promise.all([
      page.waitForRequest(isPatch),
      dialog(page).getByRole("button", { name: "Save Changes" }).click(),
    ]);
    expect(industryEdit.postDataJSON()).toEqual({ industry: "Wholesale" });
    expect(await industryEdit.headerValue("if-match")).toBe(`"${client.version + 1}"`);
    await expect(dialog(page)).toBeHidden();
    expect(await read<ClientDetail>(ownFirm.api, `/api/clients/${client.id}`)).toMatchObject({
      phone: "+1 555 0142",
      industry: "Wholesale",
      version: client.version + 2,
    });
  });

  test("S-SAFE-04 S-SAFE-05 every edit form (client, contact, task, template, firm settings, deadlines) sends only the changed field against the version it opened on; a colleague's change in between is refused with the notice, loaded, and kept beside the person's own", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // Six forms, each on a page of its own, with two saves and API reads each.
    test.setTimeout(240_000);
    // Six refused saves (412), each a failed resource the browser logs: the test provokes them.
    for (const path of ["/api/clients/", "/api/contacts/", "/api/tasks/", "/api/task-templates/", "/api/firm"]) {
      browserConsole.expectFailedRequest(412, path);
    }
    await ownFirm.signIn(page);
    const api = ownFirm.api;
    const created = async <T>(url: string, data: object): Promise<T> => {
      const response = await api.post(url, { data });
      expect(response.status(), `${url}: ${await response.text()}`).toBe(201);
      return (await response.json()) as T;
    };
    const client = await created<ClientDetail>("/api/clients", {
      name: uniqueName("Juniper Ledger"),
      phone: "+1 555 0100",
    });
    const contact = await created<Contact>("/api/contacts", {
      clientId: client.id,
      name: "Ada Moss",
      phone: "+1 555 0110",
    });
    const task = await created<Task>("/api/tasks", {
      clientId: client.id,
      name: uniqueName("Year-end accounts"),
      priority: "medium",
    });
    const template = await created<Template>("/api/task-templates", {
      name: uniqueName("Payroll run"),
      description: "Run the month's payroll.",
      priority: "medium",
    });
    const onSettings = async (form: string) => {
      await page.goto("/settings");
      return page.getByRole("form", { name: form });
    };
    const onClientPage = async (button: string, dialogName: string) => {
      await openClient(page, client);
      await page.getByRole("button", { name: button, exact: true }).click();
      return page.getByRole("dialog", { name: dialogName });
    };
    const theirTaskName = uniqueName("Year-end accounts and tax");
    const theirTemplateName = uniqueName("Payroll run and pensions");

    const forms: EditWalk[] = [
      {
        open: () => onClientPage("Edit Client", "Edit Client"),
        entity: "client",
        path: `/api/clients/${client.id}`,
        theirs: { phone: "+1 555 0199" },
        theirsShown: (form) => expect(form.getByLabel("Phone")).toHaveValue("+1 555 0199"),
        mine: { label: "Address", typed: "22 New Street", sent: { address: "22 New Street" } },
        save: "Save Changes",
        saved: "Client updated successfully!",
      },
      {
        open: () => onClientPage(`Edit ${contact.name}`, "Edit Contact"),
        entity: "contact",
        path: `/api/contacts/${contact.id}`,
        theirs: { phone: "+1 555 0177" },
        theirsShown: (form) => expect(form.getByLabel("Phone")).toHaveValue("+1 555 0177"),
        mine: { label: "Title", typed: "Finance Director", sent: { title: "Finance Director" } },
        save: "Save Changes",
        saved: "Contact updated successfully!",
      },
      {
        open: () => onClientPage(`Edit ${task.name}`, "Edit Task"),
        entity: "task",
        path: `/api/tasks/${task.id}`,
        theirs: { name: theirTaskName },
        theirsShown: (form) => expect(form.getByLabel("Task Name *")).toHaveValue(theirTaskName),
        mine: {
          label: "Description",
          typed: "Bring the signed engagement letter.",
          sent: { description: "Bring the signed engagement letter." },
        },
        save: "Save Changes",
        saved: "Task updated successfully!",
      },
      {
        open: async () => {
          await page.goto("/tasks?tab=templates");
          await page.getByRole("article", { name: template.name }).getByRole("button", { name: "Edit" }).click();
          return page.getByRole("dialog", { name: "Edit Task Template" });
        },
        entity: "template",
        path: `/api/task-templates/${template.id}`,
        // A template is replaced whole (PUT): the colleague sends it all, and so does the form.
        replacedWhole: {
          description: template.description,
          priority: template.priority,
          frequency: template.frequency,
        },
        theirs: { name: theirTemplateName },
        theirsShown: (form) => expect(form.getByLabel("Name")).toHaveValue(theirTemplateName),
        mine: {
          label: "Description",
          typed: "Run the payroll and file the pension returns.",
          sent: { description: "Run the payroll and file the pension returns." },
        },
        save: "Save Changes",
        saved: "Task template updated successfully!",
      },
      {
        open: () => onSettings("Firm settings"),
        entity: "firm's settings",
        path: "/api/firm",
        theirs: { timeZone: "Europe/London" },
        theirsShown: (form) => expect(form.getByRole("combobox", { name: "Time zone" })).toContainText("Europe/London"),
        mine: { label: "Firm name", typed: "Juniper Ledger Partners", sent: { name: "Juniper Ledger Partners" } },
        save: "Save firm settings",
        saved: "Firm settings saved",
      },
      {
        open: () => onSettings("Statutory deadlines"),
        entity: "firm's deadline settings",
        path: "/api/firm",
        theirs: { internalTargetDays: 12 },
        theirsShown: (form) => expect(form.getByLabel("Internal target")).toHaveValue("12"),
        mine: {
          prepare: async (form) => {
            await form.getByRole("button", { name: "Add closed day" }).click();
            await form.getByLabel("Closed day 1 date").fill("2031-08-14");
          },
          label: "Closed day 1 name",
          typed: "Firm retreat",
          sent: { closedDays: [{ date: "2031-08-14", name: "Firm retreat" }] },
        },
        save: "Save deadlines",
        saved: "Deadline settings saved",
      },
      {
        // The other way round: their change is to the closed days, a list, and the person's to the target.
        open: () => onSettings("Statutory deadlines"),
        entity: "firm's deadline settings",
        path: "/api/firm",
        theirs: {
          closedDays: [
            { date: "2031-08-14", name: "Firm retreat" },
            { date: "2031-12-24", name: "Christmas Eve" },
          ],
        },
        theirsShown: (form) => expect(form.getByLabel("Closed day 2 name")).toHaveValue("Christmas Eve"),
        mine: { label: "Internal target", typed: "5", sent: { internalTargetDays: 5 } },
        save: "Save deadlines",
        saved: "Deadline settings saved",
      },
    ];
    for (const form of forms) await walkEditConflict(page, api, form);
  });

  test("S-SAFE-06 a double click on Create Client, and Enter pressed twice in its Company Name, each create one client", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page);
    await page.goto("/clients");
    const creates = recordRequests(page, "POST", "/api/clients");
    const form = page.getByRole("dialog", { name: "Create New Client" });

    await page.getByRole("button", { name: "New Client" }).click();
    const clicked = uniqueName("Double Click Dental");
    await form.getByLabel("Company Name").fill(clicked);
    await form.getByRole("button", { name: "Create Client" }).dblclick();
    await expect(page.getByText("Client created successfully!")).toBeVisible();
    await expect(form).toBeHidden();
    expect(creates).toHaveLength(1);

    await page.getByRole("button", { name: "New Client" }).click();
    const entered = uniqueName("Enter Twice Law");
    await form.getByLabel("Company Name").fill(entered);
    // Both presses are delivered before the first request is answered: the create is held until
    // then. A fast answer would otherwise close the dialog first, and the second Enter would land
    // on New Client, which has the focus back, and open the dialog again.
    const release = await holdRequests(page, "**/api/clients");
    await form.getByLabel("Company Name").press("Enter");
    await page.keyboard.press("Enter");
    release();
    await expect(form).toBeHidden();
    expect(creates).toHaveLength(2);

    const clients = await read<ClientSummary[]>(ownFirm.api, "/api/clients");
    expect(clients.map((client) => client.name).sort()).toEqual([clicked, entered].sort());
  });

  test("S-SAFE-06 a double click on Add Task and on Add Contact each create one record", async ({ page, ownFirm }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    await openClient(page, client);
    const taskCreates = recordRequests(page, "POST", "/api/tasks");
    const contactCreates = recordRequests(page, "POST", "/api/contacts");

    await page.getByTestId("tasks").getByRole("button", { name: "Add Task" }).click();
    const taskName = uniqueName("Quarterly VAT return");
    await dialog(page).getByLabel("Task Name *").fill(taskName);
    await dialog(page).getByRole("button", { name: "Add Task" }).dblclick();
    await expect(page.getByText("Task created successfully!")).toBeVisible();
    await expect(dialog(page)).toBeHidden();
    expect(taskCreates).toHaveLength(1);

    await page.getByTestId("contacts").getByRole("button", { name: "Add Contact" }).click();
    const contactName = uniqueName("Dana Whitfield");
    await dialog(page).getByLabel("Contact Name *").fill(contactName);
    await dialog(page).getByRole("button", { name: "Add Contact" }).dblclick();
    await expect(page.getByText("Contact added successfully!")).toBeVisible();
    await expect(dialog(page)).toBeHidden();
    expect(contactCreates).toHaveLength(1);

    const stored = await read<ClientDetail>(ownFirm.api, `/api/clients/${client.id}`);
    expect(stored.tasks.map((task) => task.name)).toEqual([taskName]);
    expect(stored.contacts.map((contact) => contact.name)).toEqual([contactName]);
  });

  test("S-SAFE-06 a double click on Create Template creates one template", async ({ page, ownFirm }) => {
    await ownFirm.signIn(page);
    await page.goto("/tasks?tab=templates");
    const creates = recordRequests(page, "POST", "/api/task-templates");

    await page.getByRole("button", { name: "Create First Template" }).click();
    const form = page.getByRole("dialog", { name: "Create Task Template" });
    const name = uniqueName("Monthly bank reconciliation");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Description").fill("Match the bank statement to the ledger.");
    await form.getByRole("button", { name: "Create Template" }).dblclick();
    await expect(page.getByText("Task template created successfully!")).toBeVisible();
    await expect(form).toBeHidden();
    expect(creates).toHaveLength(1);

    const templates = await read<Template[]>(ownFirm.api, "/api/task-templates");
    expect(templates.map((template) => template.name)).toEqual([name]);
  });

  test("S-SAFE-06 a double click on Create User creates one user", async ({ page, ownFirm }) => {
    await ownFirm.signIn(page);
    await page.goto("/users");
    const creates = recordRequests(page, "POST", "/api/users");

    await page.getByRole("button", { name: "New User" }).click();
    const form = page.getByRole("dialog", { name: "Create New User" });
    const username = uniqueUsername("nia");
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password").fill(peoplePassword);
    await form.getByLabel("Full Name").fill("Nia Associate");
    await form.getByRole("button", { name: "Create User" }).dblclick();
    await expect(openToast(page)).toContainText("User created successfully");
    await expect(form).toBeHidden();
    expect(creates).toHaveLength(1);

    const users = await read<UserSummary[]>(ownFirm.api, "/api/users");
    expect(users.map((user) => user.username).sort()).toEqual([ownFirm.owner.username, username].sort());
  });

  test("S-SAFE-06 a double click on the signature's Submit signs the task off once and only says it succeeded", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    const task = await createTask(page, client.id);
    await openClient(page, client);
    const path = `/api/tasks/${task.id}/complete`;
    const completions = recordRequests(page, "PATCH", path);
    // "Failed to complete task" shows only for a completion that failed on the way or was refused;
    // collecting every such failure covers a toast that a later one would have replaced (one shows at a time).
    const failures: string[] = [];
    page.on("requestfailed", (request) => {
      if (new URL(request.url()).pathname === path) failures.push(request.failure()?.errorText ?? "failed");
    });
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === path && !response.ok()) failures.push(String(response.status()));
    });

    await openCompletion(page, task.name);
    await dialog(page).getByRole("button", { name: "Submit" }).dblclick();
    await expect(page.getByText("Task completed successfully!")).toBeVisible();
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByText("Failed to complete task")).toHaveCount(0);
    expect(completions).toHaveLength(1);
    expect(failures).toEqual([]);
    expect(await signOffs(ownFirm.api, task.id)).toHaveLength(1);
  });

  test("S-SAFE-10 New Client keeps one Idempotency-Key per opening: the retry after a lost request repeats it, the next opening has another", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The request this test aborts is a failed resource the browser logs.
    browserConsole.expectFailedRequest("net::ERR_FAILED", "/api/clients");
    await ownFirm.signIn(page);
    await page.goto("/clients");
    const creates = recordRequests(page, "POST", "/api/clients");
    // The first create is lost on the network and never reaches the server. The browser logs the
    // aborted POST /api/clients (net::ERR_FAILED) as a console error: this test provokes it.
    let lost = false;
    await page.route(
      (url) => url.pathname === "/api/clients",
      async (route) => {
        if (route.request().method() === "POST" && !lost) {
          lost = true;
          await route.abort();
        } else {
          await route.fallback();
        }
      },
    );
    const form = page.getByRole("dialog", { name: "Create New Client" });

    await page.getByRole("button", { name: "New Client" }).click();
    const retried = uniqueName("Retry Ledger");
    await form.getByLabel("Company Name").fill(retried);
    await form.getByRole("button", { name: "Create Client" }).click();
    await expect(openToast(page)).toContainText("Failed to create client");
    // Retried from the same dialog (the error toast shows at the top, clear of the button).
    await form.getByRole("button", { name: "Create Client" }).click();
    await expect(page.getByText("Client created successfully!")).toBeVisible();
    await expect(form).toBeHidden();
    expect(creates).toHaveLength(2);
    const firstKey = await creates[0]?.headerValue("idempotency-key");
    expect(firstKey).toMatch(/^\S{1,255}$/);
    expect(await creates[1]?.headerValue("idempotency-key")).toBe(firstKey);

    await page.getByRole("button", { name: "New Client" }).click();
    const next = uniqueName("Second Opening");
    await form.getByLabel("Company Name").fill(next);
    await form.getByRole("button", { name: "Create Client" }).click();
    await expect(form).toBeHidden();
    expect(creates).toHaveLength(3);
    const nextKey = await creates[2]?.headerValue("idempotency-key");
    expect(nextKey).toMatch(/^\S{1,255}$/);
    expect(nextKey).not.toBe(firstKey);

    const clients = await read<ClientSummary[]>(ownFirm.api, "/api/clients");
    expect(clients.map((client) => client.name).sort()).toEqual([next, retried].sort());
  });

  test("S-SAFE-10 a sign-off whose answer was lost, submitted again from the same dialog, is answered with the first success and signed once", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The answer this test drops is a failed resource the browser logs.
    browserConsole.expectFailedRequest("net::ERR_FAILED", "/api/tasks/");
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page);
    const task = await createTask(page, client.id);
    await openClient(page, client);
    const path = `/api/tasks/${task.id}/complete`;
    const completions = recordRequests(page, "PATCH", path);
    // The first sign-off reaches the server and is done there, but its answer is lost on the way
    // back, so the screen believes it failed. The browser logs that aborted PATCH (net::ERR_FAILED)
    // as a console error: this test provokes it.
    let lostAnswer: number | undefined;
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        if (lostAnswer !== undefined) return route.fallback();
        lostAnswer = (await route.fetch()).status();
        await route.abort();
      },
    );

    await openCompletion(page, task.name);
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(openToast(page)).toContainText("Failed to complete task");
    await expect(dialog(page)).toBeVisible();
    expect(lostAnswer, "the first sign-off was done on the server").toBe(200);

    const [replay] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === path),
      dialog(page).getByRole("button", { name: "Submit" }).click(),
    ]);
    expect(replay.status()).toBe(200);
    expect(await replay.headerValue("idempotent-replayed")).toBe("true");
    await expect(page.getByText("Task completed successfully!")).toBeVisible();
    await expect(dialog(page)).toBeHidden();
    expect(completions).toHaveLength(2);
    expect(await completions[1]?.headerValue("idempotency-key")).toBe(
      await completions[0]?.headerValue("idempotency-key"),
    );
    expect(await signOffs(ownFirm.api, task.id)).toHaveLength(1);
  });
});
