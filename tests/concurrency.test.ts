import { and, count, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../src/server/platform/db/schema";
import { loginFailures } from "../src/server/platform/db/schema";
import { insertUser } from "../src/server/seed/factories";
import { apiClient } from "./api-client";
import { seedFirm, signIn } from "./fixtures";
import { useTestApp } from "./test-app";

/*
 * Real people click twice, open two tabs and sign in at nine sharp. The same write sent several
 * times at once must end in clear answers (never a 5xx) and a consistent database.
 */
const times = <T>(n: number, make: (index: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const statuses = (responses: { status: number }[]) => responses.map((response) => response.status).sort();

describe("the same write sent several times at once", () => {
  const ctx = useTestApp();

  it("registering one username: one firm is created, the others are told it is taken", async () => {
    const responses = await times(5, (n) =>
      apiClient(ctx.app).post("/api/auth/register", {
        fullName: "Twin Registrar",
        email: `twin-${n}@registrars.example.com`,
        username: "twin.registrar",
        password: "double-click-1234",
        subscriptionPlan: "starter",
      }),
    );
    expect(statuses(responses)).toEqual([201, 409, 409, 409, 409]);
    for (const refused of responses.filter((response) => response.status === 409)) {
      expect(refused.body).toEqual({ message: "Username is already taken", code: "CONFLICT" });
    }
  });

  it("adding one username to a firm: one user is created, the others are told it is taken", async () => {
    const { users } = await seedFirm(ctx.database.db, "Double Add");
    const admin = await signIn(ctx.app, users.admin);
    const responses = await times(5, () =>
      admin.post("/api/users", { username: "double.add", password: "double-click-1234", fullName: "Double Add" }),
    );
    expect(statuses(responses)).toEqual([201, 409, 409, 409, 409]);
  });

  it("a burst of wrong passwords for one username: no more than five are ever checked", async () => {
    const { users } = await seedFirm(ctx.database.db, "Guessing");
    const responses = await times(20, (n) =>
      apiClient(ctx.app, { ip: `198.51.100.${100 + n}` }).post("/api/auth/login", {
        username: users.user.username,
        password: `guess-number-${n}`,
      }),
    );
    const checked = responses.filter((response) => response.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(20 - checked);
    const [recorded] = await ctx.database.db
      .select({ n: count() })
      .from(loginFailures)
      .where(eq(loginFailures.usernameKey, users.user.username.toLowerCase()));
    expect(recorded?.n).toBe(checked);
    // The owner, with the right password, waits too, until the window has passed.
    const owner = await apiClient(ctx.app).post("/api/auth/login", {
      username: users.user.username,
      password: users.user.password,
    });
    expect(owner.status).toBe(checked === 5 ? 429 : 200);
  });

  it("a burst of wrong current passwords when changing it: no more than five are ever checked", async () => {
    const { users } = await seedFirm(ctx.database.db, "Guessing Again");
    const browser = await signIn(ctx.app, users.admin);
    const responses = await times(12, (n) =>
      browser.post("/api/auth/change-password", { currentPassword: `guess-${n}`, newPassword: "taken-over-1234" }),
    );
    const checked = responses.filter((response) => response.status === 400).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(12 - checked);
  });

  it("changing a user from several tabs: every change applies, the last one stands", async () => {
    const { users } = await seedFirm(ctx.database.db, "Tabs");
    const admin = await signIn(ctx.app, users.admin);
    const responses = await times(5, (n) => admin.patch(`/api/users/${users.user.id}`, { fullName: `Renamed ${n}` }));
    expect(statuses(responses)).toEqual([200, 200, 200, 200, 200]);
    const after = await admin.get(`/api/users/${users.user.id}`);
    expect(after.body.fullName).toMatch(/^Renamed [0-4]$/);
  });

  it("signing out twice and changing the password twice: clear answers, nothing half done", async () => {
    const { users } = await seedFirm(ctx.database.db, "Twice");
    const browser = await signIn(ctx.app, users.user);
    const changes = await times(3, () =>
      browser.post("/api/auth/change-password", {
        currentPassword: users.user.password,
        newPassword: "a-new-secret-99",
      }),
    );
    expect(changes.map((response) => response.status)).toEqual([204, 204, 204]);
    const signOuts = await times(3, () => browser.post("/api/auth/logout"));
    expect(signOuts.map((response) => response.status)).toEqual([204, 204, 204]);
    expect((await browser.get("/api/auth/me")).status).toBe(401);
    const again = await apiClient(ctx.app).post("/api/auth/login", {
      username: users.user.username,
      password: "a-new-secret-99",
    });
    expect(again.status).toBe(200);
  });

  it("two super admins demoting or disabling each other at once: one wins, the firm keeps one", async () => {
    for (const change of [{ role: "admin" }, { disabled: true }]) {
      const { firm, users } = await seedFirm(ctx.database.db, `Coup ${Object.keys(change)[0]}`);
      const second = await insertUser(ctx.database.db, { firmId: firm.id, role: "super_admin" });
      const [first, other] = [await signIn(ctx.app, users.super_admin), await signIn(ctx.app, second)];
      const responses = await Promise.all([
        first.patch(`/api/users/${second.id}`, change),
        other.patch(`/api/users/${users.super_admin.id}`, change),
      ]);
      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      const loser = responses.find((response) => response.status !== 200);
      expect([401, 403]).toContain(loser?.status);
      const active = await ctx.database.db
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(
          and(eq(schema.users.firmId, firm.id), eq(schema.users.role, "super_admin"), isNull(schema.users.disabledAt)),
        );
      expect(active).toHaveLength(1);
    }
  });

  it("a promotion and a rename of one user at once: neither undoes the other", async () => {
    const { users } = await seedFirm(ctx.database.db, "Lost Update");
    const [owner, admin] = [await signIn(ctx.app, users.super_admin), await signIn(ctx.app, users.admin)];
    const [promoted, renamed] = await Promise.all([
      owner.patch(`/api/users/${users.user.id}`, { role: "super_admin" }),
      admin.patch(`/api/users/${users.user.id}`, { fullName: "Renamed Meanwhile" }),
    ]);
    expect(promoted.status).toBe(200);
    const after = (await owner.get(`/api/users/${users.user.id}`)).body;
    expect(after.role).toBe("super_admin");
    // The rename either came first (and stands) or came after the promotion and was refused.
    if (renamed.status === 200) expect(after.fullName).toBe("Renamed Meanwhile");
    else expect(renamed.status).toBe(403);
  });

  it("a disable and a rename of one user at once: the disable stands", async () => {
    const { users } = await seedFirm(ctx.database.db, "Undone");
    const [owner, admin] = [await signIn(ctx.app, users.super_admin), await signIn(ctx.app, users.admin)];
    const responses = await Promise.all([
      owner.patch(`/api/users/${users.user.id}`, { disabled: true }),
      admin.patch(`/api/users/${users.user.id}`, { fullName: "Renamed Meanwhile" }),
    ]);
    expect(statuses(responses)).toEqual([200, 200]);
    const after = (await owner.get(`/api/users/${users.user.id}`)).body;
    expect(after).toMatchObject({ disabled: true, fullName: "Renamed Meanwhile" });
  });

  it("an admin demoted to user while adding a user: the addition is judged on the new role", async () => {
    const { users } = await seedFirm(ctx.database.db, "Demoted Meanwhile");
    const [owner, admin] = [await signIn(ctx.app, users.super_admin), await signIn(ctx.app, users.admin)];
    const [demoted, added] = await Promise.all([
      owner.patch(`/api/users/${users.admin.id}`, { role: "user" }),
      admin.post("/api/users", { username: "late.addition", password: "late-addition-1", fullName: "Late Addition" }),
    ]);
    expect(demoted.status).toBe(200);
    // Either the addition came first, or it is refused because its author is a user now.
    expect([201, 403]).toContain(added.status);
    const listed = (await owner.get("/api/users")).body as { username: string }[];
    expect(listed.some((user) => user.username === "late.addition")).toBe(added.status === 201);
  });

  it("a super admin demoted while assigning clients: the assignment is judged on the new role", async () => {
    const { firm, users, clients } = await seedFirm(ctx.database.db, "Demoted Assigner");
    const second = await insertUser(ctx.database.db, { firmId: firm.id, role: "super_admin" });
    const [owner, other] = [await signIn(ctx.app, users.super_admin), await signIn(ctx.app, second)];
    const clientIds = clients.slice(0, 2).map((client) => client.id);
    const [demoted, assigned] = await Promise.all([
      owner.patch(`/api/users/${second.id}`, { role: "admin" }),
      other.post("/api/user-clients/assign", { userId: users.user.id, clientIds }),
    ]);
    expect(demoted.status).toBe(200);
    expect([200, 403]).toContain(assigned.status);
    const links = (await owner.get("/api/user-clients")).body as { userId: string; clientId: string }[];
    const mine = links.filter((link) => link.userId === users.user.id).map((link) => link.clientId);
    if (assigned.status === 200) expect(mine.sort()).toEqual([...clientIds].sort());
    else expect(mine).not.toEqual([...clientIds].sort());
  });
});
