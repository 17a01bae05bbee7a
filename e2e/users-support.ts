import { expect, type Locator, type Page, request } from "@playwright/test";
import type { Role } from "../src/shared/roles";
import type { UserSummary } from "../src/shared/users";
import { drawnSignature, uniqueName } from "./clients-support";
import { test } from "./fixtures";

/*
 * Helpers of the people specs (users.spec.ts, user-profile.spec.ts). Tests that write do so in a
 * firm of their own (signInToNewFirm), so parallel workers never meet each other's data.
 */

export const peoplePassword = "tendwell-people-e2e";

/** A username no other run uses. */
export const uniqueUsername = (prefix: string) => uniqueName(prefix).replace(" ", ".").toLowerCase();

/** POST /api/users as the page's signed-in user. */
export async function createUser(page: Page, user: { fullName: string; role?: Role; username?: string }) {
  const response = await page.request.post("/api/users", {
    data: {
      username: user.username ?? uniqueUsername("person"),
      password: peoplePassword,
      fullName: user.fullName,
      role: user.role ?? "user",
    },
  });
  expect(response.status(), `create user ${user.fullName}`).toBe(201);
  return (await response.json()) as UserSummary;
}

/** POST /api/clients with an industry and status, answering the new client's id. */
export async function createClientWith(
  page: Page,
  client: { name: string; industry?: string; status?: "active" | "inactive" | "prospect" },
): Promise<{ id: string; name: string }> {
  const response = await page.request.post("/api/clients", { data: client });
  expect(response.status(), `create client ${client.name}`).toBe(201);
  const body = (await response.json()) as { id: string; name: string };
  return { id: body.id, name: body.name };
}

export async function assignClients(page: Page, userId: string, clientIds: string[]) {
  const response = await page.request.post("/api/user-clients/assign", { data: { userId, clientIds } });
  expect(response.status(), "assign clients").toBe(200);
}

/** A pending task on the client; `dueInDays` may be negative (overdue). */
export async function createTask(page: Page, clientId: string, name: string, dueInDays?: number) {
  const dueDate = dueInDays === undefined ? null : new Date(Date.now() + dueInDays * 86_400_000).toISOString();
  const response = await page.request.post("/api/tasks", {
    data: { name, description: "People spec task.", priority: "medium", clientId, dueDate },
  });
  expect(response.status(), `create task ${name}`).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Signs a task off with a drawn signature, as the signed-in user. */
export async function completeTask(page: Page, taskId: string, printedName: string) {
  const response = await page.request.patch(`/api/tasks/${taskId}/complete`, {
    data: { signature: await drawnSignature(page), printedName, completedBy: printedName },
  });
  expect(response.status(), "complete task").toBe(200);
}

/**
 * Signs a task off as `user` (made by createUser, so with peoplePassword), signed in through a
 * request context of their own: the page stays signed in as whoever it was.
 */
export async function completeTaskAs(page: Page, user: UserSummary, taskId: string) {
  const api = await request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const login = await api.post("/api/auth/login", { data: { username: user.username, password: peoplePassword } });
    expect(login.status(), `sign in as ${user.fullName}`).toBe(200);
    const response = await api.patch(`/api/tasks/${taskId}/complete`, {
      data: { signature: await drawnSignature(page), printedName: user.fullName, completedBy: user.fullName },
    });
    expect(response.status(), `${user.fullName} completes a task`).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** The card of the user with this full name. */
export const userCard = (page: Page, fullName: string): Locator =>
  page.getByRole("article", { name: fullName, exact: true });

/** The toast on screen (one at a time, S-STATE-23); a dismissed one stays in the page, hidden. */
export const toastOf = (page: Page): Locator => page.locator("[data-app-toast][data-state=open]");
