import { expect, type Locator, type Page } from "@playwright/test";
import type { DisasterRelief, TaskDueDates } from "../src/shared/due-dates";
import type { TaskListItem } from "../src/shared/tasks";
import { saveShot } from "./client-detail-helpers";
import { checkAtBothWidths, type OwnFirm, test } from "./fixtures";
import { corporateClient, unique } from "./statutory-support";

/*
 * A statutory due date moved by hand (S-DUE-28) and by a disaster relief (S-DUE-29), decision
 * 0053. Each test has a firm of its own: a client whose year ended two months ago, assigned a Form
 * 1120 template, gets that year's task at once, still due. The firm's super admin seeds it over
 * the API; the page signs in as the role the test is about.
 */

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A civil date `days` after `date` (both YYYY-MM-DD). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** "2027-04-15" as the app writes it: "Apr 15, 2027". */
function shown(date: string): string {
  const [year, month, day] = date.split("-");
  return `${monthNames[Number(month) - 1]} ${Number(day)}, ${year}`;
}

/**
 * A client in `state` with its Form 1120 task, assigned to the firm's `user` so that user can open
 * it too: the task's name, its id and the day it is due.
 */
async function corporateReturn(ownFirm: OwnFirm, state: string) {
  const { name, clientId } = await corporateClient(ownFirm.api, state);
  const user = await ownFirm.user("user");
  const assigned = await ownFirm.api.post("/api/user-clients/assign", {
    data: { userId: user.id, clientIds: [clientId] },
  });
  expect(assigned.status(), "assign the client").toBe(200);
  const tasks = await ownFirm.api.get(`/api/tasks?q=${encodeURIComponent(name)}`);
  const [task] = (await tasks.json()) as TaskListItem[];
  if (!task) throw new Error(`no task named ${name}`);
  const dates = (await (await ownFirm.api.get(`/api/tasks/${task.id}/due-dates`)).json()) as TaskDueDates;
  if (!dates.dueOn) throw new Error("the task follows no rule");
  return { name, taskId: task.id, dueOn: dates.dueOn };
}

async function openDetails(page: Page, name: string) {
  await page.goto("/tasks");
  await page
    .getByRole("list", { name: "Tasks" })
    .getByRole("article")
    .filter({ hasText: name })
    .getByRole("button", { name: /View Details/ })
    .click();
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  return dialog.getByRole("region", { name: "Statutory due date" });
}

/** The Due date of a task's section: the day and, when something other than the rule set it, what did. */
const dueDate = (section: Locator) =>
  section.locator("xpath=.//dt[normalize-space()='Due date']/following-sibling::dd[1]");

const reliefCard = (page: Page) => page.getByTestId("disaster-relief");

/** A relief for `state` whose window holds `dueOn`: what the form takes. */
function reliefAround(dueOn: string, state: string) {
  return {
    name: `Hurricane Delia ${unique()}`,
    states: [state],
    windowStart: addDays(dueOn, -10),
    windowEnd: addDays(dueOn, 10),
    newDueOn: addDays(dueOn, 60),
    sourceUrl: "https://www.irs.gov/newsroom/irs-announces-tax-relief-for-hurricane-delia-victims",
  };
}

async function fillReliefForm(page: Page, relief: ReturnType<typeof reliefAround>) {
  const dialog = page.getByRole("dialog", { name: "Record disaster relief" });
  await dialog.getByLabel("Name").fill(relief.name);
  for (const state of relief.states) await dialog.getByRole("checkbox", { name: state, exact: true }).check();
  await dialog.getByLabel("Deadlines from").fill(relief.windowStart);
  await dialog.getByLabel("Deadlines to").fill(relief.windowEnd);
  await dialog.getByLabel("New due date").fill(relief.newDueOn);
  await dialog.getByLabel("Announcement link").fill(relief.sourceUrl);
  return dialog;
}

