import { expect, type Locator, type Page, type Request } from "@playwright/test";
import type { Role } from "../src/shared/roles";
import type { LibraryTemplateEntry, Template } from "../src/shared/templates";
import type { UserSummary } from "../src/shared/users";
import {
  apiGet,
  attachScreenshot,
  checkAtBothWidths,
  expectNoHorizontalScroll,
  holdRequests,
  OwnFirm,
  signInAs,
  test,
  viewports,
} from "./fixtures";

/*
 * Task Templates tab (the TTPL requirements). Role checks read the demo firm; every test that writes (or
 * tries to) registers a firm of its own (registerFirm, or the ownFirm fixture when it needs users of
 * several roles), so the demo firm's templates, which other specs read, never change.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
const deleteText = "Are you sure you want to delete this task template? This action cannot be undone.";

type Plan = "starter" | "professional" | "enterprise";

/** Registers a new firm over the API; the page's context is then signed in as its super admin. */
async function registerFirm(page: Page, plan: Plan = "professional"): Promise<{ id: string }> {
  return (await OwnFirm.register(page.request, plan)).owner;
}

async function createTemplate(
  page: Page,
  input: { name: string; description?: string; priority?: string; frequency?: string | null },
): Promise<Template> {
  const response = await page.request.post("/api/task-templates", {
    data: { description: `About ${input.name}`, priority: "medium", ...input },
  });
  expect(response.status(), "create template").toBe(201);
  return (await response.json()) as Template;
}

const card = (page: Page, name: string) =>
  page.getByRole("list", { name: "Task templates" }).getByRole("article", { name });
const cards = (page: Page) => page.getByRole("list", { name: "Task templates" }).getByRole("article");
/** The toast on screen: a replaced one lingers in the DOM for a moment, hidden. */
const toast = (page: Page) => page.locator("[data-app-toast][data-state=open]");

async function openTemplates(page: Page) {
  await page.goto("/tasks?tab=templates");
  await expect(page.getByRole("tab", { name: "Task Templates" })).toHaveAttribute("aria-selected", "true");
}

/** The body of the first request to `path` with `method`, once it is sent. */
function bodyOf(page: Page, method: string, path: RegExp): Promise<unknown> {
  return page
    .waitForRequest((request: Request) => request.method() === method && path.test(new URL(request.url()).pathname))
    .then((request) => request.postDataJSON());
}

async function optionsOf(page: Page, combobox: Locator): Promise<string[]> {
  await combobox.click();
  const options = await page.getByRole("option").allTextContents();
  await page.keyboard.press("Escape");
  return options;
}

