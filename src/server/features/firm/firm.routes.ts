import type { FastifyInstance } from "fastify";
import { firmSchema, updateFirmSchema } from "../../../shared/firm";
import type { ZodTypeProvider } from "../../platform/http";
import { ifMatchHeaders, ifMatchOf, withEtag } from "../../platform/preconditions";
import { requireActor } from "../../tenancy/actor";
import { getFirm, updateFirm } from "./firm.service";

export function firmRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/firm",
    {
      config: { access: "signedIn" },
      schema: { summary: "The signed-in user's firm, with its plan and time zone", response: { 200: firmSchema } },
    },
    async (request, reply) => withEtag(reply, await getFirm({ db: request.db, actor: requireActor(request) })),
  );

  api.patch(
    "/api/firm",
    {
      config: { access: "firm.manage" },
      schema: {
        summary:
          "Rename the firm or set its time zone (an IANA name such as Europe/London); with If-Match, only if no one has changed them since",
        headers: ifMatchHeaders,
        body: updateFirmSchema,
        response: { 200: firmSchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateFirm({
          db: request.db,
          actor: requireActor(request),
          input: request.body,
          ifMatch: ifMatchOf(request),
        }),
      ),
  );
}
