import { expect, type Locator, type Page } from "@playwright/test";
import type { ClientSummary, HealthLevel } from "../src/shared/clients";
import {
  clientCard,
  clientCards,
  createClient,
  createTemplate,
  dialog,
  drawnSignature,
  pageSearch,
  signInToNewFirm,
  uniqueName,
} from "./clients-support";
import { apiGet, checkAtBothWidths, holdRequests, signInAs, test } from "./fixtures";

const statusLabel = { active: "Active", prospect: "Prospect", inactive: "Inactive" } as const;

/** The names the grid shows, in order (the rows the virtualizer has drawn). */
const shownNames = (page: Page) => clientCards(page).getByRole("heading").allTextContents();

/**
 * Moves the mouse onto `target` in steps, as a hand does: Radix keeps a tooltip open while the
 * pointer is on its way to it, and only a later move shows that the pointer went elsewhere.
 */
async function pointAt(page: Page, target: Locator) {
  const box = await target.boundingBox();
  if (!box) throw new Error("the target is on screen");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 6 });
}

/** The page has one search box, its own client search: the header's is not there (S-EDGE-14). */
async function expectOneClientSearch(page: Page) {
  await expect(page.locator('input[type="search"]')).toHaveCount(1);
  await expect(page.getByRole("banner").locator('input[type="search"]')).toHaveCount(0);
  await expect(pageSearch(page)).toHaveAccessibleName("Search clients by name, industry or status");
}

/** Moves the mouse off every card, so an open tooltip closes. */
async function pointAway(page: Page) {
  await page.mouse.move(4, 600, { steps: 6 });
  await expect(page.getByRole("tooltip")).toHaveCount(0);
}

/** Types into the page's search and waits for the API's answer to that exact search. */
async function search(page: Page, text: string) {
  const answered = page.waitForResponse(
    (response) =>
      response.url().includes("/api/clients?") && new URL(response.url()).searchParams.get("q") === text.trim(),
  );
  await pageSearch(page).fill(text);
  await answered;
}

/**
 * The grid shows `expected` in order: all of them, or (the grid draws only the rows near the
 * screen) at least the first nine.
 */
async function expectGridToShow(page: Page, expected: string[]) {
  await expect
    .poll(async () => {
      const names = await shownNames(page);
      const enough = names.length === expected.length || names.length >= 9;
      return enough && names.every((name, index) => name === expected[index]);
    })
    .toBe(true);
}

/** What GET /api/clients?q= answers: the grid must show exactly these. */
const searchResults = (page: Page, q: string) =>
  apiGet<ClientSummary[]>(page, `/api/clients?${new URLSearchParams({ q, limit: "60" })}`);

