import { expect, type Page, request as playwrightRequest } from "@playwright/test";
import type { UserClientLink } from "../src/shared/assignments";
import type { UserSummary } from "../src/shared/users";
import { signInToNewFirm, uniqueName } from "./clients-support";
import { apiGet, checkAtBothWidths, demoUsers, expectNoAxeViolations, signInAs, test } from "./fixtures";
import {
  assignClients,
  createClientWith,
  createUser,
  peoplePassword,
  toastOf,
  uniqueUsername,
  userCard,
} from "./users-support";

const search = (page: Page) => page.getByRole("main").getByPlaceholder("Search users...");
const cardNames = (page: Page) => page.getByTestId("user-card").getByRole("heading").allTextContents();
const newUserDialog = (page: Page) => page.getByRole("dialog", { name: "Create New User" });
const assignDialog = (page: Page) => page.getByRole("dialog", { name: "Assign Clients" });

/** A fresh firm: its owner (Dana Whitfield, super admin), an admin, a user with five clients, and a sixth client. */
async function seedPeopleFirm(page: Page) {
  await signInToNewFirm(page);
  const clients = [];
  for (const name of [
    "Alder Accounting",
    "Birch Legal",
    "Cedar Consulting",
    "Dogwood Media",
    "Elm Realty",
    "Fir Dental",
  ]) {
    clients.push(await createClientWith(page, { name: uniqueName(name), industry: "Accounting" }));
  }
  const admin = await createUser(page, { fullName: "Avery Admin", role: "admin" });
  const user = await createUser(page, { fullName: "Uma User", role: "user" });
  await assignClients(
    page,
    user.id,
    clients.slice(0, 5).map((client) => client.id),
  );
  return { clients, admin, user };
}

