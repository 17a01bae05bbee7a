import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import {
  clientDetailSchema,
  clientNameMatchesQuerySchema,
  clientNameMatchSchema,
  clientSummarySchema,
  createClientSchema,
  type ListClientsQuery,
  listClientsQuerySchema,
  updateClientSchema,
} from "../../../shared/clients";
import { NEXT_CURSOR_HEADER } from "../../../shared/paging";
import { fileSlug, sendPagedCsv, wantsCsv } from "../../platform/csv/csv";
import type { Database } from "../../platform/db/database";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import { sendNextCursor } from "../../platform/keyset";
import { ifMatchHeaders, ifMatchOf, withEtag } from "../../platform/preconditions";
import { type Actor, requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeaders } from "../../tenancy/idempotency";
import { getFirm } from "../firm/firm.service";
import { getClient } from "./client-detail.service";
import { findClientsNamed, listClients, NAME_MATCHES_LIMIT } from "./client-list.service";
import { createClient, deleteClient, restoreClient, updateClient } from "./clients.service";

export function clientsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/clients",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "The firm's clients in name order, each with its health and task counts (a user sees those assigned to them). " +
          `Optional search q, status, archived=true for archived ones, and limit with cursor for pages (the next page's cursor comes in ${NEXT_CURSOR_HEADER}). ` +
          "With format=csv (or Accept: text/csv and no format), every matching client as a CSV download, without limit and cursor",
        querystring: listClientsQuerySchema,
        response: { 200: z.array(clientSummarySchema) },
      },
    },
    async (request, reply) => {
      if (wantsCsv(request, request.query.format)) {
        return sendClientsCsv(reply, { db: request.db, actor: requireActor(request), query: request.query });
      }
      const page = await listClients({ db: request.db, actor: requireActor(request), query: request.query });
      sendNextCursor(reply, page.nextCursor);
      return page.clients;
    },
  );

  api.get(
    "/api/clients/name-matches",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "The clients, archived ones included, already named `name` ignoring case and surrounding spaces, live ones first " +
          `(at most ${NAME_MATCHES_LIMIT}; a user sees those assigned to them). The app asks before creating a client, to warn about a second one of the same name`,
        querystring: clientNameMatchesQuerySchema,
        response: { 200: z.array(clientNameMatchSchema) },
      },
    },
    async (request) => findClientsNamed({ db: request.db, actor: requireActor(request), name: request.query.name }),
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
    async (request, reply) =>
      withEtag(reply, await getClient({ db: request.db, actor: requireActor(request), clientId: request.params.id })),
  );

  api.post(
    "/api/clients",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Create a client; with primaryContact and templateIds, also its primary contact and a task per template, all in one transaction",
        headers: idempotencyKeyHeaders,
        body: createClientSchema,
        response: { 201: clientDetailSchema },
      },
    },
    async (request, reply) => {
      const client = await createClient({
        db: request.db,
        actor: requireActor(request),
        input: request.body,
      });
      return reply.status(201).send(withEtag(reply, client));
    },
  );

  api.patch(
    "/api/clients/:id",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "Change a client's fields (only those sent); with If-Match, only if no one has changed it since",
        params: idParams("Client"),
        headers: ifMatchHeaders,
        body: updateClientSchema,
        response: { 200: clientDetailSchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateClient({
          db: request.db,
          actor: requireActor(request),
          clientId: request.params.id,
          input: request.body,
          ifMatch: ifMatchOf(request),
        }),
      ),
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
        db: request.db,
        actor: requireActor(request),
        clientId: request.params.id,
        purge: request.query.purge === "true",
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
    async (request, reply) =>
      withEtag(
        reply,
        await restoreClient({ db: request.db, actor: requireActor(request), clientId: request.params.id }),
      ),
  );
}

/** Clients read for a CSV download at a time: the download's memory is one page, whatever the firm's size. */
export const CSV_PAGE = 500;

/**
 * Every client the list's filters match, as a CSV download, read page by page through the list's
 * own cursor (sendPagedCsv).
 */
function sendClientsCsv(reply: FastifyReply, options: { db: Database; actor: Actor; query: ListClientsQuery }) {
  const { db, actor, query } = options;
  return sendPagedCsv(reply, {
    query,
    timeZone: async () => (await getFirm({ db, actor })).timeZone,
    filename: (day) => `clients-${fileSlug(query.archived === "true" ? "archived" : "all")}-${day}.csv`,
    page: async (cursor, now) => {
      const page = await listClients({ db, actor, query: { ...query, limit: CSV_PAGE, cursor }, now });
      return { items: page.clients, nextCursor: page.nextCursor };
    },
    header: [
      "Name",
      "Industry",
      "Status",
      "Email",
      "Phone",
      "Address",
      "Created",
      "Archived",
      "Tasks",
      "Completed",
      "Pending",
      "Overdue",
      "Health",
    ],
    row: (client, date) => [
      client.name,
      client.industry,
      client.status,
      client.email,
      client.phone,
      client.address,
      date(client.createdAt),
      date(client.archivedAt),
      client.taskCounts.total,
      client.taskCounts.completed,
      client.taskCounts.pending,
      client.taskCounts.overdue,
      client.health.label,
    ],
  });
}
