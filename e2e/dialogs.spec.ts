import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import {
  createClient,
  createContact,
  createTask,
  createUser,
  openClient,
  saveShot,
  taskRow,
} from "./client-detail-helpers";
import { createTemplate } from "./clients-support";
import { type OwnFirm, test } from "./fixtures";

/*
 * Every dialog, alert dialog and sheet of the app, opened on records whose names are 120 characters
 * long, at 1280 and 375 px. The names have no space, the worst case: nothing wraps such a word unless
 * the dialog lets it break. The screens are the short ones of each width (a laptop, a small phone), so
 * that the taller dialogs have to scroll.
 */
const screens = { desktop: { width: 1280, height: 720 }, mobile: { width: 375, height: 667 } };

const longName = (stem: string) => stem.repeat(Math.ceil(120 / stem.length)).slice(0, 120);
const names = {
  client: longName("Wolfeschlegelsteinhausenbergerdorff"),
  user: longName("Venkataramanakrishnanpillai"),
  contact: longName("Bartholomewvanderhoeven"),
  task: longName("Quarterlyreconciliation"),
  template: longName("Annualcompliancereview"),
};

/**
 * The dialog fits the viewport; each named button is in view without scrolling, wholly and not
 * covered by anything; nothing in it is wider than its box. When the dialog's
 * content scrolls, the buttons are checked again half-way down and at the end.
 */
async function expectFits(page: Page, testInfo: TestInfo, shot: string, dialog: Locator, buttons: string[]) {
  await expect(dialog).toBeVisible();
  // The opening animation scales the panel: measure it once at rest.
  await dialog.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
  const viewport = page.viewportSize();
  const box = await dialog.boundingBox();
  if (!viewport || !box) throw new Error(`${shot}: no viewport or dialog box`);
  expect(box.x, `${shot}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${shot}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${shot}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, `${shot}: bottom edge`).toBeLessThanOrEqual(viewport.height);

  const overflowing = await dialog.evaluate((root) => {
    const rootBox = root.getBoundingClientRect();
    const found: string[] = [];
    const nameOf = (element: Element) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join(".")} "${(element.textContent ?? "").slice(0, 30)}"`;
    for (const element of [root, ...root.querySelectorAll("*")]) {
      const style = getComputedStyle(element);
      const scrolls = style.overflowX === "auto" || style.overflowX === "scroll";
      if (scrolls && element.scrollWidth > element.clientWidth) found.push(`scrolls sideways: ${nameOf(element)}`);
      const rect = element.getBoundingClientRect();
      // A screen-reader-only text is a clipped 1 px box and may sit a pixel outside.
      if (rect.width > 1 && (rect.left < rootBox.left - 0.5 || rect.right > rootBox.right + 0.5)) {
        found.push(`sticks out: ${nameOf(element)}`);
      }
    }
    return found;
  });
  expect(overflowing, `${shot}: horizontal overflow`).toEqual([]);

  const expectButtonsInView = async (where: string) => {
    for (const name of buttons) {
      const button = dialog.getByRole("button", { name, exact: true });
      await expect(button, `${shot} (${where}): ${name}`).toBeInViewport({ ratio: 1 });
      const onTop = await button.evaluate((element) => {
        const rect = element.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
        return hit !== null && element.contains(hit);
      });
      expect(onTop, `${shot} (${where}): ${name} is not covered`).toBe(true);
    }
  };
  await expectButtonsInView("as opened");
  await saveShot(page, testInfo, shot, { fullPage: false });

  // The part of the dialog that scrolls (its body, or a list in it), when its content is taller than it.
  const scrolling = await dialog.evaluate((root) =>
    [root, ...root.querySelectorAll("*")].flatMap((element, index) => {
      const overflowY = getComputedStyle(element).overflowY;
      const scrolls = (overflowY === "auto" || overflowY === "scroll") && element.scrollHeight > element.clientHeight;
      return scrolls ? [index] : [];
    }),
  );
  if (scrolling.length > 0) {
    for (const [where, part] of [
      ["half-way down", 0.5],
      ["at the end", 1],
    ] as const) {
      await dialog.evaluate(
        (root, { indexes, to }) => {
          const elements = [root, ...root.querySelectorAll("*")];
          for (const index of indexes) {
            const element = elements[index];
            if (element) element.scrollTop = (element.scrollHeight - element.clientHeight) * to;
          }
        },
        { indexes: scrolling, to: part },
      );
      await expectButtonsInView(where);
    }
    await saveShot(page, testInfo, `${shot}-scrolled`, { fullPage: false });
  }
}