test.describe("users", () => {
  test("S-USERS-18 S-API-22 S-API-25 S-USERS-04 S-ROLE-03 S-USERS-05 S-CONST-31 S-USERS-06 cards from GET /api/users and GET /api/user-clients: name, @username, role badge, 3 clients and +N more, View Profile", async ({
    page,
  }) => {
    const { clients, admin, user } = await seedPeopleFirm(page);
    const usersCall = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/users");
    const linksCall = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/user-clients");
    await page.goto("/users");
    for (const call of [await usersCall, await linksCall]) {
      expect(call.request().method()).toBe("GET");
      expect(call.status()).toBe(200);
    }
    const users = await apiGet<UserSummary[]>(page, "/api/users");
    await expect(page.getByTestId("user-card")).toHaveCount(users.length);

    const uma = userCard(page, "Uma User");
    await expect(uma.getByTestId("user-username")).toHaveText(`@${user.username}`);
    await expect(uma.getByTestId("role-badge")).toHaveText("user");
    await expect(uma.getByTestId("role-badge")).toHaveClass(/bg-secondary/);
    await expect(userCard(page, "Avery Admin").getByTestId("role-badge")).toHaveText("admin");
    await expect(userCard(page, "Avery Admin").getByTestId("role-badge")).toHaveClass(/bg-primary/);
    await expect(userCard(page, "Dana Whitfield").getByTestId("role-badge")).toHaveText("super admin");
    await expect(userCard(page, "Dana Whitfield").getByTestId("role-badge")).toHaveClass(/bg-destructive/);

    // Five clients: the first three by name, then "+2 more".
    const names = clients
      .slice(0, 5)
      .map((client) => client.name)
      .sort((a, b) => a.localeCompare(b));
    await expect(uma.getByTestId("user-client-name")).toHaveText(names.slice(0, 3));
    await expect(uma.getByTestId("user-clients-more")).toHaveText("+2 more");
    await expect(userCard(page, "Avery Admin").getByTestId("user-clients")).toContainText("No clients assigned");
    expect(admin.role).toBe("admin");

    const link = uma.getByRole("link", { name: "View Profile of Uma User" });
    await expect(link).toHaveText("View Profile");
    await expect(link).toHaveAttribute("href", `/users/${user.id}`);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/users/${user.id}$`));
    await expect(page.getByTestId("profile-name")).toHaveText("Uma User");
  });

  test("S-USERS-05 S-USERS-13 the cards name clients from GET /api/user-clients; the client list loads only when Assign Clients opens; an archived client leaves the card", async ({
    page,
  }) => {
    const { clients } = await seedPeopleFirm(page);
    const clientListCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/clients") clientListCalls.push(request.url());
    });
    await page.goto("/users");
    const uma = userCard(page, "Uma User");
    await expect(uma.getByTestId("user-clients-more")).toHaveText("+2 more");
    expect(clientListCalls).toEqual([]);

    const listed = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/clients");
    await uma.getByRole("button", { name: "Assign Clients to Uma User" }).click();
    expect((await listed).status()).toBe(200);
    await expect(assignDialog(page).getByTestId("assign-selected-count")).toHaveText("5 selected");
    await page.keyboard.press("Escape");

    // Archive one of Uma's first three clients (by name) on its page: the card moves up the fourth.
    const names = clients
      .slice(0, 5)
      .map((client) => client.name)
      .sort((a, b) => a.localeCompare(b));
    const archived = clients.find((client) => client.name === names[0]);
    if (!archived) throw new Error("no client to archive");
    await page.goto(`/client/${archived.id}`);
    await page.getByRole("button", { name: "Archive" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Archive Client" }).click();
    await expect(page).toHaveURL(/\/clients$/);
    // Within the app, so the Users page's cached links must have been refreshed by the archive.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "User Management" }).click();
    await expect(uma.getByTestId("user-client-name")).toHaveText(names.slice(1, 4));
    await expect(uma.getByTestId("user-clients-more")).toHaveText("+1 more");
  });

  test("S-USERS-01 S-USERS-02 S-USERS-03 the search filters by username, full name or role", async ({ page }) => {
    await signInAs(page, "super_admin");
    await page.goto("/users");
    await expect(page.getByTestId("user-card").first()).toBeVisible();
    const all = await cardNames(page);
    expect(all).toEqual(expect.arrayContaining(Object.values(demoUsers).map((user) => user.fullName)));

    await search(page).fill(demoUsers.user.username.toUpperCase());
    await expect.poll(() => cardNames(page)).toEqual([demoUsers.user.fullName]);

    await search(page).fill("chen");
    await expect.poll(() => cardNames(page)).toEqual([demoUsers.admin.fullName]);

    // "admin" finds the admins and the super admins, by role.
    const users = await apiGet<UserSummary[]>(page, "/api/users");
    await search(page).fill("admin");
    await expect
      .poll(() => cardNames(page))
      .toEqual(users.filter((user) => user.role !== "user").map((user) => user.fullName));

    await search(page).fill("no such person");
    await expect(page.getByRole("heading", { name: "No users found" })).toBeVisible();
    await search(page).fill("");
    await expect.poll(() => cardNames(page)).toEqual(all);
  });

  test("S-USERS-08 S-USERS-09 S-USERS-10 S-ERR-22 S-VAL-23 S-API-24 New User: the four fields, role default user, POST /api/users, toast and the new card", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    await page.goto("/users");
    await page.getByRole("button", { name: "New User" }).click();
    const dialog = newUserDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Username")).toBeVisible();
    await expect(dialog.getByLabel("Password")).toHaveAttribute("type", "password");
    await expect(dialog.getByLabel("Full Name")).toBeVisible();
    const role = dialog.getByRole("combobox", { name: "Role" });
    await expect(role).toHaveText("user");
    await role.click();
    await expect(page.getByRole("option")).toHaveText(["super admin", "admin", "user"]);
    await page.keyboard.press("Escape");

    const username = uniqueUsername("nia");
    await dialog.getByLabel("Username").fill(username);
    await dialog.getByLabel("Password").fill(peoplePassword);
    await dialog.getByLabel("Full Name").fill("Nia Associate");
    const [sent] = await Promise.all([
      page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/api/users")),
      dialog.getByRole("button", { name: "Create User" }).click(),
    ]);
    expect(sent.postDataJSON()).toEqual({
      username,
      password: peoplePassword,
      fullName: "Nia Associate",
      role: "user",
    });
    await expect(toastOf(page)).toContainText("Success");
    await expect(toastOf(page)).toContainText("User created successfully");
    await expect(dialog).toBeHidden();
    await expect(userCard(page, "Nia Associate").getByTestId("role-badge")).toHaveText("user");

    // The new user can sign in (S-API-24).
    const login = await page.request.post("/api/auth/login", { data: { username, password: peoplePassword } });
    expect(login.status()).toBe(200);
  });

  test('S-MFA-27 adding an admin when the server wants a fresh proof asks "Confirm it\'s you" over New User, then adds them', async ({
    page,
    browserConsole,
  }) => {
    // Five minutes cannot be waited out in a test: the first POST is answered as the server answers a
    // session whose last proof is older (tests/access-matrix.test.ts walks that for real), which the
    // browser logs; the second goes through.
    browserConsole.expectFailedRequest(403, "/api/users");
    await signInToNewFirm(page);
    let refused = false;
    await page.route("**/api/users", async (route) => {
      if (route.request().method() !== "POST" || refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({ message: "Confirm it is you before making this change", code: "STEP_UP_REQUIRED" }),
      });
    });
    await page.goto("/users");
    await page.getByRole("button", { name: "New User" }).click();
    const dialog = newUserDialog(page);
    await dialog.getByLabel("Username").fill(uniqueUsername("ada"));
    await dialog.getByLabel("Password").fill(peoplePassword);
    await dialog.getByLabel("Full Name").fill("Ada Partner");
    await dialog.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: "admin", exact: true }).click();
    await dialog.getByRole("button", { name: "Create User" }).click();

    const confirm = page.getByRole("dialog", { name: "Confirm it's you" });
    await expect(confirm).toBeVisible();
    await confirm.getByLabel("Password").fill("tendwell-e2e");
    await confirm.getByRole("button", { name: "Confirm" }).click();
    await expect(confirm).toBeHidden();
    await expect(toastOf(page)).toContainText("User created successfully");
    await expect(dialog).toBeHidden();
    await expect(userCard(page, "Ada Partner").getByTestId("role-badge")).toHaveText("admin");
    expect(refused).toBe(true);
  });

  test("S-VAL-20 S-VAL-21 S-VAL-22 S-CONST-23 New User shows the validation messages at the boundaries before any request", async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/users")) posts.push(request.url());
    });
    await page.goto("/users");
    await page.getByRole("button", { name: "New User" }).click();
    const dialog = newUserDialog(page);
    await dialog.getByLabel("Username").fill("ab");
    await dialog.getByLabel("Password").fill("12345");
    await dialog.getByLabel("Full Name").fill("A");
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expect(dialog.getByText("Username must be at least 3 characters")).toBeVisible();
    await expect(dialog.getByText("Password must be at least 6 characters")).toBeVisible();
    await expect(dialog.getByText("Full name is required")).toBeVisible();

    // One more character each: 3, 6 and 2 pass.
    await dialog.getByLabel("Username").fill("abc");
    await dialog.getByLabel("Password").fill("x9q2!k");
    await dialog.getByLabel("Full Name").fill("Al");
    await expect(dialog.getByText("Username must be at least 3 characters")).toBeHidden();
    await expect(dialog.getByText("Password must be at least 6 characters")).toBeHidden();
    await expect(dialog.getByText("Full name is required")).toBeHidden();
    expect(posts).toEqual([]);
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });

  test("S-USERS-11 S-ERR-23 S-USERS-12 a taken username, in another case, fails with the Error toast", async ({
    page,
    browserConsole,
  }) => {
    // The taken username is refused: the browser logs the 409.
    browserConsole.expectFailedRequest(409, "/api/users");
    await signInToNewFirm(page);
    const taken = await createUser(page, { fullName: "Bob Taken", username: uniqueUsername("bob") });
    await page.goto("/users");
    await page.getByRole("button", { name: "New User" }).click();
    const dialog = newUserDialog(page);
    await dialog.getByLabel("Username").fill(taken.username.toUpperCase());
    await dialog.getByLabel("Password").fill(peoplePassword);
    await dialog.getByLabel("Full Name").fill("Bob Again");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/users")),
      dialog.getByRole("button", { name: "Create User" }).click(),
    ]);
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(response.status()).toBeLessThan(500);
    await expect(toastOf(page)).toContainText("Error");
    await expect(toastOf(page)).toContainText("Failed to create user");
    await expect(toastOf(page)).toHaveAttribute("data-type", "error");
    // The dialog stays open with what was typed, so it can be corrected.
    await expect(dialog.getByLabel("Full Name")).toHaveValue("Bob Again");
  });

  test("S-USERS-07 S-USERS-13 S-USERS-14 S-SCALE-03 Assign Clients: a checkbox per client, scrolls beyond 24rem, paged on the server", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    // 64 clients, a few at a time: more than a page of the dialog's list.
    for (let batch = 0; batch < 8; batch++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          createClientWith(page, {
            name: `Client ${String(batch * 8 + index + 1).padStart(2, "0")} ${uniqueName("Co")}`,
          }),
        ),
      );
    }
    await createUser(page, { fullName: "Uma User" });
    await page.goto("/users");
    const card = userCard(page, "Uma User");
    await card.getByRole("button", { name: "Assign Clients to Uma User" }).click();
    const dialog = assignDialog(page);
    await expect(dialog).toBeVisible();
    const list = dialog.getByTestId("assign-client-list");
    // A page of 60 in name order, then the rest on request: the firm is never loaded whole.
    await expect(list.getByRole("checkbox")).toHaveCount(60);
    await dialog.getByRole("button", { name: "Show more clients" }).click();
    await expect(list.getByRole("checkbox")).toHaveCount(64);
    await expect(dialog.getByRole("button", { name: "Show more clients" })).toHaveCount(0);
    const box = await list.evaluate((element) => ({
      maxHeight: getComputedStyle(element).maxHeight,
      overflowY: getComputedStyle(element).overflowY,
      scrolls: element.scrollHeight > element.clientHeight,
    }));
    expect(box).toEqual({ maxHeight: "384px", overflowY: "auto", scrolls: true });
    await expectNoAxeViolations(page);
  });

  test("S-USERS-15 S-USERS-16 S-ERR-24 S-USERS-17 S-API-26 S-SCALE-03 Assign Clients: searched on the server; saves, refreshes the card and the client's team; an empty list removes all", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const clients = [];
    for (let index = 1; index <= 3; index++) {
      clients.push(await createClientWith(page, { name: `Client ${index} ${uniqueName("Co")}` }));
    }
    const [first, second] = clients;
    if (!first || !second) throw new Error("clients");
    const uma = await createUser(page, { fullName: "Uma User" });
    await page.goto("/users");
    const card = userCard(page, "Uma User");
    await card.getByRole("button", { name: "Assign Clients to Uma User" }).click();
    const dialog = assignDialog(page);
    const list = dialog.getByTestId("assign-client-list");
    await expect(list.getByRole("checkbox")).toHaveCount(3);

    // Search narrows the list, asked of the API; a checked client stays checked when the search changes.
    const searched = page.waitForRequest((request) => {
      const url = new URL(request.url());
      return url.pathname === "/api/clients" && url.searchParams.get("q") === first.name;
    });
    await dialog.getByRole("searchbox", { name: "Search clients by name or industry" }).fill(first.name);
    expect(new URL((await searched).url()).searchParams.get("limit")).toBe("60");
    await expect(list.getByRole("checkbox")).toHaveCount(1);
    await list.getByRole("checkbox", { name: first.name }).check();
    await dialog.getByRole("searchbox").fill(second.name);
    await list.getByRole("checkbox", { name: second.name }).check();
    await dialog.getByRole("searchbox").fill("");
    await expect(list.getByRole("checkbox", { checked: true })).toHaveCount(2);
    await expect(dialog.getByTestId("assign-selected-count")).toHaveText("2 selected");

    const [sent] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/user-clients/assign")),
      dialog.getByRole("button", { name: "Save Assignments" }).click(),
    ]);
    const body = sent.postDataJSON() as { userId: string; clientIds: string[] };
    expect(body.userId).toBe(uma.id);
    expect([...body.clientIds].sort()).toEqual([first.id, second.id].sort());
    await expect(toastOf(page)).toContainText("Clients assigned successfully");
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId("user-client-name")).toHaveText([first.name, second.name]);
    const links = await apiGet<UserClientLink[]>(page, "/api/user-clients");
    expect(
      links
        .filter((link) => link.userId === uma.id)
        .map((link) => link.clientId)
        .sort(),
    ).toEqual([first.id, second.id].sort());

    // The client's Assigned Team shows the user.
    await page.goto(`/client/${first.id}`);
    await expect(page.getByTestId("team-member")).toContainText(["Uma User"]);

    // An empty list is allowed and removes every assignment.
    await page.goto("/users");
    await card.getByRole("button", { name: "Assign Clients to Uma User" }).click();
    await expect(dialog.getByTestId("assign-selected-count")).toHaveText("2 selected");
    await dialog.getByRole("button", { name: "Clear all" }).click();
    const [emptied] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/user-clients/assign")),
      dialog.getByRole("button", { name: "Save Assignments" }).click(),
    ]);
    expect(emptied.postDataJSON()).toEqual({ userId: uma.id, clientIds: [] });
    await expect(toastOf(page)).toContainText("Clients assigned successfully");
    await expect(card.getByTestId("user-clients")).toContainText("No clients assigned");
    await page.goto(`/client/${first.id}`);
    await expect(page.getByTestId("team-count")).toHaveText("0");
  });

  test("S-USERS-16 S-ERR-25 a refused assignment shows Failed to assign clients", async ({
    page,
    baseURL,
    browserConsole,
  }) => {
    // The assignment is refused: the browser logs the 403.
    browserConsole.expectFailedRequest(403, "/api/user-clients/assign");
    // A real refusal: while the dialog is open, another super admin makes this one an admin,
    // and admins may not assign clients (S-ROLE-14), so the server answers 403.
    await signInToNewFirm(page);
    const client = await createClientWith(page, { name: uniqueName("Refused Co") });
    const uma = await createUser(page, { fullName: "Uma User" });
    const other = await createUser(page, { fullName: "Sam Second", role: "super_admin" });
    const me = await apiGet<UserSummary>(page, "/api/auth/me");
    await page.goto("/users");
    await userCard(page, "Uma User").getByRole("button", { name: "Assign Clients to Uma User" }).click();
    const dialog = assignDialog(page);
    await dialog.getByRole("checkbox", { name: client.name }).check();

    const second = await playwrightRequest.newContext({ baseURL });
    expect(
      (await second.post("/api/auth/login", { data: { username: other.username, password: peoplePassword } })).status(),
    ).toBe(200);
    expect((await second.patch(`/api/users/${me.id}`, { data: { role: "admin" } })).status()).toBe(200);
    await second.dispose();

    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/user-clients/assign")),
      dialog.getByRole("button", { name: "Save Assignments" }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(toastOf(page)).toContainText("Failed to assign clients");
    await expect(toastOf(page)).toHaveAttribute("data-type", "error");
    await expect(dialog).toBeVisible();
    expect((await apiGet<UserClientLink[]>(page, "/api/user-clients")).filter((l) => l.userId === uma.id)).toEqual([]);
  });

  test("S-ROLE-14 S-ROLE-13 S-ROLE-06 an admin sees no Assign Clients and offers only admin and user; a user sees neither action", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/users");
    await expect(page.getByTestId("user-card").first()).toBeVisible();
    await expect(page.getByRole("button", { name: /Assign Clients/ })).toHaveCount(0);
    // The admin may change users and admins other than themself, never a super admin.
    await expect(page.getByRole("button", { name: `Manage ${demoUsers.super_admin.fullName}` })).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Manage ${demoUsers.admin.fullName}` })).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Manage ${demoUsers.user.fullName}` })).toBeVisible();
    await page.getByRole("button", { name: "New User" }).click();
    await newUserDialog(page).getByRole("combobox", { name: "Role" }).click();
    await expect(page.getByRole("option")).toHaveText(["admin", "user"]);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");

    await page.context().clearCookies();
    await signInAs(page, "user");
    await page.goto("/users");
    await expect(page.getByTestId("user-card").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "New User" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Assign Clients/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Manage / })).toHaveCount(0);
    // A user sees their own clients on their own card, and no one else's assignments.
    await expect(userCard(page, demoUsers.user.fullName).getByTestId("user-clients")).toBeVisible();
    await expect(userCard(page, demoUsers.admin.fullName).getByTestId("user-clients")).toHaveCount(0);
  });

  test("S-ROLE-13 a super admin changes a role and disables and enables a user from the card's menu", async ({
    page,
    baseURL,
  }) => {
    await signInToNewFirm(page);
    const uma = await createUser(page, { fullName: "Uma User" });
    await page.goto("/users");
    const card = userCard(page, "Uma User");
    await card.getByRole("button", { name: "Manage Uma User" }).click();
    await page.getByRole("menuitem", { name: "Make admin" }).click();
    await expect(toastOf(page)).toContainText("Uma User is now an admin");
    await expect(card.getByTestId("role-badge")).toHaveText("admin");

    await card.getByRole("button", { name: "Manage Uma User" }).click();
    await page.getByRole("menuitem", { name: "Disable user" }).click();
    await expect(card.getByTestId("disabled-badge")).toHaveText("Disabled");
    const outsider = await playwrightRequest.newContext({ baseURL });
    const refused = await outsider.post("/api/auth/login", {
      data: { username: uma.username, password: peoplePassword },
    });
    expect(refused.status()).toBeGreaterThanOrEqual(400);
    await outsider.dispose();

    await card.getByRole("button", { name: "Manage Uma User" }).click();
    await page.getByRole("menuitem", { name: "Enable user" }).click();
    await expect(card.getByTestId("disabled-badge")).toHaveCount(0);
    // Nobody manages themself from here.
    await expect(page.getByRole("button", { name: "Manage Dana Whitfield" })).toHaveCount(0);
  });

  test("S-ROLE-07 create a user, assign clients, sign out, sign in as that user and see only those clients", async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const names = ["North", "South", "East", "West"].map((word) => uniqueName(`${word} Partners`));
    const [north = "", , east = ""] = names;
    for (const name of names) await createClientWith(page, { name });
    const username = uniqueUsername("casey");
    await page.goto("/users");

    await page.getByRole("button", { name: "New User" }).click();
    const dialog = newUserDialog(page);
    await dialog.getByLabel("Username").fill(username);
    await dialog.getByLabel("Password").fill(peoplePassword);
    await dialog.getByLabel("Full Name").fill("Casey Staff");
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expect(toastOf(page)).toContainText("User created successfully");

    await userCard(page, "Casey Staff").getByRole("button", { name: "Assign Clients to Casey Staff" }).click();
    const assign = assignDialog(page);
    await assign.getByRole("checkbox", { name: north }).check();
    await assign.getByRole("checkbox", { name: east }).check();
    await assign.getByRole("button", { name: "Save Assignments" }).click();
    await expect(toastOf(page)).toContainText("Clients assigned successfully");

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(peoplePassword);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).not.toHaveURL(/\/login$/);
    await page.goto("/clients");
    await expect(page.getByTestId("client-card")).toHaveCount(2);
    await expect(page.getByTestId("client-card").getByRole("heading")).toHaveText([north, east].sort());
  });

  test("S-USERS-04 S-USERS-13 axe, a screenshot and no sideways scroll at 1280 and 375 px: the page, New User, Assign Clients, the card menu", async ({
    page,
  }, testInfo) => {
    // axe reads the page once per dialog at each width; on two shared cores that can pass the default 30 s.
    test.setTimeout(120_000);
    await seedPeopleFirm(page);
    await page.goto("/users");
    await expect(userCard(page, "Uma User").getByTestId("user-clients-more")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "users");

    await page.getByRole("button", { name: "New User" }).click();
    await expect(newUserDialog(page)).toBeVisible();
    await checkAtBothWidths(page, testInfo, "new-user");
    await page.keyboard.press("Escape");
    await expect(newUserDialog(page)).toBeHidden();

    await userCard(page, "Uma User").getByRole("button", { name: "Assign Clients to Uma User" }).click();
    await expect(assignDialog(page)).toBeVisible();
    await checkAtBothWidths(page, testInfo, "assign-clients");
    await page.keyboard.press("Escape");
    await expect(assignDialog(page)).toBeHidden();

    await userCard(page, "Uma User").getByRole("button", { name: "Manage Uma User" }).click();
    await expect(page.getByRole("menu")).toBeVisible();
    await checkAtBothWidths(page, testInfo, "user-menu", {
      popupOpen: true,
      atWidth: () => expect(page.getByRole("menu")).toBeVisible(),
    });
    await page.keyboard.press("Escape");
  });
});
