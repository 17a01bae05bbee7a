import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents, clients } from "../../platform/db/schema";

/*
 * What statutory due dates need of a client (decision 0053): a fiscal year end, an entity type, a
 * jurisdiction and, for a US client, a state. Set at creation or by PATCH, shown on the detail.
 */
describe("a client's tax fields", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  const admin = () => signIn(ctx.app, world.users.admin);

  it("S-DUE-14 a new client takes a fiscal year end, entity type, jurisdiction and state; the detail shows them and the audit records them", async () => {
    const client = await admin();
    const created = await client.post("/api/clients", {
      name: "Harbor Tax Fields LLC",
      fiscalYearEnd: "06-30",
      entityType: "c_corporation",
      jurisdiction: "US",
      state: "ma",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      fiscalYearEnd: "06-30",
      entityType: "c_corporation",
      jurisdiction: "US",
      state: "MA",
    });
    const detail = await client.get(`/api/clients/${created.body.id}`);
    expect(detail.body).toMatchObject({ fiscalYearEnd: "06-30", entityType: "c_corporation", state: "MA" });
    const [event] = await ctx.database.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.body.id), eq(auditEvents.action, "client.created")));
    expect(event?.after).toMatchObject({
      fiscalYearEnd: "06-30",
      entityType: "c_corporation",
      jurisdiction: "US",
      state: "MA",
    });

    // Without them, all four are null.
    const plain = await client.post("/api/clients", { name: "Harbor Plain Client" });
    expect(plain.body).toMatchObject({ fiscalYearEnd: null, entityType: null, jurisdiction: null, state: null });
  });

  it("S-DUE-14 PATCH changes them alone, audited with the values before; an empty string clears one", async () => {
    const client = await admin();
    const created = await client.post("/api/clients", { name: "Northwind Tax Fields Ltd", jurisdiction: "UK" });
    const changed = await client.patch(`/api/clients/${created.body.id}`, {
      fiscalYearEnd: "03-31",
      entityType: "limited_company",
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ fiscalYearEnd: "03-31", entityType: "limited_company", jurisdiction: "UK" });
    const [event] = await ctx.database.db
      .select({ before: auditEvents.before, after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.body.id), eq(auditEvents.action, "client.updated")));
    expect(event).toEqual({
      before: { fiscalYearEnd: null, entityType: null },
      after: { fiscalYearEnd: "03-31", entityType: "limited_company" },
    });
    const cleared = await client.patch(`/api/clients/${created.body.id}`, { fiscalYearEnd: "" });
    expect(cleared.body.fiscalYearEnd).toBeNull();
  });

  it("S-DUE-15 bad values are refused with the field's message and nothing is written; a state needs the United States", async () => {
    const client = await admin();
    const before = await ctx.database.db.select({ n: count() }).from(clients);
    const refusals: [Record<string, unknown>, string, string][] = [
      [
        { fiscalYearEnd: "13-01" },
        "fiscalYearEnd",
        "Fiscal year end must be a month and day written MM-DD, such as 12-31",
      ],
      [
        { fiscalYearEnd: "02-30" },
        "fiscalYearEnd",
        "Fiscal year end must be a month and day written MM-DD, such as 12-31",
      ],
      [
        { fiscalYearEnd: "2026-12-31" },
        "fiscalYearEnd",
        "Fiscal year end must be a month and day written MM-DD, such as 12-31",
      ],
      [
        { entityType: "llc" },
        "entityType",
        "Entity type must be one of individual, sole_proprietor, partnership, s_corporation, c_corporation, limited_company, trust_or_estate, nonprofit, other",
      ],
      [{ jurisdiction: "FR" }, "jurisdiction", "Jurisdiction must be US or UK"],
      [{ jurisdiction: "US", state: "ZZ" }, "state", "State must be a US state's two-letter code, such as MA"],
      [{ jurisdiction: "UK", state: "MA" }, "state", "A state applies to clients in the United States only"],
      [{ state: "MA" }, "state", "A state applies to clients in the United States only"],
    ];
    for (const [fields, path, message] of refusals) {
      const response = await client.post("/api/clients", { name: "Refused Tax Fields", ...fields });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.body.code).toBe("VALIDATION_FAILED");
      expect(response.body.issues).toContainEqual({ path: [path], message });
    }
    expect(await ctx.database.db.select({ n: count() }).from(clients)).toEqual(before);

    // On a change the rule is judged on the client as the change leaves it.
    const us = await client.post("/api/clients", { name: "Refused Tax Fields US", jurisdiction: "US", state: "NY" });
    const moved = await client.patch(`/api/clients/${us.body.id}`, { jurisdiction: "UK" });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "A state applies to clients in the United States only",
    });
    const both = await client.patch(`/api/clients/${us.body.id}`, { jurisdiction: "UK", state: null });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ jurisdiction: "UK", state: null });
  });
});