test.describe("task templates", () => {
  test("S-TTPL-29 S-TTPL-04 S-TTPL-05 S-TTPL-08 S-TTPL-10 S-ROLE-10 the list is GET /api/task-templates, one card per template", async ({
    page,
  }) => {
    await signInAs(page, "user");
    const templates = await apiGet<Template[]>(page, "/api/task-templates");
    const listed = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/task-templates");
    await openTemplates(page);
    expect((await listed).status()).toBe(200);
    await expect(cards(page)).toHaveCount(templates.length);
    for (const template of templates.slice(0, 3)) {
      const shown = cards(page).filter({
        has: page.getByTestId("template-name").getByText(template.name.slice(0, 50)),
      });
      await expect(shown.first().getByTestId("priority")).toHaveText(
        new RegExp(`^${template.priority} priority$`, "i"),
      );
      await expect(shown.first().getByTestId("template-kind")).toHaveText(
        template.isRecurring ? "Recurring" : "One-time",
      );
      await expect(shown.first().getByTestId("template-created")).toContainText("Created");
      await expect(shown.first().getByRole("button", { name: /View Details/ })).toBeVisible();
    }
  });

  for (const role of ["super_admin", "admin", "user"] satisfies Role[]) {
    test(`S-TTPL-01 S-TTPL-11 S-ROLE-02 S-ROLE-11 S-ROLE-06 New Task Template for creators, Edit and Delete only for super_admin, as ${role}`, async ({
      page,
    }) => {
      await signInAs(page, role);
      await openTemplates(page);
      await expect(cards(page).first()).toBeVisible();
      const creates = role !== "user";
      await expect(page.getByRole("button", { name: "New Task Template" })).toHaveCount(creates ? 1 : 0);
      await expect(page.getByRole("button", { name: "Browse library" })).toHaveCount(creates ? 1 : 0);
      const count = await cards(page).count();
      await expect(page.getByRole("button", { name: /^Edit/ })).toHaveCount(role === "super_admin" ? count : 0);
      await expect(page.getByRole("button", { name: /^Delete/ })).toHaveCount(role === "super_admin" ? count : 0);
    });
  }

  test("S-ROLE-12 S-ERR-31 the server refuses an admin's edit and delete with 403 and a message", async ({
    page,
    ownFirm,
  }) => {
    // In a firm of its own: were the refusal to fail, the demo firm's templates would change.
    const made = await ownFirm.api.post("/api/task-templates", {
      data: { name: "Owner's template", description: "Made by the super admin.", priority: "medium" },
    });
    expect(made.status()).toBe(201);
    await ownFirm.signIn(page, "admin");
    const [template] = await apiGet<Template[]>(page, "/api/task-templates");
    const id = template?.id as string;
    const put = await page.request.put(`/api/task-templates/${id}`, {
      data: { name: "x", description: "y", priority: "low", frequency: null, isRecurring: false },
    });
    expect(put.status()).toBe(403);
    expect(((await put.json()) as { message: string }).message).toMatch(/admin/);
    expect((await page.request.delete(`/api/task-templates/${id}`)).status()).toBe(403);
    expect(await apiGet<Template[]>(page, "/api/task-templates")).toEqual([template]);
  });

  test("S-TTPL-02 a loading skeleton shows while the templates load", async ({ page }) => {
    await signInAs(page, "admin");
    const release = await holdRequests(page, "**/api/task-templates");
    await openTemplates(page);
    await expect(page.getByTestId("templates-skeleton")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    release();
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByTestId("templates-skeleton")).toHaveCount(0);
  });

  test("S-TTPL-03 S-ERR-30 a firm without templates sees No Task Templates Yet; Create First Template opens the dialog", async ({
    page,
    ownFirm,
  }) => {
    // A firm with no user named "admin": its owner (the first user) and an admin who is not it.
    const admin = await ownFirm.signIn(page, "admin");
    const people = await apiGet<UserSummary[]>(page, "/api/users");
    expect(people.map((person) => person.username.toLowerCase())).not.toContain("admin");
    expect(people.map((person) => person.id).sort()).toEqual([admin.id, ownFirm.owner.id].sort());

    await openTemplates(page);
    await expect(page.getByRole("heading", { name: "No Task Templates Yet" })).toBeVisible();
    await page.getByRole("button", { name: "Create First Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Task Template" });
    await expect(dialog).toBeVisible();

    // The template is made, and its author is the session's user, not an "admin" nor the first user.
    const name = `Engagement review ${unique()}`;
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Description").fill("Review the engagement letter with the partner.");
    await dialog.getByRole("button", { name: "Create Template" }).click();
    await expect(toast(page)).toHaveText(/Task template created successfully!/);
    await expect(page.getByText("No admin user found")).toHaveCount(0);
    await expect(card(page, name)).toBeVisible();
    const stored = await apiGet<Template[]>(page, "/api/task-templates");
    expect(stored.map((template) => [template.name, template.createdBy])).toEqual([[name, admin.id]]);
  });

  test("S-TTPL-06 S-TTPL-07 S-TTPL-09 S-CONST-29 S-CONST-30 truncation at 50 and 100 characters, Every {frequency}", async ({
    page,
  }) => {
    await registerFirm(page);
    const name = `N${"a".repeat(59)}`;
    const description = `D${"b".repeat(149)}`;
    await createTemplate(page, { name, description, frequency: "monthly" });
    await createTemplate(page, { name: "Once only", frequency: null });
    await openTemplates(page);
    const long = card(page, name);
    await expect(long.getByTestId("template-name")).toHaveText(`${name.slice(0, 50)}…`);
    await expect(long.getByTestId("template-description")).toHaveText(`${description.slice(0, 100)}…`);
    await expect(long.getByTestId("template-kind")).toHaveText("Recurring");
    await expect(long.getByTestId("template-frequency")).toHaveText("Every monthly");
    await expect(card(page, "Once only").getByTestId("template-kind")).toHaveText("One-time");
    await expect(card(page, "Once only").getByTestId("template-frequency")).toHaveCount(0);
  });

  test("S-TTPL-12 S-TTPL-13 S-TTPL-14 S-TTPL-15 S-TTPL-16 S-TTPL-17 S-VAL-16 S-VAL-17 S-VAL-19 S-STATE-19 S-ERR-12 S-API-19 S-ROLE-20 create a template", async ({
    page,
  }) => {
    const owner = await registerFirm(page);
    await openTemplates(page);
    await page.getByRole("button", { name: "Create First Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Task Template" });
    await expect(dialog.getByLabel("Name")).toHaveValue("");
    await expect(dialog.getByLabel("Description")).toHaveValue("");
    await expect(dialog.getByRole("combobox", { name: "Priority" })).toHaveText("Medium");
    await expect(dialog.getByRole("combobox", { name: "Frequency" })).toHaveText("None (one-time)");
    expect(await optionsOf(page, dialog.getByRole("combobox", { name: "Priority" }))).toEqual([
      "Low",
      "Medium",
      "High",
    ]);
    expect(await optionsOf(page, dialog.getByRole("combobox", { name: "Frequency" }))).toEqual([
      "None (one-time)",
      "Daily",
      "Weekly",
      "Monthly",
      "Quarterly",
      "Annually",
    ]);

    // The validation messages (S-VAL-16..17) show before any request is sent.
    let posted = false;
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/task-templates")) posted = true;
    });
    await dialog.getByRole("button", { name: "Create Template" }).click();
    await expect(dialog.getByText("Name is required")).toBeVisible();
    await expect(dialog.getByText("Description is required")).toBeVisible();
    expect(posted).toBe(false);

    const name = `Quarterly review ${unique()}`;
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Description").fill("Review the quarter with the client.");
    await dialog.getByRole("combobox", { name: "Priority" }).click();
    await page.getByRole("option", { name: "High" }).click();
    await dialog.getByRole("combobox", { name: "Frequency" }).click();
    await page.getByRole("option", { name: "Quarterly" }).click();
    const body = bodyOf(page, "POST", /^\/api\/task-templates$/);
    await dialog.getByRole("button", { name: "Create Template" }).click();
    expect(await body).toEqual({
      name,
      description: "Review the quarter with the client.",
      priority: "high",
      frequency: "quarterly",
      isRecurring: true,
      // None chosen under "Statutory due date" (S-DUE-18).
      dueDateRule: null,
    });
    await expect(toast(page)).toHaveText(/Task template created successfully!/);
    await expect(dialog).toBeHidden();
    await expect(card(page, name).getByTestId("template-frequency")).toHaveText("Every quarterly");
    const [stored] = await apiGet<Template[]>(page, "/api/task-templates");
    expect(stored).toMatchObject({ name, createdBy: owner.id, isRecurring: true, frequency: "quarterly" });
  });

  test("S-TTPL-17 S-ERR-15 S-CONST-21 a refused create shows the destructive toast with the server's plan-limit message", async ({
    page,
    browserConsole,
  }) => {
    // The create past the plan's limit is refused: the browser logs the 403.
    browserConsole.expectFailedRequest(403, "/api/task-templates");
    test.setTimeout(90_000);
    await registerFirm(page, "starter");
    for (let index = 0; index < 20; index += 1) await createTemplate(page, { name: `Custom ${index}` });
    await openTemplates(page);
    await page.getByRole("button", { name: "New Task Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Task Template" });
    await dialog.getByLabel("Name").fill("One too many");
    await dialog.getByLabel("Description").fill("Past the Starter plan's limit.");
    await dialog.getByRole("button", { name: "Create Template" }).click();
    await expect(toast(page)).toHaveText(/Failed to create task template/);
    await expect(toast(page)).toHaveAttribute("data-type", "error");
    await expect(toast(page)).toContainText(/Starter.*20/);
    // The form stays open with what was typed, so nothing is lost.
    await expect(dialog.getByLabel("Name")).toHaveValue("One too many");
  });

  test("S-TTPL-18 S-TTPL-19 S-TTPL-20 S-TTPL-21 S-TTPL-22 S-STATE-20 S-STATE-22 S-ERR-13 edit: the recurring checkbox shows the frequency; unchecking saves one-time", async ({
    page,
  }) => {
    await registerFirm(page);
    const template = await createTemplate(page, { name: `Monthly close ${unique()}`, frequency: "monthly" });
    await openTemplates(page);
    await card(page, template.name).getByRole("button", { name: /^Edit/ }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Task Template" });
    await expect(dialog.getByLabel("Name")).toHaveValue(template.name);
    await expect(dialog.getByLabel("Description")).toHaveValue(template.description);
    await expect(dialog.getByRole("combobox", { name: "Priority" })).toHaveText("Medium");
    const recurring = dialog.getByRole("checkbox", { name: "Recurring template" });
    await expect(recurring).toBeChecked();
    const frequency = dialog.getByRole("combobox", { name: "Frequency" });
    await expect(frequency).toHaveText("Monthly");
    expect(await optionsOf(page, frequency)).toEqual(["Daily", "Weekly", "Monthly", "Quarterly", "Annually"]);
    await recurring.click();
    await expect(frequency).toHaveCount(0);
    await recurring.click();
    await expect(frequency).toBeVisible();
    await recurring.click();

    const body = bodyOf(page, "PUT", new RegExp(`^/api/task-templates/${template.id}$`));
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    expect(await body).toEqual({
      name: template.name,
      description: template.description,
      priority: "medium",
      frequency: null,
      isRecurring: false,
      dueDateRule: null,
    });
    await expect(toast(page)).toHaveText(/Task template updated successfully!/);
    await expect(card(page, template.name).getByTestId("template-kind")).toHaveText("One-time");
    const [stored] = await apiGet<Template[]>(page, "/api/task-templates");
    expect(stored).toMatchObject({ isRecurring: false, frequency: null });
  });

  test("S-TTPL-22 S-ERR-16 a failed edit shows the destructive toast", async ({ page, browserConsole }) => {
    // The edit is made to fail: the browser logs the 500.
    browserConsole.expectFailedRequest(500, "/api/task-templates/");
    await registerFirm(page);
    const template = await createTemplate(page, { name: `Failing edit ${unique()}` });
    await page.route("**/api/task-templates/*", (route) =>
      route.request().method() === "PUT" ? route.fulfill({ status: 500, body: "" }) : route.continue(),
    );
    await openTemplates(page);
    await card(page, template.name).getByRole("button", { name: /^Edit/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page)).toHaveText(/Failed to update task template/);
    await expect(toast(page)).toHaveAttribute("data-type", "error");
  });

  test("S-TTPL-23 S-TTPL-24 the View dialog shows priority, type, created, description, frequency and the usage note", async ({
    page,
  }) => {
    await registerFirm(page);
    const template = await createTemplate(page, {
      name: `Weekly payroll ${unique()}`,
      description: "Check the payroll deposit.",
      priority: "high",
      frequency: "weekly",
    });
    await openTemplates(page);
    await card(page, template.name)
      .getByRole("button", { name: /View Details/ })
      .click();
    const dialog = page.getByRole("dialog", { name: template.name });
    await expect(dialog.locator("dt")).toHaveText(["Priority", "Type", "Frequency", "Created", "Description"]);
    await expect(dialog.getByTestId("priority")).toHaveText("High priority");
    await expect(dialog.getByText("Recurring", { exact: true })).toBeVisible();
    await expect(dialog.getByText("Every weekly")).toBeVisible();
    await expect(dialog.getByText("Check the payroll deposit.")).toBeVisible();
    await expect(dialog.getByTestId("template-usage")).toHaveText(
      /assigned to clients when creating tasks.*automatically create a new task/,
    );
  });

  test("S-TTPL-25 S-TTPL-26 S-TTPL-27 S-ERR-14 S-ERR-18 S-API-21 S-CONST-36 S-STATE-23 delete asks first; cancel keeps it, confirm deletes it", async ({
    page,
  }) => {
    await registerFirm(page);
    const kept = await createTemplate(page, { name: `Kept ${unique()}` });
    const gone = await createTemplate(page, { name: `Gone ${unique()}` });
    await openTemplates(page);

    await card(page, kept.name)
      .getByRole("button", { name: /^Delete/ })
      .click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(deleteText);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(card(page, kept.name)).toBeVisible();

    await card(page, gone.name)
      .getByRole("button", { name: /^Delete/ })
      .click();
    const deleted = page.waitForRequest(
      (request) => request.method() === "DELETE" && request.url().endsWith(`/api/task-templates/${gone.id}`),
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await deleted;
    await expect(toast(page)).toHaveText(/Task template deleted successfully!/);
    await expect(card(page, gone.name)).toHaveCount(0);
    const stored = await apiGet<Template[]>(page, "/api/task-templates");
    expect(stored.map((template) => template.id)).toEqual([kept.id]);

    // A second toast replaces the first: one on screen at a time.
    await card(page, kept.name).getByRole("button", { name: /^Edit/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page)).toHaveText(/Task template updated successfully!/);
    await expect(toast(page)).toHaveCount(1);
  });

  test("S-TTPL-27 S-ERR-17 a failed delete shows the destructive toast and keeps the card", async ({
    page,
    browserConsole,
  }) => {
    // The delete is made to fail: the browser logs the 500.
    browserConsole.expectFailedRequest(500, "/api/task-templates/");
    await registerFirm(page);
    const template = await createTemplate(page, { name: `Undeletable ${unique()}` });
    await page.route("**/api/task-templates/*", (route) =>
      route.request().method() === "DELETE" ? route.fulfill({ status: 500, body: "" }) : route.continue(),
    );
    await openTemplates(page);
    await card(page, template.name)
      .getByRole("button", { name: /^Delete/ })
      .click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toHaveText(/Failed to delete task template/);
    await expect(toast(page)).toHaveAttribute("data-type", "error");
    await expect(card(page, template.name)).toBeVisible();
  });

  test("search and the recurring/one-time filter narrow the cards", async ({ page }) => {
    await registerFirm(page);
    await createTemplate(page, { name: "Monthly bookkeeping", frequency: "monthly" });
    await createTemplate(page, { name: "Client onboarding", frequency: null });
    await createTemplate(page, { name: "Annual return", frequency: "annually" });
    await openTemplates(page);
    await expect(cards(page)).toHaveCount(3);
    const type = page.getByRole("combobox", { name: "Filter by type" });
    expect(await optionsOf(page, type)).toEqual(["All types", "Recurring", "One-time"]);
    await type.click();
    await page.getByRole("option", { name: "One-time" }).click();
    await expect(cards(page).getByTestId("template-name")).toHaveText(["Client onboarding"]);
    await type.click();
    await page.getByRole("option", { name: "Recurring" }).click();
    await expect(cards(page)).toHaveCount(2);
    await page.getByRole("searchbox", { name: "Search templates" }).fill("annual");
    await expect(cards(page).getByTestId("template-name")).toHaveText(["Annual return"]);
    await page.getByRole("searchbox", { name: "Search templates" }).fill("zzzz");
    await expect(page.getByRole("heading", { name: "No templates found" })).toBeVisible();
  });

  test("S-TTPL-28 S-CONST-22 Browse library: 50+ curated templates by industry; Add puts one in the list and it reads Added", async ({
    page,
  }) => {
    await registerFirm(page);
    const library = await apiGet<LibraryTemplateEntry[]>(page, "/api/template-library");
    expect(library.length).toBeGreaterThanOrEqual(50);
    await openTemplates(page);
    await page.getByRole("button", { name: "Browse library" }).click();
    const dialog = page.getByRole("dialog", { name: "Template Library" });
    await expect(dialog.getByRole("listitem")).toHaveCount(library.length);
    for (const industry of ["Accounting", "Legal", "Consulting", "Marketing", "Real estate", "General"]) {
      await expect(dialog.getByRole("region", { name: new RegExp(`^${industry}`) })).toBeVisible();
    }
    const entry = library[0] as LibraryTemplateEntry;
    const row = dialog.getByRole("listitem", { name: entry.name });
    await expect(row).toContainText(entry.description);
    const added = page.waitForRequest(
      (request) => request.method() === "POST" && request.url().endsWith(`/api/template-library/${entry.key}/add`),
    );
    await row.getByRole("button", { name: /^Add/ }).click();
    await added;
    await expect(row.getByText("Added", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: /^Add/ })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(card(page, entry.name)).toBeVisible();

    await page.getByRole("button", { name: "Browse library" }).click();
    await page.getByRole("combobox", { name: "Filter by industry" }).click();
    await page.getByRole("option", { name: "Legal" }).click();
    await expect(dialog.getByRole("listitem")).toHaveCount(library.filter((item) => item.category === "legal").length);
  });

  test("S-EDGE-04 a template name the firm already has warns in the dialog; Create anyway creates exactly one more, renaming clears the warning", async ({
    page,
  }, testInfo) => {
    await registerFirm(page);
    const existing = await createTemplate(page, { name: `Monthly close ${unique()}` });
    const posts: unknown[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/task-templates") {
        posts.push(request.postDataJSON());
      }
    });
    await openTemplates(page);
    await page.getByRole("button", { name: "New Task Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Task Template" });
    const warning = dialog.getByRole("alert").filter({ hasText: "You already have" });
    await dialog.getByLabel("Name").fill(` ${existing.name.toLowerCase()}  `);
    await dialog.getByLabel("Description").fill("Close the month's books.");
    await dialog.getByRole("button", { name: "Create Template" }).click();
    await expect(warning).toContainText(`You already have a template named ${existing.name}.`);
    await expect(warning).toContainText("Create it anyway if this is a different template, or change the name.");
    expect(posts).toEqual([]);
    for (const viewport of Object.values(viewports)) {
      await page.setViewportSize(viewport);
      await expectNoHorizontalScroll(page);
      await attachScreenshot(page, testInfo, `template-same-name-${viewport.width}`);
    }

    // Changing the name clears the warning; the name back asks again.
    await dialog.getByLabel("Name").press("End");
    await dialog.getByLabel("Name").pressSequentially(" B");
    await expect(warning).toHaveCount(0);
    await dialog.getByLabel("Name").fill(existing.name);
    await dialog.getByRole("button", { name: "Create Template" }).click();
    await expect(warning).toBeVisible();
    expect(posts).toEqual([]);

    await warning.getByRole("button", { name: "Create anyway" }).click();
    await expect(toast(page)).toHaveText(/Task template created successfully!/);
    await expect(dialog).toBeHidden();
    expect(posts).toHaveLength(1);
    const stored = await apiGet<Template[]>(page, "/api/task-templates");
    expect(stored.filter((template) => template.name === existing.name)).toHaveLength(2);
    await expect(card(page, existing.name)).toHaveCount(2);
  });

  test("S-EDGE-05 the library marks what the firm has: Added, and a name it already has; adding that one asks first", async ({
    page,
  }, testInfo) => {
    await registerFirm(page);
    const [added, sameName, other] = await apiGet<LibraryTemplateEntry[]>(page, "/api/template-library");
    if (!added || !sameName || !other) throw new Error("the library has templates");
    expect((await page.request.post(`/api/template-library/${added.key}/add`)).status()).toBe(201);
    await createTemplate(page, { name: sameName.name.toUpperCase() });
    const adds: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/api/template-library/")) adds.push(request.url());
    });
    await openTemplates(page);
    await page.getByRole("button", { name: "Browse library" }).click();
    const dialog = page.getByRole("dialog", { name: "Template Library" });
    const row = (entry: LibraryTemplateEntry) => dialog.getByRole("listitem", { name: entry.name });
    const mark = "You have a template with this name";

    await expect(row(added).getByText("Added", { exact: true })).toBeVisible();
    await expect(row(added)).not.toContainText(mark);
    await expect(row(sameName)).toContainText(mark);
    await expect(row(other)).not.toContainText(mark);
    await expect(dialog.getByText(mark)).toHaveCount(1);

    // Add asks first; Cancel keeps the entry as it was and sends nothing.
    const question = row(sameName).getByRole("alert");
    await row(sameName).getByRole("button", { name: /^Add/ }).click();
    await expect(question).toContainText(
      `Your templates already include one named "${sameName.name}". Add a second one?`,
    );
    await expect(question.getByRole("button", { name: /^Add anyway/ })).toBeFocused();
    for (const viewport of Object.values(viewports)) {
      await page.setViewportSize(viewport);
      await row(sameName).scrollIntoViewIfNeeded();
      await expectNoHorizontalScroll(page);
      await attachScreenshot(page, testInfo, `library-same-name-${viewport.width}`);
    }
    await question.getByRole("button", { name: "Cancel" }).click();
    await expect(question).toHaveCount(0);
    expect(adds).toEqual([]);

    // Add anyway adds it, once.
    await row(sameName).getByRole("button", { name: /^Add/ }).click();
    await question.getByRole("button", { name: /^Add anyway/ }).click();
    await expect(row(sameName).getByText("Added", { exact: true })).toBeVisible();
    expect(adds).toEqual([expect.stringMatching(new RegExp(`/api/template-library/${sameName.key}/add$`))]);
    const stored = await apiGet<Template[]>(page, "/api/task-templates");
    expect(stored.filter((template) => template.libraryKey === sameName.key)).toHaveLength(1);

    // An entry without a mark adds at once.
    await row(other).getByRole("button", { name: /^Add/ }).click();
    await expect(row(other).getByText("Added", { exact: true })).toBeVisible();
    expect(adds).toHaveLength(2);
  });

  test("the templates tab and its dialogs have no accessibility violations and fit at 1280 and 375 px", async ({
    page,
  }, testInfo) => {
    // axe reads the page once per dialog at each width; on two shared cores that can pass the default 30 s.
    test.setTimeout(120_000);
    await signInAs(page, "super_admin");
    await openTemplates(page);
    await expect(cards(page).first()).toBeVisible();
    await checkAtBothWidths(page, testInfo, "task-templates");

    const check = async (label: string) => {
      await checkAtBothWidths(page, testInfo, label, { popupOpen: true });
      await page.keyboard.press("Escape");
    };
    await cards(page)
      .first()
      .getByRole("button", { name: /View Details/ })
      .click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await check("template-view");
    await page.getByRole("button", { name: "New Task Template" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Create Template" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await check("template-create");
    await cards(page).first().getByRole("button", { name: /^Edit/ }).click();
    await expect(page.getByRole("dialog", { name: "Edit Task Template" })).toBeVisible();
    await check("template-edit");
    await cards(page)
      .first()
      .getByRole("button", { name: /^Delete/ })
      .click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await check("template-delete");
    await page.getByRole("button", { name: "Browse library" }).click();
    await expect(page.getByRole("dialog").getByRole("listitem").first()).toBeVisible();
    await check("template-library");
  });
});
