import { expect, type Locator, type Page } from "@playwright/test";
import type { ClientSummary } from "../src/shared/clients";
import type { ClientReport, ReportDays, UserReport } from "../src/shared/reports";
import type { TaskPriority } from "../src/shared/tasks";
import type { CurrentUser } from "../src/shared/users";
import { apiGet } from "./fixtures";

/*
 * Helpers of e2e/reports.spec.ts. Tests that write register a firm of their own
 * (clients-support.ts signInToNewFirm), so the demo firm's figures other specs read never change.
 */

export const dayMs = 86_400_000;

export async function me(page: Page): Promise<CurrentUser> {
  return apiGet<CurrentUser>(page, "/api/auth/me");
}

export async function createTask(
  page: Page,
  task: { clientId: string; name: string; priority?: TaskPriority; dueInDays?: number | null },
): Promise<string> {
  const dueDate =
    task.dueInDays === undefined || task.dueInDays === null
      ? null
      : new Date(Date.now() + task.dueInDays * dayMs).toISOString();
  const response = await page.request.post("/api/tasks", {
    data: {
      name: task.name,
      description: `Description of ${task.name}`,
      priority: task.priority ?? "medium",
      clientId: task.clientId,
      status: "pending",
      dueDate,
    },
  });
  expect(response.status(), `create task ${task.name}`).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

export async function completeTask(page: Page, taskId: string, signature: string, printedName = "Dana Whitfield") {
  const response = await page.request.patch(`/api/tasks/${taskId}/complete`, {
    data: { completedBy: printedName, signature, printedName },
  });
  expect(response.status(), "complete task").toBe(200);
}

export function clientReport(page: Page, clientId: string, days: ReportDays = 30): Promise<ClientReport> {
  return apiGet<ClientReport>(page, `/api/reports/clients/${clientId}?days=${days}`);
}

export function userReport(page: Page, userId: string, days: ReportDays = 30): Promise<UserReport> {
  return apiGet<UserReport>(page, `/api/reports/users/${userId}?days=${days}`);
}

export function listClients(page: Page, query = ""): Promise<ClientSummary[]> {
  return apiGet<ClientSummary[]>(page, `/api/clients?limit=200${query ? `&q=${encodeURIComponent(query)}` : ""}`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const clientPicker = (page: Page): Locator => page.getByRole("combobox", { name: /^Client/ });
export const userPicker = (page: Page): Locator => page.getByRole("combobox", { name: /^User/ });
export const rangeSelect = (page: Page): Locator => page.getByRole("combobox", { name: "Date range" });

/** Opens the client picker, searches for `name` (the API's search) and chooses it. */
export async function chooseClient(page: Page, name: string): Promise<void> {
  await clientPicker(page).click();
  await page.getByRole("combobox", { name: "Find a client", exact: true }).fill(name);
  await page.getByRole("option", { name: new RegExp(`^${escapeRegExp(name)}`) }).click();
}

export async function chooseUser(page: Page, fullName: string): Promise<void> {
  await userPicker(page).click();
  await page.getByRole("combobox", { name: "Find a user", exact: true }).fill(fullName);
  await page.getByRole("option", { name: new RegExp(`^${escapeRegExp(fullName)}`) }).click();
}

export async function chooseRange(page: Page, days: ReportDays): Promise<void> {
  await rangeSelect(page).click();
  await page.getByRole("option", { name: `Last ${days} days`, exact: true }).click();
}

/** The value of a stat card ("Total Tasks", "Completion Rate", …). */
export const statValue = (page: Page, label: string): Locator =>
  page.getByRole("group", { name: label, exact: true }).getByTestId("stat-value");

/** `formatDays` of the screen, restated so a test reads the figure as a person would. */
export function daysText(days: number | null): string {
  if (days === null) return "—";
  return `${days.toLocaleString("en-US")} ${days === 1 ? "day" : "days"}`;
}

export function rateText(rate: number | null): string {
  return rate === null ? "—" : `${rate}%`;
}
