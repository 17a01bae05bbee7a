import { expect, type Page } from "@playwright/test";
import type { ClientDetail, CreateClientInput } from "../src/shared/clients";
import type { Template } from "../src/shared/templates";
import {
  clientCard,
  createClient,
  createTemplate,
  dialog,
  openNewClientDialog,
  signInToNewFirm,
  uniqueName,
} from "./clients-support";
import { apiGet, checkAtBothWidths, holdRequests, test, viewports } from "./fixtures";

/** A new firm with `count` templates (every third recurring monthly), signed in, on /clients. */
async function firmWithTemplates(page: Page, count: number): Promise<Template[]> {
  await signInToNewFirm(page);
  const templates: Template[] = [];
  for (let index = 1; index <= count; index++) {
    templates.push(
      await createTemplate(page, {
        name: `Template ${String(index).padStart(2, "0")}`,
        description: `What the team does in step ${index}, written out so the list can show it.`,
        priority: (["high", "medium", "low"] as const)[index % 3] ?? "medium",
        ...(index % 3 === 0 ? { frequency: "monthly" as const } : {}),
      }),
    );
  }
  await page.goto("/clients");
  return templates;
}

const field = (page: Page, label: string) => dialog(page).getByLabel(label, { exact: true });
const note = (page: Page) => dialog(page).getByTestId("task-count-note");
/** The warning about a name the firm already has (a field's message is an alert too). */
const sameNameWarning = (page: Page) => dialog(page).getByRole("alert").filter({ hasText: "You already have" });
const templateOption = (page: Page, name: string) => dialog(page).getByRole("checkbox", { name, exact: true });

/** Every POST /api/clients, /api/contacts and /api/tasks the page sends, with its body. */
function recordWrites(page: Page) {
  const writes: { url: string; body: unknown }[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && /\/api\/(clients|contacts|tasks)$/.test(new URL(request.url()).pathname)) {
      writes.push({ url: new URL(request.url()).pathname, body: request.postDataJSON() });
    }
  });
  return writes;
}

