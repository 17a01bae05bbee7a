import { type CDPSession, expect, type Locator, type Page } from "@playwright/test";
import { PNG } from "pngjs";
import type { ClientDetail } from "../src/shared/clients";
import type { Task, TaskListItem } from "../src/shared/tasks";
import {
  assignClients,
  type CreatedUser,
  completeTaskByApi,
  createClient,
  createTask,
  createUser,
  daysFromNow,
  drawSignature,
  inkPixels,
  openClient,
  saveShot,
  signaturePng,
  signInWith,
  taskRow,
  uniqueName,
} from "./client-detail-helpers";
import { apiGet, expectNoAxeViolations, expectNoHorizontalScroll, type OwnFirm, test, viewports } from "./fixtures";

const dialog = (page: Page) => page.getByRole("dialog");
const pad = (page: Page) => dialog(page).locator("canvas");
const isCompletion = (taskId: string) => (request: { method(): string; url(): string }) =>
  request.method() === "PATCH" && new URL(request.url()).pathname === `/api/tasks/${taskId}/complete`;

/**
 * In the test's own firm: a client with one overdue and one pending task, and a `user` assigned
 * only to it, signed in. The bell counts this client's overdue work alone.
 */
async function signingSetup(page: Page, firm: OwnFirm) {
  await firm.signIn(page, "super_admin");
  const client = await createClient(page);
  const overdue = await createTask(page, client.id, { name: uniqueName("Overdue return"), dueDate: daysFromNow(-2) });
  const pending = await createTask(page, client.id, { name: uniqueName("Pending review"), dueDate: daysFromNow(5) });
  const signer = await createUser(page, "user", uniqueName("Signer"));
  await assignClients(page, signer.id, [client.id]);
  await signInWith(page, signer);
  return { client, overdue, pending, signer };
}

async function openCompletion(page: Page, task: Task) {
  await taskRow(page, task.name).getByRole("button", { name: "Complete" }).click();
  await expect(dialog(page).getByRole("heading", { name: "Complete Task" })).toBeVisible();
  await expect(pad(page)).toBeVisible();
  // The dialog zooms in from 95%: measured or drawn on before that ends, the pad is a pixel short.
  await dialog(page).evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
  );
}

/** Counts the completion requests the page sends from now on. */
function countCompletions(page: Page, taskId: string) {
  const counter = { sent: 0 };
  page.on("request", (request) => {
    if (isCompletion(taskId)(request)) counter.sent += 1;
  });
  return counter;
}

/**
 * The ink across one column of the pad: the sum of each pixel's darkness, i.e. the line's width
 * there. Read from a copy made for reading, as inkPixels does (Chromium warns on repeated reads of
 * the pad's own canvas).
 */
function inkAcrossColumn(canvas: Locator, cssX: number): Promise<{ width: number; darkest: number[] }> {
  return canvas.evaluate((element: HTMLCanvasElement, x) => {
    const copy = document.createElement("canvas");
    copy.width = element.width;
    copy.height = element.height;
    const context = copy.getContext("2d", { willReadFrequently: true });
    if (!context) return { width: 0, darkest: [] };
    context.drawImage(element, 0, 0);
    const scale = element.width / element.getBoundingClientRect().width;
    const column = Math.round(x * scale);
    const { data } = context.getImageData(column, 0, 1, element.height);
    let width = 0;
    let darkest = [255, 255, 255];
    for (let i = 0; i < data.length; i += 4) {
      const red = data[i] ?? 255;
      width += (255 - red) / 255;
      if (red < (darkest[0] ?? 255)) darkest = [red, data[i + 1] ?? 255, data[i + 2] ?? 255];
    }
    // In pad pixels (CSS pixels of the 400 x 128 pad), whatever the device pixel ratio.
    return { width: width / (element.width / 400), darkest };
  }, cssX);
}

async function storedTask(page: Page, clientId: string, taskId: string): Promise<Task> {
  const client = await apiGet<ClientDetail>(page, `/api/clients/${clientId}`);
  const task = client.tasks.find((t) => t.id === taskId);
  if (!task) throw new Error(`Task ${taskId} is missing`);
  return task;
}

