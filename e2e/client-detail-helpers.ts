import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { PNG } from "pngjs";
import type { z } from "zod";
import type { ClientDetail, Contact, createClientSchema } from "../src/shared/clients";
import type { Role } from "../src/shared/roles";
import type { Task } from "../src/shared/tasks";
import type { UserSummary } from "../src/shared/users";

/*
 * Helpers of the client detail and task completion specs. They act as the page's signed-in user,
 * in that user's firm: a test that writes signs in to a firm of its own first (the `ownFirm`
 * fixture of fixtures.ts), so the demo firm's records other specs read never change.
 */

let sequence = 0;
/** A name no other test (or earlier run on the same server) uses. */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix} ${Date.now().toString(36)}${sequence}${Math.floor(Math.random() * 1e4)}`;
}

async function send<T>(page: Page, method: "POST" | "PATCH" | "DELETE", url: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(url, { method, data });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return (response.status() === 204 ? undefined : await response.json()) as T;
}

/** POST /api/clients with the page's session (an admin or super admin). */
export function createClient(
  page: Page,
  input: Partial<z.input<typeof createClientSchema>> = {},
): Promise<ClientDetail> {
  return send(page, "POST", "/api/clients", { name: uniqueName("Client"), ...input });
}

export function createContact(
  page: Page,
  clientId: string,
  input: { name: string; title?: string; phone?: string; email?: string; isPrimary?: boolean },
): Promise<Contact> {
  return send(page, "POST", "/api/contacts", { ...input, clientId });
}

const dayMs = 86_400_000;
/** An instant `days` from now (negative: in the past, so the task is overdue). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * dayMs).toISOString();

export function createTask(
  page: Page,
  clientId: string,
  input: { name?: string; description?: string; dueDate?: string | null; templateId?: string } = {},
): Promise<Task> {
  return send(page, "POST", "/api/tasks", { name: uniqueName("Task"), priority: "medium", ...input, clientId });
}

export function completeTaskByApi(page: Page, taskId: string, printedName = "Api Signer"): Promise<Task> {
  return send(page, "PATCH", `/api/tasks/${taskId}/complete`, {
    completedBy: printedName,
    signature: signaturePng(),
    printedName,
  });
}

/** A signature as the pad exports it: black ink on white, 400 x 128, as a PNG data URL. */
export function signaturePng({ width = 400, height = 128, ink = true } = {}): string {
  const png = new PNG({ width, height });
  png.data.fill(255);
  if (ink) {
    for (let x = 40; x < Math.min(width, 360); x += 1) {
      const y = Math.round(height / 2 + Math.sin(x / 20) * (height / 4));
      for (const dy of [0, 1]) {
        const offset = ((y + dy) * width + x) * 4;
        png.data[offset] = 0;
        png.data[offset + 1] = 0;
        png.data[offset + 2] = 0;
      }
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString("base64")}`;
}

export type CreatedUser = UserSummary & { password: string };

/** A new user of the page's firm (the page must be signed in as a super admin). */
export async function createUser(page: Page, role: Role, fullName = uniqueName("Staff")): Promise<CreatedUser> {
  const password = "e2e-password-1";
  const username = uniqueName("e2e").toLowerCase().replaceAll(" ", ".");
  const user = await send<UserSummary>(page, "POST", "/api/users", { username, password, fullName, role });
  return { ...user, password };
}

/** Assigns these clients to a user made by the test (it replaces that user's clients). */
export function assignClients(page: Page, userId: string, clientIds: string[]): Promise<unknown> {
  return send(page, "POST", "/api/user-clients/assign", { userId, clientIds });
}

export async function signInWith(page: Page, user: { username: string; password: string }): Promise<void> {
  const response = await page.request.post("/api/auth/login", {
    data: { username: user.username, password: user.password },
  });
  expect(response.status(), `sign in as ${user.username}`).toBe(200);
}

export async function openClient(page: Page, client: { id: string; name: string }): Promise<void> {
  await page.goto(`/client/${client.id}`);
  await expect(page.getByRole("heading", { level: 2, name: client.name })).toBeVisible();
}

/** The row of a task in Client Tasks. */
export const taskRow = (page: Page, name: string) => page.getByTestId("task").filter({ hasText: name });

/** Draws a wavy stroke across the pad with the mouse, as a person signing would. */
export async function drawSignature(page: Page, canvas: Locator): Promise<void> {
  const box = await canvas.boundingBox();
  if (!box) throw new Error("The signature pad is not on screen");
  const points = 24;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.5);
  await page.mouse.down();
  for (let i = 1; i <= points; i += 1) {
    const x = box.x + box.width * (0.1 + (0.8 * i) / points);
    const y = box.y + box.height * (0.5 + 0.3 * Math.sin((i / points) * Math.PI * 3));
    await page.mouse.move(x, y, { steps: 2 });
  }
  await page.mouse.up();
}

/**
 * How many pixels of the pad carry ink (clearly darker than the white paper). They are read from a
 * copy made for reading: repeated reads of the pad's own canvas make Chromium warn in the console.
 */
export function inkPixels(canvas: Locator): Promise<number> {
  return canvas.evaluate((element: HTMLCanvasElement) => {
    const copy = document.createElement("canvas");
    copy.width = element.width;
    copy.height = element.height;
    const context = copy.getContext("2d", { willReadFrequently: true });
    if (!context) return 0;
    context.drawImage(element, 0, 0);
    const { data } = context.getImageData(0, 0, element.width, element.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128) ink += 1;
    return ink;
  });
}

/**
 * Keeps a screenshot with the test's results (issue 8: every screen at 1280 and 375 px) and, when
 * UI_SHOTS_DIR names a folder, writes it there too, for a person to look through. An open dialog
 * is shot as the screen shows it; a page whole.
 */
export async function saveShot(page: Page, testInfo: TestInfo, name: string, { fullPage = true } = {}): Promise<void> {
  const body = await page.screenshot({ fullPage });
  await testInfo.attach(name, { body, contentType: "image/png" });
  const folder = process.env.UI_SHOTS_DIR;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${name}.png`), body);
}
