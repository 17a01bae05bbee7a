import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents, taskTemplates } from "../../platform/db/schema";

/* A template may carry the statutory due-date rule its tasks fall due by (decision 0053). */
describe("a template's due-date rule", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  const superAdmin = () => signIn(ctx.app, world.users.super_admin);
  const body = { name: "Form 1040", description: "Prepare and file the individual return.", priority: "high" };

  it("S-DUE-17 a recurring template takes a rule whose period its frequency matches; lists and audit carry it; left out of a PUT it stays, null clears it", async () => {
    const client = await superAdmin();
    const created = await client.post("/api/task-templates", {
      ...body,
      frequency: "annually",
      dueDateRule: "us-1040",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ frequency: "annually", dueDateRule: "us-1040" });
    const list = await client.get("/api/task-templates");
    expect(list.body.find((each: { id: string }) => each.id === created.body.id)?.dueDateRule).toBe("us-1040");
    const [event] = await ctx.database.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.body.id), eq(auditEvents.action, "template.created")));
    expect(event?.after).toMatchObject({ dueDateRule: "us-1040" });

    const renamed = await client.put(`/api/task-templates/${created.body.id}`, {
      ...body,
      name: "Form 1040 (individual)",
      frequency: "annually",
    });
    expect(renamed.body).toMatchObject({ name: "Form 1040 (individual)", dueDateRule: "us-1040" });
    const quarterly = await client.put(`/api/task-templates/${created.body.id}`, {
      ...body,
      frequency: "quarterly",
      dueDateRule: "uk-vat-quarter",
    });
    expect(quarterly.body).toMatchObject({ frequency: "quarterly", dueDateRule: "uk-vat-quarter" });
    const cleared = await client.put(`/api/task-templates/${created.body.id}`, { ...body, dueDateRule: null });
    expect(cleared.body).toMatchObject({ dueDateRule: null });

    const monthly = await client.post("/api/task-templates", {
      ...body,
      name: "PAYE",
      frequency: "monthly",
      dueDateRule: "uk-paye-monthly",
    });
    expect(monthly.body.dueDateRule).toBe("uk-paye-monthly");
  });

  it("S-DUE-17 an unknown rule, a frequency that does not match the rule's period, and a rule on a one-time template are refused and nothing is written", async () => {
    const client = await superAdmin();
    const [before] = await ctx.database.db.select({ n: count() }).from(taskTemplates);
    const refusals: [Record<string, unknown>, string][] = [
      [
        { frequency: "annually", dueDateRule: "us-9999" },
        'Unknown due date rule "us-9999": GET /api/due-date-rules lists them',
      ],
      [
        { frequency: "monthly", dueDateRule: "us-1040" },
        "us-1040 gives one date per tax year: a template following it must recur annually",
      ],
      [
        { frequency: "annually", dueDateRule: "us-941" },
        "us-941 gives one date per quarter: a template following it must recur quarterly",
      ],
      [
        { frequency: "none", dueDateRule: "uk-ct600" },
        "uk-ct600 gives one date per accounting period: a template following it must recur annually",
      ],
      [{ frequency: "annually", dueDateRule: 1040 }, "dueDateRule must be a rule's id, such as us-1040"],
    ];
    for (const [fields, message] of refusals) {
      const response = await client.post("/api/task-templates", { ...body, ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_FAILED", message });
      expect(response.body.issues).toContainEqual({ path: ["dueDateRule"], message });
    }
    const [after] = await ctx.database.db.select({ n: count() }).from(taskTemplates);
    expect(after).toEqual(before);

    // Making a template that follows a rule one-time is refused too, naming the rule.
    const created = await client.post("/api/task-templates", {
      ...body,
      frequency: "annually",
      dueDateRule: "us-1065",
    });
    const oneTime = await client.put(`/api/task-templates/${created.body.id}`, { ...body, isRecurring: false });
    expect(oneTime.status).toBe(400);
    expect(oneTime.body.message).toBe(
      "us-1065 gives one date per tax year: a template following it must recur annually",
    );
  });
});
