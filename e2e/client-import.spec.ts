import { expect, type Page } from "@playwright/test";
import { clientCard } from "./clients-support";
import { attachScreenshot, checkAtBothWidths, expectNoAxeViolations, holdRequests, test } from "./fixtures";

/*
 * The client import screen (issue 21, decision 0051) in a firm of the test's own: a file with an
 * error cannot be imported, a good one is mapped, previewed, imported with its duplicate updated,
 * and undone; a user without the right is turned away; a refused file is explained in place.
 */

const toast = (page: Page, text: string) => page.locator("[data-app-toast][data-state=open]").filter({ hasText: text });
const importButton = (page: Page) => page.getByRole("button", { name: /^Import \d+ clients?$/ });
const previewRow = (page: Page, name: string) => page.getByTestId("import-row").filter({ hasText: name });
const totals = (page: Page) => page.getByRole("definition");

/** Chooses `text` as the file, as the file dialog would. */
async function chooseFile(page: Page, name: string, text: string | Buffer, mimeType = "text/csv") {
  await page.getByTestId("import-file-input").setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
}

/** The names of the firm's clients, over the API. */
async function clientNames(page: Page): Promise<string[]> {
  const response = await page.request.get("/api/clients?limit=100");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { name: string }[]).map((client) => client.name).sort();
}

const fileWithError = ["Company,Email", "Maple Street Bakery,hello@maple.test", "Bad Mail Ltd,not-an-email", ""].join(
  "\n",
);
// "Partner" is no header the mapping guesses: the test maps it to the contact's name itself.
const goodFile = [
  "Company,Email,Phone,Partner",
  "harbour lane dental,,+44 20 7946 0123,Ada Moss",
  "Maple Street Bakery,hello@maple.test,,Ben Hale",
  "Northwind Surveyors,info@northwind.test,,",
  "",
].join("\r\n");

