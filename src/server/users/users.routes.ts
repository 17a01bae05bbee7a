import type { FastifyInstance } from "fastify";
import { createUserSchema, updateUserSchema } from "../../shared/auth";
import { auditContext, requireSession } from "../auth/access-control";
import type { Database } from "../db/database";
import { parseBody, parseId } from "../http";
import { createUser, getUser, listUsers, updateUser } from "./users.service";

export function usersRoutes(app: FastifyInstance, { db }: { db: Database }) {
  app.get("/api/users", { config: { access: "users.read" } }, async (request) =>
    listUsers({ db, firmId: requireSession(request).firmId }),
  );

  app.get<{ Params: { id: string } }>("/api/users/:id", { config: { access: "users.read" } }, async (request) =>
    getUser({ db, firmId: requireSession(request).firmId, userId: parseId(request.params.id, "User") }),
  );

  app.post("/api/users", { config: { access: "users.create" } }, async (request, reply) => {
    const actor = requireSession(request);
    const input = parseBody(createUserSchema, request.body);
    const user = await createUser({ db, actor, input, audit: auditContext(request) });
    return reply.status(201).send(user);
  });

  app.patch<{ Params: { id: string } }>("/api/users/:id", { config: { access: "users.update" } }, async (request) => {
    const actor = requireSession(request);
    const userId = parseId(request.params.id, "User");
    const input = parseBody(updateUserSchema, request.body);
    return updateUser({ db, actor, userId, input, audit: auditContext(request) });
  });
}
