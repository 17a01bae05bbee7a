import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  clientDetailSchema,
  clientSummarySchema,
  createClientSchema,
  listClientsQuerySchema,
  updateClientSchema,
} from "../../shared/clients";
import { auditContext, requireSession } from "../auth/access-control";
import type { Database } from "../db/database";
import { idParams, type ZodTypeProvider } from "../http";
import { createClient, deleteClient, getClient, listClients, restoreClient, updateClient } from "./clients.service";

/** Where GET /api/clients says a page has a next one: the header carries the cursor for it. */
export const NEXT_CURSOR_HEADER = "x-next-cursor";

export function clientsRoutes(app: FastifyInstance, { db }: { db: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/clients",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "The firm's clients in name order, each with its health and task counts (a user sees those assigned to them). " +
          `Optional search q, status, archived=true for archived ones, and limit with cursor for pages (the next page's cursor comes in ${NEXT_CURSOR_HEADER})`,
        querystring: listClientsQuerySchema,
        response: { 200: z.array(clientSummarySchema) },
      },
    },
    async (request, reply) => {
      const page = await listClients({ db, actor: requireSession(request), query: request.query });
      if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.clients;
    },
  );

  api.get(
    "/api/clients/:id",
    {
      config: { access: "clients.read" },
      schema: {
        summary: "One client with its contacts, tasks and assigned team",
        params: idParams("Client"),
        response: { 200: clientDetailSchema },
      },
    },
    async (request) => getClient({ db, actor: requireSession(request), clientId: request.params.id }),
  );

  api.post(
    "/api/clients",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Create a client; with primaryContact and templateIds, also its primary contact and a task per template, all in one transaction",
        body: createClientSchema,
        response: { 201: clientDetailSchema },
      },
    },
    async (request, reply) => {
      const client = await createClient({
        db,
        actor: requireSession(request),
        input: request.body,
        audit: auditContext(request),
      });
      return reply.status(201).send(client);
    },
  );

  api.patch(
    "/api/clients/:id",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "Change a client's fields",
        params: idParams("Client"),
        body: updateClientSchema,
        response: { 200: clientDetailSchema },
      },
    },
    async (request) =>
      updateClient({
        db,
        actor: requireSession(request),
        clientId: request.params.id,
        input: request.body,
        audit: auditContext(request),
      }),
  );

  api.delete(
    "/api/clients/:id",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Archive a client: it leaves lists but stays readable with its signed-off work. With purge=true a super admin deletes a client without completed tasks for good",
        params: idParams("Client"),
        querystring: z.strictObject({ purge: z.enum(["true", "false"]).optional() }),
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await deleteClient({
        db,
        actor: requireSession(request),
        clientId: request.params.id,
        purge: request.query.purge === "true",
        audit: auditContext(request),
      });
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/clients/:id/restore",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "Bring an archived client back into lists and search",
        params: idParams("Client"),
        response: { 200: clientDetailSchema },
      },
    },
    async (request) =>
      restoreClient({ db, actor: requireSession(request), clientId: request.params.id, audit: auditContext(request) }),
  );
}
