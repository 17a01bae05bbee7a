import type { FastifyInstance } from "fastify";
import type { Database } from "../src/server/platform/db/database";
import { insertClient, insertFirm, insertUser, insertUserClients } from "../src/server/seed/factories";
import type { Role } from "../src/shared/roles";
import { type ApiClient, apiClient } from "./api-client";

export type SeededUser = Awaited<ReturnType<typeof insertUser>>;

/**
 * A firm with one user per role, three clients, and the `user` assigned to the first client:
 * the smallest world in which every access rule can be seen to hold.
 */
export async function seedFirm(db: Database, name = "Firm") {
  const firm = await insertFirm(db, { name });
  const users = {} as Record<Role, SeededUser>;
  for (const role of ["super_admin", "admin", "user"] as const) {
    users[role] = await insertUser(db, { firmId: firm.id, role });
  }
  const clients = [];
  for (let index = 0; index < 3; index++) clients.push(await insertClient(db, { firmId: firm.id }));
  const [assigned] = clients;
  if (!assigned) throw new Error("no client");
  await insertUserClients(db, { firmId: firm.id, userId: users.user.id, clientIds: [assigned.id] });
  return { firm, users, clients, assignedClient: assigned };
}

export type SeededFirm = Awaited<ReturnType<typeof seedFirm>>;

/** Signs in through POST /api/auth/login and returns the client holding the session cookie. */
export async function signIn(
  app: FastifyInstance,
  user: { username: string; password: string },
  options: { ip?: string } = {},
): Promise<ApiClient> {
  const client = apiClient(app, options);
  const response = await client.post("/api/auth/login", { username: user.username, password: user.password });
  if (response.status !== 200)
    throw new Error(`sign-in of ${user.username} failed: ${response.status} ${response.text}`);
  return client;
}
