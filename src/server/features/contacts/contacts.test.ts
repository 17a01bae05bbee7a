import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents, contacts } from "../../platform/db/schema";
import { insertClient, insertFirm } from "../../seed/factories";

describe("contacts API", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });
  const admin = () => signIn(ctx.app, world.users.admin);
  const primaries = async (clientId: string) =>
    (
      await ctx.database.db
        .select({ name: contacts.name })
        .from(contacts)
        .where(and(eq(contacts.clientId, clientId), eq(contacts.isPrimary, true)))
    ).map((row) => row.name);

  it("S-API-13 POST /api/contacts creates a contact; isPrimary defaults to false", async () => {
    const client = await insertClient(ctx.database.db, { firmId: world.firm.id });
    const response = await (await admin()).post("/api/contacts", {
      name: "Robin Vale",
      title: "CFO",
      phone: "",
      email: "robin@vale.example.com",
      clientId: client.id,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: "Robin Vale",
      title: "CFO",
      phone: null,
      email: "robin@vale.example.com",
      isPrimary: false,
      clientId: client.id,
    });
  });

  it("S-VAL-13 S-VAL-14 the contact form's rules: name required, email valid or empty", async () => {
    const client = await insertClient(ctx.database.db, { firmId: world.firm.id });
    const session = await admin();
    const noName = await session.post("/api/contacts", { name: "", clientId: client.id });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe("Contact name is required");
    const badEmail = await session.post("/api/contacts", { name: "Kim", email: "x@", clientId: client.id });
    expect(badEmail.body.message).toBe("Invalid email address");
  });

  it("one primary contact per client: a new primary replaces the old, by create or by change", async () => {
    const client = await insertClient(ctx.database.db, { firmId: world.firm.id });
    const session = await admin();
    await session.post("/api/contacts", { name: "First", isPrimary: true, clientId: client.id });
    const second = await session.post("/api/contacts", { name: "Second", isPrimary: true, clientId: client.id });
    expect(await primaries(client.id)).toEqual(["Second"]);
    const third = await session.post("/api/contacts", { name: "Third", clientId: client.id });
    const promoted = await session.patch(`/api/contacts/${third.body.id}`, { isPrimary: true });
    expect(promoted.status).toBe(200);
    expect(promoted.body.isPrimary).toBe(true);
    expect(await primaries(client.id)).toEqual(["Third"]);
    expect((await session.patch(`/api/contacts/${second.body.id}`, { title: "Partner" })).body).toMatchObject({
      name: "Second",
      title: "Partner",
      isPrimary: false,
    });
  });

  it("DELETE removes a contact and records it in the audit trail", async () => {
    const client = await insertClient(ctx.database.db, { firmId: world.firm.id });
    const session = await admin();
    const created = await session.post("/api/contacts", { name: "Leaving Soon", clientId: client.id });
    expect((await session.delete(`/api/contacts/${created.body.id}`)).status).toBe(204);
    expect((await session.delete(`/api/contacts/${created.body.id}`)).status).toBe(404);
    const actions = await ctx.database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, created.body.id));
    expect(actions.map((row) => row.action)).toEqual(["contact.created", "contact.deleted"]);
  });

  it("S-ROLE-08 S-ROLE-19 a user may not add contacts; another firm's client or contact is 404", async () => {
    const user = await signIn(ctx.app, world.users.user);
    const refused = await user.post("/api/contacts", { name: "Nope", clientId: world.assignedClient.id });
    expect(refused.status).toBe(403);
    const other = await insertFirm(ctx.database.db);
    const foreignClient = await insertClient(ctx.database.db, { firmId: other.id });
    const session = await admin();
    const foreign = await session.post("/api/contacts", { name: "Spy", clientId: foreignClient.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Client not found", code: "NOT_FOUND" });
  });
});
