import { expect, type Locator, type Page } from "@playwright/test";
import type { ClientDetail } from "../src/shared/clients";
import type { PlanId } from "../src/shared/plans";
import type { TaskPriority } from "../src/shared/tasks";
import type { Template } from "../src/shared/templates";
import { OwnFirm } from "./fixtures";

/*
 * Helpers of the clients specs (clients.spec.ts, new-client.spec.ts). A test that writes does so
 * in a firm of its own, registered here: the demo firm's figures, which other specs read while
 * these run, never change.
 */

/** A name no other test run uses, so parallel tests never meet each other's data. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Registers a new firm on `plan` and signs the page in as its super admin. It has no clients or templates. */
export async function signInToNewFirm(page: Page, plan: PlanId = "professional"): Promise<void> {
  await OwnFirm.register(page.request, plan, { fullName: "Dana Whitfield", password: "tendwell-e2e" });
}

export async function createTemplate(
  page: Page,
  template: { name: string; description: string; priority: TaskPriority; frequency?: "monthly" | "weekly" },
): Promise<Template> {
  const response = await page.request.post("/api/task-templates", { data: template });
  expect(response.status(), `create template ${template.name}`).toBe(201);
  return (await response.json()) as Template;
}

export async function createClient(page: Page, client: { name: string; templateIds?: string[] }) {
  const response = await page.request.post("/api/clients", { data: client });
  expect(response.status(), `create client ${client.name}`).toBe(201);
  return (await response.json()) as ClientDetail;
}

/** The page's own search box (on this page the shell's header shows none, S-EDGE-14). */
export const pageSearch = (page: Page): Locator => page.getByRole("main").getByPlaceholder("Search clients...");
export const clientCards = (page: Page): Locator => page.getByTestId("client-card");
export const clientCard = (page: Page, name: string): Locator => page.getByRole("article", { name, exact: true });

export const dialog = (page: Page): Locator => page.getByRole("dialog", { name: "Create New Client" });

export async function openNewClientDialog(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "New Client" }).click();
  await expect(dialog(page)).toBeVisible();
  return dialog(page);
}

/** A drawn signature as the completion dialog sends it: a PNG data URL made by the browser's canvas. */
export async function drawnSignature(page: Page): Promise<string> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 400;
    canvas.height = 128;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d canvas");
    context.lineWidth = 2;
    context.beginPath();
    context.moveTo(20, 90);
    context.bezierCurveTo(80, 10, 160, 120, 380, 40);
    context.stroke();
    return canvas.toDataURL("image/png");
  });
}
