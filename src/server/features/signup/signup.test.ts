import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { useTestApp } from "../../../../tests/test-app";

/** A firm's first user as the last step of onboarding sends them (POST /api/auth/register). */
const firstUser = {
  fullName: "Milo Varga",
  email: "milo@varga-law.example.com",
  username: "milo.varga",
  password: "ledger-and-quill-42",
  subscriptionPlan: "starter",
};

describe("registration rules", () => {
  const ctx = useTestApp();
  const register = (overrides: Record<string, unknown>) =>
    apiClient(ctx.app).post("/api/auth/register", { ...firstUser, ...overrides });
  const counts = async () => {
    const { rows } = await ctx.database.pool.query<{ firms: number; users: number; sessions: number }>(
      "select (select count(*)::int from firms) firms, (select count(*)::int from users) users, (select count(*)::int from sessions) sessions",
    );
    return rows[0];
  };

  it.each([
    [{ fullName: "   " }, "Full name is required"],
    [{ email: "dana.example.com" }, "Valid email is required"],
    [{ username: "dw" }, "Username must be at least 3 characters"],
    [{ username: "dana whitfield" }, "Username may contain only letters, digits, dots, dashes and underscores"],
    [{ password: "12345" }, "Password must be at least 6 characters"],
    [{ password: "x".repeat(257) }, "Password must be at most 256 characters"],
    [{ password: "iloveyou" }, "This password is one of the most common ones; choose one that is harder to guess"],
    [{ password: "Sunshine" }, "This password is one of the most common ones; choose one that is harder to guess"],
    [{ subscriptionPlan: "gold" }, "Choose a plan: starter, professional or enterprise"],
  ])("refuses %j with the message %j and writes nothing", async (overrides, message) => {
    const before = await counts();
    const response = await register(overrides);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(response.body.code).toBe("VALIDATION_FAILED");
    expect(await counts()).toEqual(before);
  });

  it("S-API-08 register creates an account that can sign in; a taken username or e-mail, ignoring case, is 409 with a message", async () => {
    expect((await register({})).status).toBe(201);
    const signedIn = await apiClient(ctx.app).post("/api/auth/login", {
      username: firstUser.username,
      password: firstUser.password,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ username: firstUser.username, role: "super_admin" });
    const before = await counts();
    const sameUsername = await register({ username: "MILO.Varga", email: "other@example.com" });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body).toEqual({ message: "Username is already taken", code: "CONFLICT" });
    const sameEmail = await register({ username: "milo2", email: "MILO@varga-law.example.com" });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ message: "An account with this email already exists", code: "CONFLICT" });
    expect(await counts()).toEqual(before);
  });

  it("refuses fields it does not know, such as a role or a firm id", async () => {
    const response = await register({ username: "eve.smith", email: "eve@example.com", role: "admin" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_FAILED");
  });
});