/** The signed PNG, from the address the task's answer gives (S-SCALE-01). */
async function storedSignature(page: Page, task: Task): Promise<PNG> {
  expect(task.signature).toMatch(/^\/api\/tasks\/[0-9a-f-]{36}\/signature\?v=[0-9a-f]{64}$/);
  const response = await page.request.get(task.signature ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  return PNG.sync.read(await response.body());
}

test.describe("task completion", () => {
  // Each test makes its own client, tasks and signer over the API; on two shared cores, next to
  // the other worker, the server and PostgreSQL, that can take longer than 30 s.
  test.describe.configure({ timeout: 120_000 });

  test('S-TCOMP-01 S-CONST-34 "Complete" opens a dialog with a 400x128 signature canvas, Print Name, Clear, Cancel and Submit', async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { client, overdue } = await signingSetup(page, ownFirm);
    await page.setViewportSize(viewports.desktop);
    await openClient(page, client);
    await openCompletion(page, overdue);
    await expect(pad(page)).toHaveAttribute("width", "400");
    await expect(pad(page)).toHaveAttribute("height", "128");
    const box = await pad(page).boundingBox();
    expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([400, 128]);
    await expect(dialog(page).getByLabel("Print Name")).toBeVisible();
    for (const name of ["Clear", "Cancel", "Submit"]) {
      await expect(dialog(page).getByRole("button", { name, exact: true })).toBeVisible();
    }
    await expectNoAxeViolations(page, { popupOpen: true });
    await drawSignature(page, pad(page));
    await dialog(page).getByLabel("Print Name").fill("Jordan Signer");
    await saveShot(page, testInfo, "complete-signed-1280", { fullPage: false });
  });

  test("S-TCOMP-02 S-TCOMP-03 S-CONST-35 the mouse draws a black line 2 pixels wide", async ({ page, ownFirm }) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    await openCompletion(page, pending);
    expect(await inkPixels(pad(page))).toBe(0);
    const box = await pad(page).boundingBox();
    if (!box) throw new Error("no pad");
    await page.mouse.move(box.x + 60, box.y + 64);
    await page.mouse.down();
    await page.mouse.move(box.x + 340, box.y + 64, { steps: 30 });
    await page.mouse.up();
    expect(await inkPixels(pad(page))).toBeGreaterThan(200);
    for (const x of [150, 200, 250]) {
      const column = await inkAcrossColumn(pad(page), x);
      expect(column.width).toBeGreaterThan(1.6);
      expect(column.width).toBeLessThan(2.4);
      expect(column.darkest).toEqual([0, 0, 0]);
    }
  });

  test("S-TCOMP-03 a pen draws on the pad (pointer type pen)", async ({ page, ownFirm }) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    await openCompletion(page, pending);
    await pad(page).evaluate((canvas: HTMLCanvasElement) => {
      canvas.addEventListener("pointerdown", (event) => canvas.setAttribute("data-pointer", event.pointerType));
    });
    const box = await pad(page).boundingBox();
    if (!box) throw new Error("no pad");
    const cdp = await page.context().newCDPSession(page);
    const pen = (type: string, x: number, y: number, buttons: number) =>
      cdp.send("Input.dispatchMouseEvent", {
        type: type as "mousePressed",
        x: box.x + x,
        y: box.y + y,
        button: "left",
        buttons,
        clickCount: 1,
        pointerType: "pen",
      });
    await pen("mousePressed", 50, 40, 1);
    for (let x = 60; x <= 330; x += 15) await pen("mouseMoved", x, 40 + (x % 60), 1);
    await pen("mouseReleased", 330, 60, 0);
    await expect(pad(page)).toHaveAttribute("data-pointer", "pen");
    expect(await inkPixels(pad(page))).toBeGreaterThan(100);
  });

  test("S-TCOMP-04 Cancel closes the dialog and completes nothing", async ({ page, ownFirm }) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    const sent = countCompletions(page, pending.id);
    await openCompletion(page, pending);
    await drawSignature(page, pad(page));
    await dialog(page).getByLabel("Print Name").fill("Not Today");
    await dialog(page).getByRole("button", { name: "Cancel" }).click();
    await expect(dialog(page)).toHaveCount(0);
    expect(sent.sent).toBe(0);
    await expect(taskRow(page, pending.name).getByTestId("task-status")).toHaveText("Pending");
    expect((await storedTask(page, client.id, pending.id)).status).toBe("pending");
  });

  test('S-TCOMP-05 S-VAL-25 S-ERR-21 a blank signature is refused with "Please provide a signature" and nothing is sent', async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    const sent = countCompletions(page, pending.id);
    await openCompletion(page, pending);
    await dialog(page).getByLabel("Print Name").fill("Jordan Signer");
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(dialog(page).getByText("Please provide a signature")).toBeVisible();
    expect(sent.sent).toBe(0);
    await saveShot(page, testInfo, "complete-blank-1280", { fullPage: false });

    // Clear takes a drawing away again, so a cleared pad is refused the same way.
    await drawSignature(page, pad(page));
    await expect(dialog(page).getByText("Please provide a signature")).toHaveCount(0);
    await dialog(page).getByRole("button", { name: "Clear" }).click();
    expect(await inkPixels(pad(page))).toBe(0);
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(dialog(page).getByText("Please provide a signature")).toBeVisible();
    expect(sent.sent).toBe(0);
  });

  test('S-TCOMP-06 S-VAL-24 an empty printed name is refused with "Name is required" and nothing is sent', async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    const sent = countCompletions(page, pending.id);
    await openCompletion(page, pending);
    await drawSignature(page, pad(page));
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(dialog(page).getByText("Name is required")).toBeVisible();
    await expect(dialog(page).getByText("Please provide a signature")).toHaveCount(0);
    expect(sent.sent).toBe(0);
    await saveShot(page, testInfo, "complete-no-name-1280", { fullPage: false });
  });

  test("S-TCOMP-07 S-TCOMP-09 S-TCOMP-10 S-STATE-09 S-STATE-12 S-API-17 S-API-33 S-ERR-19 S-SHELL-12 S-CDET-15 signing an overdue task completes it and refreshes the client and the bell", async ({
    page,
    ownFirm,
  }) => {
    const { client, overdue, signer } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    const bell = page.getByRole("button", { name: /^Overdue tasks: \d+$/ });
    await expect(bell).toHaveAccessibleName("Overdue tasks: 1");
    await expect(page.getByText("0 of 2 tasks completed")).toBeVisible();

    await openCompletion(page, overdue);
    await drawSignature(page, pad(page));
    await dialog(page).getByLabel("Print Name").fill("Jordan Q. Signer");
    const patch = page.waitForRequest(isCompletion(overdue.id));
    const refreshes = [`/api/clients/${client.id}`, "/api/tasks/overdue"].map((path) =>
      page.waitForRequest((request) => request.method() === "GET" && new URL(request.url()).pathname === path, {
        timeout: 30_000,
      }),
    );
    const before = Date.now();
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    const body = (await patch).postDataJSON() as Record<string, string>;
    expect(body.signature).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(body.printedName).toBe("Jordan Q. Signer");
    expect(body.completedBy).toBe("Jordan Q. Signer");
    await Promise.all(refreshes);

    await expect(page.getByText("Task completed successfully!")).toBeVisible();
    await expect(dialog(page)).toHaveCount(0);
    const row = taskRow(page, overdue.name);
    await expect(row.getByTestId("task-status")).toHaveText("Completed");
    await expect(row.getByRole("button", { name: "Complete" })).toHaveCount(0);
    await expect(row.getByTestId("task-completed")).toContainText(`by ${signer.fullName}`);
    await expect(row.getByTestId("task-completed")).toContainText("signed as “Jordan Q. Signer”");
    await expect(page.getByText("1 of 2 tasks completed")).toBeVisible();
    // The bell drops without a reload (S-SHELL-12).
    await expect(bell).toHaveAccessibleName("Overdue tasks: 0");

    const stored = await storedTask(page, client.id, overdue.id);
    expect(stored.status).toBe("completed");
    expect(stored.completedBy).toBe(signer.id);
    expect(stored.printedName).toBe("Jordan Q. Signer");
    const image = await storedSignature(page, stored);
    expect([image.width, image.height]).toEqual([400, 128]);
    const completedAt = new Date(stored.completedAt ?? 0).getTime();
    expect(completedAt).toBeGreaterThan(before - 60_000);
    expect(completedAt).toBeLessThan(Date.now() + 60_000);
    const overdueList = await apiGet<TaskListItem[]>(page, "/api/tasks/overdue");
    expect(overdueList.map((t) => t.id)).not.toContain(overdue.id);
  });

  test('S-TCOMP-11 S-ERR-20 a task completed meanwhile elsewhere: toast "Failed to complete task" with the reason', async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The sign-off of a task completed elsewhere is refused: the browser logs the 409.
    browserConsole.expectFailedRequest(409, "/api/tasks/");
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    await openCompletion(page, pending);
    await drawSignature(page, pad(page));
    await dialog(page).getByLabel("Print Name").fill("Second Tab");
    // Another tab signs it off first.
    await completeTaskByApi(page, pending.id, "First Tab");
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Failed to complete task")).toBeVisible();
    await expect(page.getByText("This task is already completed")).toBeVisible();
    expect((await storedTask(page, client.id, pending.id)).printedName).toBe("First Tab");
  });

  test("S-TCOMP-08 S-TCOMP-12 S-ROLE-20 api: the signer is the session's user whatever completedBy says; twice is 409", async ({
    page,
    ownFirm,
  }) => {
    const { client, pending, signer } = await signingSetup(page, ownFirm);
    const url = `/api/tasks/${pending.id}/complete`;
    const body = { completedBy: "someone else", signature: signaturePng(), printedName: "Typed Name" };
    const first = await page.request.patch(url, { data: body });
    expect(first.status()).toBe(200);
    const stored = await storedTask(page, client.id, pending.id);
    expect(stored.completedBy).toBe(signer.id);
    expect(stored.printedName).toBe("Typed Name");
    const second = await page.request.patch(url, { data: body });
    expect(second.status()).toBe(409);
    expect((await second.json()).message).toBe("This task is already completed");
  });

  test("S-TCOMP-13 api: a signature must be a PNG data URL, not blank, at most 256 KB", async ({ page, ownFirm }) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    const url = `/api/tasks/${pending.id}/complete`;
    const noisy = new PNG({ width: 400, height: 400 });
    for (let i = 0; i < noisy.data.length; i += 1) noisy.data[i] = Math.floor(Math.random() * 256);
    const tooLarge = `data:image/png;base64,${PNG.sync.write(noisy).toString("base64")}`;
    expect(tooLarge.length).toBeGreaterThan(256 * 1024 * 1.33);
    const refused = [
      "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP",
      signaturePng({ ink: false }),
      tooLarge,
      "garbage",
      "",
    ];
    for (const signature of refused) {
      const response = await page.request.patch(url, { data: { completedBy: "x", signature, printedName: "X" } });
      expect(response.status(), signature.slice(0, 30)).toBeGreaterThanOrEqual(400);
      expect(response.status(), signature.slice(0, 30)).toBeLessThan(500);
    }
    expect((await storedTask(page, client.id, pending.id)).status).toBe("pending");
  });

  test("S-TCOMP-14 S-ROLE-09 a user completes tasks only on clients assigned to them", async ({ page, ownFirm }) => {
    const admin = await ownFirm.signIn(page, "admin");
    const mine = await createClient(page);
    const theirs = await createClient(page);
    const myTask = await createTask(page, mine.id);
    const theirTask = await createTask(page, theirs.id);
    // An admin signs off on any client of the firm.
    await completeTaskByApi(page, (await createTask(page, theirs.id)).id, admin.fullName);
    await ownFirm.signIn(page, "super_admin");
    const staff: CreatedUser = await createUser(page, "user");
    await assignClients(page, staff.id, [mine.id]);
    await signInWith(page, staff);
    const body = { completedBy: "x", signature: signaturePng(), printedName: "Staff" };
    const refused = await page.request.patch(`/api/tasks/${theirTask.id}/complete`, { data: body });
    expect([403, 404]).toContain(refused.status());
    const allowed = await page.request.patch(`/api/tasks/${myTask.id}/complete`, { data: body });
    expect(allowed.status()).toBe(200);
  });
});

