import { expect, type Locator, type Page, type Request } from "@playwright/test";
import type { DueDateRuleSummary } from "../src/shared/due-dates";
import type { Template } from "../src/shared/templates";
import { saveShot } from "./client-detail-helpers";
import { apiGet, expectNoAxeViolations, expectNoHorizontalScroll, test, viewports } from "./fixtures";

/*
 * S-DUE-18: a recurring template may follow a statutory due-date rule, chosen in the create and
 * edit dialogs from the rules whose period its frequency matches, and shown on its card and in its
 * View dialog. Everything runs against the real server in a firm of the test's own.
 */

const card = (page: Page, name: string) =>
  page.getByRole("list", { name: "Task templates" }).getByRole("article", { name });
const ruleSelect = (dialog: Locator) => dialog.getByRole("combobox", { name: "Statutory due date" });
const none = "None: due at the end of each period";

/** "US — Form 1040: U.S. individual income tax return", as the select lists a rule. */
const labelOf = (rule: DueDateRuleSummary) => `${rule.jurisdiction} — ${rule.name}`;

/** What the select offers for `frequency`: None, then the fitting rules, the US ones first. */
function expectedOptions(rules: DueDateRuleSummary[], frequency: DueDateRuleSummary["frequency"]): string[] {
  const fitting = rules.filter((rule) => rule.frequency === frequency);
  return [
    none,
    ...fitting.filter((rule) => rule.jurisdiction === "US").map(labelOf),
    ...fitting.filter((rule) => rule.jurisdiction === "UK").map(labelOf),
  ];
}

/** Opens a select, reads its options and closes it again. */
async function optionsOf(page: Page, combobox: Locator): Promise<string[]> {
  await combobox.click();
  await expect(page.getByRole("listbox")).toBeVisible();
  const options = await page.getByRole("option").allTextContents();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("listbox")).toHaveCount(0);
  return options;
}

