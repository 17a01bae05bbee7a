import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../tests/fixtures";
import { useTestApp } from "../../../tests/test-app";
import { insertClient } from "../seed/factories";

describe("client assignment", () => {
  const ctx = useTestApp();

  it("replaces a user's clients with the given list, ignoring repeats, and allows an empty list", async () => {
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

    const cleared = await owner.post("/api/user-clients/assign", { userId: users.user.id, clientIds: [] });
    expect(cleared.body.clientIds).toEqual([]);
    const after = (await owner.get("/api/user-clients")).body as { userId: string }[];
    expect(after.filter((link) => link.userId === users.user.id)).toEqual([]);
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

  it("shows a user only their own assignments", async () => {
    const { users, assignedClient } = await seedFirm(ctx.database.db, "Own");
    const staff = await signIn(ctx.app, users.user);
    expect((await staff.get("/api/user-clients")).body).toEqual([
      { userId: users.user.id, clientId: assignedClient.id },
    ]);
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
