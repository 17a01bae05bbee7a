import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { assignClientsSchema, userAssignmentSchema, userClientLinkSchema } from "../../../shared/assignments";
import type { ZodTypeProvider } from "../../platform/http";
import { requireActor } from "../../tenancy/actor";
import { assignClients, listAssignments } from "./assignments.service";

export function assignmentsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/user-clients",
    {
      config: { access: "assignments.read" },
      schema: {
        summary: "Which users serve which clients (a user sees their own)",
        response: { 200: z.array(userClientLinkSchema) },
      },
    },
    async (request) => listAssignments({ db: request.db, actor: requireActor(request) }),
  );

  api.post(
    "/api/user-clients/assign",
    {
      config: { access: "assignments.write" },
      schema: {
        summary: "Replace a user's clients with the given list (which may be empty)",
        body: assignClientsSchema,
        response: { 200: userAssignmentSchema },
      },
    },
    async (request) => assignClients({ db: request.db, actor: requireActor(request), input: request.body }),
  );
}
