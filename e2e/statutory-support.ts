import { type APIRequestContext, expect } from "@playwright/test";

/*
 * What the statutory due-date specs seed (decision 0053): a client whose year ended two months
 * ago, assigned a Form 1120 template, gets that year's task at once, still due (the 15th of the
 * fourth month after the year end).
 */

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** The last day of the month two months before this one, as MM-DD. */
function yearEndTwoMonthsAgo(): string {
  const now = new Date();
  const month = (now.getUTCMonth() + 10) % 12;
  // 2001 is no leap year: a February year end is the 28th, February's last day in most years.
  const lastDay = new Date(Date.UTC(2001, month + 1, 0)).getUTCDate();
  return `${String(month + 1).padStart(2, "0")}-${String(lastDay).padStart(2, "0")}`;
}

/**
 * A US corporation in `state` with a Form 1120 template assigned, through `api` (signed in as one
 * who may create both): the name of the task it gets and the client's id.
 */
export async function corporateClient(
  api: APIRequestContext,
  state: string,
): Promise<{ name: string; clientId: string }> {
  const name = `Corporate return ${unique()}`;
  const template = await api.post("/api/task-templates", {
    data: {
      name,
      description: "Prepare and file Form 1120.",
      priority: "high",
      frequency: "annually",
      isRecurring: true,
      dueDateRule: "us-1120",
    },
  });
  expect(template.status(), "create template").toBe(201);
  const templateId = ((await template.json()) as { id: string }).id;
  const client = await api.post("/api/clients", {
    data: {
      name: `Harbor Freight Co ${unique()}`,
      fiscalYearEnd: yearEndTwoMonthsAgo(),
      entityType: "c_corporation",
      jurisdiction: "US",
      state,
      templateIds: [templateId],
    },
  });
  expect(client.status(), "create client").toBe(201);
  return { name, clientId: ((await client.json()) as { id: string }).id };
}