async function choose(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

/** The JSON body of the next request to `path` with `method`. */
function bodyOf(page: Page, method: string, path: RegExp): Promise<unknown> {
  return page
    .waitForRequest((request: Request) => request.method() === method && path.test(new URL(request.url()).pathname))
    .then((request) => request.postDataJSON());
}

test.describe("a template's statutory due-date rule", () => {
  test.describe.configure({ timeout: 120_000 });

  test("S-DUE-18 S-DUE-17 a super admin creates an annual template following us-1040, sees it on the card, then edits it to quarterly and us-941", async ({
    page,
    ownFirm,
  }, testInfo) => {
    await ownFirm.signIn(page, "super_admin");
    const rules = await apiGet<DueDateRuleSummary[]>(page, "/api/due-date-rules");
    const rule = (id: string) => {
      const found = rules.find((each) => each.id === id);
      if (!found) throw new Error(`no rule ${id}`);
      return found;
    };
    // The frequency each rule needs comes with the list: quarters, a month, else a year.
    expect(rules.filter((each) => each.frequency === "quarterly").map((each) => each.id)).toEqual([
      "us-941",
      "uk-vat-quarter",
    ]);
    expect(rules.filter((each) => each.frequency === "monthly").map((each) => each.id)).toEqual(["uk-paye-monthly"]);

    await page.setViewportSize(viewports.desktop);
    await page.goto("/tasks?tab=templates");
    await page.getByRole("button", { name: "Create First Template" }).click();
    const create = page.getByRole("dialog", { name: "Create Task Template" });
    const name = `Individual return ${Date.now().toString(36)}`;
    await create.getByLabel("Name").fill(name);
    await create.getByLabel("Description").fill("Prepare and file the client's Form 1040.");

    // One-time: no rule to follow, so no select.
    await expect(ruleSelect(create)).toHaveCount(0);
    // Weekly: no rule gives one date a week.
    await choose(page, create.getByRole("combobox", { name: "Frequency" }), "Weekly");
    await expect(ruleSelect(create)).toBeDisabled();
    await expect(ruleSelect(create)).toHaveText(none);
    await expect(create.getByTestId("due-date-rule-hint")).toContainText("No rule gives one date per week");

    // Annually: None and the annual rules only.
    await choose(page, create.getByRole("combobox", { name: "Frequency" }), "Annually");
    await expect(ruleSelect(create)).toBeEnabled();
    await expect(ruleSelect(create)).toHaveText(none);
    await expect(create.getByTestId("due-date-rule-hint")).toHaveText(
      "Only rules with one date per year fit an annual template; choose Quarterly or Monthly for the others.",
    );
    const annual = await optionsOf(page, ruleSelect(create));
    expect(annual).toEqual(expectedOptions(rules, "annually"));
    expect(annual).toContain("US — Form 1040: U.S. individual income tax return");
    expect(annual).not.toContain(labelOf(rule("us-941")));
    expect(annual).not.toContain(labelOf(rule("uk-paye-monthly")));

    // The list open, by jurisdiction, at 1280 px.
    await ruleSelect(create).click();
    await expect(page.getByRole("listbox")).toBeVisible();
    await expect(page.getByRole("group", { name: "United States" })).toBeVisible();
    await saveShot(page, testInfo, "template-rule-select-open-1280", { fullPage: false });
    await page.getByRole("option", { name: labelOf(rule("us-1040")), exact: true }).click();
    await expect(ruleSelect(create)).toHaveText(labelOf(rule("us-1040")));
    await saveShot(page, testInfo, "template-rule-chosen-1280", { fullPage: false });
    // Checked with the list closed: axe counts Radix's scrolling list (reached by the arrow keys,
    // its options focused in turn) as a scrollable region with nothing to tab to.
    await expectNoAxeViolations(page, { popupOpen: true });

    // And at 375 px: the list and the chosen rule fit the width.
    await page.setViewportSize(viewports.mobile);
    await ruleSelect(create).click();
    await expect(page.getByRole("listbox")).toBeVisible();
    await expectNoHorizontalScroll(page);
    await saveShot(page, testInfo, "template-rule-select-open-375", { fullPage: false });
    await page.keyboard.press("Escape");
    await expect(page.getByRole("listbox")).toHaveCount(0);
    await expect(ruleSelect(create)).toHaveText(labelOf(rule("us-1040")));
    await ruleSelect(create).scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(page);
    await saveShot(page, testInfo, "template-rule-chosen-375", { fullPage: false });
    await page.setViewportSize(viewports.desktop);

    // The create sends the rule with the frequency.
    const created = bodyOf(page, "POST", /^\/api\/task-templates$/);
    await create.getByRole("button", { name: "Create Template" }).click();
    expect(await created).toMatchObject({ name, frequency: "annually", dueDateRule: "us-1040" });
    await expect(create).toHaveCount(0);

    // The card says which rule, quietly; the View dialog names it in full.
    await expect(card(page, name).getByTestId("template-due-date-rule")).toHaveText("Due by rule: us-1040");
    await card(page, name)
      .getByRole("button", { name: /View Details/ })
      .click();
    const view = page.getByRole("dialog", { name });
    await expect(view.getByTestId("template-due-date-rule")).toHaveText(`${labelOf(rule("us-1040"))} (us-1040)`);
    await page.keyboard.press("Escape");
    await expect(view).toHaveCount(0);

    // Edit: the dialog opens on the rule; quarterly clears it and offers the quarterly rules only.
    await card(page, name).getByRole("button", { name: /^Edit/ }).click();
    const edit = page.getByRole("dialog", { name: "Edit Task Template" });
    await expect(ruleSelect(edit)).toHaveText(labelOf(rule("us-1040")));
    await choose(page, edit.getByRole("combobox", { name: "Frequency" }), "Quarterly");
    await expect(ruleSelect(edit)).toHaveText(none);
    expect(await optionsOf(page, ruleSelect(edit))).toEqual([
      none,
      labelOf(rule("us-941")),
      labelOf(rule("uk-vat-quarter")),
    ]);
    await choose(page, ruleSelect(edit), labelOf(rule("us-941")));
    const updated = bodyOf(page, "PUT", /^\/api\/task-templates\/[^/]+$/);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    expect(await updated).toMatchObject({ name, frequency: "quarterly", isRecurring: true, dueDateRule: "us-941" });
    await expect(edit).toHaveCount(0);
    await expect(card(page, name).getByTestId("template-due-date-rule")).toHaveText("Due by rule: us-941");

    // After a reload, the server's answer: the card and the edit dialog show us-941.
    await page.reload();
    await expect(card(page, name).getByTestId("template-due-date-rule")).toHaveText("Due by rule: us-941");
    const stored = (await apiGet<Template[]>(page, "/api/task-templates")).find((each) => each.name === name);
    expect(stored).toMatchObject({ frequency: "quarterly", dueDateRule: "us-941" });
    await card(page, name).getByRole("button", { name: /^Edit/ }).click();
    await expect(ruleSelect(edit)).toHaveText(labelOf(rule("us-941")));

    // None sends null and the rule goes; unchecking "recurring" hides the select.
    await choose(page, ruleSelect(edit), none);
    await edit.getByRole("checkbox", { name: "Recurring template" }).click();
    await expect(ruleSelect(edit)).toHaveCount(0);
    await edit.getByRole("checkbox", { name: "Recurring template" }).click();
    await expect(ruleSelect(edit)).toHaveText(none);
    const cleared = bodyOf(page, "PUT", /^\/api\/task-templates\/[^/]+$/);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    expect(await cleared).toMatchObject({ dueDateRule: null });
    await expect(edit).toHaveCount(0);
    await expect(card(page, name).getByTestId("template-due-date-rule")).toHaveCount(0);
  });
});