test.describe("due dates moved by hand and by disaster relief", () => {
  test("S-DUE-28 an admin changes a rule task's due date with a reason; the section shows the new date, Set by hand and the reason in its date changes; a user sees no Change due date", async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    const { name, dueOn } = await corporateReturn(ownFirm, "NY");
    await ownFirm.signIn(page, "admin");
    let section = await openDetails(page, name);
    await section.getByRole("button", { name: "Change due date" }).click();
    const dialog = page.getByRole("dialog", { name: "Change due date" });
    await expect(dialog.getByLabel("New due date")).toHaveValue(dueOn);

    // A reason is required before anything is sent; a day the server refuses says why under the date.
    await dialog.getByRole("button", { name: "Change due date" }).click();
    await expect(dialog.getByText("Say why the date changes", { exact: true })).toBeVisible();
    await dialog.getByLabel("Reason").fill("The client's records arrive after the deadline.");
    browserConsole.expectFailedRequest(400, "/api/tasks/");
    await dialog.getByRole("button", { name: "Change due date" }).click();
    await expect(dialog.getByText("The task is already due on that day")).toBeVisible();

    const newDueOn = addDays(dueOn, 21);
    await dialog.getByLabel("New due date").fill(newDueOn);
    const answered = page.waitForResponse(
      (response) => response.url().endsWith("/due-date") && response.request().method() === "POST",
    );
    await dialog.getByRole("button", { name: "Change due date" }).click();
    expect((await answered).status()).toBe(200);
    await expect(dialog).toHaveCount(0);
    await expect(dueDate(section)).toContainText(shown(newDueOn));
    await expect(dueDate(section)).toContainText("Set by hand");
    await section.getByText("Date changes (3)").click();
    await expect(section.getByRole("list", { name: "Date changes" }).getByRole("listitem").last()).toContainText(
      `Due date: ${shown(dueOn)} → ${shown(newDueOn)} (changed by hand: The client's records arrive after the deadline.)`,
    );

    await ownFirm.signIn(page, "user");
    section = await openDetails(page, name);
    await expect(dueDate(section)).toContainText(shown(newDueOn));
    await expect(dueDate(section)).toContainText("Set by hand");
    await expect(section.getByRole("button", { name: /Record extension filed/ })).toBeVisible();
    await expect(section.getByRole("button", { name: "Change due date" })).toHaveCount(0);
  });

  test("S-DUE-28 the Change due date dialog and the section after: axe, screenshots and no sideways scroll at 1280 and 375 px", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const shot = (name: string) => saveShot(page, testInfo, name, { fullPage: false });
    const { name, dueOn } = await corporateReturn(ownFirm, "NY");
    await ownFirm.signIn(page, "admin");
    const section = await openDetails(page, name);
    await section.getByRole("button", { name: "Change due date" }).click();
    const dialog = page.getByRole("dialog", { name: "Change due date" });
    await dialog.getByLabel("New due date").fill(addDays(dueOn, 14));
    await dialog.getByLabel("Reason").fill("Agreed with the client: their auditors sign the accounts late.");
    await checkAtBothWidths(page, testInfo, "due-date-change-dialog", { screenshot: shot });

    await dialog.getByRole("button", { name: "Change due date" }).click();
    await expect(dialog).toHaveCount(0);
    await section.getByText("Date changes (3)").click();
    await checkAtBothWidths(page, testInfo, "due-date-set-by-hand", {
      atWidth: () => section.getByText("Set by hand").scrollIntoViewIfNeeded(),
      screenshot: shot,
    });
  });

  test("S-DUE-29 a super admin records a disaster relief: the card lists it and says 1 open task moved; the task shows Postponed by disaster relief with the relief's link; a user sees no card", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { name, dueOn } = await corporateReturn(ownFirm, "FL");
    const relief = reliefAround(dueOn, "FL");
    await ownFirm.signIn(page, "super_admin");
    await page.goto("/settings");
    const card = reliefCard(page);
    await expect(card.getByRole("heading", { name: "Disaster relief" })).toBeVisible();
    await expect(card).toContainText("No disaster relief recorded.");

    await card.getByRole("button", { name: "Record disaster relief" }).click();
    let dialog = page.getByRole("dialog", { name: "Record disaster relief" });
    await expect(dialog).toContainText("This cannot be undone");
    // Nothing is sent until every field is there.
    await dialog.getByRole("button", { name: "Record disaster relief" }).click();
    await expect(dialog.getByText("Choose at least one state")).toBeVisible();
    await expect(dialog.getByText("Paste the announcement's address, starting https://")).toBeVisible();

    dialog = await fillReliefForm(page, relief);
    await expect(dialog.getByText("1 chosen")).toBeVisible();
    const answered = page.waitForResponse(
      (response) => response.url().endsWith("/api/disaster-reliefs") && response.request().method() === "POST",
    );
    await dialog.getByRole("button", { name: "Record disaster relief" }).click();
    expect((await answered).status()).toBe(201);
    await expect(dialog).toHaveCount(0);
    await expect(card.getByRole("status")).toHaveText("Recorded. 1 open task moved.");
    const item = card.getByRole("list", { name: "Disaster reliefs" }).getByRole("listitem");
    await expect(item).toHaveCount(1);
    await expect(item.getByRole("link", { name: relief.name })).toHaveAttribute("href", relief.sourceUrl);
    await expect(item).toContainText("FL");
    await expect(item).toContainText(
      `Deadlines ${shown(relief.windowStart)} – ${shown(relief.windowEnd)} → due ${shown(relief.newDueOn)}`,
    );
    await expect(item).toContainText(`Recorded by ${ownFirm.owner.fullName} on `);

    const section = await openDetails(page, name);
    await expect(dueDate(section)).toContainText(shown(relief.newDueOn));
    await expect(dueDate(section)).toContainText("Postponed by disaster relief");
    await section.getByText("Date changes (3)").click();
    const line = section.getByRole("list", { name: "Date changes" }).getByRole("listitem").last();
    await expect(line).toContainText(
      `Due date: ${shown(dueOn)} → ${shown(relief.newDueOn)} (disaster relief: ${relief.name})`,
    );
    const link = line.getByRole("link", { name: relief.name });
    await expect(link).toHaveAttribute("href", relief.sourceUrl);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    await line.scrollIntoViewIfNeeded();
    await saveShot(page, testInfo, "disaster-relief-task-1280", { fullPage: false });

    await ownFirm.signIn(page, "user");
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Your account and firm" })).toBeVisible();
    await expect(page.getByTestId("calendar-feed")).toBeVisible();
    await expect(reliefCard(page)).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Disaster relief" })).toHaveCount(0);
  });

  test("S-DUE-29 the Disaster relief card and its dialog: axe, screenshots and no sideways scroll at 1280 and 375 px", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const shot = (name: string) => saveShot(page, testInfo, name, { fullPage: false });
    const { dueOn } = await corporateReturn(ownFirm, "FL");
    // One relief recorded before, so the card shows the list and the dialog opens over it.
    const earlier = await ownFirm.api.post("/api/disaster-reliefs", {
      data: { ...reliefAround(addDays(dueOn, -200), "TX"), name: "Winter storms in Texas" },
    });
    expect(earlier.status()).toBe(201);
    expect(((await earlier.json()) as { relief: DisasterRelief }).relief.states).toEqual(["TX"]);
    await ownFirm.signIn(page, "super_admin");
    await page.goto("/settings");
    const card = reliefCard(page);
    await expect(card.getByRole("listitem")).toHaveCount(1);

    await card.getByRole("button", { name: "Record disaster relief" }).click();
    const dialog = await fillReliefForm(page, { ...reliefAround(dueOn, "FL"), states: ["FL", "GA", "NC", "SC"] });
    await checkAtBothWidths(page, testInfo, "disaster-relief-dialog", { screenshot: shot });

    await dialog.getByRole("button", { name: "Record disaster relief" }).click();
    await expect(card.getByRole("status")).toHaveText("Recorded. 1 open task moved.");
    await expect(card.getByRole("listitem")).toHaveCount(2);
    await checkAtBothWidths(page, testInfo, "disaster-relief-card", {
      atWidth: () => card.scrollIntoViewIfNeeded(),
      screenshot: shot,
    });
  });
});
