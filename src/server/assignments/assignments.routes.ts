import type { FastifyInstance } from "fastify";
import { assignClientsSchema } from "../../shared/auth";
import { auditContext, requireSession } from "../auth/access-control";
import type { Database } from "../db/database";
import { parseBody } from "../http";
import { assignClients, listAssignments } from "./assignments.service";

export function assignmentsRoutes(app: FastifyInstance, { db }: { db: Database }) {
  app.get("/api/user-clients", { config: { access: "assignments.read" } }, async (request) =>
    listAssignments({ db, session: requireSession(request) }),
  );

  app.post("/api/user-clients/assign", { config: { access: "assignments.write" } }, async (request) => {
    const input = parseBody(assignClientsSchema, request.body);
    return assignClients({ db, firmId: requireSession(request).firmId, input, audit: auditContext(request) });
  });
}