/** Closes the open dialog with its Cancel button, or Escape when it has none. */
async function close(page: Page, dialog: Locator) {
  const cancel = dialog.getByRole("button", { name: "Cancel", exact: true });
  if ((await cancel.count()) > 0) await cancel.click();
  else await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

for (const [width, viewport] of Object.entries(screens)) {
  test(`S-EDGE-01 every dialog fits a ${viewport.width} px screen with 120-character names: text wraps, the buttons stay in view, nothing scrolls sideways`, async ({
    page,
    ownFirm,
  }, testInfo) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await ownFirm.signIn(page);
    const template = await createTemplate(page, {
      name: names.template,
      description: `${names.template} ${names.template}`,
      priority: "high",
      frequency: "monthly",
    });
    // Industry and title allow 100 characters.
    const client = await createClient(page, { name: names.client, industry: names.client.slice(0, 100) });
    await createContact(page, client.id, {
      name: names.contact,
      title: names.contact.slice(0, 100),
      email: "pat@example.com",
    });
    await createTask(page, client.id, { name: names.task, description: `${names.task} ${names.task}` });
    await createUser(page, "user", names.user);
    const shot = (name: string) => `edge-01-${width}-${name}`;

    // The client detail page: edit, archive, contacts and tasks.
    await openClient(page, client);
    const clientDialogs: { open: () => Promise<void>; dialog: Locator; buttons: string[]; name: string }[] = [
      {
        name: "edit-client",
        open: () => page.getByRole("button", { name: "Edit Client" }).click(),
        dialog: page.getByRole("dialog", { name: "Edit Client" }),
        buttons: ["Cancel", "Save Changes"],
      },
      {
        name: "archive-client",
        open: () => page.getByRole("button", { name: "Archive", exact: true }).click(),
        dialog: page.getByRole("alertdialog"),
        buttons: ["Cancel", "Archive Client"],
      },
      {
        name: "add-contact",
        open: () => page.getByRole("button", { name: "Add Contact" }).click(),
        dialog: page.getByRole("dialog", { name: "Add Contact" }),
        buttons: ["Cancel", "Add Contact"],
      },
      {
        name: "edit-contact",
        open: () => page.getByRole("button", { name: `Edit ${names.contact}` }).click(),
        dialog: page.getByRole("dialog", { name: "Edit Contact" }),
        buttons: ["Cancel", "Save Changes"],
      },
      {
        name: "delete-contact",
        open: () => page.getByRole("button", { name: `Delete ${names.contact}` }).click(),
        dialog: page.getByRole("alertdialog"),
        buttons: ["Cancel", "Delete Contact"],
      },
      {
        name: "add-task",
        open: () => page.getByRole("button", { name: "Add Task" }).click(),
        dialog: page.getByRole("dialog", { name: "Add Task" }),
        buttons: ["Cancel", "Add Task"],
      },
      {
        name: "edit-task",
        open: () => page.getByRole("button", { name: `Edit ${names.task}` }).click(),
        dialog: page.getByRole("dialog", { name: "Edit Task" }),
        buttons: ["Cancel", "Save Changes"],
      },
      {
        name: "complete-task",
        open: () => taskRow(page, names.task).getByRole("button", { name: "Complete" }).click(),
        dialog: page.getByRole("dialog", { name: "Complete Task" }),
        buttons: ["Clear", "Cancel", "Submit"],
      },
      {
        name: "delete-task",
        open: () => page.getByRole("button", { name: `Delete ${names.task}` }).click(),
        dialog: page.getByRole("alertdialog"),
        buttons: ["Cancel", "Delete Task"],
      },
    ];
    for (const { name, open, dialog, buttons } of clientDialogs) {
      await open();
      await expectFits(page, testInfo, shot(name), dialog, buttons);
      await close(page, dialog);
    }
    // The long names are shown whole, wrapped, where the dialogs name them.
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await expect(page.getByRole("alertdialog", { name: `Archive ${names.client}?` })).toBeVisible();
    await close(page, page.getByRole("alertdialog"));

    // The Clients page's New Client dialog.
    await page.goto("/clients");
    await page.getByRole("button", { name: "New Client" }).click();
    await expectFits(page, testInfo, shot("new-client"), page.getByRole("dialog", { name: "Create New Client" }), [
      "Cancel",
      "Create Client",
    ]);
    await close(page, page.getByRole("dialog", { name: "Create New Client" }));

    // The Users page: New User, and Assign Clients for the user with the long name.
    await page.goto("/users");
    await page.getByRole("button", { name: "New User" }).click();
    await expectFits(page, testInfo, shot("new-user"), page.getByRole("dialog", { name: "Create New User" }), [
      "Cancel",
      "Create User",
    ]);
    await close(page, page.getByRole("dialog", { name: "Create New User" }));
    await page.getByRole("button", { name: `Assign Clients to ${names.user}` }).click();
    const assign = page.getByRole("dialog", { name: "Assign Clients" });
    await expect(assign.getByText(names.user)).toBeVisible();
    await expect(assign.getByText(names.client)).toBeVisible();
    await expectFits(page, testInfo, shot("assign-clients"), assign, ["Cancel", "Save Assignments"]);
    await close(page, assign);

    // The Tasks page: a task's details, then the templates' dialogs.
    await page.goto("/tasks");
    await page.getByRole("article", { name: names.task }).getByRole("button", { name: "View Details" }).click();
    await expectFits(page, testInfo, shot("task-details"), page.getByRole("dialog", { name: names.task }), ["Close"]);
    await close(page, page.getByRole("dialog", { name: names.task }));

    await page.getByRole("tab", { name: "Task Templates" }).click();
    const templateCard = page.getByRole("article", { name: template.name });
    const templateDialogs: { open: () => Promise<void>; dialog: Locator; buttons: string[]; name: string }[] = [
      {
        name: "create-template",
        open: () => page.getByRole("button", { name: "New Task Template" }).click(),
        dialog: page.getByRole("dialog", { name: "Create Task Template" }),
        buttons: ["Cancel", "Create Template"],
      },
      {
        name: "template-details",
        open: () => templateCard.getByRole("button", { name: "View Details" }).click(),
        dialog: page.getByRole("dialog", { name: template.name }),
        buttons: ["Close"],
      },
      {
        name: "edit-template",
        open: () => templateCard.getByRole("button", { name: "Edit" }).click(),
        dialog: page.getByRole("dialog", { name: "Edit Task Template" }),
        buttons: ["Cancel", "Save Changes"],
      },
      {
        name: "delete-template",
        open: () => templateCard.getByRole("button", { name: "Delete" }).click(),
        dialog: page.getByRole("alertdialog", { name: "Delete task template" }),
        buttons: ["Cancel", "Delete"],
      },
      {
        name: "template-library",
        open: () => page.getByRole("button", { name: "Browse library" }).click(),
        dialog: page.getByRole("dialog", { name: "Template Library" }),
        buttons: ["Close"],
      },
    ];
    for (const { name, open, dialog, buttons } of templateDialogs) {
      await open();
      await expectFits(page, testInfo, shot(name), dialog, buttons);
      await close(page, dialog);
    }

    // The navigation's slide-over, on a narrow screen.
    if (viewport.width < 768) {
      await page.getByRole("button", { name: "Open navigation" }).click();
      const menu = page.getByRole("dialog", { name: "Navigation" });
      await expectFits(page, testInfo, shot("navigation"), menu, ["Close menu"]);
      await close(page, menu);
    }
  });
}

