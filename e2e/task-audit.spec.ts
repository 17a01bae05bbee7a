import { expect, type Page } from "@playwright/test";
import type { TaskListItem } from "../src/shared/tasks";
import {
  apiGet,
  attachScreenshot,
  checkAtBothWidths,
  expectNoAxeViolations,
  type FirmUser,
  holdRequests,
  OwnFirm,
  signInAs,
  signInToLargeFirm,
  test,
} from "./fixtures";

/*
 * Task Audit tab (the TAUD requirements). Reads use the demo firm; tests that need tasks of known dates
 * and states register a firm of their own, so nothing the other specs read is changed.
 */

const dayMs = 86_400_000;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Registers a new firm over the API; the page's context is then signed in as its super admin. */
async function registerFirm(page: Page): Promise<FirmUser> {
  return (await OwnFirm.register(page.request, "professional")).owner;
}

async function createClient(page: Page, name: string): Promise<string> {
  const response = await page.request.post("/api/clients", { data: { name } });
  expect(response.status(), "create client").toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function createTask(page: Page, clientId: string, name: string, dueInDays: number | null): Promise<string> {
  const dueDate = dueInDays === null ? null : new Date(Date.now() + dueInDays * dayMs).toISOString();
  const response = await page.request.post("/api/tasks", {
    data: { name, description: `Description of ${name}`, priority: "high", clientId, status: "pending", dueDate },
  });
  expect(response.status(), "create task").toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A drawn stroke as a PNG data URL, made by a canvas the way the signature pad makes one. */
async function signatureImage(page: Page): Promise<string> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 400;
    canvas.height = 128;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no canvas");
    context.strokeStyle = "black";
    context.lineWidth = 2;
    context.beginPath();
    context.moveTo(20, 90);
    context.bezierCurveTo(120, 10, 200, 120, 380, 40);
    context.stroke();
    return canvas.toDataURL("image/png");
  });
}

/** Signs a task off over the API; gives the PNG sent and the address the answer gives for it. */
async function completeTask(
  page: Page,
  taskId: string,
  printedName: string,
): Promise<{ png: Buffer; address: string }> {
  const signature = await signatureImage(page);
  const response = await page.request.patch(`/api/tasks/${taskId}/complete`, {
    data: { completedBy: printedName, signature, printedName },
  });
  expect(response.status(), "complete task").toBe(200);
  const png = Buffer.from(signature.replace(/^data:image\/png;base64,/, ""), "base64");
  return { png, address: ((await response.json()) as TaskListItem).signature ?? "" };
}

const cards = (page: Page) => page.getByRole("list", { name: "Tasks" }).getByRole("article");
const statusFilter = (page: Page) => page.getByRole("combobox", { name: "Filter by status" });
const search = (page: Page) => page.getByRole("searchbox", { name: "Search tasks" });

async function chooseStatus(page: Page, label: string) {
  await statusFilter(page).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

/** Tasks requested from GET /api/tasks by the page, with their query strings. */
function recordTaskRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/tasks") seen.push(url);
  });
  return seen;
}