test.describe("client import", () => {
  test("S-IMPORT-13 S-IMPORT-14 S-IMPORT-15 a row error blocks the import; a good file is mapped, previewed, imported with its duplicate updated, and undone", async ({
    page,
    ownFirm,
  }, testInfo) => {
    const existing = await ownFirm.api.post("/api/clients", { data: { name: "Harbour Lane Dental", phone: "1" } });
    expect(existing.status()).toBe(201);
    await ownFirm.signIn(page);
    const namesBefore = await clientNames(page);

    // From the Clients page.
    await page.goto("/clients");
    await page.getByRole("link", { name: "Import clients" }).click();
    await expect(page).toHaveURL(/\/clients\/import$/);
    await expect(page.getByRole("heading", { level: 1, name: "Import Clients" })).toBeVisible();
    await expect(page.getByText("CSV up to 5 MB and 20,000 rows")).toBeVisible();
    await expect(page.getByText("No imports yet.")).toBeVisible();
    await attachScreenshot(page, testInfo, "client-import-file-step");

    // A row in error: the product's own message beside the field, and no import.
    await chooseFile(page, "bad-clients.csv", fileWithError);
    await expect(page.getByTestId("import-file")).toContainText("bad-clients.csv");
    await expect(previewRow(page, "Bad Mail Ltd").getByTestId("import-row-error")).toHaveText("Invalid email address");
    await expect(importButton(page)).toBeDisabled();
    await expect(page.getByText("Import is not available while 1 row has errors")).toBeVisible();
    await page.getByRole("button", { name: /^Errors/ }).click();
    await expect(page.getByTestId("import-row")).toHaveCount(1);

    // A good file instead: read as UTF-8, comma-separated; "Partner" mapped by hand.
    await page.getByRole("button", { name: "Choose another file" }).click();
    await chooseFile(page, "clients.csv", goodFile);
    await expect(page.getByTestId("import-file")).toContainText("UTF-8 · comma-separated · 3 rows");
    const contactName = page.getByRole("combobox", { name: "Contact name" });
    await expect(contactName).toHaveText("Not imported");
    await expect(page.getByRole("combobox", { name: "Company name (required)" })).toHaveText("Company");
    await contactName.click();
    await page.getByRole("option", { name: "Partner" }).click();
    await expect(contactName).toHaveText("Partner");
    await expect(previewRow(page, "Maple Street Bakery")).toContainText("Ben Hale");

    // The preview: 3 rows, 2 new, 1 duplicate named after the client it matches.
    await expect(totals(page)).toHaveText(["3", "2", "1", "0"]);
    await expect(previewRow(page, "harbour lane dental")).toContainText("Duplicate of Harbour Lane Dental (same name)");
    await expect(importButton(page)).toHaveText("Import 2 clients");
    await page.getByRole("radio", { name: "Update existing clients" }).check();
    await expect(importButton(page)).toHaveText("Import 3 clients");
    // The screen polls the import while its job runs: held, the progress stays on screen as the
    // commit's answer left it.
    let releasePolls = await holdRequests(page, "**/api/client-imports/*");
    await importButton(page).click();

    // Progress while the job runs, "N of M rows", then what it did.
    const progress = page.getByTestId("import-progress");
    await expect(progress.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute(
      "aria-valuetext",
      "0 of 3 rows",
    );
    await expect(progress.getByText(/ of /)).toHaveText("0 of 3 rows");
    releasePolls();
    const outcome = page.getByTestId("import-outcome");
    await expect(outcome.getByRole("heading", { name: "Import complete" })).toBeVisible({ timeout: 30_000 });
    await expect(outcome.getByRole("definition")).toHaveText(["2", "1", "0"]);
    await expect(page.getByTestId("recent-import")).toHaveCount(2);
    await expect(page.getByTestId("recent-import").first()).toContainText("Imported");
    await attachScreenshot(page, testInfo, "client-import-done");

    // The Clients page shows them.
    await outcome.getByRole("link", { name: "View clients" }).click();
    await expect(clientCard(page, "Northwind Surveyors")).toBeVisible();
    await expect(clientCard(page, "Maple Street Bakery")).toBeVisible();
    await expect(clientCard(page, "harbour lane dental")).toBeVisible();

    // Undo, after a confirmation that says what happens: the firm's clients are as before.
    await page.goBack();
    await outcome.getByRole("button", { name: "Undo import" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Undo this import?" });
    await expect(confirm).toContainText("The 2 clients it created are removed");
    await expect(confirm).toContainText("The 1 client it updated gets its earlier details back");
    releasePolls = await holdRequests(page, "**/api/client-imports/*");
    await confirm.getByRole("button", { name: "Undo import" }).click();
    await expect(toast(page, "Undoing the import")).toBeVisible();
    // The undo's job at work, "N of M clients" (the 2 created and the 1 updated), then what it did.
    await expect(progress.getByRole("heading", { name: "Undoing the import" })).toBeVisible();
    await expect(progress.getByRole("progressbar", { name: "Undo progress" })).toHaveAttribute(
      "aria-valuetext",
      "0 of 3 clients",
    );
    await expect(progress.getByText(/ of /)).toHaveText("0 of 3 clients");
    releasePolls();
    await expect(outcome.getByRole("heading", { name: "Import undone" })).toBeVisible({ timeout: 30_000 });
    await expect(outcome).toContainText("2 clients removed, 1 client given their earlier details back.");
    await expect(outcome.getByRole("button", { name: "Undo import" })).toHaveCount(0);
    await attachScreenshot(page, testInfo, "client-import-undone");

    await page.getByRole("link", { name: "Back to Clients" }).click();
    await expect(clientCard(page, "Harbour Lane Dental")).toBeVisible();
    await expect(clientCard(page, "Northwind Surveyors")).toHaveCount(0);
    await expect(clientCard(page, "Maple Street Bakery")).toHaveCount(0);
    expect(await clientNames(page)).toEqual(namesBefore);
  });

  test("S-IMPORT-14 a file the server refuses (400, 403, 413, 415), or a workbook, is explained in place in the server's words", async ({
    page,
    seedFirm,
    browserConsole,
  }) => {
    // Each refusal is a failed request the browser logs: the test provokes every one.
    for (const status of [400, 403, 413, 415]) browserConsole.expectFailedRequest(status, "/api/client-imports");
    // On the Starter plan (100 clients), so the plan's refusal of a commit is near.
    const firm = await seedFirm({ plan: "starter" });
    await firm.signIn(page);
    await page.goto("/clients/import");
    const problem = page.getByTestId("import-file-step").getByRole("alert");

    const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const refused: { name: string; file: string | Buffer; message: string; mimeType?: string }[] = [
      // Stopped in the browser: read as text it would be rows of noise.
      {
        name: "clients.xlsx",
        file: "PK",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        message:
          'This is a spreadsheet file, not a CSV. In Excel choose File > Save As > "CSV UTF-8", in Numbers File > Export To > CSV, then choose that file.',
      },
      {
        name: "huge.csv",
        file: Buffer.alloc(5 * 1024 * 1024 + 10, 0x61),
        message:
          "This file is larger than 5 MB. Split it into smaller files (at most 20,000 rows each) and import each.",
      },
      {
        name: "long.csv",
        file: `Company\n${"Harbour Lane Dental\n".repeat(20_001)}`,
        message: "This file has more than 20,000 rows. Split it into smaller files and import each.",
      },
      {
        name: "utf-16.csv",
        file: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Company\nMaple Street Bakery\n", "utf16le")]),
        message: "This file is UTF-16 text. Save it as CSV UTF-8 (or plain CSV) and upload it again.",
      },
      {
        name: "broken-utf-8.csv",
        file: Buffer.concat([utf8Bom, Buffer.from("Company\nCaf"), Buffer.from([0xe9]), Buffer.from(" Rouge\n")]),
        message: "This file says it is UTF-8 but holds bytes that are not. Save it again as CSV UTF-8.",
      },
      {
        name: "blank.csv",
        file: "\n \n",
        message: "This file is empty. Choose a CSV file with a header row and a row per client.",
      },
      {
        name: "header-only.csv",
        file: "Name,Email\n",
        message: "This file has a header row but no clients below it.",
      },
      {
        name: "wide.csv",
        file: `${Array.from({ length: 1001 }, (_, index) => `Column ${index + 1}`).join(",")}\nMaple Street Bakery\n`,
        message: "This file has more than 1,000 columns; it is not a client list.",
      },
      {
        name: "open-quote.csv",
        file: 'Company,Email\nMaple Street Bakery,hello@maple.test\n"Northwind, Surveyors,info@northwind.test\n',
        message:
          "Row 3 opens a quoted field that is never closed, so the rest of the file cannot be read. Check the quotes on that row.",
      },
    ];
    for (const { name, file, message, mimeType } of refused) {
      await chooseFile(page, name, file, mimeType);
      await expect(problem, name).toHaveText(message);
    }
    // Nothing was kept of any of them.
    await expect(page.getByText("No imports yet.")).toBeVisible();

    // A commit the plan has no room for any more: 100 new clients fit an empty firm when previewed,
    // then a colleague adds one.
    const hundred = Array.from({ length: 100 }, (_, index) => `Client ${index + 1}`);
    await chooseFile(page, "hundred.csv", ["Company", ...hundred, ""].join("\n"));
    await expect(importButton(page)).toHaveText("Import 100 clients");
    expect((await firm.api.post("/api/clients", { data: { name: "Maple Street Bakery" } })).status()).toBe(201);
    await importButton(page).click();
    await expect(page.getByRole("alert").filter({ hasText: "plan" })).toHaveText(
      "Your Starter plan allows up to 100 clients and your firm has 1, so this import cannot add 100. Upgrade your plan, or import at most 99 new clients.",
    );
    expect(await clientNames(page)).toEqual(["Maple Street Bakery"]);
  });

  test("S-IMPORT-13 a user without the right to write clients sees no Import clients button, and is turned away from the page", async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "user");
    await page.goto("/clients");
    await expect(page.getByRole("main").getByPlaceholder("Search clients...")).toBeVisible();
    await expect(page.getByRole("link", { name: "Import clients" })).toHaveCount(0);
    await page.goto("/clients/import");
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await expect(page.getByText("Only super admins and admins can import clients.")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("S-IMPORT-13 the preview with an error and a duplicate: axe, no sideways scroll and a screenshot at 1280 and 375 px", async ({
    page,
    ownFirm,
  }, testInfo) => {
    expect((await ownFirm.api.post("/api/clients", { data: { name: "Harbour Lane Dental" } })).status()).toBe(201);
    await ownFirm.signIn(page);
    await page.goto("/clients/import");
    await chooseFile(
      page,
      "client list (exported from Excel) november.csv",
      [
        "Company;Email;Status;Contact name;Contact email",
        "Harbour Lane Dental;reception@harbourlane.test;Active;Ada Moss;ada@harbourlane.test",
        "Maple Street Bakery;hello@maple.test;prospect;Ben Hale;",
        "Bad Mail Ltd;not-an-email;gold;;contact@",
        "Northwind Surveyors & Valuers International Holdings;info@northwind.test;;Cleo Park;cleo@northwind.test",
        "",
      ].join("\n"),
    );
    await expect(totals(page)).toHaveText(["4", "2", "1", "1"]);
    await expect(previewRow(page, "Bad Mail Ltd").getByTestId("import-row-error")).toHaveCount(4);
    await checkAtBothWidths(page, testInfo, "client-import-preview");
  });
});