/*
 * Back and Forward while a dialog is open (S-EDGE-11): the move closes the dialog and the page stays;
 * nothing is added to the history, so every other way of closing leaves it as it was.
 */

const newClientDialog = (page: Page) => page.getByRole("dialog", { name: "Create New Client" });
const historyLength = (page: Page) => page.evaluate(() => window.history.length);

/** Signs in to an own firm, opens the dashboard, then goes to Clients by the navigation (one history entry). */
async function openClientsFromDashboard(page: Page, ownFirm: OwnFirm) {
  await ownFirm.signIn(page);
  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Clients", exact: true }).click();
  await expect(page).toHaveURL(/\/clients$/);
  await expect(page.getByRole("button", { name: "New Client" })).toBeVisible();
}

test("S-EDGE-11 Back closes an open dialog with typed data and the page stays; the next Back leaves", async ({
  page,
  ownFirm,
}) => {
  await openClientsFromDashboard(page, ownFirm);
  const entries = await historyLength(page);
  await page.getByRole("button", { name: "New Client" }).click();
  await newClientDialog(page).getByLabel("Company Name").fill("Half-typed Holdings");

  await page.goBack();
  await expect(newClientDialog(page)).toBeHidden();
  await expect(page).toHaveURL(/\/clients$/);
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  expect(await historyLength(page)).toBe(entries);
  // Closed by Back as by Cancel: the next opening starts empty.
  await page.getByRole("button", { name: "New Client" }).click();
  await expect(newClientDialog(page).getByLabel("Company Name")).toHaveValue("");
  await newClientDialog(page).getByRole("button", { name: "Cancel" }).click();

  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("S-EDGE-11 a dialog closed with Cancel or Escape leaves no history entry: Back goes to the previous page", async ({
  page,
  ownFirm,
}) => {
  await openClientsFromDashboard(page, ownFirm);
  const entries = await historyLength(page);
  await page.getByRole("button", { name: "New Client" }).click();
  await newClientDialog(page).getByLabel("Company Name").fill("Second Thoughts Ltd");
  await newClientDialog(page).getByRole("button", { name: "Cancel" }).click();
  await expect(newClientDialog(page)).toBeHidden();
  await page.getByRole("button", { name: "New Client" }).click();
  await page.keyboard.press("Escape");
  await expect(newClientDialog(page)).toBeHidden();
  expect(await historyLength(page)).toBe(entries);

  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("S-EDGE-11 a confirmation that leads to another page leaves the history as a link would", async ({
  page,
  ownFirm,
}) => {
  await ownFirm.signIn(page);
  const client = await createClient(page, { name: "Archive Me Partners" });
  await page.goto("/clients");
  await page.getByRole("link", { name: `View Details of ${client.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${client.id}$`));

  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Archive Client" }).click();
  await expect(page).toHaveURL(/\/clients$/);
  await expect(page.getByRole("alertdialog")).toBeHidden();

  // One Back to the (now archived) client, one more to the list it was opened from.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/client/${client.id}$`));
  await expect(page.getByText("This client is archived.")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/clients$/);
});

test("S-EDGE-11 Back closes a confirmation and the navigation's slide-over too", async ({ page, ownFirm }) => {
  await page.setViewportSize(screens.mobile);
  await ownFirm.signIn(page);
  const client = await createClient(page, { name: "Back Button Bakery" });
  await page.goto("/clients");
  await page.getByRole("link", { name: `View Details of ${client.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${client.id}$`));

  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/client/${client.id}$`));

  await page.getByRole("button", { name: "Open navigation" }).click();
  await expect(page.getByRole("dialog", { name: "Navigation" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("dialog", { name: "Navigation" })).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/client/${client.id}$`));
  await expect(page.getByRole("heading", { level: 2, name: client.name })).toBeVisible();
});

test("S-EDGE-11 when Back would leave the app with something typed in a dialog, the browser asks first", async ({
  page,
  ownFirm,
}) => {
  await ownFirm.signIn(page);
  // Loaded straight into /clients: the entry before it is another document, where the app's own
  // handling of Back cannot reach.
  await page.goto("/clients");
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });

  await page.getByRole("button", { name: "New Client" }).click();
  await newClientDialog(page).getByLabel("Company Name").fill("Typed Before Leaving");
  await page.evaluate(() => window.history.back());
  await expect.poll(() => asked).toEqual(["beforeunload"]);
  // Staying was chosen: the page, the dialog and what was typed are all still there.
  await expect(page).toHaveURL(/\/clients$/);
  await expect(newClientDialog(page).getByLabel("Company Name")).toHaveValue("Typed Before Leaving");

  // With nothing typed, Back leaves without asking.
  await newClientDialog(page).getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "New Client" }).click();
  await page.evaluate(() => window.history.back());
  await expect(page).not.toHaveURL(/\/clients$/);
  expect(asked).toEqual(["beforeunload"]);
});
