import { expect } from "@playwright/test";
import type { ClientSummary } from "../src/shared/clients";
import { apiGet, test } from "./fixtures";

/*
 * The generic schema messages, as the API answers them in its issues (S-VAL-27). Every body
 * here is refused, but the test still writes in a firm of its own: a body the server took by
 * mistake would otherwise land in the demo firm other specs count.
 */

type Refusal = { message: string; code: string; issues?: { path: (string | number)[]; message: string }[] };

test.describe("validation messages", () => {
  test('S-VAL-27 a bad enum value gets the generic "Invalid enum value"; a field with a message of its own keeps it', async ({
    page,
    ownFirm,
  }) => {
    await ownFirm.signIn(page, "admin");
    const client = await page.request.post("/api/clients", { data: { name: "Enum Probe LLC" } });
    expect(client.status()).toBe(201);
    const clientId = ((await client.json()) as { id: string }).id;

    const refusals: { method: "POST" | "GET"; url: string; data?: unknown; issues: Refusal["issues"] }[] = [
      {
        method: "POST",
        url: "/api/clients",
        data: { name: "Closed LLC", status: "closed" },
        issues: [{ path: ["status"], message: "Invalid enum value" }],
      },
      {
        method: "POST",
        url: "/api/tasks",
        data: { name: "Urgent filing", clientId, priority: "urgent" },
        issues: [{ path: ["priority"], message: "Invalid enum value" }],
      },
      {
        method: "POST",
        url: "/api/task-templates",
        data: { name: "Checklist", description: "Steps", priority: "critical" },
        issues: [{ path: ["priority"], message: "Invalid enum value" }],
      },
      {
        method: "GET",
        url: "/api/tasks?status=stalled",
        issues: [{ path: ["status"], message: "Invalid enum value" }],
      },
      // Where the product gives a field its own words, those win over "Required" and "Invalid email".
      {
        method: "POST",
        url: "/api/clients",
        data: { email: "not-an-address" },
        issues: [
          { path: ["name"], message: "Company name is required" },
          { path: ["email"], message: "Invalid email address" },
        ],
      },
    ];
    for (const { method, url, data, issues } of refusals) {
      const response = await page.request.fetch(url, { method, data });
      expect(response.status(), `${method} ${url}`).toBe(400);
      const body = (await response.json()) as Refusal;
      expect(body.code).toBe("VALIDATION_FAILED");
      expect(body.issues, `${method} ${url}`).toEqual(issues);
      expect(body.message).toBe(issues?.[0]?.message);
    }
    // Nothing refused was written.
    const clients = await apiGet<ClientSummary[]>(page, "/api/clients");
    expect(clients.map((each) => each.name)).toEqual(["Enum Probe LLC"]);
  });
});
