import type { FastifyInstance } from "fastify";
import { dashboardSchema } from "../../../shared/dashboard";
import type { ZodTypeProvider } from "../../platform/http";
import { requireActor } from "../../tenancy/actor";
import { getDashboard } from "./dashboard.service";

export function dashboardRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/dashboard",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "The dashboard's figures: clients by status and with overdue work, tasks by status (a user's assigned clients only)",
        response: { 200: dashboardSchema },
      },
    },
    async (request) => getDashboard({ db: request.db, actor: requireActor(request) }),
  );
}