test.describe("task audit", () => {
  test("S-TAUD-01 /tasks has the tabs Task Audit and Task Templates; ?tab=templates opens the second", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/tasks");
    const tabs = page.getByRole("tablist").getByRole("tab");
    await expect(tabs).toHaveText(["Task Audit", "Task Templates"]);
    await expect(page.getByRole("tab", { name: "Task Audit" })).toHaveAttribute("aria-selected", "true");
    await page.getByRole("tab", { name: "Task Templates" }).click();
    await expect(page).toHaveURL(/\/tasks\?tab=templates$/);
    await page.goto("/tasks?tab=templates");
    await expect(page.getByRole("tab", { name: "Task Templates" })).toHaveAttribute("aria-selected", "true");
  });

  test("S-TAUD-07 S-TAUD-08 S-TAUD-09 S-TAUD-17 S-API-14 cards come from GET /api/tasks in its order with every field", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const requests = recordTaskRequests(page);
    const expected = await apiGet<TaskListItem[]>(page, "/api/tasks?limit=50");
    await page.goto("/tasks");
    await expect(cards(page).first()).toBeVisible();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]?.searchParams.get("limit")).toBe("50");

    // The first cards are the API's first tasks, in the API's (S-TAUD-09's) order.
    const shown = await cards(page).getByTestId("task-name").allTextContents();
    expect(shown.length).toBeGreaterThan(2);
    expect(shown).toEqual(expected.slice(0, shown.length).map((task) => task.name));

    const first = cards(page).first();
    const task = expected[0] as TaskListItem;
    await expect(first.getByTestId("task-status")).toHaveText(new RegExp(task.status, "i"));
    await expect(first.getByTestId("priority")).toHaveText(new RegExp(`${task.priority} priority`, "i"));
    if (task.description) await expect(first.getByTestId("task-description")).toHaveText(task.description);
    await expect(first.getByTestId("task-client")).toHaveText(task.clientName);
    await expect(first.getByTestId("task-due")).not.toBeEmpty();
    if (task.completedAt) await expect(first.getByTestId("task-completed")).not.toBeEmpty();
    await expect(first.getByRole("button", { name: /View Details/ })).toBeVisible();
  });

  test("S-TAUD-09 sort: completed first, newest completion first, then by due date, latest first", async ({ page }) => {
    await registerFirm(page);
    const clientId = await createClient(page, `Sort Client ${unique()}`);
    const names = {
      noDue: "No due date task",
      overdue: "Overdue task",
      soon: "Due in five days",
      later: "Due in ten days",
      firstDone: "Completed first",
      lastDone: "Completed last",
    };
    await createTask(page, clientId, names.noDue, null);
    await createTask(page, clientId, names.overdue, -3);
    await createTask(page, clientId, names.soon, 5);
    await createTask(page, clientId, names.later, 10);
    const firstDone = await createTask(page, clientId, names.firstDone, 20);
    const lastDone = await createTask(page, clientId, names.lastDone, -10);
    await completeTask(page, firstDone, "Sorter");
    await completeTask(page, lastDone, "Sorter");

    await page.goto("/tasks");
    await expect(cards(page).getByTestId("task-name")).toHaveText([
      names.lastDone,
      names.firstDone,
      names.later,
      names.soon,
      names.overdue,
      names.noDue,
    ]);
  });

  test("S-TAUD-02 S-TAUD-10 search is served by the API (q) and says No tasks found when nothing matches", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    const all = await apiGet<TaskListItem[]>(page, "/api/tasks?limit=50");
    const term = (all.find((task) => task.status === "completed") ?? all[0])?.name as string;
    const matching = await apiGet<TaskListItem[]>(page, `/api/tasks?limit=50&q=${encodeURIComponent(term)}`);
    const requests = recordTaskRequests(page);
    await page.goto("/tasks");
    await expect(cards(page).first()).toBeVisible();

    await search(page).fill(term);
    await expect.poll(() => requests.some((url) => url.searchParams.get("q") === term)).toBe(true);
    await expect(cards(page).getByTestId("task-name").first()).toHaveText(matching[0]?.name as string);
    for (const text of await cards(page).allTextContents()) expect(text.toLowerCase()).toContain(term.toLowerCase());

    await search(page).fill("zzzz-no-such-task");
    await expect(page.getByRole("heading", { name: "No tasks found" })).toBeVisible();
    await expect(page.getByText("No task history yet")).toHaveCount(0);
  });

  test("S-TAUD-03 S-TAUD-04 S-TAUD-05 S-TAUD-06 S-STATE-10 S-STATE-11 the status filter offers all, pending, completed, overdue and asks the API", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const requests = recordTaskRequests(page);
    await page.goto("/tasks");
    await expect(cards(page).first()).toBeVisible();
    await expect(statusFilter(page)).toHaveText("All statuses");
    await statusFilter(page).click();
    await expect(page.getByRole("option")).toHaveText(["All statuses", "Pending", "Completed", "Overdue"]);
    await page.keyboard.press("Escape");

    for (const status of ["pending", "completed", "overdue"] as const) {
      const label = status[0]?.toUpperCase() + status.slice(1);
      const expected = await apiGet<TaskListItem[]>(page, `/api/tasks?limit=50&status=${status}`);
      await chooseStatus(page, label);
      await expect.poll(() => requests.some((url) => url.searchParams.get("status") === status)).toBe(true);
      if (expected.length === 0) {
        await expect(page.getByRole("heading", { name: "No tasks found" })).toBeVisible();
        continue;
      }
      await expect(cards(page).getByTestId("task-name").first()).toHaveText(expected[0]?.name as string);
      const badges = await cards(page).getByTestId("task-status").allTextContents();
      expect(badges.length).toBeGreaterThan(0);
      for (const badge of badges) expect(badge).toBe(label);
    }
    // Overdue counts the same in the filter as in the bell (S-STATE-11).
    const overdue = await apiGet<TaskListItem[]>(page, "/api/tasks/overdue");
    const overdueListed = await apiGet<TaskListItem[]>(page, "/api/tasks?limit=500&status=overdue");
    expect(overdueListed.map((task) => task.id).sort()).toEqual(overdue.map((task) => task.id).sort());
  });

  test("S-EDGE-07 the status filter is kept in the URL: it survives a reload, and back and forward step through it", async ({
    page,
  }) => {
    await registerFirm(page);
    const clientId = await createClient(page, `Filter Co ${unique()}`);
    await completeTask(page, await createTask(page, clientId, "Filed return", 3), "Dana Whitfield");
    await createTask(page, clientId, "Open engagement", 5);
    await createTask(page, clientId, "Late payroll", -2);
    const names = () => cards(page).getByTestId("task-name");

    await page.goto("/tasks");
    await expect(names()).toHaveText(["Filed return", "Open engagement", "Late payroll"]);
    await chooseStatus(page, "Overdue");
    await expect(page).toHaveURL(/\/tasks\?status=overdue$/);
    await expect(names()).toHaveText(["Late payroll"]);

    await page.reload();
    await expect(statusFilter(page)).toHaveText("Overdue");
    await expect(names()).toHaveText(["Late payroll"]);

    await chooseStatus(page, "Completed");
    await expect(page).toHaveURL(/\/tasks\?status=completed$/);
    await expect(names()).toHaveText(["Filed return"]);
    // Back returns to the filter before, then to the unfiltered list; forward comes again.
    await page.goBack();
    await expect(page).toHaveURL(/\/tasks\?status=overdue$/);
    await expect(statusFilter(page)).toHaveText("Overdue");
    await expect(names()).toHaveText(["Late payroll"]);
    await page.goBack();
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(statusFilter(page)).toHaveText("All statuses");
    await expect(names()).toHaveCount(3);
    await page.goForward();
    await expect(statusFilter(page)).toHaveText("Overdue");
    await expect(names()).toHaveText(["Late payroll"]);

    // A look at the templates keeps the filter; choosing "All statuses" takes it out of the URL.
    await page.getByRole("tab", { name: "Task Templates" }).click();
    await expect(page).toHaveURL(/\/tasks\?status=overdue&tab=templates$/);
    await page.getByRole("tab", { name: "Task Audit" }).click();
    await expect(page).toHaveURL(/\/tasks\?status=overdue$/);
    await expect(names()).toHaveText(["Late payroll"]);
    await chooseStatus(page, "All statuses");
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(names()).toHaveCount(3);

    // A link with a status the filter does not know shows every task.
    await page.goto("/tasks?status=archived");
    await expect(statusFilter(page)).toHaveText("All statuses");
    await expect(names()).toHaveCount(3);
  });

  test("S-TAUD-11 a firm with no tasks sees No task history yet", async ({ page }) => {
    await registerFirm(page);
    await page.goto("/tasks");
    await expect(page.getByRole("heading", { name: "No task history yet" })).toBeVisible();
    await expect(page.getByText("No tasks found")).toHaveCount(0);
  });

  test("S-TAUD-12 S-TAUD-13 S-TAUD-14 S-TAUD-15 S-TAUD-16 S-STATE-09 details of completed, pending and overdue tasks", async ({
    page,
  }, testInfo) => {
    const owner = await registerFirm(page);
    const clientName = `Details Client ${unique()}`;
    const clientId = await createClient(page, clientName);
    const doneId = await createTask(page, clientId, "Signed engagement letter", 7);
    await createTask(page, clientId, "Pending bookkeeping", 7);
    await createTask(page, clientId, "Late tax filing", -2);
    const signature = await completeTask(page, doneId, "Audit Printed Name");

    await page.goto("/tasks");
    const card = (name: string) => cards(page).filter({ hasText: name });

    await card("Signed engagement letter")
      .getByRole("button", { name: /View Details/ })
      .click();
    const dialog = page.getByRole("dialog", { name: "Signed engagement letter" });
    await expect(dialog.locator("dl").first().locator("dt")).toHaveText([
      "Client",
      "Status",
      "Priority",
      "Created",
      "Due date",
      "Completed",
    ]);
    await expect(dialog.getByRole("link", { name: clientName })).toHaveAttribute("href", `/client/${clientId}`);
    await expect(dialog.getByTestId("task-status")).toHaveText("Completed");
    await expect(dialog.getByTestId("priority")).toHaveText("High priority");
    await expect(dialog.getByTestId("completed-by")).toHaveText(`${owner.fullName} @${owner.username}`);
    await expect(dialog.getByText("Audit Printed Name")).toBeVisible();
    const image = dialog.getByRole("img", { name: /Signature of/ });
    // The image is loaded from its own address, and it is the very PNG that was signed (S-SCALE-01).
    await expect(image).toHaveAttribute("src", signature.address);
    expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(400);
    expect((await (await page.request.get(signature.address)).body()).equals(signature.png)).toBe(true);
    await expectNoAxeViolations(page, { popupOpen: true });
    await attachScreenshot(page, testInfo, "task-details-completed");
    await page.keyboard.press("Escape");

    await card("Pending bookkeeping")
      .getByRole("button", { name: /View Details/ })
      .click();
    await expect(page.getByRole("dialog").getByTestId("task-note")).toHaveText(
      "Completion is pending. This task has not been signed off yet.",
    );
    await page.keyboard.press("Escape");

    await card("Late tax filing")
      .getByRole("button", { name: /View Details/ })
      .click();
    await expect(page.getByRole("dialog").getByTestId("task-status")).toHaveText("Overdue");
    await expect(page.getByRole("dialog").getByTestId("task-note")).toHaveText(
      "This task is overdue and requires immediate attention.",
    );
  });

  test("S-TAUD-13 the signer's raw id shows when the user is unknown", async ({ page }) => {
    await signInAs(page, "super_admin");
    // A signer the firm no longer knows is answered with completedByUser null (the id stays).
    await page.route("**/api/tasks?*", async (route) => {
      const response = await route.fetch();
      const tasks = (await response.json()) as TaskListItem[];
      await route.fulfill({
        response,
        json: tasks.map((task) => (task.status === "completed" ? { ...task, completedByUser: null } : task)),
      });
    });
    await page.goto("/tasks");
    await chooseStatus(page, "Completed");
    await cards(page)
      .first()
      .getByRole("button", { name: /View Details/ })
      .click();
    await expect(page.getByRole("dialog").getByTestId("completed-by")).toHaveText(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  test("S-TAUD-17 the list pages through the API with the x-next-cursor header", async ({ page }) => {
    await signInAs(page, "super_admin");
    const first = await page.request.get("/api/tasks?limit=50");
    const cursor = first.headers()["x-next-cursor"];
    test.skip(!cursor, "the demo firm has one page of tasks");
    const requests = recordTaskRequests(page);
    await page.goto("/tasks");
    await expect(cards(page).first()).toBeVisible();
    // Reaching the end of what is loaded asks for the next page with the header's cursor.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => requests.some((url) => url.searchParams.get("cursor") === cursor)).toBe(true);
    const second = await apiGet<TaskListItem[]>(page, `/api/tasks?limit=50&cursor=${encodeURIComponent(cursor ?? "")}`);
    await expect(
      cards(page)
        .filter({ hasText: second[0]?.name as string })
        .first(),
    ).toBeAttached();
    expect(await page.evaluate(() => document.querySelectorAll("*").length)).toBeLessThan(1500);
  });

  test("S-ERR-01 a failed list shows the server's message, never a raw body", async ({ page, browserConsole }) => {
    // The list is made to fail: the browser logs the 503.
    browserConsole.expectFailedRequest(503, "/api/tasks");
    await signInAs(page, "admin");
    await page.route("**/api/tasks?*", (route) =>
      route.fulfill({ status: 503, json: { message: "The task list is being rebuilt", code: "SERVICE_UNAVAILABLE" } }),
    );
    await page.goto("/tasks");
    await expect(page.getByRole("alert")).toContainText("The task list is being rebuilt");
    await expect(page.getByText("[object Object]")).toHaveCount(0);
  });

  test("a loading skeleton shows while the first page loads", async ({ page }) => {
    await signInAs(page, "admin");
    const release = await holdRequests(page, "**/api/tasks?*");
    await page.goto("/tasks");
    await expect(page.getByTestId("audit-skeleton")).toBeVisible();
    release();
    await expect(cards(page).first()).toBeVisible();
  });

  test("the audit tab and its details dialog have no accessibility violations and fit at 1280 and 375 px", async ({
    page,
  }, testInfo) => {
    // axe reads the whole page twice at each width; on two shared cores that can pass the default 30 s.
    test.setTimeout(90_000);
    await signInAs(page, "super_admin");
    await page.goto("/tasks");
    await expect(cards(page).first()).toBeVisible();
    await checkAtBothWidths(page, testInfo, "task-audit");
    await cards(page)
      .first()
      .getByRole("button", { name: /View Details/ })
      .click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "task-details", { popupOpen: true });
  });

  test("large firm: 100,000 tasks page through the API, the DOM stays under 1,500 elements, search and filter ask the API", {
    tag: "@large-firm",
  }, async ({ page }) => {
    test.setTimeout(120_000);
    await signInToLargeFirm(page, "super_admin");
    const requests = recordTaskRequests(page);
    const domSize = () => page.evaluate(() => document.querySelectorAll("*").length);
    await page.goto("/tasks");
    await expect(cards(page).first()).toBeVisible();
    expect(await domSize()).toBeLessThan(1500);

    // Scroll through several pages: each arrives by cursor, and the DOM does not grow with them.
    for (let page_ = 0; page_ < 3; page_ += 1) {
      const asked = requests.length;
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect.poll(() => requests.length).toBeGreaterThan(asked);
      await expect(page.getByText(/Showing the first/)).toContainText(`${(asked + 1) * 50}`);
    }
    expect(requests.filter((url) => url.searchParams.has("cursor")).length).toBeGreaterThanOrEqual(3);
    expect(await domSize()).toBeLessThan(1500);

    await page.evaluate(() => window.scrollTo(0, 0));
    const first = await apiGet<TaskListItem[]>(page, "/api/tasks?limit=1&status=overdue");
    await chooseStatus(page, "Overdue");
    await expect.poll(() => requests.some((url) => url.searchParams.get("status") === "overdue")).toBe(true);
    await expect(cards(page).getByTestId("task-name").first()).toHaveText(first[0]?.name as string);

    const term = first[0]?.clientName as string;
    await search(page).fill(term);
    await expect.poll(() => requests.some((url) => url.searchParams.get("q") === term)).toBe(true);
    await expect(cards(page).getByTestId("task-client").first()).toHaveText(term);
    expect(await domSize()).toBeLessThan(1500);
  });
});
