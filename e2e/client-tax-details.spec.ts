import { expect, type Page } from "@playwright/test";
import type { ClientDetail } from "../src/shared/clients";
import { createClient, openClient, saveShot } from "./client-detail-helpers";
import { apiGet, expectNoAxeViolations, expectNoHorizontalScroll, test, viewports } from "./fixtures";

/*
 * S-DUE-16: a client's tax details (fiscal year end, entity type, jurisdiction and, in the United
 * States, the state) are set in the Edit Client dialog and shown in Client Information.
 */

const dialog = (page: Page) => page.getByRole("dialog");
const info = (page: Page) => page.getByTestId("client-info");
const combobox = (page: Page, name: string) => dialog(page).getByRole("combobox", { name, exact: true });

/** Opens one of the dialog's selects and picks the option named `option`. */
async function choose(page: Page, name: string, option: string): Promise<void> {
  await combobox(page, name).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

/** The lines under "Tax details" in Client Information. */
const taxLines = (page: Page) => info(page).getByTestId("tax-details").locator(":scope > div");

async function save(page: Page): Promise<void> {
  await dialog(page).getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Client updated successfully!")).toBeVisible();
  await expect(dialog(page)).toHaveCount(0);
}

test.describe("client tax details", () => {
  // Each test makes its own firm and client and runs axe: on two shared cores that can take a while.
  test.describe.configure({ timeout: 120_000 });

  test("S-DUE-16 an admin sets a client's fiscal year end, entity type, jurisdiction and state in the edit dialog and sees them on the client", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, { industry: "Manufacturing", address: "4 Mill Lane, Lowell" });
    await page.setViewportSize(viewports.desktop);
    await openClient(page, client);

    // Nothing set yet: one quiet line.
    const taxField = info(page).locator("dl > div").filter({ hasText: "Tax details" });
    await expect(taxField.locator("dd")).toHaveText("Not set");
    await expect(info(page).getByTestId("tax-details")).toHaveCount(0);
    await saveShot(page, testInfo, "tax-details-not-set-1280");

    await page.getByRole("button", { name: "Edit Client" }).click();
    await expect(dialog(page).getByRole("heading", { name: "Tax details" })).toBeVisible();
    await expect(combobox(page, "Fiscal year end month")).toHaveText("Not set");
    await expect(combobox(page, "Fiscal year end day")).toBeDisabled();
    await expect(combobox(page, "Entity type")).toHaveText("Not set");
    await expect(combobox(page, "Jurisdiction")).toHaveText("Not set");
    await expect(combobox(page, "State")).toHaveCount(0);

    // A month comes with its last day; February offers 29 days, June 30.
    await choose(page, "Fiscal year end month", "February");
    await expect(combobox(page, "Fiscal year end day")).toHaveText("29");
    await combobox(page, "Fiscal year end day").click();
    await expect(page.getByRole("option")).toHaveCount(29);
    await page.getByRole("option", { name: "28", exact: true }).click();
    await choose(page, "Fiscal year end month", "June");
    await expect(combobox(page, "Fiscal year end day")).toHaveText("28");
    await combobox(page, "Fiscal year end day").click();
    await expect(page.getByRole("option")).toHaveCount(30);
    await page.getByRole("option", { name: "30", exact: true }).click();

    await choose(page, "Entity type", "C corporation");
    await choose(page, "Jurisdiction", "United States");
    await expect(combobox(page, "State")).toHaveText("Not set");
    await choose(page, "State", "MA");

    await dialog(page).getByRole("heading", { name: "Tax details" }).scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, { popupOpen: true });
    await saveShot(page, testInfo, "tax-details-dialog-1280", { fullPage: false });

    // The existing PATCH, against the version the dialog opened on, with only what changed.
    const patch = page.waitForRequest(
      (request) => request.method() === "PATCH" && new URL(request.url()).pathname === `/api/clients/${client.id}`,
    );
    await save(page);
    const sent = await patch;
    expect(sent.postDataJSON()).toEqual({
      fiscalYearEnd: "06-30",
      entityType: "c_corporation",
      jurisdiction: "US",
      state: "MA",
    });
    expect(sent.headers()["if-match"]).toBe(`"${client.version}"`);

    const expected = ["Fiscal year end: 30 June", "Entity type: C corporation", "Jurisdiction: United States (MA)"];
    await expect(taxLines(page)).toHaveText(expected);
    const stored = await apiGet<ClientDetail>(page, `/api/clients/${client.id}`);
    expect(stored).toMatchObject({
      fiscalYearEnd: "06-30",
      entityType: "c_corporation",
      jurisdiction: "US",
      state: "MA",
    });

    await page.reload();
    await expect(taxLines(page)).toHaveText(expected);
    await expectNoAxeViolations(page);
    await saveShot(page, testInfo, "tax-details-card-1280");

    // The dialog opens on what is stored.
    await page.getByRole("button", { name: "Edit Client" }).click();
    await expect(combobox(page, "Fiscal year end month")).toHaveText("June");
    await expect(combobox(page, "Fiscal year end day")).toHaveText("30");
    await expect(combobox(page, "Entity type")).toHaveText("C corporation");
    await expect(combobox(page, "Jurisdiction")).toHaveText("United States");
    await expect(combobox(page, "State")).toHaveText("MA");
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toHaveCount(0);

    await page.setViewportSize(viewports.mobile);
    await expect(taxLines(page)).toHaveText(expected);
    await expectNoHorizontalScroll(page);
    await saveShot(page, testInfo, "tax-details-card-375");
    await page.getByRole("button", { name: "Edit Client" }).click();
    await combobox(page, "State").scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page, { popupOpen: true });
    await saveShot(page, testInfo, "tax-details-dialog-375", { fullPage: false });
  });

  test("S-DUE-16 the state select shows for the United States only, choosing the United Kingdom clears the state, and Not set clears a detail", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "admin");
    const client = await createClient(page, {
      fiscalYearEnd: "12-31",
      entityType: "partnership",
      jurisdiction: "US",
      state: "NY",
    });
    await openClient(page, client);
    await expect(taxLines(page)).toHaveText([
      "Fiscal year end: 31 December",
      "Entity type: Partnership",
      "Jurisdiction: United States (NY)",
    ]);

    await page.getByRole("button", { name: "Edit Client" }).click();
    await expect(combobox(page, "State")).toHaveText("NY");
    await choose(page, "Jurisdiction", "United Kingdom");
    await expect(combobox(page, "State")).toHaveCount(0);
    // Back to the United States: the state was cleared, not kept out of sight.
    await choose(page, "Jurisdiction", "United States");
    await expect(combobox(page, "State")).toHaveText("Not set");
    await choose(page, "Jurisdiction", "United Kingdom");
    await expect(combobox(page, "State")).toHaveCount(0);
    await choose(page, "Entity type", "Limited company");
    await choose(page, "Fiscal year end month", "March");
    await expect(combobox(page, "Fiscal year end day")).toHaveText("31");
    await save(page);

    const expected = ["Fiscal year end: 31 March", "Entity type: Limited company", "Jurisdiction: United Kingdom"];
    await expect(taxLines(page)).toHaveText(expected);
    const stored = await apiGet<ClientDetail>(page, `/api/clients/${client.id}`);
    expect(stored).toMatchObject({
      fiscalYearEnd: "03-31",
      entityType: "limited_company",
      jurisdiction: "UK",
      state: null,
    });
    await page.reload();
    await expect(taxLines(page)).toHaveText(expected);

    // "Not set" clears each one; with none left the card says so in one line.
    await page.getByRole("button", { name: "Edit Client" }).click();
    await choose(page, "Fiscal year end month", "Not set");
    await expect(combobox(page, "Fiscal year end day")).toBeDisabled();
    await choose(page, "Entity type", "Not set");
    await choose(page, "Jurisdiction", "Not set");
    await save(page);
    await expect(info(page).getByTestId("tax-details")).toHaveCount(0);
    await expect(info(page).locator("dl > div").filter({ hasText: "Tax details" }).locator("dd")).toHaveText("Not set");
    expect(await apiGet<ClientDetail>(page, `/api/clients/${client.id}`)).toMatchObject({
      fiscalYearEnd: null,
      entityType: null,
      jurisdiction: null,
      state: null,
    });
  });
});
