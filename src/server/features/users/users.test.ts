import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";

describe("users", () => {
  const ctx = useTestApp();

  const userCount = async () =>
    (await ctx.database.pool.query<{ n: number }>("select count(*)::int n from users")).rows[0]?.n;

  it("S-API-22 S-API-23 lists the firm's users by name, without secrets; GET /api/users/{id} answers one, an unknown id 404", async () => {
    const { users } = await seedFirm(ctx.database.db, "Listing");
    const browser = await signIn(ctx.app, users.user);
    const response = await browser.get("/api/users");
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
    const names = response.body.map((user: { fullName: string }) => user.fullName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(Object.keys(response.body[0]).sort()).toEqual(
      ["createdAt", "disabled", "email", "fullName", "id", "role", "username", "version"].sort(),
    );
    expect(response.text).not.toMatch(/argon2|password/i);

    const expected = Object.values(users).map((user) => ({
      id: user.id,
      username: user.username,
      fullName: user.fullName,
      email: user.email,
      role: user.role,
      disabled: false,
      createdAt: user.createdAt.toISOString(),
      version: 1,
    }));
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...response.body].sort(byId)).toEqual(expected.sort(byId));

    const one = await browser.get(`/api/users/${users.admin.id}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toMatch(/argon2|password/i);
    expect(one.body).toMatchObject({ id: users.admin.id, username: users.admin.username, role: "admin" });
    expect((await browser.get("/api/users/not-a-uuid")).status).toBe(404);
    expect((await browser.get("/api/users/0190f3c2-1111-7000-8000-000000000000")).body).toEqual({
      message: "User not found",
      code: "NOT_FOUND",
    });
  });

  it("S-API-24 creates a user in the caller's firm with role user by default, who can then sign in", async () => {
    const { firm, users } = await seedFirm(ctx.database.db, "Hiring");
    const admin = await signIn(ctx.app, users.admin);
    const created = await admin.post("/api/users", {
      username: "new.associate",
      password: "associate-pass-9",
      fullName: "Nia Associate",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: "new.associate",
      fullName: "Nia Associate",
      role: "user",
      disabled: false,
    });
    const me = await (await signIn(ctx.app, { username: "new.associate", password: "associate-pass-9" })).get(
      "/api/auth/me",
    );
    expect(me.body.firm.id).toBe(firm.id);
  });

  it.each([
    [{ username: "ab" }, "Username must be at least 3 characters"],
    [{ password: "12345" }, "Password must be at least 6 characters"],
    [{ fullName: "N" }, "Full name is required"],
    [{ password: "football" }, "This password is one of the most common ones; choose one that is harder to guess"],
  ])("S-VAL-28 refuses a new user with %j: %s", async (overrides, message) => {
    const { users } = await seedFirm(ctx.database.db);
    const owner = await signIn(ctx.app, users.super_admin);
    const response = await owner.post("/api/users", {
      username: "valid.name",
      password: "valid-pass-1",
      fullName: "Valid Name",
      ...overrides,
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it("refuses a username another firm already uses, ignoring case", async () => {
    const other = await seedFirm(ctx.database.db, "Other");
    const { users } = await seedFirm(ctx.database.db, "Mine");
    const owner = await signIn(ctx.app, users.super_admin);
    const response = await owner.post("/api/users", {
      username: other.users.user.username.toUpperCase(),
      password: "valid-pass-1",
      fullName: "Copy Cat",
    });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe("Username is already taken");
  });

  it("changes a user's name and role", async () => {
    const { users } = await seedFirm(ctx.database.db, "Changes");
    const owner = await signIn(ctx.app, users.super_admin);
    const response = await owner.patch(`/api/users/${users.user.id}`, { fullName: "Renamed Person", role: "admin" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ fullName: "Renamed Person", role: "admin" });
    expect((await owner.patch(`/api/users/${users.user.id}`, {})).body.message).toBe("Nothing to change");
  });

  it("S-ROLE-01 S-VAL-23 roles are exactly super_admin, admin and user: each can be given, any other is refused, none means user", async () => {
    const { users } = await seedFirm(ctx.database.db, "Roles");
    const owner = await signIn(ctx.app, users.super_admin);
    for (const role of ["super_admin", "admin", "user"]) {
      const created = await owner.post("/api/users", {
        username: `role.${role}`,
        password: "valid-pass-1",
        fullName: `Role ${role}`,
        role,
      });
      expect(created.status, role).toBe(201);
      expect(created.body.role).toBe(role);
      expect((await owner.get(`/api/users/${created.body.id}`)).body.role).toBe(role);
      const me = await (await signIn(ctx.app, { username: `role.${role}`, password: "valid-pass-1" })).get(
        "/api/auth/me",
      );
      expect(me.body.role).toBe(role);
    }
    const before = await userCount();
    for (const role of ["owner", "SUPER_ADMIN", "superadmin", "Admin", "", null, 1]) {
      const refused = await owner.post("/api/users", {
        username: "role.other",
        password: "valid-pass-1",
        fullName: "Role Other",
        role,
      });
      expect(refused.status, String(role)).toBe(400);
      expect(refused.body).toMatchObject({
        code: "VALIDATION_FAILED",
        message: "Role must be super_admin, admin or user",
      });
    }
    expect(await userCount()).toBe(before);
    const defaulted = await owner.post("/api/users", {
      username: "role.default",
      password: "valid-pass-1",
      fullName: "Role Default",
    });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.role).toBe("user");
  });

  it("S-ROLE-13 create users: a super admin gives any role, an admin only admin or user, a user none; admins stay below super admins", async () => {
    const { users } = await seedFirm(ctx.database.db, "Ranks");
    const newUser = (username: string, role: string) => ({
      username,
      password: "valid-pass-1",
      fullName: "Ranked Person",
      role,
    });
    const owner = await signIn(ctx.app, users.super_admin);
    expect((await owner.post("/api/users", newUser("ranks.owner2", "super_admin"))).status).toBe(201);
    const admin = await signIn(ctx.app, users.admin);
    for (const role of ["admin", "user"]) {
      const created = await admin.post("/api/users", newUser(`ranks.by.admin.${role}`, role));
      expect(created.status, role).toBe(201);
      expect(created.body.role).toBe(role);
    }
    const staff = await signIn(ctx.app, users.user);
    const before = await userCount();
    for (const role of ["super_admin", "admin", "user"]) {
      const refused = await staff.post("/api/users", newUser(`ranks.by.user.${role}`, role));
      expect(refused.status, role).toBe(403);
      expect(refused.body).toEqual({
        message: "Your role (user) does not allow you to create users",
        code: "FORBIDDEN",
      });
    }
    expect(await userCount()).toBe(before);

    const promote = await admin.patch(`/api/users/${users.user.id}`, { role: "super_admin" });
    expect(promote.status).toBe(403);
    expect(promote.body.message).toBe("Your role (admin) cannot give users the super admin role");
    const demote = await admin.patch(`/api/users/${users.super_admin.id}`, { role: "user" });
    expect(demote.status).toBe(403);
    expect(demote.body.message).toBe("Your role (admin) cannot change a super admin");
    const create = await admin.post("/api/users", {
      username: "would.be.owner",
      password: "valid-pass-1",
      fullName: "Would Be",
      role: "super_admin",
    });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({
      message: "Your role (admin) cannot give users the super admin role",
      code: "FORBIDDEN",
    });
    expect(await userCount()).toBe(before);
  });

  it("never lets users change their own role or disable themselves", async () => {
    const { users } = await seedFirm(ctx.database.db, "Self");
    const owner = await signIn(ctx.app, users.super_admin);
    const role = await owner.patch(`/api/users/${users.super_admin.id}`, { role: "user" });
    expect(role.status).toBe(400);
    expect(role.body.message).toBe("You cannot change your own role");
    const disable = await owner.patch(`/api/users/${users.super_admin.id}`, { disabled: true });
    expect(disable.status).toBe(400);
    expect(disable.body.message).toBe("You cannot disable your own account");
  });
});
