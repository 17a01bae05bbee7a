import type { FastifyInstance } from "fastify";
import { firmSchema, updateFirmSchema } from "../../../shared/firm";
import type { Database } from "../../platform/db/database";
import type { ZodTypeProvider } from "../../platform/http";
import { auditContext, requireSession } from "../auth/access-control";
import { getFirm, updateFirm } from "./firm.service";

export function firmRoutes(app: FastifyInstance, { db }: { db: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/firm",
    {
      config: { access: "signedIn" },
      schema: { summary: "The signed-in user's firm, with its plan and time zone", response: { 200: firmSchema } },
    },
    async (request) => getFirm({ db, actor: requireSession(request) }),
  );

  api.patch(
    "/api/firm",
    {
      config: { access: "firm.manage" },
      schema: {
        summary: "Rename the firm or set its time zone (an IANA name such as Europe/London)",
        body: updateFirmSchema,
        response: { 200: firmSchema },
      },
    },
    async (request) =>
      updateFirm({ db, actor: requireSession(request), input: request.body, audit: auditContext(request) }),
  );
}