test.describe("task completion on a touch screen", () => {
  test.describe.configure({ timeout: 120_000 });
  test.use({ hasTouch: true, viewport: viewports.mobile });

  test("S-TCOMP-03 a finger draws on the pad; at 375 px the pad fits and signs the same 400x128 image", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const { client, pending, signer } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    await expectNoHorizontalScroll(page);
    await openCompletion(page, pending);
    await expectNoHorizontalScroll(page);
    const box = await pad(page).boundingBox();
    if (!box) throw new Error("no pad");
    // Narrower than 400 CSS px, same proportions; the canvas still holds 400 x 128.
    expect(box.width).toBeLessThan(400);
    expect(box.height / box.width).toBeCloseTo(128 / 400, 2);
    await expect(pad(page)).toHaveAttribute("width", "400");

    // Scaled to fit, the pen is scaled with it: the line is still 2 pixels of the 400x128 pad.
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.85);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.85, { steps: 20 });
    await page.mouse.up();
    const column = await inkAcrossColumn(pad(page), box.width * 0.5);
    expect(column.width).toBeGreaterThan(1.6);
    expect(column.width).toBeLessThan(2.4);
    await dialog(page).getByRole("button", { name: "Clear" }).click();
    expect(await inkPixels(pad(page))).toBe(0);

    const cdp: CDPSession = await page.context().newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
      cdp.send("Input.dispatchTouchEvent", {
        type,
        touchPoints: type === "touchEnd" ? [] : [{ x: box.x + x, y: box.y + y }],
      });
    await touch("touchStart", box.width * 0.1, box.height * 0.3);
    for (let i = 1; i <= 20; i += 1) {
      await touch("touchMove", box.width * (0.1 + 0.04 * i), box.height * (0.3 + 0.4 * Math.abs(Math.sin(i / 3))));
    }
    await touch("touchEnd", 0, 0);
    expect(await inkPixels(pad(page))).toBeGreaterThan(100);

    await dialog(page).getByLabel("Print Name").fill("Thumb Signer");
    await expectNoAxeViolations(page, { popupOpen: true });
    await saveShot(page, testInfo, "complete-signed-375", { fullPage: false });
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Task completed successfully!")).toBeVisible();
    const stored = await storedTask(page, client.id, pending.id);
    expect(stored.completedBy).toBe(signer.id);
    const image = await storedSignature(page, stored);
    expect([image.width, image.height]).toEqual([400, 128]);
  });

  test("the blank and no-name refusals fit a 375 px screen", async ({ page, ownFirm }, testInfo) => {
    const { client, overdue } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    await openCompletion(page, overdue);
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(dialog(page).getByText("Please provide a signature")).toBeVisible();
    await expect(dialog(page).getByText("Name is required")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await saveShot(page, testInfo, "complete-errors-375", { fullPage: false });
  });
});

