import { describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../tests/fixtures";
import { useTestApp } from "../../../tests/test-app";

describe("users", () => {
  const ctx = useTestApp();

  it("lists the firm's users by name, without secrets", async () => {
    const { users } = await seedFirm(ctx.database.db, "Listing");
    const browser = await signIn(ctx.app, users.user);
    const response = await browser.get("/api/users");
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
    const names = response.body.map((user: { fullName: string }) => user.fullName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(Object.keys(response.body[0]).sort()).toEqual(
      ["createdAt", "disabled", "email", "fullName", "id", "role", "username"].sort(),
    );
    expect(response.text).not.toMatch(/argon2|password/i);

    const one = await browser.get(`/api/users/${users.admin.id}`);
    expect(one.body).toMatchObject({ id: users.admin.id, username: users.admin.username, role: "admin" });
    expect((await browser.get("/api/users/not-a-uuid")).status).toBe(404);
    expect((await browser.get("/api/users/0190f3c2-1111-7000-8000-000000000000")).body).toEqual({
      message: "User not found",
      code: "NOT_FOUND",
    });
  });

  it("creates a user in the caller's firm with role user by default, who can then sign in", async () => {
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
    [{ role: "owner" }, "Role must be super_admin, admin or user"],
    [{ password: "football" }, "This password is one of the most common ones; choose one that is harder to guess"],
  ])("refuses a new user with %j: %s", async (overrides, message) => {
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

  it("keeps admins below super admins", async () => {
    const { users } = await seedFirm(ctx.database.db, "Ranks");
    const admin = await signIn(ctx.app, users.admin);
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