test.describe("clients list", () => {
  test('S-CLIST-01 S-CLIST-02 S-CLIST-17 S-API-09 S-API-01 title "Clients", the search box, cards from GET /api/clients', async ({
    page,
  }) => {
    await signInAs(page, "admin");
    const listed = page.waitForResponse((response) => /\/api\/clients\?/.test(response.url()));
    await page.goto("/clients");
    const response = await listed;
    expect(response.request().method()).toBe("GET");
    expect(await response.request().headerValue("cookie")).toContain("=");
    const firstPage = (await response.json()) as ClientSummary[];
    await expect(page.getByRole("heading", { name: "Clients", level: 1 })).toBeVisible();
    await expect(pageSearch(page)).toHaveAttribute("placeholder", "Search clients...");
    await expect(clientCards(page).first()).toBeVisible();
    const names = await shownNames(page);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual(firstPage.slice(0, names.length).map((client) => client.name));
  });

  test("S-CLIST-03 the search finds clients by name, case-insensitively", async ({ page }) => {
    await signInAs(page, "admin");
    const [target] = await apiGet<ClientSummary[]>(page, "/api/clients?limit=1");
    if (!target) throw new Error("the demo firm has clients");
    await page.goto("/clients");
    await expect(clientCards(page).first()).toBeVisible();
    await search(page, target.name.toLowerCase());
    await expect(clientCard(page, target.name)).toBeVisible();
    const expected = (await searchResults(page, target.name.toLowerCase())).map((client) => client.name);
    await expectGridToShow(page, expected);
    for (const name of expected) expect(name.toLowerCase()).toContain(target.name.toLowerCase());
  });

  test("S-CLIST-04 the search finds clients by industry, case-insensitively", async ({ page }) => {
    await signInAs(page, "admin");
    const clients = await apiGet<ClientSummary[]>(page, "/api/clients");
    const industry = clients.find((client) => client.industry)?.industry;
    if (!industry) throw new Error("the demo firm's clients have industries");
    const term = industry.slice(0, 6).toUpperCase();
    await page.goto("/clients");
    await search(page, term);
    const expected = await searchResults(page, term);
    expect(expected.some((client) => client.industry === industry)).toBe(true);
    await expectGridToShow(
      page,
      expected.map((client) => client.name),
    );
    for (const client of expected) {
      expect(`${client.name} ${client.industry}`.toLowerCase()).toContain(term.toLowerCase());
    }
  });

  test('S-CLIST-05 the search finds clients by status: "PROSPECT" shows only prospects', async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/clients");
    await search(page, "PROSPECT");
    const expected = await searchResults(page, "PROSPECT");
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.every((client) => client.status === "prospect")).toBe(true);
    await expectGridToShow(
      page,
      expected.map((client) => client.name),
    );
    for (const badge of await clientCards(page).getByTestId("client-status").allTextContents()) {
      expect(badge).toBe("Prospect");
    }
  });

  test('S-CLIST-06 S-CLIST-09 S-CLIST-10 S-CLIST-11 S-STATE-08 a card: top bar, industry, phone, email, address, status badge, "View Details"', async ({
    page,
  }) => {
    await signInAs(page, "super_admin");
    const clients = await apiGet<ClientSummary[]>(page, "/api/clients?limit=60");
    // A client with every detail, so each row has a value to compare.
    const client = clients.find((each) => each.industry && each.phone && each.email && each.address);
    if (!client) throw new Error("the demo firm has a client with all details");
    await page.goto("/clients");
    await search(page, client.name);
    const card = clientCard(page, client.name);
    await expect(card).toBeVisible();

    const bar = card.getByTestId("client-card-bar");
    const barColour = await bar.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(barColour).not.toMatch(/^rgba\(0, 0, 0, 0\)$|^transparent$/);
    expect((await bar.boundingBox())?.height).toBeGreaterThan(0);

    await expect(card.getByText(client.industry ?? "", { exact: true })).toBeVisible();
    await expect(card.locator('[data-field="phone"]')).toContainText(client.phone ?? "");
    await expect(card.locator('[data-field="email"]')).toContainText(client.email ?? "");
    await expect(card.locator('[data-field="address"]')).toContainText(client.address ?? "");
    expect(["active", "inactive", "prospect"]).toContain(client.status);
    await expect(card.getByTestId("client-status")).toHaveText(statusLabel[client.status]);

    const details = card.getByRole("link", { name: /View Details/ });
    await expect(details).toHaveText("View Details");
    await details.click();
    await expect(page).toHaveURL(new RegExp(`/client/${client.id}$`));
  });

  test("S-CLIST-07 S-STATE-11 S-STATE-16 each card's health icon has a tooltip with the API's health label", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    const clients = await apiGet<ClientSummary[]>(page, "/api/clients");
    await page.goto("/clients");
    await expect(clientCards(page).first()).toBeVisible();
    // One client of each health level the demo firm has, critical ("N overdue task(s)") included.
    const levels = new Map<HealthLevel, ClientSummary>();
    for (const client of clients) if (!levels.has(client.health.level)) levels.set(client.health.level, client);
    expect(levels.has("critical")).toBe(true);
    for (const client of levels.values()) {
      await search(page, client.name);
      const icon = clientCard(page, client.name).getByRole("button", { name: `Health: ${client.health.label}` });
      await pointAt(page, icon);
      await expect(page.getByRole("tooltip")).toHaveText(client.health.label);
      if (client.health.level === "critical") {
        expect(client.health.label).toBe(`${client.taskCounts.overdue} overdue task(s)`);
      }
      await pointAway(page);
    }
  });

  test("S-CLIST-08 S-CONST-42 S-CONST-43 the tooltip opens after 700 ms; the next within 300 ms opens at once", async ({
    page,
  }) => {
    await signInAs(page, "admin");
    await page.goto("/clients");
    const icons = clientCards(page).getByRole("button", { name: /^Health: / });
    await expect(icons.nth(1)).toBeVisible();
    // Timed in the browser: from the pointer reaching an icon to Radix marking its trigger open
    // ("delayed-open" after the delay, "instant-open" when the skip delay applies).
    await page.evaluate(() => {
      const log = { entered: 0, opened: [] as { state: string; after: number }[] };
      Object.assign(window, { tooltipLog: log });
      document.addEventListener(
        "pointerover",
        (event) => {
          if (event.target instanceof Element && event.target.closest("[data-health]")) log.entered = performance.now();
        },
        true,
      );
      new MutationObserver((records) => {
        for (const record of records) {
          const state = (record.target as Element).getAttribute("data-state");
          if ((record.target as Element).hasAttribute("data-health") && state && state !== "closed") {
            log.opened.push({ state, after: performance.now() - log.entered });
          }
        }
      }).observe(document.body, { attributes: true, attributeFilter: ["data-state"], subtree: true });
    });
    const opened = () =>
      page.evaluate(
        () => (window as unknown as { tooltipLog: { opened: { state: string; after: number }[] } }).tooltipLog.opened,
      );

    await pointAt(page, icons.nth(0));
    await expect(page.getByRole("tooltip")).toBeVisible();
    const [first] = await opened();
    expect(first?.state).toBe("delayed-open");
    expect(first?.after).toBeGreaterThanOrEqual(700);
    // A busy machine may be late, never early.
    expect(first?.after).toBeLessThan(2500);

    await pointAt(page, icons.nth(1));
    await expect(icons.nth(1)).toHaveAttribute("data-state", "instant-open");
    const second = (await opened())[1];
    expect(second?.state).toBe("instant-open");
    expect(second?.after).toBeLessThan(300);
  });

  test("S-CLIST-12 the grid has 1 column at 375 px, 2 at 800 px and 3 at 1280 px", async ({ page }) => {
    await signInAs(page, "admin");
    for (const [width, columns] of [
      [375, 1],
      [800, 2],
      [1280, 3],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/clients");
      await expect(clientCards(page).nth(3)).toBeAttached();
      const lefts = await clientCards(page).evaluateAll((cards) =>
        cards.slice(0, 4).map((card) => Math.round(card.getBoundingClientRect().left)),
      );
      expect(new Set(lefts).size, `columns at ${width} px`).toBe(columns);
    }
  });

  test('S-CLIST-13 a search without a match shows "No clients found"', async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/clients");
    await search(page, "zzzz");
    await expect(page.getByRole("heading", { name: "No clients found" })).toBeVisible();
    await expect(page.getByText("Try adjusting your search terms")).toBeVisible();
    await expect(clientCards(page)).toHaveCount(0);
  });

  test('S-CLIST-14 a firm without clients shows "No clients yet"', async ({ page }) => {
    await signInToNewFirm(page);
    await page.goto("/clients");
    await expect(page.getByRole("heading", { name: "No clients yet" })).toBeVisible();
    await expect(page.getByText("Start by adding your first client to the system")).toBeVisible();
    await expect(page.getByRole("button", { name: "New Client" })).toBeVisible();
  });

  test("S-EDGE-12 the empty clients page offers New Client: its button opens the Create New Client dialog", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page);
    await page.goto("/clients");
    await expect(page.getByRole("heading", { name: "No clients yet" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "clients-none-yet");

    await page.getByRole("button", { name: "Add your first client" }).click();
    const form = dialog(page);
    await expect(form).toBeVisible();
    const name = uniqueName("First Client");
    await form.getByLabel("Company Name *").fill(name);
    await form.getByRole("button", { name: "Create Client" }).click();
    await expect(page.getByText("Client created successfully!")).toBeVisible();
    await expect(form).toBeHidden();
    await expect(clientCard(page, name)).toBeVisible();
    await expect(page.getByRole("heading", { name: "No clients yet" })).toHaveCount(0);
  });

  test("S-EDGE-14 the Clients page shows one client search, its own, which filters the list", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/clients");
    await expect(clientCards(page).first()).toBeVisible();
    // At 375 px too: the test of the page at both widths below.
    await expectOneClientSearch(page);
    const [first] = await searchResults(page, "");
    if (!first) throw new Error("the demo firm has no clients");
    await search(page, first.name);
    const matches = await searchResults(page, first.name);
    expect(matches.map((client) => client.id)).toContain(first.id);
    await expectGridToShow(
      page,
      matches.map((client) => client.name),
    );
  });

  // One screen per test: a full load of each screen takes seconds on a busy machine.
  for (const screen of ["/dashboard", "/tasks", "/reports", "/users", "/settings", "a client's page"]) {
    test(`S-EDGE-14 on ${screen} the header's search is "Search clients to open one", and every search box has a label of its own`, async ({
      page,
    }) => {
      await signInAs(page, "admin");
      const searchBoxes = page.locator('input[type="search"]');
      if (screen === "/tasks") {
        // Leaving the Clients page brings the header's search back.
        await page.goto("/clients");
        await expect(clientCards(page).first()).toBeVisible();
        await page.getByRole("link", { name: "Task Audit" }).click();
      } else if (screen === "a client's page") {
        const [first] = await searchResults(page, "");
        if (!first) throw new Error("the demo firm has no clients");
        await page.goto(`/client/${first.id}`);
      } else {
        await page.goto(screen);
      }
      await expect(page.getByRole("banner").locator('input[type="search"]')).toHaveAccessibleName(
        "Search clients to open one",
      );
      // A screen reader lists these boxes by name: two alike would be two "Search clients".
      const labels = await searchBoxes.evaluateAll((boxes) => boxes.map((box) => box.getAttribute("aria-label")));
      expect(labels.every((label) => label !== null && label.length > 0)).toBe(true);
      expect(new Set(labels).size, labels.join(" | ")).toBe(labels.length);
    });
  }

  test("S-CLIST-15 S-CONST-44 the loading skeleton is six placeholder cards", async ({ page }) => {
    await signInAs(page, "admin");
    const release = await holdRequests(page, "**/api/clients?*");
    await page.goto("/clients");
    await expect(page.getByTestId("clients-skeleton")).toBeVisible();
    await expect(page.getByTestId("client-card-skeleton")).toHaveCount(6);
    await expect(clientCards(page)).toHaveCount(0);
    release();
    await expect(clientCards(page).first()).toBeVisible();
    await expect(page.getByTestId("client-card-skeleton")).toHaveCount(0);
  });

  test('S-STATE-15 S-STATE-17 S-STATE-18 health labels "No tasks", "N pending task(s)", "All tasks complete"', async ({
    page,
  }) => {
    await signInToNewFirm(page);
    const template = await createTemplate(page, {
      name: "Kick-off call",
      description: "Agree the scope and the contacts.",
      priority: "high",
    });
    const idle = await createClient(page, { name: uniqueName("Idle Ltd") });
    const busy = await createClient(page, { name: uniqueName("Busy Ltd"), templateIds: [template.id] });
    const done = await createClient(page, { name: uniqueName("Done Ltd"), templateIds: [template.id] });
    const [task] = done.tasks;
    if (!task) throw new Error("the template made a task");
    const completed = await page.request.patch(`/api/tasks/${task.id}/complete`, {
      data: { signature: await drawnSignature(page), printedName: "Dana Whitfield" },
    });
    expect(completed.status()).toBe(200);

    await page.goto("/clients");
    for (const [client, label] of [
      [idle, "No tasks"],
      [busy, "1 pending task(s)"],
      [done, "All tasks complete"],
    ] as const) {
      const icon = clientCard(page, client.name).getByRole("button", { name: `Health: ${label}` });
      await pointAt(page, icon);
      await expect(page.getByRole("tooltip")).toHaveText(label);
      await pointAway(page);
    }
  });

  test('S-ROLE-06 S-ROLE-07 S-ROLE-08 a user sees only assigned clients and no "New Client"; the server refuses a create', async ({
    page,
    ownFirm,
    browserConsole,
  }) => {
    // The user opens a client not assigned to them: the browser logs the 404.
    browserConsole.expectFailedRequest(404, "/api/clients/");
    // The firm's super admin makes four clients and assigns two of them to its user.
    const names = ["Aster", "Birch", "Cobalt", "Dune"].map((word) => uniqueName(`${word} Holdings`));
    const clients: ClientSummary[] = [];
    for (const name of names) {
      const response = await ownFirm.api.post("/api/clients", { data: { name } });
      expect(response.status(), `create ${name}`).toBe(201);
      clients.push((await response.json()) as ClientSummary);
    }
    const [aster, birch, cobalt, dune] = clients as [ClientSummary, ClientSummary, ClientSummary, ClientSummary];
    const user = await ownFirm.user("user");
    const assigned = await ownFirm.api.post("/api/user-clients/assign", {
      data: { userId: user.id, clientIds: [birch.id, dune.id] },
    });
    expect(assigned.status()).toBe(200);
    const byName = (list: ClientSummary[]) => list.map((client) => client.name).sort();

    // An admin (and the super admin) sees every client of the firm.
    await ownFirm.signIn(page, "admin");
    expect(byName(await apiGet<ClientSummary[]>(page, "/api/clients?limit=60"))).toEqual([...names].sort());
    await page.context().clearCookies();

    // The user is listed only the two assigned to them; the others are refused, as if missing.
    await ownFirm.signIn(page, user);
    const listed = await apiGet<ClientSummary[]>(page, "/api/clients?limit=60");
    expect(byName(listed)).toEqual([birch.name, dune.name].sort());
    expect((await page.request.get(`/api/clients/${birch.id}`)).status()).toBe(200);
    for (const hidden of [aster, cobalt]) {
      expect((await page.request.get(`/api/clients/${hidden.id}`)).status(), hidden.name).toBe(404);
    }
    await page.goto("/clients");
    await expectGridToShow(
      page,
      listed.map((client) => client.name),
    );
    await expect(clientCards(page)).toHaveCount(2);
    await expect(page.getByRole("button", { name: "New Client" })).toHaveCount(0);
    const refused = await page.request.post("/api/clients", { data: { name: uniqueName("Not Allowed") } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/user.*create or edit clients/);
    await page.goto(`/client/${aster.id}`);
    await expect(page.getByRole("heading", { name: "Client not found" })).toBeVisible();
  });

  test('S-ROLE-08 an admin sees "New Client"', async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/clients");
    await expect(page.getByRole("button", { name: "New Client" })).toBeVisible();
  });

  test("S-EDGE-14 the page, with its one client search, and its empty search pass axe and fit at 1280 and 375 px", async ({
    page,
  }, testInfo) => {
    // Two axe runs and two full-page screenshots at each width, on a machine two workers share.
    test.slow();
    await signInAs(page, "super_admin");
    await page.goto("/clients");
    await expect(clientCards(page).first()).toBeVisible();
    await checkAtBothWidths(page, testInfo, "clients", {
      atWidth: async () => {
        await expect(clientCards(page).first()).toBeVisible();
        await expectOneClientSearch(page);
      },
    });
    await search(page, "zzzz");
    await expect(page.getByRole("heading", { name: "No clients found" })).toBeVisible();
    await checkAtBothWidths(page, testInfo, "clients-empty-search");
  });
});