test.describe("new client dialog", () => {
  test('S-CLIST-16 S-CNEW-01 S-CNEW-02 S-CNEW-04 S-CNEW-05 S-CNEW-06 S-CNEW-07 S-CNEW-08 S-CNEW-10 S-CNEW-11 "New Client" opens "Create New Client" in two columns', async ({
    page,
  }) => {
    await firmWithTemplates(page, 1);
    await openNewClientDialog(page);
    await expect(dialog(page).getByRole("heading", { name: "Create New Client" })).toBeVisible();
    for (const label of ["Company Name *", "Industry", "Address", "Phone", "Email", "Status"]) {
      await expect(dialog(page).locator("label", { hasText: label }).first()).toHaveText(label);
    }
    await expect(dialog(page).getByRole("heading", { name: "Primary Contact" })).toBeVisible();
    for (const label of ["Contact Name", "Title", "Contact Phone", "Contact Email"]) {
      await expect(field(page, label)).toBeEditable();
    }
    const tasksHeading = dialog(page).getByRole("heading", { name: "Initial Tasks (Optional)" });
    await expect(tasksHeading).toBeVisible();
    // Two columns: the tasks sit to the right of the company fields, side by side.
    const left = await field(page, "Company Name *").boundingBox();
    const right = await tasksHeading.boundingBox();
    if (!left || !right) throw new Error("both columns are laid out");
    expect(right.x).toBeGreaterThan(left.x + left.width);
    expect(Math.abs(right.y - left.y)).toBeLessThan(120);
  });

  test('S-CNEW-09 S-STATE-08 "Status" offers Active, Prospect, Inactive and defaults to Active', async ({ page }) => {
    await firmWithTemplates(page, 0);
    await openNewClientDialog(page);
    const status = field(page, "Status");
    await expect(status).toHaveText("Active");
    await status.click();
    await expect(page.getByRole("option")).toHaveText(["Active", "Prospect", "Inactive"]);
    await page.getByRole("option", { name: "Prospect" }).click();
    await expect(status).toHaveText("Prospect");
  });

  test("S-CNEW-03 the dialog is at most 90% of the viewport's height and scrolls inside", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 520 });
    await firmWithTemplates(page, 3);
    await openNewClientDialog(page);
    const box = await dialog(page).boundingBox();
    expect(box?.height).toBeLessThanOrEqual(520 * 0.9 + 1);
    // The dialog's body scrolls inside its frame, which keeps the close button in place.
    const scrolls = await dialog(page).evaluate((element) => {
      const body = element.firstElementChild;
      return body !== null && body.scrollHeight > body.clientHeight;
    });
    expect(scrolls).toBe(true);
    await field(page, "Contact Email").scrollIntoViewIfNeeded();
    await expect(field(page, "Contact Email")).toBeInViewport();
    await expect(dialog(page).getByRole("button", { name: "Create Client" })).toBeInViewport();
  });

  test("S-CNEW-12 S-CNEW-13 a height-limited multi-select list of templates and the count of tasks to create", async ({
    page,
  }) => {
    const templates = await firmWithTemplates(page, 12);
    await openNewClientDialog(page);
    const list = dialog(page).getByTestId("template-list");
    await expect(list.getByRole("listitem")).toHaveCount(templates.length);
    const scrolls = await list.evaluate((element) => element.scrollHeight > element.clientHeight);
    expect(scrolls).toBe(true);
    for (const template of templates.slice(0, 3)) {
      const option = list.getByRole("listitem").filter({ hasText: template.name });
      await expect(option).toContainText(template.description);
      await expect(option).toContainText({ high: "High", medium: "Medium", low: "Low" }[template.priority]);
    }
    await expect(note(page)).toHaveText("0 tasks will be created for this client");
    await templateOption(page, "Template 01").click();
    await expect(note(page)).toHaveText("1 task will be created for this client");
    await templateOption(page, "Template 02").click();
    // Clicking the text of an option selects it too.
    await list.getByText("Template 12", { exact: true }).click();
    await expect(templateOption(page, "Template 12")).toBeChecked();
    await expect(note(page)).toHaveText("3 tasks will be created for this client");
    await templateOption(page, "Template 02").click();
    await expect(note(page)).toHaveText("2 tasks will be created for this client");
  });

  test('S-CNEW-14 without templates: "No task templates available"', async ({ page }) => {
    await firmWithTemplates(page, 0);
    await openNewClientDialog(page);
    await expect(dialog(page).getByText("No task templates available")).toBeVisible();
    await expect(dialog(page).getByText("Create task templates first to assign initial tasks")).toBeVisible();
  });

  test("S-CNEW-15 Cancel closes the dialog and resets everything", async ({ page }) => {
    await firmWithTemplates(page, 2);
    await openNewClientDialog(page);
    await field(page, "Company Name *").fill("Half-typed Ltd");
    await field(page, "Industry").fill("Retail");
    await field(page, "Email").fill("bad@");
    await field(page, "Title").fill("CFO");
    await field(page, "Contact Name").fill("Ana Ruiz");
    await field(page, "Status").click();
    await page.getByRole("option", { name: "Inactive" }).click();
    await templateOption(page, "Template 01").click();
    await dialog(page).getByRole("button", { name: "Create Client" }).click();
    await expect(dialog(page).getByText("Invalid email address")).toBeVisible();

    await dialog(page).getByRole("button", { name: "Cancel" }).click();
    await expect(dialog(page)).toHaveCount(0);

    await openNewClientDialog(page);
    for (const label of ["Company Name *", "Industry", "Address", "Phone", "Email", "Contact Name", "Title"]) {
      await expect(field(page, label)).toHaveValue("");
    }
    await expect(field(page, "Status")).toHaveText("Active");
    await expect(templateOption(page, "Template 01")).not.toBeChecked();
    await expect(note(page)).toHaveText("0 tasks will be created for this client");
    await expect(dialog(page).getByText("Invalid email address")).toHaveCount(0);
    // Escape is a cancel too.
    await field(page, "Company Name *").fill("Another");
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toHaveCount(0);
    await openNewClientDialog(page);
    await expect(field(page, "Company Name *")).toHaveValue("");
  });

  test("S-CNEW-16 S-CNEW-17 S-CNEW-18 S-CNEW-20 S-CNEW-21 S-CNEW-22 S-ERR-10 S-API-01 S-API-32 S-STATE-13 create with a contact and two templates in one request", async ({
    page,
  }) => {
    const templates = await firmWithTemplates(page, 3);
    const oneTime = templates[0];
    const monthly = templates[2];
    if (!oneTime || !monthly?.isRecurring) throw new Error("a one-time and a monthly template");
    const writes = recordWrites(page);
    const name = uniqueName("Harbor & Vine");

    await openNewClientDialog(page);
    await field(page, "Company Name *").fill(name);
    await field(page, "Industry").fill("Hospitality");
    await field(page, "Address").fill("12 Quay Street, Portland, OR 97201");
    await field(page, "Phone").fill("(503) 555-0144");
    await field(page, "Email").fill("accounts@harborvine.example.com");
    await field(page, "Status").click();
    await page.getByRole("option", { name: "Prospect" }).click();
    await field(page, "Contact Name").fill("  Ana Ruiz ");
    await field(page, "Title").fill("Finance Director");
    await field(page, "Contact Phone").fill("(503) 555-0199");
    await field(page, "Contact Email").fill("ana@harborvine.example.com");
    await templateOption(page, oneTime.name).click();
    await templateOption(page, monthly.name).click();
    await expect(note(page)).toHaveText("2 tasks will be created for this client");

    const release = await holdRequests(page, "**/api/clients");
    const created = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().endsWith("/api/clients"),
    );
    await dialog(page).getByRole("button", { name: "Create Client" }).click();
    const submit = dialog(page).getByRole("button", { name: "Creating..." });
    await expect(submit).toBeDisabled();
    await expect(field(page, "Company Name *")).toBeDisabled();
    await expect(templateOption(page, oneTime.name)).toBeDisabled();
    await expect(dialog(page).getByRole("button", { name: "Cancel" })).toBeDisabled();
    // The grid's refresh after the create is a GET of the list.
    const refreshed = page.waitForRequest(
      (request) => request.method() === "GET" && /\/api\/clients\?/.test(request.url()),
    );
    release();
    const response = await created;
    expect(response.status()).toBe(201);
    await refreshed;

    await expect(page.getByText("Client created successfully!")).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    await expect(clientCard(page, name)).toBeVisible();

    // One atomic request (docs/design/client-work-api.md) instead of three kinds of call (client, contact, tasks).
    expect(writes).toEqual([
      {
        url: "/api/clients",
        body: {
          name,
          industry: "Hospitality",
          address: "12 Quay Street, Portland, OR 97201",
          phone: "(503) 555-0144",
          email: "accounts@harborvine.example.com",
          status: "prospect",
          primaryContact: {
            name: "Ana Ruiz",
            title: "Finance Director",
            phone: "(503) 555-0199",
            email: "ana@harborvine.example.com",
          },
          templateIds: [oneTime.id, monthly.id],
        } satisfies CreateClientInput,
      },
    ]);
    const { id } = (await response.json()) as ClientDetail;
    const client = await apiGet<ClientDetail>(page, `/api/clients/${id}`);
    expect(client).toMatchObject({ name, status: "prospect", industry: "Hospitality" });
    expect(client.contacts).toEqual([
      expect.objectContaining({ name: "Ana Ruiz", title: "Finance Director", isPrimary: true }),
    ]);
    const fromOneTime = client.tasks.find((task) => task.templateId === oneTime.id);
    expect(fromOneTime).toMatchObject({ name: oneTime.name, status: "pending", dueDate: null });
    const fromMonthly = client.tasks.find((task) => task.templateId === monthly.id);
    expect(fromMonthly).toMatchObject({ name: monthly.name, status: "pending" });
    // Its next occurrence is due at the end of this month, in the future.
    expect(new Date(fromMonthly?.dueDate ?? 0).getTime()).toBeGreaterThan(Date.now());

    // The dashboard counts clients and tasks: back on it without a reload, it shows the new ones.
    const dashboard = page.waitForResponse((r) => r.url().endsWith("/api/dashboard"));
    await page.getByRole("navigation").getByRole("link", { name: "Dashboard" }).first().click();
    await dashboard;
    await expect(page.getByRole("group", { name: "Total Clients" }).getByTestId("stat-value")).toHaveText("1");
    await expect(page.getByRole("group", { name: "Pending Tasks" }).getByTestId("stat-value")).toHaveText("2");
  });

  test('S-CNEW-24 S-VAL-09 S-VAL-10 S-VAL-13 S-VAL-14 the required messages show before any request: "Company name is required", "Invalid email address", "Contact name is required"', async ({
    page,
  }) => {
    await firmWithTemplates(page, 0);
    const writes = recordWrites(page);
    await openNewClientDialog(page);
    const submit = dialog(page).getByRole("button", { name: "Create Client" });

    await submit.click();
    await expect(dialog(page).getByText("Company name is required")).toBeVisible();
    await expect(field(page, "Company Name *")).toHaveAttribute("aria-invalid", "true");
    // Spaces alone are no name.
    await field(page, "Company Name *").fill("   ");
    await submit.click();
    await expect(dialog(page).getByText("Company name is required")).toBeVisible();

    await field(page, "Company Name *").fill("Valid Co");
    await field(page, "Email").fill("foo@");
    await field(page, "Title").fill("Partner");
    await field(page, "Contact Email").fill("x@");
    await submit.click();
    await expect(dialog(page).getByText("Company name is required")).toHaveCount(0);
    await expect(dialog(page).getByText("Invalid email address")).toHaveCount(2);
    await expect(dialog(page).getByText("Contact name is required")).toBeVisible();
    expect(writes).toEqual([]);
  });

  test("S-VAL-12 S-VAL-15 S-CNEW-19 a name alone creates the client; a contact name of spaces sends no contact", async ({
    page,
  }) => {
    await firmWithTemplates(page, 0);
    const writes = recordWrites(page);
    const name = uniqueName("Solo Studio");
    await openNewClientDialog(page);
    await field(page, "Company Name *").fill(name);
    await field(page, "Contact Name").fill("   ");
    await dialog(page).getByRole("button", { name: "Create Client" }).click();
    await expect(page.getByText("Client created successfully!")).toBeVisible();
    await expect(clientCard(page, name)).toBeVisible();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.body).not.toHaveProperty("primaryContact");
    const [client] = await apiGet<ClientDetail[]>(page, `/api/clients?q=${encodeURIComponent(name)}`);
    const detail = await apiGet<ClientDetail>(page, `/api/clients/${client?.id}`);
    expect(detail).toMatchObject({ industry: null, address: null, phone: null, email: null, status: "active" });
    expect(detail.contacts).toEqual([]);
    expect(detail.tasks).toEqual([]);
  });

  test("S-CNEW-23 S-ERR-11 S-CONST-21 S-EDGE-01 a refused create shows \"Failed to create client\" with the plan's message and keeps the form, the toast clear of the dialog's buttons", async ({
    page,
    browserConsole,
  }) => {
    // The create past the plan's limit is refused: the browser logs the 403.
    browserConsole.expectFailedRequest(403, "/api/clients");
    // A hundred clients are created first, one request each.
    test.slow();
    await signInToNewFirm(page, "starter");
    // The Starter plan's limit, read from the server's refusal rather than assumed.
    let limit = 0;
    for (; limit < 1000; limit++) {
      const response = await page.request.post("/api/clients", { data: { name: `Filler ${limit}` } });
      if (response.status() === 403) break;
      expect(response.status()).toBe(201);
    }
    expect(limit).toBe(100);
    await page.goto("/clients");
    await openNewClientDialog(page);
    await field(page, "Company Name *").fill("One Too Many LLC");
    await dialog(page).getByRole("button", { name: "Create Client" }).click();

    const toast = page.locator("[data-app-toast]");
    await expect(toast).toContainText("Failed to create client");
    await expect(toast).toContainText("Your Starter plan allows up to 100 clients. Upgrade to add more.");
    await expect(toast).toHaveAttribute("data-type", "error");
    await expect(dialog(page)).toBeVisible();
    await expect(field(page, "Company Name *")).toHaveValue("One Too Many LLC");
    await expect(dialog(page).getByRole("button", { name: "Create Client" })).toBeEnabled();

    // With a dialog open, the toast shows at the top, clear of its Cancel and Create Client, on a
    // laptop's short screen and on a phone, so the person can try again at once.
    const openToast = page.locator("[data-app-toast][data-state=open]");
    for (const viewport of [{ width: 1280, height: 720 }, viewports.mobile]) {
      // The toast on screen goes first, so the one measured is this click's, not one on its way out.
      await openToast.getByRole("button", { name: "Dismiss notification" }).click();
      await expect(openToast).toHaveCount(0);
      await page.setViewportSize(viewport);
      await dialog(page).getByRole("button", { name: "Create Client" }).click();
      await expect(openToast).toHaveCount(1);
      await expect(openToast).toContainText("Failed to create client");
      await expect(openToast).toBeInViewport();
      const shown = await openToast.boundingBox();
      for (const name of ["Cancel", "Create Client"]) {
        const button = await dialog(page).getByRole("button", { name }).boundingBox();
        if (!shown || !button) throw new Error("the toast and the buttons are on screen");
        const overlaps =
          shown.x < button.x + button.width &&
          button.x < shown.x + shown.width &&
          shown.y < button.y + button.height &&
          button.y < shown.y + shown.height;
        expect(overlaps, `the toast covers ${name} at ${viewport.width} px`).toBe(false);
      }
    }
  });

  test("S-EDGE-04 a name the firm already has warns in the dialog, archived clients too; Create anyway creates exactly one more, renaming clears the warning", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const existing = await createClient(page, { name: uniqueName("Harbor Lane LLP") });
    const archived = await createClient(page, { name: uniqueName("Old Mill Bakery") });
    expect((await page.request.delete(`/api/clients/${archived.id}`)).status()).toBe(204);
    const creates: { name: string; idempotencyKey: string | undefined }[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/clients") {
        creates.push({ name: request.postDataJSON().name, idempotencyKey: request.headers()["idempotency-key"] });
      }
    });
    const warning = sameNameWarning(page);
    const createButton = dialog(page).getByRole("button", { name: "Create Client" });
    await page.goto("/clients");

    // The same name in other case and with spaces around it: the dialog warns instead of creating.
    await openNewClientDialog(page);
    await field(page, "Company Name *").fill(`  ${existing.name.toUpperCase()} `);
    await createButton.click();
    await expect(warning).toContainText(`You already have a client named ${existing.name}.`);
    await expect(warning).toContainText("Create it anyway if this is a different client, or change the name.");
    await expect(warning.getByRole("link", { name: existing.name })).toHaveAttribute("href", `/client/${existing.id}`);
    await expect(page.locator("[data-app-toast]")).toHaveCount(0);
    expect(creates).toEqual([]);

    // Changing the name clears the warning; the name back asks again.
    await field(page, "Company Name *").press("End");
    await field(page, "Company Name *").press("Backspace");
    await expect(warning).toHaveCount(0);
    await field(page, "Company Name *").fill(existing.name);
    await createButton.click();
    await expect(warning).toBeVisible();
    expect(creates).toEqual([]);

    // "Create anyway" sends the create through the same form, once, with the dialog's key.
    await warning.getByRole("button", { name: "Create anyway" }).click();
    await expect(page.getByText("Client created successfully!")).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ name: existing.name, idempotencyKey: expect.stringMatching(/\S/) });
    const named = await apiGet<ClientDetail[]>(page, `/api/clients?q=${encodeURIComponent(existing.name)}`);
    expect(named.map((client) => client.name)).toEqual([existing.name, existing.name]);

    // An archived client's name warns too, and says it is archived.
    await openNewClientDialog(page);
    await field(page, "Company Name *").fill(archived.name.toLowerCase());
    await createButton.click();
    await expect(warning).toContainText(
      `You already have an archived client named ${archived.name}. You could restore it from its page instead.`,
    );
    // A new name creates at once, without a warning.
    const fresh = uniqueName("Harbor Lane Partners");
    await field(page, "Company Name *").fill(fresh);
    await expect(warning).toHaveCount(0);
    await createButton.click();
    await expect(dialog(page)).toHaveCount(0);
    expect(creates.map((create) => create.name)).toEqual([existing.name, fresh]);
  });

  test("the open dialog, with its messages, passes axe and fits at 1280 and 375 px", async ({ page }, testInfo) => {
    // Three axe runs and their screenshots at each width, on a machine two workers share.
    test.slow();
    await firmWithTemplates(page, 4);
    const existing = await createClient(page, { name: uniqueName("Northwind Legal") });
    await page.reload();
    await openNewClientDialog(page);
    await expect(templateOption(page, "Template 01")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "new-client");
    await dialog(page).getByRole("button", { name: "Create Client" }).click();
    await expect(dialog(page).getByText("Company name is required")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "new-client-name-required");
    // The warning about a name the firm already has (S-EDGE-04).
    await field(page, "Company Name *").fill(existing.name);
    await dialog(page).getByRole("button", { name: "Create Client" }).click();
    await expect(sameNameWarning(page)).toBeVisible();
    await checkAtBothWidths(page, testInfo, "new-client-same-name");
  });
});
