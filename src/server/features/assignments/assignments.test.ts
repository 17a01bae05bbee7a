import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents } from "../../platform/db/schema";
import { insertClient } from "../../seed/factories";

describe("client assignment", () => {
  const ctx = useTestApp();

  it("S-API-26 S-VAL-26 replaces a user's clients with the given list, ignoring repeats, and allows an empty list; userId and the list are required", async () => {
    const { users, clients, assignedClient } = await seedFirm(ctx.database.db, "Assign");
    const owner = await signIn(ctx.app, users.super_admin);
    const [, second, third] = clients;
    const ids = [second?.id, third?.id, second?.id] as string[];
    const assigned = await owner.post("/api/user-clients/assign", { userId: users.user.id, clientIds: ids });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ userId: users.user.id, clientIds: [second?.id, third?.id].sort() });

    const links = (await owner.get("/api/user-clients")).body as { userId: string; clientId: string }[];
    const mine = links.filter((link) => link.userId === users.user.id).map((link) => link.clientId);
    expect(mine.sort()).toEqual([second?.id, third?.id].sort());
    expect(mine).not.toContain(assignedClient.id);

    for (const body of [{ clientIds: [assignedClient.id] }, { userId: users.user.id }, {}]) {
      const refused = await owner.post("/api/user-clients/assign", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe("VALIDATION_FAILED");
      const missing = ["clientIds", "userId"].filter((field) => !(field in body));
      expect(refused.body.issues.map((issue: { path: string[] }) => issue.path[0]).sort()).toEqual(missing);
    }
    const unchanged = (await owner.get("/api/user-clients")).body as { userId: string; clientId: string }[];
    expect(
      unchanged
        .filter((link) => link.userId === users.user.id)
        .map((link) => link.clientId)
        .sort(),
    ).toEqual([second?.id, third?.id].sort());

    const cleared = await owner.post("/api/user-clients/assign", { userId: users.user.id, clientIds: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ userId: users.user.id, clientIds: [] });
    const after = (await owner.get("/api/user-clients")).body as { userId: string }[];
    expect(after.filter((link) => link.userId === users.user.id)).toEqual([]);
  });

  it("S-SAFE-13 assigning a user the clients they already have writes no audit event", async () => {
    const { users, assignedClient, firm } = await seedFirm(ctx.database.db, "Same List");
    const owner = await signIn(ctx.app, users.super_admin);
    const eventsOf = async () =>
      (await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.firmId, firm.id))).length;
    const before = await eventsOf();
    const same = await owner.post("/api/user-clients/assign", {
      userId: users.user.id,
      clientIds: [assignedClient.id, assignedClient.id],
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ userId: users.user.id, clientIds: [assignedClient.id] });
    expect(await eventsOf()).toBe(before);
    const changed = await owner.post("/api/user-clients/assign", { userId: users.user.id, clientIds: [] });
    expect(changed.status).toBe(200);
    expect(await eventsOf()).toBe(before + 1);
  });

  it("changes nothing when one of the clients is unknown", async () => {
    const { users, assignedClient, firm } = await seedFirm(ctx.database.db, "Partial");
    const owner = await signIn(ctx.app, users.super_admin);
    const extra = await insertClient(ctx.database.db, { firmId: firm.id });
    const response = await owner.post("/api/user-clients/assign", {
      userId: users.user.id,
      clientIds: [extra.id, "0190f3c2-1111-7000-8000-000000000000"],
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Client not found", code: "NOT_FOUND" });
    const links = (await owner.get("/api/user-clients")).body as { userId: string; clientId: string }[];
    expect(links.filter((link) => link.userId === users.user.id).map((link) => link.clientId)).toEqual([
      assignedClient.id,
    ]);
  });

  it("S-API-25 GET /api/user-clients answers {userId, clientId} links with the client's name: all the firm's to a super admin, only their own to a user", async () => {
    const { users, clients, assignedClient } = await seedFirm(ctx.database.db, "Own");
    await seedFirm(ctx.database.db, "Someone Else's");
    const owner = await signIn(ctx.app, users.super_admin);
    const [, second, third] = clients as [unknown, { id: string }, { id: string }];
    expect(
      (await owner.post("/api/user-clients/assign", { userId: users.admin.id, clientIds: [second.id, third.id] }))
        .status,
    ).toBe(200);
    const all = await owner.get("/api/user-clients");
    expect(all.status).toBe(200);
    const key = (link: { userId: string; clientId: string }) => `${link.userId}/${link.clientId}`;
    expect(all.body.map(key).sort()).toEqual(
      [
        { userId: users.user.id, clientId: assignedClient.id },
        { userId: users.admin.id, clientId: second.id },
        { userId: users.admin.id, clientId: third.id },
      ]
        .map(key)
        .sort(),
    );
    for (const link of all.body) {
      expect(Object.keys(link).sort()).toEqual(["clientArchived", "clientId", "clientName", "userId"]);
      expect(link.clientName).toBe(clients.find((client) => client.id === link.clientId)?.name);
    }

    // An archived client's link stays (saving the user's list keeps it), marked as archived.
    expect((await owner.delete(`/api/clients/${third.id}`)).status).toBe(204);
    const afterArchive = (await owner.get("/api/user-clients")).body as { clientId: string; clientArchived: boolean }[];
    expect(afterArchive.filter((link) => link.clientArchived).map((link) => link.clientId)).toEqual([third.id]);

    const staff = await signIn(ctx.app, users.user);
    expect((await staff.get("/api/user-clients")).body).toEqual([
      { userId: users.user.id, clientId: assignedClient.id, clientName: assignedClient.name, clientArchived: false },
    ]);
  });

  it("S-ROLE-14 only a super admin assigns clients: an admin and a user get 403 with a clear message and nothing changes", async () => {
    const { users, clients, assignedClient } = await seedFirm(ctx.database.db, "Assigners");
    const ids = clients.map((client) => client.id);
    for (const role of ["admin", "user"] as const) {
      const caller = await signIn(ctx.app, users[role]);
      for (const clientIds of [ids, []]) {
        const refused = await caller.post("/api/user-clients/assign", { userId: users.user.id, clientIds });
        expect(refused.status, role).toBe(403);
        expect(refused.body).toEqual({
          message: `Your role (${role}) does not allow you to assign clients to users`,
          code: "FORBIDDEN",
        });
      }
    }
    const owner = await signIn(ctx.app, users.super_admin);
    const links = (await owner.get("/api/user-clients")).body as { userId: string; clientId: string }[];
    expect(links.map(({ userId, clientId }) => ({ userId, clientId }))).toEqual([
      { userId: users.user.id, clientId: assignedClient.id },
    ]);
    const allowed = await owner.post("/api/user-clients/assign", { userId: users.user.id, clientIds: ids });
    expect(allowed.status).toBe(200);
    expect(allowed.body.clientIds).toEqual([...ids].sort());
  });

  it("ends concurrent replacements of one user's clients with one of the lists, whole", async () => {
    const { users, clients } = await seedFirm(ctx.database.db, "Concurrent");
    const owner = await signIn(ctx.app, users.super_admin);
    const lists = [0, 1, 2, 3, 4, 5].map((n) =>
      clients
        .slice(n % 3, (n % 3) + 3)
        .map((client) => client.id)
        .sort(),
    );
    const responses = await Promise.all(
      lists.map((clientIds) => owner.post("/api/user-clients/assign", { userId: users.user.id, clientIds })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const links = (await owner.get("/api/user-clients")).body as { userId: string; clientId: string }[];
    const final = links
      .filter((link) => link.userId === users.user.id)
      .map((link) => link.clientId)
      .sort();
    expect(lists).toContainEqual(final);
  });
});