test.describe("task completion on a high-density screen", () => {
  test.describe.configure({ timeout: 120_000 });
  test.use({ deviceScaleFactor: 2 });

  test("S-CONST-34 S-CONST-35 at 2x the pad stays 400x128 CSS pixels and exports a sharp 800x256 PNG with a 2 px line", async ({
    page,
    ownFirm,
  }) => {
    const { client, pending } = await signingSetup(page, ownFirm);
    await openClient(page, client);
    await openCompletion(page, pending);
    const box = await pad(page).boundingBox();
    expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([400, 128]);
    await expect(pad(page)).toHaveAttribute("width", "800");
    await expect(pad(page)).toHaveAttribute("height", "256");
    if (!box) throw new Error("no pad");
    await page.mouse.move(box.x + 60, box.y + 64);
    await page.mouse.down();
    await page.mouse.move(box.x + 340, box.y + 64, { steps: 30 });
    await page.mouse.up();
    const column = await inkAcrossColumn(pad(page), 200);
    expect(column.width).toBeGreaterThan(1.6);
    expect(column.width).toBeLessThan(2.4);
    await dialog(page).getByLabel("Print Name").fill("Retina Signer");
    await dialog(page).getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Task completed successfully!")).toBeVisible();
    const image = await storedSignature(page, await storedTask(page, client.id, pending.id));
    expect([image.width, image.height]).toEqual([800, 256]);
  });
});
