import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { NEXT_CURSOR_HEADER } from "../../../shared/paging";
import {
  auditEventSchema,
  auditEventsQuerySchema,
  auditVerificationSchema,
  auditVerifyQuerySchema,
  auditVerifySliceMax,
} from "../../../shared/reports";
import type { ZodTypeProvider } from "../../platform/http";
import { sendNextCursor } from "../../platform/keyset";
import { requireActor } from "../../tenancy/actor";
import { listAuditEvents, verifyAuditChain, verifyAuditSlice } from "./audit-trail.service";

/** Where GET /api/audit-events says a page has a next one, as GET /api/tasks does. */

export function auditRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/audit-events",
    {
      config: { access: "audit.read" },
      schema: {
        summary:
          "The firm's audit trail, newest first: who did what to which entity, when and from where. Optional " +
          "entity (type), entityId, userId (the actor), from and to (calendar dates in the firm's time zone, both " +
          `included), and limit (1-100, default 100) with cursor for pages (the next page's cursor comes in ${NEXT_CURSOR_HEADER})`,
        querystring: auditEventsQuerySchema,
        response: { 200: z.array(auditEventSchema) },
      },
    },
    async (request, reply) => {
      const page = await listAuditEvents({ db: request.db, actor: requireActor(request), query: request.query });
      sendNextCursor(reply, page.nextCursor);
      return page.events;
    },
  );

  api.get(
    "/api/audit-events/verify",
    {
      config: { access: "audit.read" },
      schema: {
        summary:
          "Verifies the firm's hash chain and holds it against the head the app recorded: intact with the number " +
          "of events, or the first event that was changed (or follows a removed one), rewritten or added outside " +
          "the app, or the range of the newest events that were removed. Without full, the quick check: from the " +
          "firm's verified checkpoint to the newest event, moving the checkpoint up when intact (the first check " +
          `walks the whole chain). With full=true, one slice of a full re-verification from the first event: the limit ` +
          `(1-${auditVerifySliceMax.toLocaleString("en-US")}, default the same) events after event after (default 0); ` +
          "next says where the following slice starts, null once the newest event was verified",
        querystring: auditVerifyQuerySchema,
        response: { 200: auditVerificationSchema },
      },
    },
    async (request) => {
      const { firmId } = requireActor(request);
      const { full, after = 0, limit = auditVerifySliceMax } = request.query;
      return full === "true"
        ? verifyAuditSlice(request.db, firmId, after, limit)
        : verifyAuditChain(request.db, firmId);
    },
  );
}
